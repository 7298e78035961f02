"""The Fox games: Fox and Geese, Fox and Hounds, Asalto and Halatafl, on point-and-line boards.

One engine serves them all; the presets differ only in board, setup and toggles
(:data:`tafl_desktop.core.hunt_options.HUNT_OPTIONS`).  Side 0 is the flock (the many: geese,
hounds, rebels, sheep), which starts at the bottom and moves "forward" upwards; side 1 are the
hunters (fox, foxes, officers), who capture by short jumps along the lines.

A move is the tuple of points a piece visits: ``(a, b)`` for a step to a neighbour, ``(a, c, e)``
for a chain of two jumps (the jumped pieces are the points in between).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from tafl_desktop.core.game import Move, Outcome, Side
from tafl_desktop.core.marks import gettext as _
from tafl_desktop.core.marks import ngettext
from tafl_desktop.core.quoting import quote

if TYPE_CHECKING:
    from tafl_desktop.core.variants import Variant

FLOCK, HUNTERS = 0, 1


class HuntPosition:
    """Immutable position: bitboards over the points, side to move, moves since a capture, and the
    outcome the last move decided (if any)."""

    __slots__ = ("flock", "hunters", "side", "quiet", "result")

    def __init__(self, flock: int, hunters: int, side: int, quiet: int = 0, result: Outcome | None = None) -> None:
        self.flock = flock
        self.hunters = hunters
        self.side = side
        self.quiet = quiet
        self.result = result

    def key(self) -> tuple[int, int, int]:
        return (self.flock, self.hunters, self.side)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HuntPosition) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())


def _bits(x: int) -> Iterator[int]:
    while x:
        low = x & -x
        yield low.bit_length() - 1
        x ^= low


class HuntRules:
    """Rules of one Fox-game variant, compiled from its geometry and toggles."""

    family = "hunt"
    piece_letters = {"flock": "f", "hunters": "h"}

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        g = variant.graph
        self.geometry = g
        self.opts = dict(variant.options)
        #: moves without a capture that end the game in a draw (0: never), read once
        self.captureless = int(self.opts["captureless_draw"])
        o = self.opts
        self.N = g.size
        diag = o["diagonals"]
        self.pen_mask = self._mask(g.marked("pen"))
        self.home_mask = self._mask(g.marked("home"))
        # steps[side][p] -> neighbours the side may step to; jumps[p] -> (over, land) for hunters
        self.steps: list[list[tuple[int, ...]]] = [[], []]
        self.jumps: list[tuple[tuple[int, int], ...]] = []
        coord_index = {c: i for i, c in enumerate(g.coords)}
        adjacent: dict[int, list[tuple[int, str]]] = {i: [] for i in range(self.N)}
        edge_set = set()
        for a, b, kind in g.lines:
            adjacent[a].append((b, kind))
            adjacent[b].append((a, kind))
            edge_set.add((a, b))
            edge_set.add((b, a))
        for side in (FLOCK, HUNTERS):
            may_diag = diag == "everyone" or (diag == "hunters" and side == HUNTERS)
            for p in range(self.N):
                out = []
                py = g.coords[p][1]
                for q, kind in adjacent[p]:
                    if kind == "diag" and not may_diag:
                        continue
                    dy = g.coords[q][1] - py
                    if side == FLOCK and ((dy < 0 and not o["flock_backwards"])
                                          or (dy == 0 and not o["flock_sideways"])):
                        continue
                    out.append(q)
                self.steps[side].append(tuple(sorted(out)))
        hunter_diag = diag in ("everyone", "hunters")
        for p in range(self.N):
            js = []
            px, py = g.coords[p]
            for q, kind in adjacent[p]:
                if kind == "diag" and not hunter_diag:
                    continue
                qx, qy = g.coords[q]
                land = coord_index.get((2 * qx - px, 2 * qy - py))
                if land is not None and (q, land) in edge_set:
                    js.append((q, land))
            self.jumps.append(tuple(sorted(js)))
        self.bit = [1 << i for i in range(self.N)]
        self.adjacent = [frozenset(q for q, _k in adjacent[p]) for p in range(self.N)]
        self.over = {(p, land): q for p in range(self.N) for q, land in self.jumps[p]}
        self.start = self.parse_position(variant.setup, Side(0 if o["first_move"] == "flock" else 1))

    @staticmethod
    def _mask(points: Iterable[int]) -> int:
        m = 0
        for p in points:
            m |= 1 << p
        return m

    # ---------------------------------------------------------------------------- protocol
    def initial_position(self) -> HuntPosition:
        return self.start

    def side_to_move(self, pos: HuntPosition) -> Side:
        return Side(pos.side)

    def position_key(self, pos: HuntPosition) -> tuple[int, int, int]:
        return pos.key()

    def _chains(self, p: int, flock: int, occ: int, path: list[int], out: list[Move]) -> None:
        """Depth-first jump chains from ``p``; appends moves per the multi-jump toggle.

        ``occ`` never holds the jumping piece, so a chain may come back to a point it has landed on
        or started from: the sources limit a chain only by "the same piece cannot be jumped twice"
        (hunt-games.md 4.3, WP-AS; 2.5 "repeated jumps are possible"), which removing each jumped
        piece from ``flock`` at once already ensures.  Each jump takes a piece, so chains end."""
        mode = self.opts["multi_jump"]
        extended = False
        for over, land in self.jumps[p]:
            if flock >> over & 1 and not occ >> land & 1:
                extended = True
                path.append(land)
                if mode == "single":
                    out.append(tuple(path))
                else:
                    if mode == "optional":
                        out.append(tuple(path))
                    self._chains(land, flock & ~self.bit[over], occ & ~self.bit[over], path, out)
                path.pop()
        if mode == "compulsory" and not extended and len(path) > 1:
            out.append(tuple(path))

    def capture_moves(self, pos: HuntPosition) -> list[Move]:
        """Every capturing move of the hunters (as if it were their turn)."""
        if not self.opts["captures"]:
            return []
        out: list[Move] = []
        occ = pos.flock | pos.hunters
        for h in _bits(pos.hunters):
            self._chains(h, pos.flock, occ & ~self.bit[h], [h], out)
        return out

    def legal_moves(self, pos: HuntPosition) -> list[Move]:
        if pos.result is not None:
            return []
        occ = pos.flock | pos.hunters
        side = pos.side
        steps = self.steps[side]
        out: list[Move] = []
        if side == HUNTERS:
            caps = self.capture_moves(pos)
            if caps and self.opts["max_capture"]:
                longest = max(len(m) for m in caps)
                caps = [m for m in caps if len(m) == longest]
            if caps and (self.opts["compulsory_capture"] == "enforce" or self.opts["max_capture"]):
                return caps
            out.extend(caps)
        for p in _bits(pos.hunters if side == HUNTERS else pos.flock):
            for q in steps[p]:
                if not occ >> q & 1:
                    out.append((p, q))
        return out

    def is_jump(self, move: Move) -> bool:
        """A move whose first leg goes over a point onto the one beyond, along a line, is a jump
        (a typed ``c4-b5`` that joins no line is a step that is not allowed, not a jump)."""
        return len(move) > 2 or (move[0], move[1]) in self.over

    def play(self, pos: HuntPosition, move: Move) -> tuple[HuntPosition, tuple[int, ...]]:
        flock, hunters = pos.flock, pos.hunters
        bit = self.bit
        caps: list[int] = []
        a, last = move[0], move[-1]
        if pos.side == HUNTERS:
            jump = self.is_jump(move)
            huff: list[int] = []
            if not jump and self.opts["captures"] and self.opts["compulsory_capture"] == "huff":
                huff = sorted({m[0] for m in self.capture_moves(pos)})
            hunters = (hunters & ~bit[a]) | bit[last]
            if jump:
                for x, y in zip(move, move[1:], strict=False):
                    over = self.over[(x, y)]
                    caps.append(over)
                    flock &= ~bit[over]
            for h in huff:
                where = last if h == a else h
                hunters &= ~bit[where]
                caps.append(where)
        else:
            flock = (flock & ~bit[a]) | bit[last]
        result = self._decided(flock, hunters, pos.side)
        quiet = 0 if caps else pos.quiet + 1
        return HuntPosition(flock, hunters, 1 - pos.side, quiet, result), tuple(caps)

    def _decided(self, flock: int, hunters: int, mover: int) -> Outcome | None:
        o = self.opts
        if not hunters:
            return Outcome(Side(FLOCK), "hunters_captured")
        if o["captures"] and bin(flock).count("1") < int(o["hunter_win_below"]):
            return Outcome(Side(HUNTERS), "flock_depleted")
        if o["breakthrough"] and hunters & self.home_mask:
            return Outcome(Side(HUNTERS), "broke_through")
        if o["fill_pen"] and self.pen_mask and flock & self.pen_mask == self.pen_mask:
            return Outcome(Side(FLOCK), "pen_filled")
        return None

    def outcome(self, pos: HuntPosition) -> Outcome | None:
        if pos.result is not None:
            return pos.result
        if not self.legal_moves(pos):
            if pos.side == HUNTERS:
                return Outcome(Side(FLOCK), "trapped")
            if self.opts["no_moves"] == "draw":
                return Outcome(None, "no_moves")
            return Outcome(Side(HUNTERS), "no_moves")
        n = self.captureless
        if n and pos.quiet >= n:
            return Outcome(None, "no_captures")
        return None

    def repetition_outcome(self, pos: HuntPosition, count: int) -> Outcome | None:
        if self.opts["repetition"] == "draw" and count >= 3:
            return Outcome(None, "repetition")
        return None

    # ---------------------------------------------------------------------------- notation
    def move_text(self, move: Move) -> str:
        names = [self.geometry.name(p) for p in move]
        return ("x" if self.is_jump(move) else "-").join(names)

    def parse_move(self, pos: HuntPosition, text: str) -> Move:
        t = text.strip().lower() if text.isascii() else ""  # the Kelvin sign lower-cases to k
        sep = "x" if "x" in t else "-"
        parts = [p for p in t.split(sep)]
        if len(parts) < 2 or not all(parts):
            raise ValueError(_("{text} is not a move (expected e.g. c3-c4 or c3xc5xe5)").format(text=quote(text)))
        return tuple(self.geometry.parse_square(p) for p in parts)

    def explain_illegal(self, pos: HuntPosition, move: Move) -> str:
        """A clause saying why ``move`` is not legal in ``pos``, one whole sentence of the
        catalogue per case (only point names are filled in)."""
        g = self.geometry
        if pos.result is not None:
            return _("the game is over ({result})").format(result=pos.result.describe(self.variant))
        if len(move) < 2 or not all(0 <= p < self.N for p in move):
            return _("that is not a move on this board")
        a = move[0]
        mine = pos.hunters if pos.side == HUNTERS else pos.flock
        if not (pos.flock | pos.hunters) >> a & 1:
            return _("there is no piece on {square}").format(square=g.name(a))
        if not mine >> a & 1:
            return _("the piece on {square} is not yours").format(square=g.name(a))
        if len(move) == 2 and move[1] == a:
            return self._stay_reason(pos, a)
        if ((pos.flock | pos.hunters) & ~self.bit[a]) >> move[-1] & 1:  # a chain may end where it began
            return _("{square} is occupied").format(square=g.name(move[-1]))
        jump = self.is_jump(move)
        if pos.side == HUNTERS and not jump and self.opts["compulsory_capture"] == "enforce" \
                and self.capture_moves(pos):
            return _("a capture is possible and capturing is compulsory")
        if jump:
            if pos.side == FLOCK or not self.opts["captures"]:
                return _("this piece cannot jump")
            why = self._chain_problem(pos, move)
            if why:
                return why
            caps = self.capture_moves(pos)
            if self.opts["max_capture"] and move in caps and len(move) < max(len(m) for m in caps):
                longest = max(len(m) for m in caps) - 1
                return ngettext("a capture taking {n} piece is possible, and of several captures one that takes the "
                                "most pieces must be chosen",
                                "a capture taking {n} pieces is possible, and of several captures one that takes the "
                                "most pieces must be chosen", longest).format(n=longest)
            if self.opts["multi_jump"] == "single" and len(move) > 2:
                return _("only one jump per turn is allowed")
            if self.opts["multi_jump"] == "compulsory":
                return _("a jump must continue while another jump is possible")
            return _("the rules do not allow this move")
        if move[1] not in self.adjacent[a]:
            return _("{a} and {b} are not joined by a line on this board").format(a=g.name(a), b=g.name(move[1]))
        if move[1] not in self.steps[pos.side][a]:
            return _("this piece may not move along that line or in that direction")
        if self.opts["max_capture"] and self.capture_moves(pos):
            return _("a capture is possible and the longest capture must be taken")
        if not any(m[0] == a for m in self.legal_moves(pos)):
            return self._stay_reason(pos, a)
        return _("the rules do not allow this move")

    def _chain_problem(self, pos: HuntPosition, move: Move) -> str | None:
        """The first leg of a jump chain that cannot be made, said plainly (None if every leg can)."""
        g = self.geometry
        flock = pos.flock
        occ = (pos.flock | pos.hunters) & ~self.bit[move[0]]
        jumped: set[int] = set()
        for x, y in zip(move, move[1:], strict=False):
            over = self.over.get((x, y))
            if over is None:
                return _("{a} to {b} is no jump: a jump goes over the next point on a line to the point just "
                         "beyond it").format(a=g.name(x), b=g.name(y))
            if over in jumped:
                return _("the piece on {square} was already jumped in this chain, and the same piece cannot be "
                         "jumped twice").format(square=g.name(over))
            if not flock >> over & 1:
                return _("there is no piece of the other side on {square} to jump over").format(square=g.name(over))
            if occ >> y & 1:
                return _("{square} is occupied").format(square=g.name(y))
            flock &= ~self.bit[over]
            occ &= ~self.bit[over]
            jumped.add(over)
        return None

    def _stay_reason(self, pos: HuntPosition, a: int) -> str:
        """Why the piece on ``a`` cannot stay where it is, or cannot move at all (a goose boxed in
        or facing only backward steps, a fox that must capture with another piece)."""
        name = self.geometry.name(a)
        if any(m[0] == a for m in self.legal_moves(pos)):
            return _("a move must go to another point (the piece on {square} cannot stay where it is)").format(
                square=name)
        if pos.side == HUNTERS and self.capture_moves(pos) and (
                self.opts["compulsory_capture"] == "enforce" or self.opts["max_capture"]):
            return _("the piece on {square} cannot move now: another capture is possible and capturing is "
                     "compulsory").format(square=name)
        return _("the piece on {square} cannot move: every point it may step to is taken").format(square=name)

    def pieces(self, pos: HuntPosition) -> dict[int, str]:
        out = {p: "f" for p in _bits(pos.flock)}
        out.update({p: "h" for p in _bits(pos.hunters)})
        return out

    def moves_from(self, pos: HuntPosition, point: int) -> list[int]:
        return sorted({m[1] for m in self.legal_moves(pos) if m[0] == point})

    def position_text(self, pos: HuntPosition) -> str:
        g = self.geometry
        hunters = ",".join(g.name(p) for p in _bits(pos.hunters))
        flock = ",".join(g.name(p) for p in _bits(pos.flock))
        return f"hunters={hunters} flock={flock}"

    def parse_position(self, text: str, to_move: Side) -> HuntPosition:
        """``hunters=d4 flock=a3,b3,...`` (point names; either list may be empty)."""
        found: dict[str, int] = {}
        for token in text.split():
            if "=" not in token:
                raise ValueError(_("position part {token} must look like hunters=d4 or flock=a3,b3").format(
                    token=quote(token)))
            key, _sep, names = token.partition("=")
            key = key.strip().lower()
            if key not in ("hunters", "flock"):
                raise ValueError(_("position part {key} is unknown: use hunters= and flock=").format(key=quote(key)))
            if key in found:
                raise ValueError(_("position lists '{key}' twice").format(key=key))
            m = 0
            for name in (n for n in names.split(",") if n):
                p = self.geometry.parse_square(name)
                if m >> p & 1:
                    raise ValueError(_("point {name} is listed twice").format(name=quote(name)))
                m |= 1 << p
            found[key] = m
        flock, hunters = found.get("flock", 0), found.get("hunters", 0)
        if flock & hunters:
            raise ValueError(_("a point holds two pieces"))
        if not hunters:
            raise ValueError(_("the position has no hunter"))
        pos = HuntPosition(flock, hunters, int(to_move))
        pos.result = self._decided(flock, hunters, 1 - int(to_move))
        return pos
