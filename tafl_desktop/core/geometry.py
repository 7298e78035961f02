"""Board geometry: the points of a board, where they are drawn, and which lines join them.

One geometry object serves three masters: the rules walk its points and lines, the board view
draws it on screen and the printer draws it on paper.  That is why drawing coordinates live here
and not in the GUI: a square the rules call a throne is the square the screen shades.

A square grid (every Tafl board) numbers its points row by row from the bottom-left corner:
``index = rank * width + file``, rank 0 being rank 1 in notation.  Drawing coordinates are in
"cell units" with y growing *downwards* (top row is y = 0), which is how Qt and a page layout
think; ``cell_rect`` gives the square a point sits in.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tafl_desktop.core.marks import gettext as _
from tafl_desktop.core.quoting import quote

FILES = "abcdefghijklmnopqrstuvwxyz"

#: Orthogonal steps (dfile, drank): right, left, up, down.
ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))

#: Names of the special-square kinds a grid board may mark, and what each one means for drawing.
MARK_KINDS = ("throne", "corner", "camp", "escape")


@dataclass(frozen=True)
class GridGeometry:
    """A rectangular board of ``width`` x ``height`` squares with marked special squares.

    ``marks`` maps a mark kind (see :data:`MARK_KINDS`) to the squares that carry it.
    ``walls`` holds the walls drawn between two orthogonally adjacent squares, each as the pair
    ``(lower index, higher index)``: no piece moves across a wall and no capture is made across
    one (the rules treat it as the board's edge), and the screen and the paper draw it as a
    thick line along :meth:`wall_segments`.
    """

    width: int
    height: int
    marks: dict[str, frozenset[int]] = field(default_factory=dict)
    walls: frozenset[tuple[int, int]] = frozenset()

    kind = "grid"

    def __post_init__(self) -> None:
        if not (3 <= self.width <= 19 and 3 <= self.height <= 19):
            raise ValueError(_("board size {width}x{height} is outside 3..19").format(
                width=self.width, height=self.height))

    # -- points -----------------------------------------------------------------------------
    @property
    def size(self) -> int:
        """Number of points (squares)."""
        return self.width * self.height

    def index(self, file: int, rank: int) -> int:
        """Index of the square at 0-based ``file`` (from the left) and ``rank`` (from the bottom)."""
        return rank * self.width + file

    def file_rank(self, index: int) -> tuple[int, int]:
        """0-based (file, rank) of a square index."""
        return index % self.width, index // self.width

    def on_board(self, file: int, rank: int) -> bool:
        return 0 <= file < self.width and 0 <= rank < self.height

    def name(self, index: int) -> str:
        """Algebraic name of a square: file letter from the left, rank number from the bottom."""
        f, r = self.file_rank(index)
        return f"{FILES[f]}{r + 1}"

    def parse_square(self, text: str) -> int:
        """Square index from a name like ``e5``; raises ValueError naming the problem."""
        t = text.strip().lower()
        if not text.isascii() or len(t) < 2 or t[0] not in FILES or not t[1:].isdigit() or len(t) > 4:
            raise ValueError(_("{text} is not a square name (expected e.g. e5)").format(text=quote(text)))
        f = FILES.index(t[0])
        r = int(t[1:]) - 1
        if not self.on_board(f, r):
            last = f"{FILES[self.width - 1]}{self.height}"
            raise ValueError(_("square {text} is off this {width}x{height} board (a1..{last})").format(
                text=quote(text), width=self.width, height=self.height, last=last))
        return self.index(f, r)

    def neighbours(self, index: int) -> list[int]:
        """Orthogonally adjacent squares."""
        f, r = self.file_rank(index)
        return [self.index(f + df, r + dr) for df, dr in ORTHOGONAL if self.on_board(f + df, r + dr)]

    def is_edge(self, index: int) -> bool:
        f, r = self.file_rank(index)
        return f in (0, self.width - 1) or r in (0, self.height - 1)

    def wall_between(self, a: int, b: int) -> bool:
        """Is there a wall between the adjacent squares ``a`` and ``b``?"""
        return (min(a, b), max(a, b)) in self.walls

    def wall_segments(self) -> list[tuple[tuple[float, float], tuple[float, float]]]:
        """Each wall as a line segment in cell units (y downwards): the side the two squares share.
        The one drawing fact the board view and the printed board both use."""
        out = []
        for a, b in sorted(self.walls):
            (fa, ra), (fb, rb) = self.file_rank(a), self.file_rank(b)
            if ra == rb:  # side by side: a vertical segment
                x = float(max(fa, fb))
                y = float(self.height - 1 - ra)
                out.append(((x, y), (x, y + 1.0)))
            else:  # one above the other: a horizontal segment
                y = float(self.height - 1 - max(ra, rb)) + 1.0
                x = float(fa)
                out.append(((x, y), (x + 1.0, y)))
        return out

    @property
    def centre(self) -> int:
        return self.index(self.width // 2, self.height // 2)

    @property
    def corner_squares(self) -> frozenset[int]:
        w, h = self.width, self.height
        return frozenset({self.index(0, 0), self.index(w - 1, 0), self.index(0, h - 1), self.index(w - 1, h - 1)})

    def marked(self, kind: str) -> frozenset[int]:
        return self.marks.get(kind, frozenset())

    def mark_groups(self, kind: str) -> list[frozenset[int]]:
        """Marked squares of one kind split into orthogonally connected groups (e.g. the 4 camps)."""
        todo = set(self.marked(kind))
        groups: list[frozenset[int]] = []
        while todo:
            stack = [todo.pop()]
            group = set(stack)
            while stack:
                for n in self.neighbours(stack.pop()):
                    if n in todo:
                        todo.discard(n)
                        group.add(n)
                        stack.append(n)
            groups.append(frozenset(group))
        return sorted(groups, key=min)

    # -- drawing ----------------------------------------------------------------------------
    def cell_rect(self, index: int) -> tuple[float, float, float, float]:
        """(x, y, w, h) of the square in cell units, y downwards, top-left square at (0, 0)."""
        f, r = self.file_rank(index)
        return float(f), float(self.height - 1 - r), 1.0, 1.0

    def point_xy(self, index: int) -> tuple[float, float]:
        """Centre of the square in cell units (y downwards)."""
        x, y, w, h = self.cell_rect(index)
        return x + w / 2, y + h / 2

    @property
    def extent(self) -> tuple[float, float]:
        """(width, height) of the whole board in cell units."""
        return float(self.width), float(self.height)

    def file_labels(self) -> list[str]:
        return [FILES[f] for f in range(self.width)]

    def rank_labels(self) -> list[str]:
        return [str(r + 1) for r in range(self.height)]


@dataclass(frozen=True)
class GraphGeometry:
    """A point-and-line board: the Fox-and-Geese cross, the checkerboard's dark squares, the Dablot
    lattice.  Pieces stand on points and move along the drawn lines.

    ``coords`` are integer model coordinates (x to the right, y *up*) on a lattice whose unit is
    ``unit`` drawing cells; ``names`` are the notation names of the points; ``lines`` the drawn
    segments as (a, b, kind) with kind ``"orth"`` or ``"diag"``.  ``marks`` holds named point
    sets (e.g. ``"pen"`` for the Halatafl/Asalto fortress).
    """

    coords: tuple[tuple[int, int], ...]
    names: tuple[str, ...]
    lines: tuple[tuple[int, int, str], ...]
    marks: dict[str, frozenset[int]] = field(default_factory=dict)
    unit: float = 1.0
    style: str = "points"  # "points" (circles on line crossings) or "checker" (dark squares)

    kind = "graph"

    @property
    def size(self) -> int:
        return len(self.coords)

    def name(self, index: int) -> str:
        return self.names[index]

    def parse_square(self, text: str) -> int:
        """Point index from its name (``c3``); ValueError naming the problem."""
        t = text.strip().lower()
        try:
            if not t.isascii():
                raise ValueError
            return self.names.index(t)
        except ValueError:
            raise ValueError(_("{text} is not a point of this board").format(text=quote(text))) from None

    parse_point = parse_square

    def marked(self, kind: str) -> frozenset[int]:
        return self.marks.get(kind, frozenset())

    def neighbours(self, index: int) -> list[int]:
        return [b if a == index else a for a, b, _k in self.lines if index in (a, b)]

    @property
    def bounds(self) -> tuple[int, int, int, int]:
        xs = [c[0] for c in self.coords]
        ys = [c[1] for c in self.coords]
        return min(xs), min(ys), max(xs), max(ys)

    def point_xy(self, index: int) -> tuple[float, float]:
        """Centre of the point in cell units, y downwards, with half a cell of margin."""
        x0, _y0, _x1, y1 = self.bounds
        x, y = self.coords[index]
        return (x - x0) * self.unit + 0.5, (y1 - y) * self.unit + 0.5

    def cell_rect(self, index: int) -> tuple[float, float, float, float]:
        """A unit square centred on the point (where a piece is drawn)."""
        x, y = self.point_xy(index)
        return x - 0.5, y - 0.5, 1.0, 1.0

    @property
    def extent(self) -> tuple[float, float]:
        x0, y0, x1, y1 = self.bounds
        return (x1 - x0) * self.unit + 1.0, (y1 - y0) * self.unit + 1.0

    @property
    def point_spacing(self) -> float:
        """Shortest line length in cells: how big a piece may be drawn without touching another."""
        best = None
        for a, b, _k in self.lines:
            (x1, y1), (x2, y2) = self.coords[a], self.coords[b]
            d = ((x1 - x2) ** 2 + (y1 - y2) ** 2) ** 0.5 * self.unit
            best = d if best is None else min(best, d)
        return best or 1.0

    # kept so that drawing code written for grids can ask a graph board the same questions
    @property
    def width(self) -> int:
        x0, _y0, x1, _y1 = self.bounds
        return int((x1 - x0) * self.unit) + 1

    @property
    def height(self) -> int:
        _x0, y0, _x1, y1 = self.bounds
        return int((y1 - y0) * self.unit) + 1


#: A line of a point-and-line board: its two ends (drawing coordinates), in sorted order.
Line = tuple[tuple[int, int], tuple[int, int]]


def _graph(points: dict[tuple[int, int], str], edges: set[Line],
           unit: float = 1.0, marks: dict[str, set[tuple[int, int]]] | None = None,
           style: str = "points") -> GraphGeometry:
    order = sorted(points, key=lambda p: (p[1], p[0]))
    index = {p: i for i, p in enumerate(order)}
    lines = []
    for a, b in sorted(edges):
        kind = "orth" if a[0] == b[0] or a[1] == b[1] else "diag"
        lines.append((index[a], index[b], kind))
    return GraphGeometry(
        coords=tuple(order), names=tuple(points[p] for p in order), lines=tuple(lines),
        marks={k: frozenset(index[p] for p in v) for k, v in (marks or {}).items()}, unit=unit, style=style)


def cross_board(diagonals: str = "alternating", marks: dict[str, list[str]] | None = None) -> GraphGeometry:
    """The 33-point cross (peg-solitaire board): a 7x7 grid less its four 2x2 corners.

    ``diagonals``: ``"none"``; ``"alternating"`` (the common English board: one diagonal per unit
    square, every point with even file+rank a hub, the centre d4 among them); ``"full"`` (both
    diagonals in every square: the board with extra diagonals of source 000).
    """
    if diagonals not in ("none", "alternating", "full"):
        raise ValueError(_("diagonals must be none, alternating or full, not {diagonals}").format(
            diagonals=quote(diagonals)))
    pts = {}
    for x in range(7):
        for y in range(7):
            if 2 <= x <= 4 or 2 <= y <= 4:
                pts[(x, y)] = f"{FILES[x]}{y + 1}"
    edges: set[Line] = set()
    for (x, y) in pts:
        for dx, dy in ((1, 0), (0, 1)):
            if (x + dx, y + dy) in pts:
                edges.add(((x, y), (x + dx, y + dy)))
    if diagonals != "none":
        for (x, y) in pts:
            # the unit square with lower-left (x, y), if all four corners exist
            sq = [(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)]
            if not all(p in pts for p in sq):
                continue
            if diagonals == "full" or (x + y) % 2 == 0:
                edges.add(((x, y), (x + 1, y + 1)))
            if diagonals == "full" or (x + y) % 2 == 1:
                edges.add(_line((x + 1, y), (x, y + 1)))
    named = {k: {p for p, n in pts.items() if n in v} for k, v in (marks or {}).items()}
    return _graph(pts, edges, marks=named)


def checkerboard(size: int = 8) -> GraphGeometry:
    """The dark squares of a size x size board (a1 dark), joined diagonally."""
    pts = {(x, y): f"{FILES[x]}{y + 1}" for x in range(size) for y in range(size) if (x + y) % 2 == 0}
    edges: set[Line] = set()
    for (x, y) in pts:
        for dx in (1, -1):
            if (x + dx, y + 1) in pts:
                edges.add(_line((x, y), (x + dx, y + 1)))
    return _graph(pts, edges, style="checker")


def dablot_lattice(cols: int = 6, rows: int = 7) -> GraphGeometry:
    """Dablot's board: ``cols`` x ``rows`` grid lines with both diagonals in every square, crossing
    at a centre point.  Doubled coordinates: grid points even/even, centre points odd/odd.
    Names (reference hunt-games.md 1.2): column letter, then row counted in the doubled rows, so
    grid rows are odd (a1, a3, ...) and the centre of the square above-right of a1 is a2.
    """
    pts = {}
    for X in range(0, 2 * cols - 1):
        for Y in range(0, 2 * rows - 1):
            if X % 2 == Y % 2 and (X % 2 == 0 or (X < 2 * cols - 2 and Y < 2 * rows - 2)):
                pts[(X, Y)] = f"{FILES[X // 2]}{Y + 1}"
    edges: set[Line] = set()
    for (X, Y) in pts:
        if X % 2 == 0 and Y % 2 == 0:
            for dx, dy in ((2, 0), (0, 2)):
                if (X + dx, Y + dy) in pts:
                    edges.add(((X, Y), (X + dx, Y + dy)))
        else:
            for dx, dy in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
                edges.add(_line((X, Y), (X + dx, Y + dy)))
    return _graph(pts, edges, unit=0.5)


def _line(a: tuple[int, int], b: tuple[int, int]) -> Line:
    """The line between two points, its ends in sorted order (so each line is stored once)."""
    return (a, b) if a <= b else (b, a)
