"""Keys of the game database: which rules a game was played under, and which position a board
shows, folded by the board's symmetries.

Why folded: ``h1-h3`` and ``d1-d3`` on Copenhagen are one opening seen in a mirror, and a player
wants their games counted together.  A symmetry of the square (4 rotations, 4 reflections; a
rectangle has only 4 of them) is used only where it maps the rules onto themselves: the start
position, every marked square (throne, corners, camps, escapes) and every wall.  Tafl's rules
have no direction otherwise; the hunt games' do (geese that may not step back), so they are
folded by no symmetry at all.

A position's key is the smallest of its images (as a string of pieces plus the side to move),
hashed with the rules' key into a 63-bit number.  A move is stored as it is played in the board
of that smallest image (``canonical move``); :meth:`Folding.unfold` maps it back onto the board
as it stands.  When a position is its own mirror image (the start), the moves its symmetry maps
onto each other meet in one canonical move: they are one line.

The repetition toggle is left out of the rules' key: it decides only whether a repeated position
may be played again or how it ends, never what a move does, and the shipped real games were
recorded without our repetition rule (``resources/games/README.md``).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

from tafl_desktop.core.game import Move, Position, Rules

#: Toggles that change no position and no move's effect (see the module's docstring).
NOT_IN_KEY = frozenset({"repetition"})


def rules_key(rules: Rules[Position]) -> str:
    """A short text naming the rules in force: board, marks, walls, start and toggles."""
    v = rules.variant
    g = v.geometry
    data: dict[str, Any] = {
        "family": v.family,
        "size": [g.width, g.height] if hasattr(g, "width") else g.size,
        "marks": {k: sorted(s) for k, s in sorted(getattr(g, "marks", {}).items())},
        "walls": sorted(getattr(g, "walls", ())),
        "start": rules.position_text(rules.initial_position()),
        "first": int(rules.side_to_move(rules.initial_position())),
        "options": {k: val for k, val in sorted(v.options.items()) if k not in NOT_IN_KEY},
    }
    if not hasattr(g, "width"):
        data["points"] = [g.name(i) for i in range(g.size)]
    text = json.dumps(data, sort_keys=True, default=str)
    return f"{v.id}:{hashlib.sha1(text.encode()).hexdigest()[:16]}"


def grid_maps(width: int, height: int) -> list[list[int]]:
    """Every symmetry of a ``width`` x ``height`` grid as a list: square -> its image (the
    identity first; 8 for a square, 4 for a rectangle)."""
    w, h = width, height
    coords = [(i % w, i // w) for i in range(w * h)]
    shapes = [lambda f, r: (f, r), lambda f, r: (w - 1 - f, r), lambda f, r: (f, h - 1 - r),
              lambda f, r: (w - 1 - f, h - 1 - r)]
    if w == h:
        shapes += [lambda f, r: (r, f), lambda f, r: (w - 1 - r, f), lambda f, r: (r, w - 1 - f),
                   lambda f, r: (w - 1 - r, w - 1 - f)]
    return [[b * w + a for a, b in (shape(f, r) for f, r in coords)] for shape in shapes]


def _fits(rules: Rules[Position], image: list[int]) -> bool:
    """Does this symmetry map the rules onto themselves (start, marks, walls)?"""
    g = rules.variant.geometry
    start = rules.pieces(rules.initial_position())
    if {image[s]: p for s, p in start.items()} != start:
        return False
    for squares in getattr(g, "marks", {}).values():
        if {image[s] for s in squares} != set(squares):
            return False
    walls = set(getattr(g, "walls", ()))
    return {(min(image[a], image[b]), max(image[a], image[b])) for a, b in walls} == walls


def symmetries(rules: Rules[Position]) -> list[list[int]]:
    """The symmetries the database folds ``rules``'s positions by (the identity at least)."""
    g = rules.variant.geometry
    if rules.variant.family != "tafl" or not hasattr(g, "width"):
        return [list(range(g.size))]
    return [m for m in grid_maps(g.width, g.height) if _fits(rules, m)]


@dataclass(frozen=True)
class Folded:
    """A position's key and the symmetries that map it onto its smallest image."""

    key: int
    maps: tuple[int, ...]


class Folding:
    """The folding of one rule set's positions and moves (built once per rule set)."""

    def __init__(self, rules: Rules[Position]) -> None:
        self.rules = rules
        self.rules_key = rules_key(rules)
        self.maps = symmetries(rules)
        self.size = rules.variant.geometry.size
        # image string j holds the piece of the square that lands on j
        inverse = []
        for m in self.maps:
            inv = [0] * self.size
            for s, t in enumerate(m):
                inv[t] = s
            inverse.append(inv)
        self.inverse = inverse
        self._getters = [itemgetter(*inv) for inv in inverse]
        self._salt = self.rules_key.encode()

    def board_text(self, pos: Position) -> str:
        """One character a square (its piece, or an empty mark), then the side to move."""
        att, dfn, king = getattr(pos, "att", None), getattr(pos, "dfn", None), getattr(pos, "king", -1)
        if isinstance(att, int) and isinstance(dfn, int) and isinstance(king, int):
            # a Tafl position's bitboards, square 0 first: each board's bits read as a decimal
            # number (digits 0 and 1), the defenders' doubled, so their sum has the digit 0, 1 or 2
            # in each square (no carries; the C conversions are 5 times as fast as a loop)
            n = self.size
            cells = str(int(format(att, f"0{n}b")[::-1]) + 2 * int(format(dfn, f"0{n}b")[::-1])).zfill(n)
            if king >= 0:
                cells = cells[:king] + "3" + cells[king + 1:]
            return cells + str(pos.side)
        out = ["."] * self.size
        for s, p in self.rules.pieces(pos).items():
            out[s] = p
        return "".join(out) + str(int(self.rules.side_to_move(pos)))

    def fold(self, pos: Position) -> Folded:
        text = self.board_text(pos)
        board, side = text[:-1], text[-1]
        images = ["".join(get(board)) for get in self._getters]
        best = min(images)
        maps = tuple(i for i, t in enumerate(images) if t == best)
        digest = hashlib.blake2b(best.encode() + side.encode(), digest_size=8, key=self._salt[:64]).digest()
        return Folded(int.from_bytes(digest, "big") >> 1, maps)

    def fold_move(self, folded: Folded, move: Move) -> str:
        """The move as it is played on the smallest image (the smallest of its forms when the
        position is its own mirror image)."""
        forms = [".".join(str(self.maps[i][s]) for s in move) for i in folded.maps]
        return min(forms, key=_order)

    def unfold(self, folded: Folded, move: str) -> Move:
        """A stored move on the board as it stands (its first symmetry's inverse)."""
        inv = self.inverse[folded.maps[0]]
        return tuple(inv[int(s)] for s in move.split(".") if s)

    def move_text(self, folded: Folded, move: str) -> str:
        return self.rules.move_text(self.unfold(folded, move))


def _order(text: str) -> list[int]:
    return [int(s) for s in text.split(".") if s]
