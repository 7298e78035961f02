"""Dablot Prejjesne (Saami checkers) on the grid-and-centre-point lattice, with its house rules.

Pieces have ranks (soldier 1, the leader's son 2, the leader 3; with Four Ranks: soldier 1,
officer 2, son 3, leader 4) and capture only pieces of equal or lower rank, by a short jump along a
line.  Toggles: :data:`tafl_desktop.core.dablot_options.DABLOT_OPTIONS`.

Moves are tuples of point indices: ``(a, b)`` a step, ``(a, c, e)`` a chain of jumps.  An Ambush
is several single jumps by different pieces over the same enemy, the segments separated by -1:
``(a, c, -1, b, d)``.  With Action Points a turn is made of several moves (each one a ply of the
same side) and ``()`` ends the turn early.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tafl_desktop.core.game import Move, Outcome, Side
from tafl_desktop.core.marks import gettext as _
from tafl_desktop.core.marks import ngettext
from tafl_desktop.core.quoting import quote

if TYPE_CHECKING:
    from tafl_desktop.core.variants import Variant

SOUTH, NORTH = 0, 1
SOLDIER, OFFICER, SON, LEADER = 0, 1, 2, 3
KIND_LETTERS = {"s": SOLDIER, "o": OFFICER, "p": SON, "k": LEADER}
LETTER_OF_KIND = {v: k for k, v in KIND_LETTERS.items()}
END_TURN: Move = ()
SEP = -1


def cell(side: int, kind: int, retreated: bool = False) -> int:
    """Encode a piece as a small int (0 is an empty point)."""
    return 1 + side + 2 * kind + (8 if retreated else 0)


def side_of(c: int) -> int:
    return (c - 1) & 1


def kind_of(c: int) -> int:
    return ((c - 1) >> 1) & 3


def retreated(c: int) -> bool:
    return bool((c - 1) & 8)


class DablotPosition:
    """Immutable: ``cells`` (one int per point, 0 empty), side to move, actions left this turn
    (0 when Action Points are off), moves since a capture, and the last move's decided outcome."""

    __slots__ = ("cells", "side", "actions", "quiet", "result")

    def __init__(self, cells: tuple[int, ...], side: int, actions: int = 0, quiet: int = 0,
                 result: Outcome | None = None) -> None:
        self.cells = cells
        self.side = side
        self.actions = actions
        self.quiet = quiet
        self.result = result

    def key(self) -> tuple[tuple[int, ...], int, int]:
        return (self.cells, self.side, self.actions)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DablotPosition) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())


class DablotRules:
    """Rules of one Dablot variant, compiled from its lattice and toggles."""

    family = "dablot"

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        g = variant.graph
        self.geometry = g
        self.opts = dict(variant.options)
        #: moves without a capture that end the game in a draw (0: never), read once
        self.captureless = int(self.opts["captureless_draw"])
        self.N = g.size
        index = {c: i for i, c in enumerate(g.coords)}
        nbrs: list[list[int]] = [[] for _ in range(self.N)]
        for a, b, _k in g.lines:
            nbrs[a].append(b)
            nbrs[b].append(a)
        edges = {(a, b) for a, b, _ in g.lines} | {(b, a) for a, b, _ in g.lines}
        self.steps = [tuple(sorted(n)) for n in nbrs]
        self.jumps: list[tuple[tuple[int, int], ...]] = []
        for p in range(self.N):
            px, py = g.coords[p]
            out = []
            for q in nbrs[p]:
                qx, qy = g.coords[q]
                land = index.get((2 * qx - px, 2 * qy - py))
                if land is not None and (q, land) in edges:
                    out.append((q, land))
            self.jumps.append(tuple(sorted(out)))
        self.over = {(p, land): q for p in range(self.N) for q, land in self.jumps[p]}
        ys = [c[1] for c in g.coords]
        self.far_row = (frozenset(i for i, c in enumerate(g.coords) if c[1] == max(ys)),
                        frozenset(i for i, c in enumerate(g.coords) if c[1] == min(ys)))
        self.actions_per_turn = 3 if self.opts["action_points"] else 0
        first = SOUTH if self.opts["first_move"] == "south" else NORTH
        self.start = self.parse_position(variant.setup, Side(first))

    # ------------------------------------------------------------------------------ ranks
    def rank(self, c: int) -> int:
        k = kind_of(c)
        if self.opts["four_ranks"]:
            return (1, 2, 3, 4)[k]
        return (1, 2, 2, 3)[k]

    def _backward(self, side: int, a: int, b: int) -> bool:
        dy = self.geometry.coords[b][1] - self.geometry.coords[a][1]
        return dy < 0 if side == SOUTH else dy > 0

    # ------------------------------------------------------------------------------ protocol
    def initial_position(self) -> DablotPosition:
        return self.start

    def side_to_move(self, pos: DablotPosition) -> Side:
        return Side(pos.side)

    def position_key(self, pos: DablotPosition) -> tuple[tuple[int, ...], int, int]:
        return pos.key()

    def _chains(self, cells: list[int], a: int, mover: int, path: list[int], budget: int, out: list[Move]) -> None:
        """Every jump chain (each prefix a move) of the piece ``mover`` now standing on ``a``."""
        if budget <= 0:
            return
        side = side_of(mover)
        r = self.rank(mover)
        onward = self.opts["ever_onward"] and kind_of(mover) == SOLDIER
        for over, land in self.jumps[a]:
            v = cells[over]
            if v and side_of(v) != side and self.rank(v) <= r and not cells[land]:
                if onward and self._backward(side, a, land):
                    continue
                path.append(land)
                out.append(tuple(path))
                if self.opts["chain_jumps"]:
                    cells[over] = 0
                    self._chains(cells, land, mover, path, budget - 1, out)
                    cells[over] = v
                path.pop()

    def _captures(self, pos: DablotPosition, budget: int) -> list[Move]:
        cells = list(pos.cells)
        out: list[Move] = []
        for p, c in enumerate(pos.cells):
            if c and side_of(c) == pos.side:
                cells[p] = 0
                self._chains(cells, p, c, [p], budget, out)
                cells[p] = c
        return out

    def _ambushes(self, pos: DablotPosition, budget: int) -> list[Move]:
        """Ambush moves: single jumps by distinct lower-ranked pieces over one enemy until their
        ranks add up to its rank (source 000, variant 5: planned in full before it starts)."""
        out: list[Move] = []
        cells = list(pos.cells)
        side = pos.side
        for t, v in enumerate(pos.cells):
            if not v or side_of(v) == side or self.rank(v) < 2:
                continue
            need = self.rank(v)
            jumpers = []
            for a in self.steps[t]:
                c = cells[a]
                if c and side_of(c) == side and self.rank(c) < need:
                    land = self._beyond(a, t)
                    if land is not None:
                        jumpers.append((a, land))

            def extend(seq: list[tuple[int, int]], total: int, need: int = need,
                       jumpers: list[tuple[int, int]] = jumpers) -> None:
                if total >= need:
                    if len(seq) >= 2 and len(seq) <= budget:
                        move: list[int] = []
                        for i, (a, land) in enumerate(seq):
                            if i:
                                move.append(SEP)
                            move += [a, land]
                        out.append(tuple(move))
                    return
                for a, land in jumpers:
                    if any(a == s[0] for s in seq) or cells[land]:
                        continue
                    c = cells[a]
                    if self.opts["ever_onward"] and kind_of(c) == SOLDIER and self._backward(side, a, land):
                        continue
                    cells[a], cells[land] = 0, c
                    seq.append((a, land))
                    extend(seq, total + self.rank(c), need, jumpers)
                    seq.pop()
                    cells[a], cells[land] = c, 0

            extend([], 0)
        return out

    def _beyond(self, a: int, over: int) -> int | None:
        for o, land in self.jumps[a]:
            if o == over:
                return land
        return None

    def legal_moves(self, pos: DablotPosition) -> list[Move]:
        if pos.result is not None:
            return []
        budget = pos.actions if self.actions_per_turn else 10**6
        caps = self._captures(pos, budget)
        if self.opts["compulsory_capture"] == "soldiers":
            forced = [m for m in caps if kind_of(pos.cells[m[0]]) == SOLDIER]
            if forced:
                return forced
        out: list[Move] = []
        onward = self.opts["ever_onward"]
        for p, c in enumerate(pos.cells):
            if c and side_of(c) == pos.side:
                soldier = kind_of(c) == SOLDIER
                for q in self.steps[p]:
                    if not pos.cells[q] and not (onward and soldier and self._backward(pos.side, p, q)):
                        out.append((p, q))
        out.extend(caps)
        if self.opts["ambush"]:
            out.extend(self._ambushes(pos, budget))
        if self.actions_per_turn and pos.actions < self.actions_per_turn:
            out.append(END_TURN)
        return out

    @staticmethod
    def segments(move: Move) -> list[tuple[int, ...]]:
        segs: list[list[int]] = [[]]
        for p in move:
            if p == SEP:
                segs.append([])
            else:
                segs[-1].append(p)
        return [tuple(s) for s in segs if s]

    def is_jump(self, seg: tuple[int, ...]) -> bool:
        return len(seg) > 2 or seg[1] not in self.steps[seg[0]]

    def play(self, pos: DablotPosition, move: Move) -> tuple[DablotPosition, tuple[int, ...]]:
        cells = list(pos.cells)
        side = pos.side
        caps: list[int] = []
        cost = 0
        segs = self.segments(move)
        if len(segs) > 1:  # ambush: the target goes once the sum of the jumpers' ranks reaches its rank
            target = self.over[(segs[0][0], segs[0][1])]
            for a, land in segs:
                c = cells[a]
                cells[a] = 0
                cells[land] = self._after_move(c, side, a, land, not self._backward(side, a, land))
                cost += 1
            caps.append(target)
            cells[target] = 0
        elif segs:
            seg = segs[0]
            a = seg[0]
            c = cells[a]
            cells[a] = 0
            went_back = False
            if self.is_jump(seg):
                for x, y in zip(seg, seg[1:], strict=False):
                    over = self.over[(x, y)]
                    caps.append(over)
                    cells[over] = 0
                    went_back = went_back or self._backward(side, x, y)
                    cost += 1
            else:
                went_back = self._backward(side, seg[0], seg[1])
                cost = 1
            cells[seg[-1]] = self._after_move(c, side, a, seg[-1], not went_back)
        actions = pos.actions
        next_side = 1 - side
        if self.actions_per_turn:
            actions = pos.actions - cost if segs else 0
            if actions > 0:
                next_side = side
            else:
                actions = self.actions_per_turn
        result = self._decided(cells, side, caps, pos)
        quiet = 0 if caps else pos.quiet + 1
        return DablotPosition(tuple(cells), next_side, actions, quiet, result), tuple(caps)

    def _after_move(self, c: int, side: int, a: int, land: int, forward_only: bool) -> int:
        """The piece after moving from ``a`` to ``land``: marked by a retreat, promoted on the far edge."""
        o = self.opts
        kind = kind_of(c)
        back = retreated(c)
        if kind == SOLDIER:
            if not forward_only and o["officer_material"]:
                back = True
            if o["promotion"] and land in self.far_row[side] and not (o["officer_material"] and back):
                return cell(side, OFFICER)
        return cell(side, kind, back)

    def _decided(self, cells: list[int], mover: int, caps: list[int], pos: DablotPosition) -> Outcome | None:
        o = self.opts
        foe = 1 - mover
        foes = [c for c in cells if c and side_of(c) == foe]
        if not foes:
            return Outcome(Side(mover), "all_captured")
        if o["leader_captured_loses"] and any(pos.cells[x] and kind_of(pos.cells[x]) == LEADER for x in caps):
            return Outcome(Side(mover), "leader_captured")
        if o["bare_leader_loses"] and len(foes) == 1 and kind_of(foes[0]) == LEADER:
            return Outcome(Side(mover), "bare_leader")
        return None

    def outcome(self, pos: DablotPosition) -> Outcome | None:
        if pos.result is not None:
            return pos.result
        if not self.legal_moves(pos):
            return Outcome(Side(1 - pos.side), "no_moves")
        n = self.captureless
        if n and pos.quiet >= n:
            return Outcome(None, "no_captures")
        return None

    def repetition_outcome(self, pos: DablotPosition, count: int) -> Outcome | None:
        if self.opts["repetition"] == "draw" and count >= 3:
            return Outcome(None, "repetition")
        return None

    # ------------------------------------------------------------------------------ notation
    def move_text(self, move: Move) -> str:
        if move == END_TURN:
            return "end"
        g = self.geometry
        parts = []
        for seg in self.segments(move):
            parts.append(("x" if self.is_jump(seg) else "-").join(g.name(p) for p in seg))
        return "+".join(parts)

    def parse_move(self, pos: DablotPosition, text: str) -> Move:
        t = text.strip().lower() if text.isascii() else ""  # the Kelvin sign lower-cases to k
        if t == "end":
            return END_TURN
        move: list[int] = []
        for i, seg in enumerate(t.split("+")):
            sep = "x" if "x" in seg else "-"
            names = seg.split(sep)
            if len(names) < 2 or not all(names):
                raise ValueError(_("{text} is not a move (expected e.g. c3-c4, c3xc5xe5 or end)").format(
                    text=quote(text)))
            if i:
                move.append(SEP)
            move += [self.geometry.parse_square(n) for n in names]
        return tuple(move)

    def explain_illegal(self, pos: DablotPosition, move: Move) -> str:
        """A clause saying why ``move`` is not legal in ``pos``, one whole sentence of the
        catalogue per case (only point names and numbers are filled in)."""
        g = self.geometry
        if pos.result is not None:
            return _("the game is over ({result})").format(result=pos.result.describe(self.variant))
        if move == END_TURN:
            return _("a turn ends only after at least one action") if self.actions_per_turn else \
                _("there are no action points in this game")
        segs = self.segments(move)
        if not segs or any(len(s) < 2 or not all(0 <= p < self.N for p in s) for s in segs):
            return _("that is not a move on this board")
        a = segs[0][0]
        c = pos.cells[a]
        if not c:
            return _("there is no piece on {square}").format(square=g.name(a))
        if side_of(c) != pos.side:
            return _("the piece on {square} is not yours").format(square=g.name(a))
        if len(segs) == 1 and len(segs[0]) == 2 and segs[0][1] == a:
            return self._stay_reason(pos, a)
        if pos.cells[segs[0][-1]]:
            return _("{square} is occupied").format(square=g.name(segs[0][-1]))
        if len(segs) > 1:
            return _("that is not a possible ambush") if self.opts["ambush"] else _("ambushes are not allowed")
        seg = segs[0]
        soldier_capture = self.is_jump(seg) and kind_of(c) == SOLDIER
        if self.opts["compulsory_capture"] == "soldiers" and not soldier_capture and \
                any(kind_of(pos.cells[m[0]]) == SOLDIER for m in self._captures(pos, 10**6)):
            return _("a soldier can capture, and soldiers must capture")
        if self.is_jump(seg):
            for x, y in zip(seg, seg[1:], strict=False):
                over = self.over.get((x, y))
                if over is None:
                    return _("a jump goes straight along a line over one neighbouring point")
                v = pos.cells[over]
                if not v or side_of(v) == pos.side:
                    return _("there is no enemy on {square} to jump").format(square=g.name(over))
                if self.rank(v) > self.rank(c):
                    return _("the piece on {square} outranks this piece").format(square=g.name(over))
            if len(seg) > 2 and not self.opts["chain_jumps"]:
                return _("only one capture per turn is allowed")
            if self.actions_per_turn and len(seg) - 1 > pos.actions:
                return ngettext("only {n} action is left this turn", "only {n} actions are left this turn",
                                pos.actions).format(n=pos.actions)
            return _("the rules do not allow this jump")
        if seg[1] not in self.steps[a]:
            return _("a piece moves one point along a line")
        if self.opts["ever_onward"] and kind_of(c) == SOLDIER and self._backward(pos.side, a, seg[1]):
            return _("soldiers may not move backwards (Ever Onward)")
        if not any(m and m[0] == a for m in self.legal_moves(pos)):
            return self._stay_reason(pos, a)
        return _("the rules do not allow this move")

    def _stay_reason(self, pos: DablotPosition, a: int) -> str:
        """Why the piece on ``a`` cannot stay where it is, or cannot move at all (boxed in, or a
        soldier elsewhere must capture)."""
        name = self.geometry.name(a)
        if any(m and m[0] == a for m in self.legal_moves(pos)):
            return _("a move must go to another point (the piece on {square} cannot stay where it is)").format(
                square=name)
        if self.opts["compulsory_capture"] == "soldiers" and \
                any(kind_of(pos.cells[m[0]]) == SOLDIER for m in self._captures(pos, 10**6)):
            return _("the piece on {square} cannot move now: a soldier can capture, and soldiers must "
                     "capture").format(square=name)
        return _("the piece on {square} cannot move: every point it may go to is taken").format(square=name)

    def pieces(self, pos: DablotPosition) -> dict[int, str]:
        """Point -> letter: s soldier, r marked soldier, o officer, p son, k leader; upper case for
        the North army."""
        out = {}
        for p, c in enumerate(pos.cells):
            if c:
                letter = "r" if kind_of(c) == SOLDIER and retreated(c) else LETTER_OF_KIND[kind_of(c)]
                out[p] = letter.upper() if side_of(c) == NORTH else letter
        return out

    def moves_from(self, pos: DablotPosition, point: int) -> list[int]:
        return sorted({m[1] for m in self.legal_moves(pos) if m and m[0] == point})

    def position_text(self, pos: DablotPosition) -> str:
        g = self.geometry
        parts = []
        for side, label in ((SOUTH, "south"), (NORTH, "north")):
            toks = []
            for p, c in enumerate(pos.cells):
                if c and side_of(c) == side:
                    letter = "r" if kind_of(c) == SOLDIER and retreated(c) else LETTER_OF_KIND[kind_of(c)]
                    toks.append(letter + g.name(p))
            parts.append(f"{label}={','.join(toks)}")
        return " ".join(parts)

    def parse_position(self, text: str, to_move: Side) -> DablotPosition:
        """``south=sa1,pe6,kf7 north=sa13,...``: kind letter (s, r = marked soldier, o, p, k) + point."""
        cells = [0] * self.N
        seen = set()
        for token in text.split():
            key, _sep, items = token.partition("=")
            key = key.lower()
            if key not in ("south", "north") or key in seen:
                raise ValueError(_("position part {token} must be south=... or north=..., once each").format(
                    token=quote(token)))
            seen.add(key)
            side = SOUTH if key == "south" else NORTH
            leaders = 0
            for item in (i for i in items.split(",") if i):
                letter, name = item[0].lower(), item[1:]
                if letter not in KIND_LETTERS and letter != "r":
                    raise ValueError(_("{item}: a piece is s, r, o, p or k followed by a point name").format(
                        item=quote(item)))
                p = self.geometry.parse_square(name)
                if cells[p]:
                    raise ValueError(_("point {name} holds two pieces").format(name=quote(name)))
                kind = SOLDIER if letter == "r" else KIND_LETTERS[letter]
                leaders += kind == LEADER
                cells[p] = cell(side, kind, letter == "r")
            if leaders > 1:
                raise ValueError((ngettext("the south army has {n} leader", "the south army has {n} leaders", leaders)
                                  if key == "south" else
                                  ngettext("the north army has {n} leader", "the north army has {n} leaders",
                                           leaders)).format(n=leaders))
        if not any(cells):
            raise ValueError(_("the position has no pieces"))
        pos = DablotPosition(tuple(cells), int(to_move), self.actions_per_turn)
        for mover in (SOUTH, NORTH):
            if not any(c and side_of(c) == 1 - mover for c in cells):
                pos.result = Outcome(Side(mover), "all_captured")
        return pos
