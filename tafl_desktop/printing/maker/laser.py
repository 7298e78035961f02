"""The laser plan of a board: what to cut, score and engrave, in millimetres, from the one geometry.

The plan reads the same things the screen and the paper board read: the board geometry
(``cell_rect``, ``point_xy``, ``lines``, ``wall_segments``) and the marks in force under the
rules (:func:`tafl_desktop.core.board_marks.marks_in_force`), and uses the paper board's rim and
proportions (:func:`tafl_desktop.printing.board_draw.rim_for`), so a variant's walls, camps, exits
and fox-only diagonals appear on the wood exactly where the window and the printed board show them.

Three layers, as laser programs expect them (one colour each):

* **cut**: the board's outline (corners optionally rounded) and, on point-and-line boards, the
  holes for pegs; all closed, grown or shrunk by half the kerf so the parts come out true;
* **score**: the lines and squares, traced once by a weak beam;
* **engrave**: filled areas: the throne and corner squares (their symbols left bare), camps,
  exits, walls and doorways, the fox-only diagonals (dashed), dimples, and the coordinates
  as letter outlines.

Coordinates are mm with y growing downwards from the outline's top-left corner (SVG's way; the
DXF writer turns them over).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from tafl_desktop.core.board_marks import BoardMarks, marks_in_force
from tafl_desktop.core.marks import Num
from tafl_desktop.i18n import _
from tafl_desktop.printing.board_draw import rim_for
from tafl_desktop.printing.maker import regions as rg
from tafl_desktop.printing.maker.options import MakerError, MakerOptions
from tafl_desktop.printing.maker.text_paths import text_outlines

Point = tuple[float, float]


@dataclass(frozen=True)
class Circle:
    cx: float
    cy: float
    r: float


@dataclass(frozen=True)
class Outline:
    """The board's cut outline: a rectangle with corners of radius ``r`` (after the kerf)."""

    x: float
    y: float
    w: float
    h: float
    r: float


@dataclass
class LaserPlan:
    """Everything on the three layers, in mm (y down); ``width`` x ``height`` is the board as drawn
    (before the kerf), ``frame`` the playing area inside it."""

    title: str
    width: float
    height: float
    frame: tuple[float, float, float, float]
    outline: Outline
    holes: list[Circle] = field(default_factory=list)
    #: where the pieces stand on a point-and-line board (the holes' or dimples' centres)
    points: list[Point] = field(default_factory=list)
    score_lines: list[list[Point]] = field(default_factory=list)
    score_loops: list[list[Point]] = field(default_factory=list)
    engrave: list[list[Point]] = field(default_factory=list)
    kerf: float = 0.0

    def layer_names(self) -> list[str]:
        return ["cut", "score", "engrave"]


def max_corner(rim: float) -> float:
    """The largest corner radius whose arc stays clear of the playing area's corner."""
    return rim * math.sqrt(2) / (math.sqrt(2) - 1)


class _Board:
    """Positions in mm of one board at one square size (y down, outline corner at 0, 0)."""

    def __init__(self, variant: Any, square: float) -> None:
        self.variant = variant
        self.g = variant.geometry
        self.s = square
        self.rim = rim_for(square)
        w, h = self.g.extent
        self.fw, self.fh = w * square, h * square
        self.width, self.height = self.fw + 2 * self.rim, self.fh + 2 * self.rim

    def xy(self, x: float, y: float) -> Point:
        """A point in cell units (y down) as mm on the board."""
        return self.rim + x * self.s, self.rim + y * self.s

    def cell(self, index: int) -> tuple[float, float]:
        """Top-left corner in mm of the square (or the unit square around the point) ``index``."""
        x, y, _w, _h = self.g.cell_rect(index)
        return self.xy(x, y)

    def point(self, index: int) -> Point:
        return self.xy(*self.g.point_xy(index))


def plan_board(variant: Any, opts: MakerOptions) -> LaserPlan:
    """The laser plan of ``variant``'s board (its toggles included) with ``opts``' settings;
    ``opts`` must have been through :func:`check_options`."""
    b = _Board(variant, opts.square_mm)
    if opts.corner_mm > max_corner(b.rim) + 1e-9:
        raise MakerError(_("a corner radius of {r:g} mm would cut into the playing area: use at most {most:g} "
                           "mm").format(r=Num(opts.corner_mm), most=Num(math.floor(max_corner(b.rim) * 10) / 10)))
    marks = marks_in_force(variant)
    half = opts.kerf_mm / 2
    r = opts.corner_mm + half if opts.corner_mm > 0 else 0.0
    plan = LaserPlan(variant.title, b.width, b.height, (b.rim, b.rim, b.fw, b.fh),
                     Outline(-half, -half, b.width + opts.kerf_mm, b.height + opts.kerf_mm, r), kerf=opts.kerf_mm)
    if getattr(b.g, "kind", "grid") == "grid":
        engrave = _grid(plan, b, marks)
    else:
        engrave = _graph(plan, b, marks, opts)
    if opts.coordinates:
        engrave.append(_coordinates(b))
    plan.engrave = rg.outlines(rg.union(engrave))
    return plan


# ------------------------------------------------------------------------------- square grids
def _grid(plan: LaserPlan, b: _Board, marks: BoardMarks) -> list[Any]:
    g, s = b.g, b.s
    W, H = g.width, g.height
    x0, y0 = b.rim, b.rim
    for f in range(1, W):
        plan.score_lines.append([(x0 + f * s, y0), (x0 + f * s, y0 + b.fh)])
    for r in range(1, H):
        plan.score_lines.append([(x0, y0 + r * s), (x0 + b.fw, y0 + r * s)])
    plan.score_loops.append(_rect_loop(x0, y0, b.fw, b.fh))
    if marks.edge_hostile:  # the second line outside the frame: the rim itself captures
        gap = min(b.rim * 0.25, 1.5)
        plan.score_loops.append(_rect_loop(x0 - gap, y0 - gap, b.fw + 2 * gap, b.fh + 2 * gap))
    for i in range(g.size):  # the squares' centres: where a peg board has its holes
        x, y = b.cell(i)
        plan.points.append((x + s / 2, y + s / 2))
    inset = s * 0.08
    band = max(0.5, s * 0.04)
    stroke = max(0.6, s * 0.05)
    out: list[Any] = []
    special = marks.throne | marks.corner
    if marks.escape_edge:
        for i in range(g.size):
            if g.is_edge(i) and i not in special:
                x, y = b.cell(i)
                out.append(rg.square_band(x + inset, y + inset, s - 2 * inset, band))
    for i in sorted(marks.camp):
        x, y = b.cell(i)
        cx, cy, d = x + s / 2, y + s / 2, s * 0.18
        out.append(rg.square_band(x + inset, y + inset, s - 2 * inset, band))
        out.append(rg.polygon([(cx, cy - d), (cx + d, cy), (cx, cy + d), (cx - d, cy)]))
    for i in sorted(special):
        x, y = b.cell(i)
        fill = rg.rect(x + inset, y + inset, s - 2 * inset, s - 2 * inset)
        if i in marks.throne:
            k = s * 0.22
            diagonals = rg.bar((x + k, y + k), (x + s - k, y + s - k), stroke)
            diagonals += rg.bar((x + k, y + s - k), (x + s - k, y + k), stroke)
            # the diagonals' square ends are trimmed to the frame they start from
            symbol = rg.square_band(x + k, y + k, s - 2 * k, stroke) + (diagonals ^ rg.rect(x + k, y + k, s - 2 * k,
                                                                                             s - 2 * k))
        elif i in marks.escape:
            symbol = _exit_arrow(b, i, x, y, stroke)
        else:
            k = s * 0.24
            symbol = rg.bar((x + k, y + k), (x + s - k, y + s - k), stroke)
            symbol += rg.bar((x + k, y + s - k), (x + s - k, y + k), stroke)
        out.append(fill - symbol)
    for i in sorted(marks.escape - marks.corner):
        x, y = b.cell(i)
        out.append(rg.square_band(x + inset, y + inset, s - 2 * inset, band))
        out.append(_exit_arrow(b, i, x, y, stroke))
    walls = g.wall_segments() if hasattr(g, "wall_segments") else []
    width = max(0.8, min(1.6, s * 0.07))  # the paper board's wall line
    for p, q in walls:
        out.append(rg.bar(b.xy(*p), b.xy(*q), width, round_ends=True))
    return out


def _exit_arrow(b: _Board, index: int, x: float, y: float, stroke: float) -> Any:
    """An arrow pointing off the board from an exit square (diagonal in a corner); a ring on an
    exit square that is not on the edge, as on paper."""
    g, s = b.g, b.s
    f, r = g.file_rank(index)
    dx = -1 if f == 0 else 1 if f == g.width - 1 else 0
    dy = 1 if r == 0 else -1 if r == g.height - 1 else 0  # y down: rank 1 is at the bottom
    cx, cy = x + s / 2, y + s / 2
    if dx == 0 and dy == 0:
        return rg.ring(cx, cy, s * 0.25, stroke)
    n = math.hypot(dx, dy)
    ux, uy = dx / n, dy / n
    length = s * 0.30
    return rg.arrow((cx - ux * length, cy - uy * length), (cx + ux * length, cy + uy * length), max(0.6, s * 0.06))


def _rect_loop(x: float, y: float, w: float, h: float) -> list[Point]:
    return [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]


# ---------------------------------------------------------------------- point-and-line boards
def _graph(plan: LaserPlan, b: _Board, marks: BoardMarks, opts: MakerOptions) -> list[Any]:
    g, s = b.g, b.s
    out: list[Any] = []
    half_kerf = opts.kerf_mm / 2
    checker = getattr(g, "style", "points") == "checker"
    home = marks.extra.get("home", frozenset())
    band = max(0.5, s * 0.04)
    if checker:
        plan.score_loops.append(_rect_loop(b.rim, b.rim, b.fw, b.fh))
        for i in range(g.size):  # the dark squares, engraved; a breakthrough row's squares ringed
            x, y = b.cell(i)
            fill = rg.rect(x + 0.3, y + 0.3, s - 0.6, s - 0.6)
            if i in home:
                cx, cy = b.point(i)
                fill = fill - rg.ring(cx, cy, s * 0.40, band * 1.5)
            out.append(fill)
    else:
        pen = marks.extra.get("pen", frozenset())
        if pen:
            pts = [b.point(i) for i in pen]
            pad = s * 0.3
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            x, y = min(xs) - pad, min(ys) - pad
            w, h = max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad
            out.append(rg.rounded_rect(x, y, w, h, pad * 0.5)
                       - rg.rounded_rect(x + band, y + band, w - 2 * band, h - 2 * band, max(0.0, pad * 0.5 - band)))
        segments = [(b.point(a), b.point(c)) for a, c, _k in g.lines if (a, c) not in marks.hunter_lines]
        plan.score_lines.extend(_chains(segments))
        # the fox-only diagonals: dashed, thin, engraved, stopping short of the points' holes
        clear = (opts.hole_mm / 2 if opts.holes != "none" else max(0.6, s * 0.07)) + 0.8
        for a, c in sorted(marks.hunter_lines):
            (ax, ay), (cx, cy) = b.point(a), b.point(c)
            d = math.hypot(cx - ax, cy - ay)
            ux, uy = (cx - ax) / d * clear, (cy - ay) / d * clear
            out.append(rg.dashes((ax + ux, ay + uy), (cx - ux, cy - uy), max(0.5, s * 0.02), s * 0.10, s * 0.06))
        dot = max(0.6, s * 0.07)
        for i in sorted(home):
            cx, cy = b.point(i)
            out.append(rg.ring(cx, cy, max(dot * 2.6, opts.hole_mm / 2 + band * 1.5), band))
    for i in range(g.size):
        cx, cy = b.point(i)
        plan.points.append((cx, cy))
        if opts.holes == "cut":
            plan.holes.append(Circle(cx, cy, opts.hole_mm / 2 - half_kerf))
        elif opts.holes == "engrave":
            out.append(rg.circle(cx, cy, opts.hole_mm / 2))
        elif not checker:
            out.append(rg.circle(cx, cy, max(0.6, s * 0.07)))
    return out


def _chains(segments: list[tuple[Point, Point]]) -> list[list[Point]]:
    """Segments joined into straight runs where they continue one another (fewer, longer lines:
    the laser starts and stops less, and leaves no dots at the joins)."""

    def key(p: Point) -> tuple[float, float]:
        return round(p[0], 4), round(p[1], 4)

    def direction(a: Point, c: Point) -> tuple[float, float]:
        d = math.hypot(c[0] - a[0], c[1] - a[1])
        return round((c[0] - a[0]) / d, 4), round((c[1] - a[1]) / d, 4)

    todo = {}
    for a, c in segments:
        if (c[0], c[1]) < (a[0], a[1]):
            a, c = c, a
        todo[(key(a), key(c))] = (a, c)
    starts: dict[tuple[tuple[float, float], tuple[float, float]], tuple[Point, Point]] = {}
    for a, c in todo.values():
        starts[(key(a), direction(a, c))] = (a, c)
    used = set()
    out = []
    for (ka, kc), (a, c) in sorted(todo.items()):
        if (ka, kc) in used:
            continue
        d = direction(a, c)
        # walk back to the start of the run
        while True:
            prev = next((seg for seg in todo.values() if key(seg[1]) == key(a) and direction(*seg) == d), None)
            if prev is None or (key(prev[0]), key(prev[1])) in used:
                break
            a = prev[0]
        run = [a]
        cur = a
        while True:
            seg = starts.get((key(cur), d))
            if seg is None or (key(seg[0]), key(seg[1])) in used:
                break
            used.add((key(seg[0]), key(seg[1])))
            cur = seg[1]
            run.append(cur)
        if len(run) >= 2:
            out.append(run)
    return out


# --------------------------------------------------------------------------------- lettering
def _coordinates(b: _Board) -> Any:
    """File letters and rank numbers in the rim on all four sides, where the paper board puts them."""
    g, s, rim = b.g, b.s, b.rim
    size = min(rim * 0.5, s * 0.42, 4.0)
    base = size * 0.36  # half the cap height: the text's middle sits on the rim's middle
    items: list[tuple[str, float, float]] = []
    top, bottom = rim / 2 + base, b.height - rim / 2 + base
    left, right = rim / 2, b.width - rim / 2
    if getattr(g, "kind", "grid") == "grid":
        files = [(name, b.xy(k + 0.5, 0)[0]) for k, name in enumerate(g.file_labels())]
        ranks = [(name, b.xy(0, g.height - k - 0.5)[1]) for k, name in enumerate(g.rank_labels())]
    else:
        fx: dict[str, float] = {}
        ry: dict[str, float] = {}
        for i in range(g.size):
            name = g.name(i)
            px, py = b.point(i)
            fx[name[0]] = min(fx.get(name[0], px), px)
            ry.setdefault(name[1:], py)
        files, ranks = list(fx.items()), list(ry.items())
    for name, x in files:
        items += [(name, x, top), (name, x, bottom)]
    for name, y in ranks:
        items += [(name, left, y + base), (name, right, y + base)]
    shapes = []
    for text, x, baseline in items:
        shapes.append(rg.contours(text_outlines(text, size, x, baseline)))
    return rg.union(shapes)


def coordinates_region(variant: Any, square: float) -> Any:
    """The rim's file letters and rank numbers alone (y down), for a board that draws its marks
    its own way (the tactile peg board)."""
    return _coordinates(_Board(variant, square))
