"""Board pages: the board at exactly the requested square size, on one page or tiled over several.

The board is drawn once into a PDF form XObject and every page places that same form with a pure
translation (never a scale) and a clip, so each tile shows exactly the millimetres it should and
the file stays small.  Tiles are split evenly, share an overlap strip for gluing, and carry
registration marks at the same board coordinates on both neighbours; a map page shows how they
go together.  Every board page carries the 100 mm calibration ruler.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from reportlab.lib.colors import Color
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from tafl_desktop.core.marks import number
from tafl_desktop.i18n import _, ngettext, pgettext
from tafl_desktop.printing.board_draw import (
    BoardMarks,
    board_extent,
    draw_board,
    draw_legend_swatch,
    legend,
    rim_for,
)
from tafl_desktop.printing.fonts import FONT, FONT_BOLD
from tafl_desktop.printing.paper import GREY, INK, Document, Page, Rect, draw_ruler, even_split, ruler_position

OVERLAP = 12.0  # mm shared by neighbouring tiles: room for glue and for a printer's blank edge
MIN_SQUARE = 8.0
MAX_SQUARE = 80.0
DEFAULT_MAX_SQUARE = 30.0  # a comfortable square for 25 mm tokens; smaller boards stop here
#: The smallest default square on one page: 12 mm squares carry 9.6 mm tokens, the size of a travel
#: set's pieces; below it the default tiles the board over several pages rather than shrink it.
PLAYABLE_SQUARE = 12.0
#: The square of a board the default tiles anyway (Alea Evangelii's 19 x 19): once it takes several
#: pages it may as well take pieces fingers can pick up: 15 mm squares carry 12 mm cut-out tokens.
TILED_SQUARE = 15.0
LEGEND_SPACE = 18.0  # kept free under a one-page board for the legend
TRIM_SPACE = 7.0  # kept free above and below a tile for its trim ticks
FORM = "board"


@dataclass(frozen=True)
class Tile:
    """One page's share of the board drawing, in the form's mm coordinates (y up)."""

    row: int  # 1-based, row 1 at the top
    col: int  # 1-based, column 1 at the left
    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True)
class BoardPlan:
    """How a board goes onto paper: its size, and the tiles if it needs more than one page."""

    square: float
    rim: float
    width: float  # whole drawing, rim included (mm)
    height: float
    frame: Rect  # the playing area inside the drawing (mm, form coordinates)
    rows: int
    cols: int
    overlap: float
    tiles: tuple[Tile, ...]

    @property
    def tiled(self) -> bool:
        return len(self.tiles) > 1


def _fits(geometry: Any, page: Page, square: float) -> bool:
    w, h = board_extent(geometry, square, rim_for(square))
    body = page.body(ruler=True)
    return w <= body.w and h <= body.h - LEGEND_SPACE


def one_page_square(geometry: Any, page: Page) -> float | None:
    """The largest square (in 0.5 mm steps, at most 30 mm) at which the board fits one page;
    None when even the smallest printable square does not fit."""
    s = DEFAULT_MAX_SQUARE
    while s >= MIN_SQUARE:
        if _fits(geometry, page, s):
            return s
        s -= 0.5
    return None


def default_square(geometry: Any, page: Page) -> float:
    """The printer's default square: the largest that fits one page, but never below
    :data:`PLAYABLE_SQUARE`.  A board that would need smaller squares (Alea Evangelii's 19 x 19
    on A4: 9.5 mm, with 7.6 mm tokens nobody can pick up) is tiled over several pages instead, at
    :data:`TILED_SQUARE`, a size for fingers and cut-out pieces."""
    fit = one_page_square(geometry, page)
    return TILED_SQUARE if fit is None or fit < PLAYABLE_SQUARE else fit


def default_is_tiled(geometry: Any, page: Page) -> bool:
    """True when the default square is the playable minimum because one page is too small."""
    fit = one_page_square(geometry, page)
    return fit is None or fit < PLAYABLE_SQUARE


def plan_board(geometry: Any, page: Page, square: float) -> BoardPlan:
    rim = rim_for(square)
    width, height = board_extent(geometry, square, rim)
    gw, gh = geometry.extent
    frame = Rect(rim, rim, gw * square, gh * square)
    body = page.body(ruler=True)
    if width <= body.w and height <= body.h:
        return BoardPlan(square, rim, width, height, frame, 1, 1, 0.0, (Tile(1, 1, 0.0, 0.0, width, height),))
    cols, step_x = even_split(width, body.w, OVERLAP)
    rows, step_y = even_split(height, body.h - 2 * TRIM_SPACE, OVERLAP)
    tiles = []
    for r in range(rows):
        for c in range(cols):
            w = step_x + OVERLAP if cols > 1 else width
            h = step_y + OVERLAP if rows > 1 else height
            x = c * step_x
            y = height - r * step_y - h  # row 1 is the top of the board
            tiles.append(Tile(r + 1, c + 1, x, max(0.0, y), w, h))
    return BoardPlan(square, rim, width, height, frame, rows, cols, OVERLAP, tuple(tiles))


def define_board_form(c: Canvas, variant: Any, plan: BoardPlan, marks: BoardMarks) -> None:
    """Draw the board once, as the form every board page and the map place."""
    c.beginForm(FORM, 0, 0, plan.width * mm, plan.height * mm)
    draw_board(c, variant.geometry, plan.square, plan.rim, marks)
    c.endForm()


def _place_form(c: Canvas, px: float, py: float, fx: float, fy: float) -> None:
    """Show the form so that its point (fx, fy) lands on the page at (px, py): translate only."""
    c.saveState()
    c.translate((px - fx) * mm, (py - fy) * mm)
    c.doForm(FORM)
    c.restoreState()


def board_pages(doc: Document, variant: Any, plan: BoardPlan, marks: BoardMarks) -> None:
    """Add the board page (or the assembly map and the tiles) to ``doc``."""
    if not plan.tiled:
        _single_page(doc, variant, plan, marks)
        return
    _map_page(doc, variant, plan, marks)
    for tile in plan.tiles:
        _tile_page(doc, plan, tile)


def _size_line(variant: Any, plan: BoardPlan) -> str:
    g = variant.geometry
    w, h = g.extent
    if getattr(g, "kind", "grid") == "grid":
        return _("{width}x{height} board, squares {square} mm: playing area {w} x {h} mm").format(
            width=g.width, height=g.height, square=number(plan.square), w=number(w * plan.square),
            h=number(h * plan.square))
    return ngettext("{n} point, lines {square} mm apart: board {w} x {h} mm",
                    "{n} points, lines {square} mm apart: board {w} x {h} mm", g.size).format(
        n=g.size, square=number(plan.square), w=number(w * plan.square), h=number(h * plan.square))


def _single_page(doc: Document, variant: Any, plan: BoardPlan, marks: BoardMarks) -> None:
    page = doc.page
    with doc.sheet(_("board"), _size_line(variant, plan)) as c:
        body = page.body(ruler=True)
        x = body.x + (body.w - plan.width) / 2
        y = body.top - plan.height
        _place_form(c, x, y, 0.0, 0.0)
        if y - body.y >= LEGEND_SPACE:
            _legend(c, marks, body.x, y - 4.0, body.w)
        draw_ruler(c, *ruler_position(page))


def _legend(c: Canvas, marks: BoardMarks, x: float, top: float, width: float) -> None:
    """Legend lines in two columns under the board; each with a swatch of the mark."""
    items = legend(marks)
    col_w = width / 2
    for k, (kind, text) in enumerate(items):
        cx = x + (k % 2) * col_w
        cy = top - (k // 2) * 6.0
        draw_legend_swatch(c, kind, cx, cy - 3.5, 4.0)
        c.setFont(FONT, 7)
        c.setFillColor(INK)
        lines = simpleSplit(text, FONT, 7, (col_w - 8.0) * mm)
        for n, line in enumerate(lines[:2]):
            c.drawString((cx + 5.5) * mm, (cy - 1.6 - n * 2.7) * mm, line)


def registration_marks(plan: BoardPlan) -> list[tuple[float, float]]:
    """Board points (form mm) at the middle of every overlap strip, two per seam: each one is
    drawn on both tiles that share the strip, so laying one cross over the other aligns them."""
    out: list[tuple[float, float]] = []
    for t in plan.tiles:
        if t.col < plan.cols:  # seam with the right-hand neighbour
            x = t.x + t.w - plan.overlap / 2
            out += [(x, t.y + t.h * 0.25), (x, t.y + t.h * 0.75)]
        if t.row < plan.rows:  # seam with the neighbour below
            y = t.y + plan.overlap / 2
            out += [(t.x + t.w * 0.25, y), (t.x + t.w * 0.75, y)]
    return out


def _reg_mark(c: Canvas, x: float, y: float) -> None:
    c.saveState()
    c.setStrokeColor(Color(1, 1, 1))
    c.setLineWidth(0.6 * mm)
    c.circle(x * mm, y * mm, 2.2 * mm, stroke=1, fill=0)
    c.setStrokeColor(INK)
    c.setLineWidth(0.18 * mm)
    c.circle(x * mm, y * mm, 2.2 * mm, stroke=1, fill=0)
    c.line((x - 3.5) * mm, y * mm, (x + 3.5) * mm, y * mm)
    c.line(x * mm, (y - 3.5) * mm, x * mm, (y + 3.5) * mm)
    c.restoreState()


def _hatch(c: Canvas, r: Rect) -> None:
    """Light diagonal hatching over a glue strip (no transparency: some printers flatten it badly)."""
    c.saveState()
    p = c.beginPath()
    p.rect(r.x * mm, r.y * mm, r.w * mm, r.h * mm)
    c.clipPath(p, stroke=0, fill=0)
    c.setStrokeColor(Color(0.55, 0.55, 0.55))
    c.setLineWidth(0.2 * mm)
    step = 2.5
    n = int((r.w + r.h) / step) + 1
    for k in range(n):
        d = k * step
        c.line((r.x + d) * mm, r.y * mm, (r.x + d - r.h) * mm, r.top * mm)
    c.restoreState()


def _tile_page(doc: Document, plan: BoardPlan, tile: Tile) -> None:
    page = doc.page
    detail = _("row {row}, column {col} · tiles: {rows} x {cols}").format(
        row=tile.row, col=tile.col, rows=ngettext("{n} row", "{n} rows", plan.rows).format(n=plan.rows),
        cols=ngettext("{n} column", "{n} columns", plan.cols).format(n=plan.cols))
    with doc.sheet(_("board, row {row}, column {col}").format(row=tile.row, col=tile.col), detail) as c:
        body = page.body(ruler=True)
        px = body.x + (body.w - tile.w) / 2
        py = body.y + (body.h - tile.h) / 2
        c.saveState()
        clip = c.beginPath()
        clip.rect(px * mm, py * mm, tile.w * mm, tile.h * mm)
        c.clipPath(clip, stroke=0, fill=0)
        _place_form(c, px, py, tile.x, tile.y)
        # glue strips: this tile's right and bottom strips lie under the next tiles
        c.setFont(FONT_BOLD, 6.5)
        if tile.col < plan.cols:
            strip = Rect(px + tile.w - plan.overlap, py, plan.overlap, tile.h)
            _hatch(c, strip)
            text = _("glue: row {row}, column {col} goes on top").format(row=tile.row, col=tile.col + 1)
            _strip_label(c, strip, text, vertical=True)
        if tile.row < plan.rows:
            strip = Rect(px, py, tile.w, plan.overlap)
            _hatch(c, strip)
            text = _("glue: row {row}, column {col} goes on top").format(row=tile.row + 1, col=tile.col)
            _strip_label(c, strip, text, vertical=False)
        for fx, fy in registration_marks(plan):
            if tile.x <= fx <= tile.x + tile.w and tile.y <= fy <= tile.y + tile.h:
                _reg_mark(c, px + fx - tile.x, py + fy - tile.y)
        c.restoreState()
        _trim_marks(c, plan, tile, Rect(px, py, tile.w, tile.h))
        draw_ruler(c, *ruler_position(page))


def _strip_label(c: Canvas, strip: Rect, text: str, vertical: bool) -> None:
    c.saveState()
    c.setFillColor(Color(1, 1, 1))
    w = c.stringWidth(text, FONT_BOLD, 6.5) / mm + 2.0
    if vertical:
        cx, cy = strip.x + strip.w / 2, strip.y + strip.h / 2
        c.translate(cx * mm, cy * mm)
        c.rotate(90)
    else:
        cx, cy = strip.x + strip.w / 2, strip.y + strip.h / 2
        c.translate(cx * mm, cy * mm)
    c.rect(-w / 2 * mm, -2.0 * mm, w * mm, 4.0 * mm, stroke=0, fill=1)
    c.setFillColor(INK)
    c.drawCentredString(0, -0.8 * mm, text)
    c.restoreState()


def trim_word() -> str:
    """The word printed beside the cut ticks, the same word the assembly note names."""
    # TRANSLATORS: a short word printed beside the cut ticks of a tiled board: cut here.
    return pgettext("print mark", "trim")


def _trim_marks(c: Canvas, plan: BoardPlan, tile: Tile, r: Rect) -> None:
    """Cut ticks outside the tile for the edges that must be trimmed (the ones laid over a
    neighbour's glue strip): left edge unless in column 1, top edge unless in row 1."""
    c.saveState()
    c.setStrokeColor(INK)
    c.setLineWidth(0.15 * mm)
    c.setFont(FONT, 5.5)
    c.setFillColor(GREY)
    gap, length = 1.0, 4.0
    if tile.col > 1:
        for y, sign in ((r.top, 1), (r.y, -1)):
            c.line(r.x * mm, (y + sign * gap) * mm, r.x * mm, (y + sign * (gap + length)) * mm)
        c.drawString((r.x + 0.8) * mm, (r.top + 2.0) * mm, trim_word())
    if tile.row > 1:
        for x, sign in ((r.x, -1), (r.right, 1)):
            c.line((x + sign * gap) * mm, r.top * mm, (x + sign * (gap + length)) * mm, r.top * mm)
        c.drawRightString((r.right + 5.0) * mm, (r.top + 1.0) * mm, trim_word())
    c.restoreState()


def _map_page(doc: Document, variant: Any, plan: BoardPlan, marks: BoardMarks) -> None:
    page = doc.page
    with doc.sheet(_("board, assembly map"), _size_line(variant, plan)) as c:
        body = page.body(ruler=True)
        text_h = 40.0
        k = min(body.w / plan.width, (body.h - text_h) / plan.height)
        mw, mh = plan.width * k, plan.height * k
        x0 = body.x + (body.w - mw) / 2
        y0 = body.top - mh
        c.saveState()
        c.translate(x0 * mm, y0 * mm)
        c.scale(k, k)
        c.doForm(FORM)
        c.restoreState()
        c.saveState()
        c.setDash(3, 2)
        c.setStrokeColor(Color(0.1, 0.3, 0.7))
        c.setLineWidth(0.4 * mm)
        for t in plan.tiles:
            c.rect((x0 + t.x * k) * mm, (y0 + t.y * k) * mm, t.w * k * mm, t.h * k * mm, stroke=1, fill=0)
        c.setDash()
        for t in plan.tiles:
            cx, cy = x0 + (t.x + t.w / 2) * k, y0 + (t.y + t.h / 2) * k
            label = _("row {row}, col {col}").format(row=t.row, col=t.col)
            w = c.stringWidth(label, FONT_BOLD, 8) / mm + 3
            c.setFillColor(Color(1, 1, 1))
            c.rect((cx - w / 2) * mm, (cy - 2.6) * mm, w * mm, 5.6 * mm, stroke=1, fill=1)
            c.setFillColor(INK)
            c.setFont(FONT_BOLD, 8)
            c.drawCentredString(cx * mm, (cy - 1.0) * mm, label)
        c.restoreState()
        lines = [
            ngettext("This board is printed on {n} page ({rows} rows x {cols} columns), shown here reduced (not to "
                     "scale).", "This board is printed on {n} pages ({rows} rows x {cols} columns), shown here "
                     "reduced (not to scale).", len(plan.tiles)).format(n=len(plan.tiles), rows=plan.rows,
                                                                        cols=plan.cols),
            _("1. Print every page at 100% / actual size and check the 100 mm ruler on each page."),
            _("2. Trim each tile along the edges marked '{mark}' (left edge, and top edge below row 1).").format(
                mark=trim_word()),
            _("3. Lay each tile over the hatched {mm} mm strip of its left and upper neighbours so the "
              "⊕ marks coincide, then glue.").format(mm=number(plan.overlap)),
        ]
        c.setFillColor(INK)
        y = y0 - 6.0
        for i, line in enumerate(lines):
            font = FONT_BOLD if i == 0 else FONT
            c.setFont(font, 8)
            # a language's longer sentence wraps within the page instead of running off its edge
            for part in simpleSplit(line, font, 8, body.w * mm):
                c.drawString(body.x * mm, y * mm, part)
                y -= 3.6
            y -= 1.0
        _legend(c, marks, body.x, y - 1.0, body.w)
        draw_ruler(c, *ruler_position(page))

