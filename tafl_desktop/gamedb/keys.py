"""Keys of the game database: which rules a game was played under, and which position a board
shows, folded by the board's symmetries.

Why folded: ``h1-h3`` and ``d1-d3`` on Copenhagen are one opening seen in a mirror, and a player
wants their games counted together.  A symmetry of the square (4 rotations, 4 reflections; a
rectangle has only 4 of them) is used only where it maps the rules onto themselves: the start
position, every marked square (throne, corners, camps, escapes) and every wall.  Tafl's rules
have no direction otherwise; the hunt games' do (geese that may not step back), so they are
folded by no symmetry at all.

A position's key is the smallest of its images' hashes (63 bits).  An image's hash is a
Zobrist hash: the exclusive or of one fixed random number per (square, piece) on the board and
one for the side to move, the numbers drawn from the rules' key (so other rules give other keys).
Why hashes rather than the images themselves: an import folds every position of every game, and
the 8 hashes of a position cost a few table look-ups (each square's numbers for the 8 images are
packed side by side in one integer, so one exclusive or serves all 8; a bitboard is taken a byte
at a time), where building and comparing 8 images of the board cost 30 times as much.  Images
that are the same board have the same hash, so the images with the smallest hash are the
position's own symmetries (up to a collision of 64-bit hashes, as with any hashed key).

A move is stored as it is played in the board of the image with the smallest hash (``canonical
move``); :meth:`Folding.unfold` maps it back onto the board as it stands.  When a position is its
own mirror image (the start), the moves its symmetry maps onto each other meet in one canonical
move: they are one line.

The repetition toggle is left out of the rules' key: it decides only whether a repeated position
may be played again or how it ends, never what a move does, and the shipped real games were
recorded without our repetition rule (``resources/games/README.md``).
"""

from __future__ import annotations

import hashlib
import json
import struct
from collections.abc import Callable, Sequence
from functools import reduce
from operator import getitem, xor
from typing import Any, NamedTuple

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


class Folded(NamedTuple):
    """A position's key and the symmetries that map it onto its smallest image (a named tuple:
    an import makes one a position)."""

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
        self._salt = self.rules_key.encode()[:64]
        self._lanes = len(self.maps)
        #: square -> its number as text in each image (a canonical move's squares)
        self._names = [[str(t) for t in m] for m in self.maps]
        self._packed: dict[str, list[int]] = {}
        self._bytes = (self.size + 7) // 8
        #: per piece code, per byte of a bitboard: the byte's value -> its squares' packed numbers
        self._tables: dict[str, list[list[int]]] = {}
        self._sides: dict[str, int] = {}
        self._unpack = struct.Struct(f"<{self._lanes}Q").unpack
        #: per symmetry: canonical move -> its text on the board (:meth:`move_texts`)
        self._shown: list[dict[str, str]] = [{} for _m in self.maps]

    def _number(self, square: int, piece: str) -> int:
        """The fixed random number of ``piece`` on ``square`` (a digest: the same on every machine)."""
        data = f"{square}:{piece}".encode()
        return int.from_bytes(hashlib.blake2b(data, digest_size=8, key=self._salt).digest(), "big")

    def packed(self, piece: str) -> list[int]:
        """Square -> the numbers of ``piece`` there in each image, image i in bits 64i..64i+63
        (the piece on square s lands on ``maps[i][s]`` in image i)."""
        if piece not in self._packed:
            numbers = [self._number(s, piece) for s in range(self.size)]
            self._packed[piece] = [sum(numbers[m[s]] << (64 * i) for i, m in enumerate(self.maps))
                                   for s in range(self.size)]
        return self._packed[piece]

    def _byte_tables(self, piece: str) -> list[list[int]]:
        if piece not in self._tables:
            packed = self.packed(piece) + [0] * (8 * self._bytes - self.size)
            tables = []
            for k in range(self._bytes):
                table = [0] * 256
                for b in range(1, 256):
                    low = (b & -b).bit_length() - 1
                    table[b] = table[b & (b - 1)] ^ packed[8 * k + low]
                tables.append(table)
            self._tables[piece] = tables
        return self._tables[piece]

    def _side(self, side: str) -> int:
        """The number of ``side`` to move, the same in every image."""
        if side not in self._sides:
            number = self._number(-1, "side" + side)
            self._sides[side] = sum(number << (64 * i) for i in range(self._lanes))
        return self._sides[side]

    def _side_number(self, side: str) -> int:
        """The side to move's part of a hash (none for the first side)."""
        return 0 if side == "0" else self._side(side)

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

    def packed_hash(self, pos: Position) -> int:
        """The hashes of the position's images, packed (image i in bits 64i..64i+63)."""
        att, dfn, king = getattr(pos, "att", None), getattr(pos, "dfn", None), getattr(pos, "king", -1)
        if isinstance(att, int) and isinstance(dfn, int) and isinstance(king, int):
            # a Tafl position's bitboards (attackers "1", defender soldiers "2", the king "3",
            # the digits of :meth:`board_text`), a byte at a time
            if king >= 0:
                dfn &= ~(1 << king)
            n = self._bytes
            h = reduce(xor, map(getitem, self._byte_tables("1"), att.to_bytes(n, "little")), 0)
            h = reduce(xor, map(getitem, self._byte_tables("2"), dfn.to_bytes(n, "little")), h)
            if king >= 0:
                h ^= self.packed("3")[king]
            side = str(pos.side)
        else:
            text = self.board_text(pos)
            h, side = 0, text[-1]
            for s, p in enumerate(text[:-1]):
                if p != ".":
                    h ^= self.packed(p)[s]
        return h ^ self._side_number(side)

    def fold(self, pos: Position) -> Folded:
        return self._folded(self.packed_hash(pos))

    def _folded(self, h: int) -> Folded:
        lanes = self._unpack(h.to_bytes(self._lanes * 8, "little"))
        best = min(lanes)
        if lanes.count(best) == 1:
            return Folded(best >> 1, (lanes.index(best),))
        return Folded(best >> 1, tuple(i for i, t in enumerate(lanes) if t == best))

    def fold_line(self, positions: Sequence[Position]) -> list[Folded]:
        """:meth:`fold` of each position of a game, start first.  A Tafl move changes a few
        squares, so each hash after the first is the one before with those squares' numbers
        changed (the same hashes as folding each position on its own; an import's fast path)."""
        if not positions:
            return []
        first = positions[0]
        if not all(isinstance(getattr(first, name, None), int) for name in ("att", "dfn", "king")):
            return [self.fold(pos) for pos in positions]
        ones, twos, king_at = self.packed("1"), self.packed("2"), self.packed("3")
        h = self.packed_hash(first)
        out = [self._folded(h)]
        att, dfn, king, side = first.att, first.dfn, first.king, first.side  # type: ignore[attr-defined]
        if king >= 0:
            dfn &= ~(1 << king)
        for pos in positions[1:]:
            a, d, k, sd = pos.att, pos.dfn, pos.king, pos.side  # type: ignore[attr-defined]
            if k >= 0:
                d &= ~(1 << k)
            bits = att ^ a
            while bits:
                low = bits & -bits
                h ^= ones[low.bit_length() - 1]
                bits ^= low
            bits = dfn ^ d
            while bits:
                low = bits & -bits
                h ^= twos[low.bit_length() - 1]
                bits ^= low
            if k != king:
                if king >= 0:
                    h ^= king_at[king]
                if k >= 0:
                    h ^= king_at[k]
            if sd != side:
                h ^= self._side_number(str(side)) ^ self._side_number(str(sd))
            att, dfn, king, side = a, d, k, sd
            out.append(self._folded(h))
        return out

    def fold_move(self, folded: Folded, move: Move) -> str:
        """The move as it is played on the smallest image (the smallest of its forms when the
        position is its own mirror image)."""
        if len(folded.maps) == 1:
            names = self._names[folded.maps[0]]
            return ".".join([names[s] for s in move])
        forms = [".".join(self._names[i][s] for s in move) for i in folded.maps]
        return min(forms, key=_order)

    def unfold(self, folded: Folded, move: str) -> Move:
        """A stored move on the board as it stands (its first symmetry's inverse)."""
        inv = self.inverse[folded.maps[0]]
        return tuple(inv[int(s)] for s in move.split(".") if s)

    def move_text(self, folded: Folded, move: str) -> str:
        return self.rules.move_text(self.unfold(folded, move))

    def move_texts(self, folded: Folded) -> Callable[[str], str]:
        """:meth:`move_text` for the moves of one position, remembered per symmetry: a position of
        the opening lists a hundred moves, and mapping each back was most of its lookup's time."""
        known = self._shown[folded.maps[0]]

        def text(move: str) -> str:
            shown = known.get(move)
            if shown is None:
                shown = known[move] = self.move_text(folded, move)
            return shown
        return text


_LANE = (1 << 64) - 1


def _order(text: str) -> list[int]:
    return [int(s) for s in text.split(".") if s]
