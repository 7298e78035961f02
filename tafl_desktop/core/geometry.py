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

FILES = "abcdefghijklmnopqrstuvwxyz"

#: Orthogonal steps (dfile, drank): right, left, up, down.
ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))

#: Names of the special-square kinds a grid board may mark, and what each one means for drawing.
MARK_KINDS = ("throne", "corner", "camp", "escape")


@dataclass(frozen=True)
class GridGeometry:
    """A rectangular board of ``width`` x ``height`` squares with marked special squares.

    ``marks`` maps a mark kind (see :data:`MARK_KINDS`) to the squares that carry it.
    """

    width: int
    height: int
    marks: dict[str, frozenset[int]] = field(default_factory=dict)

    kind = "grid"

    def __post_init__(self) -> None:
        if not (3 <= self.width <= 19 and 3 <= self.height <= 19):
            raise ValueError(f"board size {self.width}x{self.height} is outside 3..19")

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
        if len(t) < 2 or t[0] not in FILES or not t[1:].isdigit():
            raise ValueError(f"'{text}' is not a square name (expected e.g. e5)")
        f = FILES.index(t[0])
        r = int(t[1:]) - 1
        if not self.on_board(f, r):
            last = f"{FILES[self.width - 1]}{self.height}"
            raise ValueError(f"square '{text}' is off this {self.width}x{self.height} board (a1..{last})")
        return self.index(f, r)

    def neighbours(self, index: int) -> list[int]:
        """Orthogonally adjacent squares."""
        f, r = self.file_rank(index)
        return [self.index(f + df, r + dr) for df, dr in ORTHOGONAL if self.on_board(f + df, r + dr)]

    def is_edge(self, index: int) -> bool:
        f, r = self.file_rank(index)
        return f in (0, self.width - 1) or r in (0, self.height - 1)

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
