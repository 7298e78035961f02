"""Laying out cut-out items (tokens, standing pieces, rank markers) in grids with crop marks.

Cut guides follow the print-and-play rule that matters most: no outline around a piece (a cut a
hair off leaves an ugly black edge).  Each item's face is printed out to a bleed beyond its cut
rectangle, and only short grey ticks on the extensions of the cut lines, in the gutters and
beyond the block, show where to cut; they stop short of every printed face.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from tafl_desktop.core.marks import Num
from tafl_desktop.i18n import _
from tafl_desktop.printing.fonts import FONT, FONT_BOLD
from tafl_desktop.printing.paper import GREY, INK, Document, Rect

OUTER_TICK = 4.0  # crop tick length beyond the outside of a block
TITLE_H = 6.0  # a group's title line


@dataclass(frozen=True)
class Group:
    """``count`` items drawn by ``draw(canvas, cut_rect, k)``; ``title`` heads the group."""

    title: str
    count: int
    draw: Callable[[Canvas, Rect, int], None]


@dataclass
class CutSheet:
    """What :func:`flow_cells` drew: cut rectangles and crop ticks (mm), each with its page."""

    layout: CutLayout
    rects: list[tuple[int, Rect]]
    ticks: list[tuple[int, float, float, float, float]]


@dataclass(frozen=True)
class CutLayout:
    """Item size and spacing: ``w`` x ``h`` cut rectangles, ``gutter`` mm apart, faces printed
    ``bleed`` mm beyond the cut."""

    w: float
    h: float
    gutter: float = 4.0
    bleed: float = 1.0

    def columns(self, width: float) -> int:
        return max(0, math.floor((width + self.gutter + 1e-9) / (self.w + self.gutter)))


def flow_cells(doc: Document, part: str, detail: str, groups: list[Group], layout: CutLayout,
               intro: Callable[[Canvas, Rect], float] | None = None) -> CutSheet:
    """Lay the groups out row by row over as many pages as needed; return every cut rectangle
    and crop tick (page mm) in drawing order, so tests can check that no tick touches a face.

    ``intro`` may draw text at the top of the first page and returns the height it used.
    """
    page = doc.page
    inset = OUTER_TICK + 1.5
    full = page.body()
    area = Rect(full.x + inset, full.y + inset, full.w - 2 * inset, full.h - 2 * inset)
    cols = layout.columns(area.w)
    if cols < 1 or layout.h > area.h - TITLE_H:
        raise ValueError(_("a {w:g} x {h:g} mm piece does not fit on the page").format(
            w=Num(layout.w), h=Num(layout.h)))
    sheet = CutSheet(layout, [], [])
    queue = [(g, k) for g in groups for k in range(g.count)]
    first = True
    i = 0
    while i < len(queue):
        with doc.sheet(part, detail) as c:
            top = area.top
            if first and intro is not None:
                top -= intro(c, Rect(full.x, area.y, full.w, area.top - area.y)) + 2.0
            first = False
            page_rects: list[Rect] = []
            current = None
            col = cols  # force a new row
            y = top
            while i < len(queue):
                group, k = queue[i]
                new_group = group is not current
                if col >= cols or new_group:
                    # a group's title sits clear of the crop ticks above and below it
                    head = TITLE_H + OUTER_TICK + 1.0 if new_group else 0.0
                    need = layout.h + head
                    if new_group:
                        row_top = y - (OUTER_TICK + 2.5 if page_rects else 0.0)
                    else:
                        row_top = y - layout.gutter
                    if row_top - need < area.y:
                        break
                    if new_group:
                        title = group.title if k == 0 else _("{title} (continued)").format(title=group.title)
                        c.setFont(FONT_BOLD, 8.5)
                        c.setFillColor(INK)
                        c.drawString(area.x * mm, (row_top - 4.2) * mm, title)
                        row_top -= head
                        current = group
                    y = row_top - layout.h
                    col = 0
                x = area.x + col * (layout.w + layout.gutter)
                r = Rect(x, y, layout.w, layout.h)
                group.draw(c, r, k)
                page_rects.append(r)
                col += 1
                i += 1
            sheet.ticks += [(doc.count, *t) for t in _crop_ticks(c, page_rects, layout)]
            sheet.rects += [(doc.count, r) for r in page_rects]
            if not page_rects:
                raise ValueError(_("nothing fits on the page"))
    return sheet


def _crop_ticks(c: Canvas, rects: list[Rect], layout: CutLayout) -> list[tuple[float, float, float, float]]:
    """Ticks on the extensions of every cut edge, outside the items, never touching a face."""
    out: list[tuple[float, float, float, float]] = []
    if not rects:
        return out
    corners = {(round(r.x, 3), round(r.y, 3)) for r in rects}
    pitch_x, pitch_y = layout.w + layout.gutter, layout.h + layout.gutter

    def occupied(x: float, y: float) -> bool:
        return (round(x, 3), round(y, 3)) in corners

    start = layout.bleed + 0.5
    inner = max(0.6, layout.gutter - 2 * layout.bleed - 1.0)
    c.saveState()
    c.setStrokeColor(GREY)
    c.setLineWidth(0.15 * mm)
    for r in rects:
        for ex, sx in ((r.x, -1), (r.right, 1)):  # vertical cut lines: ticks above and below
            for ey, sy in ((r.top, 1), (r.y, -1)):
                neighbour = occupied(r.x, r.y + sy * pitch_y)
                length = inner if neighbour else OUTER_TICK
                out.append((ex, ey + sy * start, ex, ey + sy * (start + length)))
                neighbour = occupied(r.x + sx * pitch_x, r.y)
                length = inner if neighbour else OUTER_TICK
                out.append((ex + sx * start, ey, ex + sx * (start + length), ey))
    for x0, y0, x1, y1 in out:
        c.line(x0 * mm, y0 * mm, x1 * mm, y1 * mm)
    c.restoreState()
    return out


def intro_text(lines: list[str], size: float = 8.0) -> Callable[[Canvas, Rect], float]:
    """An ``intro`` callback that writes a few lines (the first in bold) and returns their height."""

    def draw(c: Canvas, area: Rect) -> float:
        y = area.top - 3.5
        c.setFillColor(INK)
        for n, line in enumerate(lines):
            font = FONT_BOLD if n == 0 else FONT
            c.setFont(font, size)
            for part in simpleSplit(line, font, size, area.w * mm):
                c.drawString(area.x * mm, y * mm, part)
                y -= size * 0.45
        return area.top - y

    return draw
