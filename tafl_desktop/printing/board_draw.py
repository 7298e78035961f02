"""Drawing a board (lines, special squares, coordinates) onto a canvas, at a given square size.

The board sheet, the rule-sheet diagrams and the assembly map all call :func:`draw_board`, which
dispatches on ``geometry.kind``: the square grids of the Tafl family today, and a point-and-line
drawer for the Fox games and Dablot once their geometry exists (add it to ``_DRAWERS``).

Which squares are marked follows the rules *in force*, not just the board file: a corner-escape
game marks the corners as exits, an edge-escape game shades the whole rim, and camps are drawn
only when the camp rule is on - the same squares the engine treats as special.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from reportlab.lib.colors import Color
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from tafl_desktop.core.board_marks import BoardMarks, marks_in_force
from tafl_desktop.core.marks import N_pair
from tafl_desktop.core.side_words import pair_text
from tafl_desktop.i18n import _
from tafl_desktop.printing.fonts import FONT
from tafl_desktop.printing.paper import PT, Rect
from tafl_desktop.printing.symbols import draw_arrow

LINE = Color(0.15, 0.15, 0.15)
SPECIAL = Color(0.70, 0.66, 0.60)  # throne and corners: a mid tone that survives greyscale
CAMP = Color(0.84, 0.80, 0.73)
RIM_ESCAPE = Color(0.93, 0.91, 0.87)
SYMBOL = Color(0.25, 0.22, 0.20)
HUNTER_LINE = Color(0.72, 0.16, 0.12)  # the fox-only diagonals: thinner and red, as source 000 describes them

__all__ = ["BoardMarks", "BoardDrawError", "marks_in_force", "draw_board", "legend"]


class BoardDrawError(ValueError):
    """The geometry has no drawer (a family whose board is not printable yet)."""


def rim_for(square: float) -> float:
    """Width of the coordinate strip around a board with ``square`` mm squares."""
    return max(5.0, min(9.0, 0.5 * square))


def board_extent(geometry: Any, square: float, rim: float) -> tuple[float, float]:
    """(width, height) in mm of the whole drawing: the playing area plus the rim on each side."""
    w, h = geometry.extent
    return w * square + 2 * rim, h * square + 2 * rim


def draw_board(c: Canvas, geometry: Any, square: float, rim: float, marks: BoardMarks,
               x0: float = 0.0, y0: float = 0.0, labels: bool = True) -> Rect:
    """Draw the board with its lower-left rim corner at (x0, y0) mm; return the playing area's
    frame in mm (the rectangle whose size is exactly width x height squares)."""
    kind = getattr(geometry, "kind", "grid")
    drawer = _DRAWERS.get(kind)
    if drawer is None:
        raise BoardDrawError(_("boards of kind '{kind}' cannot be printed yet").format(kind=kind))
    return drawer(c, geometry, square, rim, marks, x0, y0, labels)


# ---------------------------------------------------------------------------- square grids
def square_origin(geometry: Any, index: int, square: float, fx: float, fy: float) -> tuple[float, float]:
    """Lower-left corner in mm of square ``index`` for a frame whose lower-left is (fx, fy).

    ``cell_rect`` has y growing downwards from the top row; the page has y growing upwards.
    """
    x, y, _w, h = geometry.cell_rect(index)
    _, height = geometry.extent
    return fx + x * square, fy + (height - y - h) * square


def _draw_grid(c: Canvas, g: Any, s: float, rim: float, marks: BoardMarks, x0: float, y0: float,
               labels: bool) -> Rect:
    W, H = g.extent
    fx, fy = x0 + rim, y0 + rim
    frame = Rect(fx, fy, W * s, H * s)
    c.saveState()
    # shaded rim of exits first, so special squares paint over it
    if marks.escape_edge:
        c.setFillColor(RIM_ESCAPE)
        for i in range(g.size):
            if g.is_edge(i):
                x, y = square_origin(g, i, s, fx, fy)
                c.rect(x * mm, y * mm, s * mm, s * mm, stroke=0, fill=1)
    for i in sorted(marks.camp):
        x, y = square_origin(g, i, s, fx, fy)
        c.setFillColor(CAMP)
        c.rect(x * mm, y * mm, s * mm, s * mm, stroke=0, fill=1)
        _camp_symbol(c, x, y, s)
    for i in sorted(marks.throne | marks.corner):
        x, y = square_origin(g, i, s, fx, fy)
        c.setFillColor(SPECIAL)
        c.rect(x * mm, y * mm, s * mm, s * mm, stroke=0, fill=1)
        if i in marks.throne:
            _throne_symbol(c, x, y, s)
        elif i not in marks.escape:
            _cross_symbol(c, x, y, s)
    for i in sorted(marks.escape):
        x, y = square_origin(g, i, s, fx, fy)
        if i not in marks.corner:
            c.setFillColor(CAMP)
            c.rect(x * mm, y * mm, s * mm, s * mm, stroke=0, fill=1)
        _escape_symbol(c, g, i, x, y, s)
    # grid lines, then the frame on top
    c.setStrokeColor(LINE)
    c.setLineWidth(max(0.18, min(0.35, s * 0.012)) * mm)
    p = c.beginPath()
    for k in range(1, int(W)):
        p.moveTo((fx + k * s) * mm, fy * mm)
        p.lineTo((fx + k * s) * mm, (fy + H * s) * mm)
    for k in range(1, int(H)):
        p.moveTo(fx * mm, (fy + k * s) * mm)
        p.lineTo((fx + W * s) * mm, (fy + k * s) * mm)
    c.drawPath(p, stroke=1, fill=0)
    c.setLineWidth(max(0.35, min(0.7, s * 0.025)) * mm)
    c.rect(fx * mm, fy * mm, W * s * mm, H * s * mm, stroke=1, fill=0)
    walls = g.wall_segments() if hasattr(g, "wall_segments") else []
    if walls:
        c.setLineWidth(max(0.8, min(1.6, s * 0.07)) * mm)
        c.setLineCap(1)
        for (x1, y1), (x2, y2) in walls:  # cell units, y down
            c.line((fx + x1 * s) * mm, (fy + (H - y1) * s) * mm, (fx + x2 * s) * mm, (fy + (H - y2) * s) * mm)
        c.setLineCap(0)
    if marks.edge_hostile:
        # a second, thin line outside the frame: the rim itself takes part in captures
        gap = min(rim * 0.25, 1.5)
        c.setLineWidth(0.25 * mm)
        c.rect((fx - gap) * mm, (fy - gap) * mm, (W * s + 2 * gap) * mm, (H * s + 2 * gap) * mm, stroke=1, fill=0)
    if labels:
        _coordinates(c, g, s, rim, fx, fy)
    c.restoreState()
    return frame


def _coordinates(c: Canvas, g: Any, s: float, rim: float, fx: float, fy: float) -> None:
    W, H = g.extent
    size_mm = min(rim * 0.5, s * 0.42, 4.0)
    c.setFont(FONT, size_mm / PT)
    c.setFillColor(LINE)
    files, ranks = g.file_labels(), g.rank_labels()
    base = size_mm * 0.36  # roughly half the cap height, to centre text vertically
    for k, name in enumerate(files):
        x = fx + (k + 0.5) * s
        c.drawCentredString(x * mm, (fy - rim / 2 - base) * mm, name)
        c.drawCentredString(x * mm, (fy + H * s + rim / 2 - base) * mm, name)
    for k, name in enumerate(ranks):
        y = fy + (k + 0.5) * s - base
        c.drawCentredString((fx - rim / 2) * mm, y * mm, name)
        c.drawCentredString((fx + W * s + rim / 2) * mm, y * mm, name)


def _throne_symbol(c: Canvas, x: float, y: float, s: float) -> None:
    """Throne: the square's diagonals and an inner square - the usual carved-board mark."""
    c.saveState()
    c.setStrokeColor(SYMBOL)
    c.setLineWidth(max(0.2, s * 0.03) * mm)
    k = s * 0.2
    c.rect((x + k) * mm, (y + k) * mm, (s - 2 * k) * mm, (s - 2 * k) * mm, stroke=1, fill=0)
    c.line((x + k) * mm, (y + k) * mm, (x + s - k) * mm, (y + s - k) * mm)
    c.line((x + k) * mm, (y + s - k) * mm, (x + s - k) * mm, (y + k) * mm)
    c.restoreState()


def _cross_symbol(c: Canvas, x: float, y: float, s: float) -> None:
    """A corner that is not an exit: a plain diagonal cross."""
    c.saveState()
    c.setStrokeColor(SYMBOL)
    c.setLineWidth(max(0.2, s * 0.03) * mm)
    k = s * 0.22
    c.line((x + k) * mm, (y + k) * mm, (x + s - k) * mm, (y + s - k) * mm)
    c.line((x + k) * mm, (y + s - k) * mm, (x + s - k) * mm, (y + k) * mm)
    c.restoreState()


def _camp_symbol(c: Canvas, x: float, y: float, s: float) -> None:
    """Camp: a small diamond, so camps read as camps without colour."""
    c.saveState()
    c.setFillColor(SYMBOL)
    cx, cy, d = x + s / 2, y + s / 2, s * 0.14
    p = c.beginPath()
    p.moveTo(cx * mm, (cy + d) * mm)
    p.lineTo((cx + d) * mm, cy * mm)
    p.lineTo(cx * mm, (cy - d) * mm)
    p.lineTo((cx - d) * mm, cy * mm)
    p.close()
    c.drawPath(p, stroke=0, fill=1)
    c.restoreState()


def _escape_symbol(c: Canvas, g: Any, index: int, x: float, y: float, s: float) -> None:
    """Exit: an arrow pointing off the board from the square (diagonal in a corner)."""
    f, r = g.file_rank(index)
    dx = -1 if f == 0 else 1 if f == g.width - 1 else 0
    dy = -1 if r == 0 else 1 if r == g.height - 1 else 0
    if dx == 0 and dy == 0:  # an inner exit square: a ring instead
        c.saveState()
        c.setStrokeColor(SYMBOL)
        c.setLineWidth(max(0.25, s * 0.04) * mm)
        c.circle((x + s / 2) * mm, (y + s / 2) * mm, s * 0.25 * mm, stroke=1, fill=0)
        c.restoreState()
        return
    n = math.hypot(dx, dy)
    ux, uy = dx / n, dy / n
    cx, cy = x + s / 2, y + s / 2
    L = s * 0.30
    draw_arrow(c, cx - ux * L, cy - uy * L, cx + ux * L, cy + uy * L, max(0.25, s * 0.06), SYMBOL)


def legend(marks: BoardMarks) -> list[tuple[str, str]]:
    """(kind, text) lines explaining the marks drawn on this board."""
    out: list[tuple[str, str]] = []
    if marks.extra.get("pen"):
        out.append(("pen", _("Shaded area: the pen (fortress).")))
    if marks.extra.get("home"):
        words = marks.extra.get("words") or {"hunters": "hunters", "hs": ""}
        out.append(("home", pair_text(marks.extra.get("sides", ("", "")),
                                      N_pair("Ringed points: the {hunters} win{hs} by reaching one of them."), words)))
    if marks.throne:
        out.append(("throne", _("Throne (centre): only the king may stop on it.")))
    defenders_too = marks.extra.get("corners_open_to_defenders")
    if marks.corner and marks.corner <= marks.escape:
        out.append(("exit", _("Corner squares with an arrow: the king escapes there; attackers may not enter.")
                    if defenders_too else
                    _("Corner squares with an arrow: the king escapes there; no other piece may enter.")))
    elif marks.corner:
        out.append(("corner", _("Corner squares: closed to the attackers.") if defenders_too else
                    _("Corner squares: closed to every piece but the king.")))
    extra_exits = marks.escape - marks.corner
    if extra_exits:
        out.append(("exit", _("Squares with an arrow: escape squares for the king.")))
    if marks.escape_edge:
        out.append(("rim", _("Shaded border squares: the king wins on reaching any of them.")))
    if marks.camp:
        out.append(("camp", _("Squares with a diamond: the attackers' camps.")))
    if marks.edge_hostile:
        out.append(("hostile", _("Double outer line: the rim acts as a capturing partner.")))
    if marks.hunter_lines:
        words = marks.extra.get("words") or {"hunters": "hunters"}
        out.append(("hunter_lines", pair_text(marks.extra.get("sides", ("", "")),
                                              N_pair("Thin red dashed lines: only the {hunters} may move along them."),
                                              words)))
    if marks.extra.get("walls"):
        out.append(("walls", _("Thick lines: walls; no piece moves or captures across them.")))
    return out


def draw_legend_swatch(c: Canvas, kind: str, x: float, y: float, s: float) -> None:
    """A small square (side ``s`` mm, lower-left at x, y) showing one mark of the legend."""
    c.saveState()
    fill = {"throne": SPECIAL, "corner": SPECIAL, "exit": SPECIAL, "camp": CAMP, "pen": CAMP,
            "rim": RIM_ESCAPE}.get(kind)
    if fill is not None:
        c.setFillColor(fill)
        c.rect(x * mm, y * mm, s * mm, s * mm, stroke=0, fill=1)
    if kind == "throne":
        _throne_symbol(c, x, y, s)
    elif kind == "corner":
        _cross_symbol(c, x, y, s)
    elif kind == "camp":
        _camp_symbol(c, x, y, s)
    elif kind == "home":
        c.setStrokeColor(SYMBOL)
        c.setLineWidth(0.25 * mm)
        c.circle((x + s / 2) * mm, (y + s / 2) * mm, s * 0.3 * mm, stroke=1, fill=0)
    elif kind == "exit":
        draw_arrow(c, x + s * 0.3, y + s * 0.3, x + s * 0.75, y + s * 0.75, max(0.25, s * 0.06), SYMBOL)
    elif kind == "hunter_lines":
        c.setStrokeColor(HUNTER_LINE)
        c.setLineWidth(0.25 * mm)
        c.setDash(1.2, 0.8)
        c.line((x + s * 0.15) * mm, (y + s * 0.15) * mm, (x + s * 0.85) * mm, (y + s * 0.85) * mm)
        c.setDash()
    elif kind == "walls":
        c.setStrokeColor(LINE)
        c.setLineWidth(1.2 * mm)
        c.line((x + s * 0.5) * mm, y * mm, (x + s * 0.5) * mm, (y + s) * mm)
    c.setStrokeColor(LINE)
    c.setLineWidth(0.3 * mm)
    c.rect(x * mm, y * mm, s * mm, s * mm, stroke=1, fill=0)
    if kind == "hostile":
        c.setLineWidth(0.2 * mm)
        c.rect((x - 0.8) * mm, (y - 0.8) * mm, (s + 1.6) * mm, (s + 1.6) * mm, stroke=1, fill=0)
    c.restoreState()


# ------------------------------------------------------------------------ point-and-line boards
def graph_point(g: Any, index: int, s: float, fx: float, fy: float) -> tuple[float, float]:
    """Page position in mm of a point of a graph board whose drawing area starts at (fx, fy)."""
    x, y = g.point_xy(index)
    _w, h = g.extent
    return fx + x * s, fy + (h - y) * s


def _draw_graph(c: Canvas, g: Any, s: float, rim: float, marks: BoardMarks, x0: float, y0: float,
                labels: bool) -> Rect:
    """Fox-game boards: lines between points (the cross, the Dablot lattice) or, for the
    checkerboard style, the dark squares the pieces stand on."""
    W, H = g.extent
    fx, fy = x0 + rim, y0 + rim
    frame = Rect(fx, fy, W * s, H * s)
    c.saveState()
    if getattr(g, "style", "points") == "checker":
        c.setFillColor(Color(0.97, 0.95, 0.91))
        c.rect(fx * mm, fy * mm, W * s * mm, H * s * mm, stroke=0, fill=1)
        c.setFillColor(SPECIAL)
        for i in range(g.size):
            x, y, w, h = g.cell_rect(i)
            c.rect((fx + x * s) * mm, (fy + (H - y - h) * s) * mm, w * s * mm, h * s * mm, stroke=0, fill=1)
        home = marks.extra.get("home", frozenset())
        for i in sorted(home):
            px, py = graph_point(g, i, s, fx, fy)
            c.setStrokeColor(SYMBOL)
            c.setLineWidth(max(0.25, s * 0.03) * mm)
            c.circle(px * mm, py * mm, s * 0.42 * mm, stroke=1, fill=0)
        c.setStrokeColor(LINE)
        c.setLineWidth(max(0.35, min(0.7, s * 0.025)) * mm)
        c.rect(fx * mm, fy * mm, W * s * mm, H * s * mm, stroke=1, fill=0)
    else:
        pen = marks.extra.get("pen", frozenset())
        if pen:
            pts = [graph_point(g, i, s, fx, fy) for i in pen]
            pad = s * 0.3
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            c.setFillColor(CAMP)
            c.roundRect((min(xs) - pad) * mm, (min(ys) - pad) * mm, (max(xs) - min(xs) + 2 * pad) * mm,
                        (max(ys) - min(ys) + 2 * pad) * mm, pad * 0.5 * mm, stroke=0, fill=1)
        c.setStrokeColor(LINE)
        c.setLineWidth(max(0.25, min(0.6, s * 0.02)) * mm)
        c.setLineCap(1)
        p = c.beginPath()
        for a, b, _kind in g.lines:
            if (a, b) in marks.hunter_lines:
                continue
            ax, ay = graph_point(g, a, s, fx, fy)
            bx, by = graph_point(g, b, s, fx, fy)
            p.moveTo(ax * mm, ay * mm)
            p.lineTo(bx * mm, by * mm)
        c.drawPath(p, stroke=1, fill=0)
        if marks.hunter_lines:
            c.saveState()
            c.setStrokeColor(HUNTER_LINE)
            c.setLineWidth(max(0.15, min(0.3, s * 0.008)) * mm)
            c.setDash(s * 0.10 * mm, s * 0.06 * mm)
            q = c.beginPath()
            for a, b in sorted(marks.hunter_lines):
                ax, ay = graph_point(g, a, s, fx, fy)
                bx, by = graph_point(g, b, s, fx, fy)
                q.moveTo(ax * mm, ay * mm)
                q.lineTo(bx * mm, by * mm)
            c.drawPath(q, stroke=1, fill=0)
            c.restoreState()
        c.setFillColor(LINE)
        dot = max(0.6, s * 0.07)
        home = marks.extra.get("home", frozenset())
        for i in range(g.size):
            px, py = graph_point(g, i, s, fx, fy)
            c.circle(px * mm, py * mm, dot * mm, stroke=0, fill=1)
            if i in home:
                c.setStrokeColor(SYMBOL)
                c.circle(px * mm, py * mm, dot * 2.6 * mm, stroke=1, fill=0)
    if labels:
        _graph_coordinates(c, g, s, rim, fx, fy)
    c.restoreState()
    return frame


def _graph_coordinates(c: Canvas, g: Any, s: float, rim: float, fx: float, fy: float) -> None:
    """Letters under the columns and numbers beside the rows, read from the point names."""
    W, H = g.extent
    files: dict[str, float] = {}
    ranks: dict[str, float] = {}
    for i in range(g.size):
        name = g.name(i)
        px, py = graph_point(g, i, s, fx, fy)
        letter, number = name[0], name[1:]
        files[letter] = min(files.get(letter, px), px)
        ranks.setdefault(number, py)
    size_mm = min(rim * 0.5, s * 0.42, 4.0)
    c.setFont(FONT, size_mm / PT)
    c.setFillColor(LINE)
    base = size_mm * 0.36
    for letter, px in files.items():
        c.drawCentredString(px * mm, (fy - rim / 2 - base) * mm, letter)
        c.drawCentredString(px * mm, (fy + H * s + rim / 2 - base) * mm, letter)
    for number, py in ranks.items():
        c.drawCentredString((fx - rim / 2) * mm, (py - base) * mm, number)
        c.drawCentredString((fx + W * s + rim / 2) * mm, (py - base) * mm, number)


def piece_centre(g: Any, index: int, s: float, fx: float, fy: float) -> tuple[float, float]:
    """Where a piece on ``index`` is drawn (mm), for any board kind; (fx, fy) is the frame corner."""
    if getattr(g, "kind", "grid") == "grid":
        x, y = square_origin(g, index, s, fx, fy)
        return x + s / 2, y + s / 2
    return graph_point(g, index, s, fx, fy)


def piece_room(g: Any) -> float:
    """How much of a square a piece may span without touching its neighbours (cell units)."""
    if getattr(g, "kind", "grid") == "grid" or getattr(g, "style", "") == "checker":
        return 1.0
    return min(1.0, g.point_spacing)


_DRAWERS: dict[str, Callable[..., Rect]] = {"grid": _draw_grid, "graph": _draw_graph}
