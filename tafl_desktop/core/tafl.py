"""Tafl family rules: Hnefatafl, Tablut, Brandubh, Tawlbwrdd, Alea Evangelii and their toggles.

Representation (python-chess style, tuned for CPython):

* Bitboards are Python ints, one bit per square (``index = rank * width + file``).  A position
  keeps the attackers and the defender soldiers twice, row-major and column-major ("rotated"),
  so that the occupancy of any row *or* column is one shift and one mask away.
* Moves are generated per line, not per piece: the occupancy of a line together with the bits
  of the pieces that move along it decides every move on that line.  The answer is memoised per
  (piece class, line), so after warm-up a position's moves are a couple of dozen dictionary hits.
  Special squares (throne, corners, camps) are folded into the memo when it is filled.
* Captures, king capture, shield walls, forts and encirclement are checked only around the
  square that just changed, which keeps a move cheap.

The option schema is :data:`tafl_desktop.core.tafl_options.TAFL_OPTIONS`; every option read
here is documented (with its source) there.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from tafl_desktop.core.game import Move, Outcome, Side
from tafl_desktop.core.marks import gettext as _
from tafl_desktop.core.marks import ngettext
from tafl_desktop.core.quoting import listing, quote
from tafl_desktop.core.tafl_cant_escape import CantEscape
from tafl_desktop.core.tafl_options import TAFL_OPTIONS

if TYPE_CHECKING:
    from tafl_desktop.core.geometry import GridGeometry
    from tafl_desktop.core.options import OptionValue
    from tafl_desktop.core.variants import Variant

ATT, DEF = 0, 1
#: Piece classes for movement: attacker soldier, defender soldier, king.
C_ATT, C_DEF, C_KING = 0, 1, 2

ATTACKER_CHAR, DEFENDER_CHAR, KING_CHAR = "t", "T", "K"

#: A fort side nothing can ever attack from (see TaflRules._fort_cost).
NEVER = 1 << 20


#: Digits of an empty run: ASCII only (str.isdigit() would also take '٣' and '³').
ASCII_DIGITS = frozenset("0123456789")


class TaflPosition:
    """An immutable Tafl position.

    ``att``/``dfn`` are the attackers and the defender soldiers (row-major bitboards),
    ``attT``/``dfnT`` the same column-major, ``king`` the king's square (-1 if captured),
    ``side`` the side to move, ``quiet`` the moves since the last capture and ``result`` an
    :class:`Outcome` that the last move decided (king captured or escaped, fort, encirclement)
    and ``ply`` the moves played since the game's start (for a move limit; like ``quiet`` it is
    not part of the key).
    """

    __slots__ = ("att", "dfn", "attT", "dfnT", "king", "side", "quiet", "result", "ply")

    def __init__(self, att: int, dfn: int, attT: int, dfnT: int, king: int, side: int, quiet: int = 0,
                 result: Outcome | None = None, ply: int = 0) -> None:
        self.att = att
        self.dfn = dfn
        self.attT = attT
        self.dfnT = dfnT
        self.king = king
        self.side = side
        self.quiet = quiet
        self.result = result
        self.ply = ply

    def key(self) -> tuple[int, int, int, int]:
        return (self.att, self.dfn, self.king, self.side)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TaflPosition) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        return f"TaflPosition(att={self.att:#x}, dfn={self.dfn:#x}, king={self.king}, side={self.side})"


def _bits(x: int) -> Iterator[int]:
    """Yield the indices of the set bits of ``x``, lowest first."""
    while x:
        low = x & -x
        yield low.bit_length() - 1
        x ^= low


class _LineMemo(dict[int, tuple[Move, ...]]):
    """Moves of one piece class on one line, keyed by (line occupancy | movers << length).

    A miss computes the entry from the line's move rays (``TaflRules._rays``), so the move
    generator's hot loop is a plain subscript per line and a miss is one call.
    """

    __slots__ = ("rules", "c", "li", "n", "rays_of")

    def __init__(self, rules: TaflRules, c: int, li: int) -> None:
        super().__init__()
        self.rules, self.c, self.li = rules, c, li
        self.n = rules.W if li < rules.H else rules.H
        self.rays_of = rules.rays[c][li]

    def __missing__(self, key: int) -> tuple[Move, ...]:
        """The moves of every mover on the line; ``key`` packs the line occupancy (low ``n``
        bits) and the movers above it."""
        n = self.n
        occ = key & ((1 << n) - 1)
        movers = key >> n
        if not movers & (movers - 1):  # one mover on the line (the common case): no list needed
            i = movers.bit_length() - 1
            rays = self.rays_of[i] or self.rules._rays(self.c, self.li, i)
            above = occ >> (i + 1)
            res = (rays[0][(above & -above).bit_length() + i if above else n]
                   + rays[1][(occ & (movers - 1)).bit_length()])
        else:  # several movers: each one's own entry, lowest first
            out: list[Move] = []
            while movers:
                low = movers & -movers
                movers ^= low
                out.extend(self[occ | low << n])
            res = tuple(out)
        if len(self) > 200_000:
            self.clear()
        self[key] = res
        return res


#: Rules of the same board and toggles compiled once: building the tables (neighbours, the
#: squares each piece class may cross or stop on, the line memos) takes some milliseconds, and a
#: game's record, a replay, an analysis and the window each build rules of the same variant.  The
#: memos filled as games are played are shared too (they depend on the board and the toggles
#: only).  The most recently used :data:`COMPILED_KEPT` are kept, so a file of many made-up
#: variants cannot grow it without end: enough for every one-toggle change of a preset that
#: fitting a record's rules tries (50 for Copenhagen), some 0.4 MB each on 11x11 before play.
_COMPILED: dict[tuple[object, ...], dict[str, Any]] = {}
COMPILED_KEPT = 64
#: Attributes of one rules object that come from its variant, not from the compiled tables.
_PER_VARIANT = frozenset({"variant", "start"})


def _compiled_key(g: GridGeometry, opts: dict[str, OptionValue]) -> tuple[object, ...]:
    """What the compiled tables depend on: the board's size, marks and walls, and the toggles in force."""
    marks = tuple(sorted((kind, tuple(sorted(squares))) for kind, squares in g.marks.items()))
    return (g.width, g.height, marks, tuple(sorted(g.walls)), tuple(sorted(opts.items())))


class TaflRules:
    """The rules of one Tafl variant, compiled from its geometry and option values."""

    family = "tafl"

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        g = variant.grid
        # a toggle that does not apply under the others (the panel greys it, the rule sheet leaves it
        # out) plays as its default, so no rule is in force that the player cannot see
        opts = TAFL_OPTIONS.for_board(variant.board_features).in_force(variant.options)
        key = _compiled_key(g, opts)
        compiled = _COMPILED.get(key)
        if compiled is None:
            self._compile(g, opts)
            compiled = {k: v for k, v in vars(self).items() if k not in _PER_VARIANT}
            _COMPILED[key] = compiled
            while len(_COMPILED) > COMPILED_KEPT:
                _COMPILED.pop(next(iter(_COMPILED)))
        else:
            _COMPILED[key] = _COMPILED.pop(key)  # most recently used last
            vars(self).update(compiled)
        self.start = self.parse_position(variant.setup, Side.parse(str(self.opts["first_move"])))

    def _compile(self, g: GridGeometry, opts: dict[str, OptionValue]) -> None:
        """Build every table the rules play from: a function of the board and the toggles alone,
        so rules of the same board and toggles share them (see :data:`_COMPILED`)."""
        self.geometry = g
        self.opts = opts
        o = self.opts
        W, H = g.width, g.height
        self.W, self.H, self.N = W, H, W * H
        self.full = (1 << self.N) - 1
        self.bit = [1 << s for s in range(self.N)]
        self.tbit = [1 << ((s % W) * H + s // W) for s in range(self.N)]

        thrones = g.marked("throne")
        self.throne = min(thrones) if thrones else -1
        self.corners = g.marked("corner")
        self.camps = g.marked("camp") if o["camps"] else frozenset()
        self.camp_group: dict[int, int] = {}
        for i, grp in enumerate(g.mark_groups("camp") if o["camps"] else []):
            for s in grp:
                self.camp_group[s] = i
        if o["escape"] == "corner":
            esc = set(self.corners)
        elif o["escape"] == "edge":
            esc = {s for s in range(self.N) if g.is_edge(s)}
        else:
            esc = set(g.marked("escape"))
        self.escape_mask = self._mask(esc)
        self.edge_mask = self._mask(s for s in range(self.N) if g.is_edge(s))
        self.corner_mask = self._mask(self.corners)
        self.not_file_a = self._mask(s for s in range(self.N) if s % W != 0)
        self.not_file_last = self._mask(s for s in range(self.N) if s % W != W - 1)
        self.walls: frozenset[tuple[int, int]] = getattr(g, "walls", frozenset())
        # squares from which one step east / west / north / south stays on the board and crosses no wall
        self.open_e = self._mask(s for s in range(self.N) if s % W != W - 1 and not self._wall(s, s + 1))
        self.open_w = self._mask(s for s in range(self.N) if s % W != 0 and not self._wall(s, s - 1))
        self.open_n = self._mask(s for s in range(self.N - W) if not self._wall(s, s + W))
        self.open_s = self._mask(s for s in range(W, self.N) if not self._wall(s, s - W))
        self.throne_bit = self.bit[self.throne] if self.throne >= 0 else 0

        self.maxdist = 1 if o["movement"] == "single_step" else max(W, H)
        king_speed = int(o["king_speed"])
        self.king_maxdist = self.maxdist if not king_speed else min(self.maxdist, king_speed)
        armed = o["king_armed"]
        self.king_hammer = armed in ("yes", "hammer")
        self.king_anvil = armed in ("yes", "anvil")
        self.edge_hostile = bool(o["edge_hostile"])
        self.king_edge_capture = bool(o["king_edge_capture"])
        #: the hostile rim acts against the king too (``edge_hostile_king``)
        self.rim_against_king = self.edge_hostile and bool(o["edge_hostile_king"])
        #: strict custodian counts hostile squares and the hostile rim as enemies
        self.strict_squares = bool(o["strict_custodian_squares"])
        #: a legality rule that needs the game's history (see forbids_repetition)
        self.no_repeat = o["repetition"] == "defenders_no_repeat"
        #: hnefatafl.org's move limit and its "king can't escape" test (None when off)
        self.turn_limit = int(o["turn_limit"])
        self.cant_escape = (CantEscape(W, H, self.corners) if o["cant_escape"] and self.corners else None)

        # squares from which a move can close a shield wall: the edge, or one in from it
        inner = self.edge_mask if o["shield_wall_flank"] else self._mask(
            s for s in range(self.N) if any(g.is_edge(n) for n in g.neighbours(s)))
        self.wall_trigger = self.edge_mask | inner
        self._build_hostility()
        self._build_restrictions()
        self._build_attacker_reach()
        self._build_lines()
        self._build_neighbours()
        self._fort_cache: dict[tuple[int, int, int], bool] = {}

    # ---------------------------------------------------------------------------------- set-up
    def _wall(self, a: int, b: int) -> bool:
        return (min(a, b), max(a, b)) in self.walls

    def _mask(self, squares: Iterable[int]) -> int:
        m = 0
        for s in squares:
            m |= 1 << s
        return m

    def _build_hostility(self) -> None:
        """Squares that act as capturing partners against each side: always, or only when empty."""
        o = self.opts
        always = [0, 0]
        empty = [0, 0]
        if self.throne >= 0:
            t = self.throne_bit
            mode = o["throne_hostile"]
            if mode in ("attackers", "empty_all", "always"):
                always[ATT] |= t
            if mode == "empty_all":
                empty[DEF] |= t
            if mode == "always":
                always[DEF] |= t
        if o["corners_hostile"]:
            always[ATT] |= self.corner_mask  # a defender standing there is a partner against attackers anyway
            if o["corners_hostile_occupied"]:
                always[DEF] |= self.corner_mask
            else:  # hostile to defenders only while empty
                empty[DEF] |= self.corner_mask
        if self.camps:
            cm = self._mask(self.camps)
            mode = o["camps_hostile"]
            if mode in ("defenders", "all", "always", "always_but_middle"):
                always[DEF] |= cm
            if mode == "all":
                empty[ATT] |= cm
            if mode == "always":  # an attacker standing there does not make it friendly
                always[ATT] |= cm
            if mode == "always_but_middle":  # the competition's referee: a camp's middle spares attackers
                always[ATT] |= cm & ~self._mask(self.camp_middles())
        self.host_always = always
        self.host_empty = empty

    def camp_middles(self) -> frozenset[int]:
        """Camp squares whose every neighbour is a camp square: the middle of a camp (a5, e1, i5
        and e9 on the competition's Tablut board), which its referee never lets take an attacker."""
        g = self.geometry
        return frozenset(s for s in self.camps
                         if all(n in self.camps for n in g.neighbours(s) if not self._wall(s, n)))

    def _build_restrictions(self) -> None:
        """Per piece class and origin: squares that block the path, and squares it may not stop on."""
        o = self.opts
        N = self.N
        thr = {self.throne} if self.throne >= 0 else set()
        corners = set(self.corners)
        camps = set(self.camps)
        self.block: list[list[set[int]]] = [[set() for _ in range(N)] for _ in range(3)]
        self.nostop: list[list[set[int]]] = [[set() for _ in range(N)] for _ in range(3)]
        # squares a piece may stop on but not pass (the throne for a king who may return to it
        # when nobody may cross it)
        self.endpoint: list[list[set[int]]] = [[set() for _ in range(N)] for _ in range(3)]
        pass_mode = o["throne_passable"]
        crossing = o["camp_crossing"]
        for s in range(N):
            for c in (C_ATT, C_DEF, C_KING):
                blk, nst = self.block[c][s], self.nostop[c][s]
                # throne: only the king may stop (if re-entry allowed); passing as configured
                if thr:
                    can_pass = pass_mode == "everyone" or (pass_mode == "king" and c == C_KING)
                    (nst if can_pass else blk).update(thr)
                    if c == C_KING and o["throne_reentry"]:
                        nst.discard(self.throne)
                        if self.throne in blk:
                            blk.discard(self.throne)
                            self.endpoint[c][s].add(self.throne)
                # corners: the king's refuge, closed to soldiers (or to attackers only)
                if c == C_ATT or (c == C_DEF and o["corner_entry"] == "king"):
                    blk.update(corners)
                # camps
                if camps:
                    if c == C_ATT:
                        own = self.camp_group.get(s)
                        if not o["camp_reentry"]:
                            if own is not None and o["camp_to_camp"]:
                                closed = set()  # from any camp square into any camp (OpenTafl's aforre)
                            else:
                                closed = {q for q in camps if self.camp_group[q] != own}
                            (nst if crossing in ("attackers", "everyone") else blk).update(closed)
                    else:
                        (nst if crossing == "everyone" else blk).update(camps)

    def _build_attacker_reach(self) -> None:
        """Special squares no attacker can ever enter or cross (``att_closed``), and those no
        attacker can ever stop on (``att_nostand``, a superset): what an exit fort may rely on."""
        closed = 0
        never = [0, 0, 0]  # per piece class: squares it may never stop on
        special = set(self.corners) | set(self.camps) | ({self.throne} if self.throne >= 0 else set())
        others = range(self.N)
        for q in special:
            if all(q in self.block[C_ATT][o] for o in others if o != q):
                closed |= 1 << q
            for c in (C_ATT, C_DEF, C_KING):
                if all(q in self.block[c][o] or q in self.nostop[c][o] for o in others if o != q):
                    never[c] |= 1 << q
        self.att_closed = closed
        self.never_stop = never
        self.att_nostand = never[C_ATT]
        self.def_hostile = self.host_always[DEF] | self.host_empty[DEF]

    def _build_lines(self) -> None:
        """Rows and columns as lines: shift and mask into the row-major or column-major board."""
        W, H = self.W, self.H
        self.rows = [(r * W, tuple(r * W + f for f in range(W))) for r in range(H)]
        self.cols = [(f * H, tuple(r * W + f for r in range(H))) for f in range(W)]
        self.row_mask = (1 << W) - 1
        self.col_mask = (1 << H) - 1
        # rays[class][line][position]: see _rays (None until first used)
        self.rays: list[list[list[Any]]] = [[[None] * (W if li < H else H) for li in range(H + W)]
                                            for _ in range(3)]
        # memo[class][line] : {key: tuple of moves}; rows first, then columns
        self.memo: list[list[_LineMemo]] = [[_LineMemo(self, c, li) for li in range(H + W)] for c in range(3)]
        # (line memo, shift) per class, for the hot loops of legal_moves
        self.row_memos = [[(self.memo[c][r], r * W) for r in range(H)] for c in range(3)]
        self.col_memos = [[(self.memo[c][H + f], f * H) for f in range(W)] for c in range(3)]

    def _build_neighbours(self) -> None:
        """For each square: (neighbour, square beyond it or -1 when beyond is off the board)."""
        g = self.geometry
        W = self.W
        self.adj2: list[tuple[tuple[int, int], ...]] = []
        self.adj: list[tuple[int, ...]] = []
        self.adj_mask: list[int] = []
        self.adj_dirs: list[tuple[int | None, ...]] = []  # neighbour per direction, None off-board
        for s in range(self.N):
            f, r = g.file_rank(s)
            pairs = []
            per_dir: list[int | None] = []
            for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                # a wall counts as the board's edge for the pieces on either side of it
                if g.on_board(f + df, r + dr) and not self._wall(s, s + df + dr * W):
                    n = s + df + dr * W
                    far = n + df + dr * W if g.on_board(f + 2 * df, r + 2 * dr) else -1
                    if far >= 0 and self._wall(n, far):
                        far = -1
                    pairs.append((n, far))
                    per_dir.append(n)
                else:
                    per_dir.append(None)
            self.adj2.append(tuple(pairs))
            self.adj.append(tuple(n for n, _ in pairs))
            self.adj_mask.append(self._mask(n for n, _ in pairs))
            self.adj_dirs.append(tuple(per_dir))

    # ------------------------------------------------------------------------------ protocol
    def initial_position(self) -> TaflPosition:
        return self.start

    def side_to_move(self, pos: TaflPosition) -> Side:
        return Side(pos.side)

    def position_key(self, pos: TaflPosition) -> tuple[int, int, int, int]:
        return (pos.att, pos.dfn, pos.king, pos.side)

    def board_key(self, pos: TaflPosition) -> tuple[int, int, int]:
        """The board alone, without the side to move: what the no-repeat rule compares
        (hnefatafl.org: "If the defender would repeat a board position, the move is not allowed")."""
        return (pos.att, pos.dfn, pos.king)

    def board_of_key(self, key: tuple[int, int, int, int]) -> tuple[int, int, int]:
        """The board part of a :meth:`position_key` (for a history kept as position keys)."""
        return (key[0], key[1], key[2])

    # ------------------------------------------------------------------------- move generation
    def _rays(self, c: int, li: int, i: int) -> tuple[list[tuple[Move, ...]], list[tuple[Move, ...]]]:
        """Moves of a class-``c`` piece at position ``i`` of line ``li``, by where the nearest
        piece stands on each side of it (built once per origin, on first use).

        Everything that limits a move except the other pieces is fixed by the rules (squares
        that block, squares it may cross but not stop on, squares it may stop on but not pass,
        the move length), so each direction is walked once here.  ``up[j]`` is the tuple of
        moves towards higher positions when the nearest piece that way stands at ``j`` (``n``
        when none does); ``down[j + 1]`` the same downwards (``-1`` when none does).
        """
        is_row = li < self.H
        n = self.W if is_row else self.H
        squares = self.rows[li][1] if is_row else self.cols[li - self.H][1]
        maxd = self.king_maxdist if c == C_KING else self.maxdist
        s = squares[i]
        blk, nst, end = self.block[c][s], self.nostop[c][s], self.endpoint[c][s]
        walks: list[list[tuple[int, Move]]] = []
        for step in (1, -1):
            walk: list[tuple[int, Move]] = []
            j, d = i + step, 1
            while 0 <= j < n and d <= maxd:
                t = squares[j]
                if t in blk or (self.walls and self._wall(squares[j - step], t)):
                    break
                if t not in nst:
                    walk.append((j, (s, t)))
                if t in end:
                    break
                j += step
                d += 1
            walks.append(walk)
        up = [tuple(m for k, m in walks[0] if k < j0) for j0 in range(n + 1)]
        down = [tuple(m for k, m in walks[1] if k > j0) for j0 in range(-1, n)]
        rays = (up, down)
        self.rays[c][li][i] = rays
        return rays

    def _origin_moves(self, c: int, li: int, i: int, occ: int) -> tuple[Move, ...]:
        """Moves of a class-``c`` piece at position ``i`` of line ``li`` given the line occupancy:
        the line memo's entry with that piece as the only mover."""
        memo = self.memo[c][li]
        return memo[occ | (1 << i) << memo.n]

    def _line_tables(self, pos: TaflPosition) -> tuple[int, int, int, int]:
        """(occupancy, occupancy transposed, king bit, king bit transposed) of a position."""
        king = pos.king
        if king >= 0:
            kb, kt = self.bit[king], self.tbit[king]
        else:
            kb = kt = 0
        occ = pos.att | pos.dfn | kb
        occT = pos.attT | pos.dfnT | kt
        return occ, occT, kb, kt

    def legal_moves(self, pos: TaflPosition) -> list[Move]:
        """All legal moves of the side to move (empty when the position is decided)."""
        if pos.result is not None:
            return []
        occ, occT, kb, kt = self._line_tables(pos)
        out: list[Move] = []
        extend = out.extend
        W, H = self.W, self.H
        rm, cm = self.row_mask, self.col_mask
        if pos.side == ATT:
            c, movers, moversT = C_ATT, pos.att, pos.attT
        else:
            c, movers, moversT = C_DEF, pos.dfn, pos.dfnT
        if movers:
            for memo, shift in self.row_memos[c]:
                m = (movers >> shift) & rm
                if m:
                    extend(memo[((occ >> shift) & rm) | (m << W)])
            for memo, shift in self.col_memos[c]:
                m = (moversT >> shift) & cm
                if m:
                    extend(memo[((occT >> shift) & cm) | (m << H)])
        if pos.side == DEF and kb:
            king = pos.king
            r, f = divmod(king, W)
            extend(self._origin_moves(C_KING, r, f, (occ >> (r * W)) & rm))
            extend(self._origin_moves(C_KING, H + f, r, (occT >> (f * H)) & cm))
        return out

    def count_moves(self, pos: TaflPosition) -> int:
        """Number of legal moves (perft's leaf count) without building the list."""
        if pos.result is not None:
            return 0
        occ, occT, kb, kt = self._line_tables(pos)
        W, H = self.W, self.H
        rm, cm = self.row_mask, self.col_mask
        total = 0
        if pos.side == ATT:
            c, movers, moversT = C_ATT, pos.att, pos.attT
        else:
            c, movers, moversT = C_DEF, pos.dfn, pos.dfnT
        if movers:
            for memo, shift in self.row_memos[c]:
                m = (movers >> shift) & rm
                if m:
                    total += len(memo[((occ >> shift) & rm) | (m << W)])
            for memo, shift in self.col_memos[c]:
                m = (moversT >> shift) & cm
                if m:
                    total += len(memo[((occT >> shift) & cm) | (m << H)])
        if pos.side == DEF and kb:
            king = pos.king
            r, f = divmod(king, W)
            total += len(self._origin_moves(C_KING, r, f, (occ >> (r * W)) & rm))
            total += len(self._origin_moves(C_KING, H + f, r, (occT >> (f * H)) & cm))
        return total

    def moves_from(self, pos: TaflPosition, square: int) -> list[int]:
        """Target squares of the legal moves of the piece on ``square`` (for highlighting)."""
        return [t for f, t in self.legal_moves(pos) if f == square]

    # ------------------------------------------------------------------------------ making moves
    def play(self, pos: TaflPosition, move: Move) -> tuple[TaflPosition, tuple[int, ...]]:
        """Play a move known to be legal; returns the new position and the captured squares."""
        frm, to = move
        bit, tbit = self.bit, self.tbit
        att, dfn, attT, dfnT, king = pos.att, pos.dfn, pos.attT, pos.dfnT, pos.king
        side = pos.side
        fb, tb = bit[frm] | bit[to], tbit[frm] | tbit[to]
        king_moved = False
        if side == ATT:
            att ^= fb
            attT ^= tb
        elif frm == king:
            king = to
            king_moved = True
        else:
            dfn ^= fb
            dfnT ^= tb
        caps: list[int] = []
        o = self.opts
        kb = bit[king] if king >= 0 else 0
        occ = att | dfn | kb
        king_taken = False

        # -- custodial captures (the mover is the hammer) -------------------------------------
        if not king_moved or self.king_hammer:
            if side == ATT:
                friends, enemies, victim = att, dfn, DEF
                anvil_extra = 0
            else:
                friends, enemies, victim = dfn, att, ATT
                anvil_extra = kb if self.king_anvil else 0
            near = enemies & self.adj_mask[to]
            anvils = friends | anvil_extra | self.host_always[victim] | (self.host_empty[victim] & ~occ)
            for n, far in (self.adj2[to] if near else ()):
                if enemies >> n & 1:
                    if (far < 0 and self.edge_hostile) or (far >= 0 and anvils >> far & 1):
                        caps.append(n)
                    elif (far >= 0 and side == ATT and far == king and king == self.throne
                          and o["linnaean_capture"] and self._king_otherwise_surrounded(att, king, n)):
                        caps.append(n)
        if caps:
            for c in caps:
                if side == ATT:
                    dfn &= ~bit[c]
                    dfnT &= ~tbit[c]
                else:
                    att &= ~bit[c]
                    attT &= ~tbit[c]
            occ = att | dfn | kb

        # -- shield walls ----------------------------------------------------------------------
        if o["shield_wall"] and self.wall_trigger >> to & 1 and (not king_moved or self.king_hammer):
            wall, wall_king = self._shield_walls(att, dfn, king, side, to)
            for c in wall:
                caps.append(c)
                if side == ATT:
                    dfn &= ~bit[c]
                    dfnT &= ~tbit[c]
                else:
                    att &= ~bit[c]
                    attT &= ~tbit[c]
            if wall_king:
                king_taken = True
            occ = att | dfn | kb

        # -- immobilisation ----------------------------------------------------------------------
        if o["immobilisation"] and (not king_moved or self.king_hammer):
            for n in self.adj[to]:
                foes = (dfn | kb) if side == ATT else att
                if foes >> n & 1 and self._immobilised(att, dfn, king, n, to):
                    if n == king:
                        king_taken = True
                    else:
                        caps.append(n)
                        if side == ATT:
                            dfn &= ~bit[n]
                            dfnT &= ~tbit[n]
                        else:
                            att &= ~bit[n]
                            attT &= ~tbit[n]
            occ = att | dfn | kb

        # -- the king ------------------------------------------------------------------------------
        if side == ATT and king >= 0 and not king_taken and self.adj_mask[king] >> to & 1:
            king_taken = self._king_captured(att, dfn, king, to)

        # -- strict custodian: the mover itself may die where it stopped -------------------------
        strict = o["strict_custodian"]
        if strict != "off" and not king_taken:
            if king_moved:
                if strict == "everyone" and self._king_captured(att, dfn, king, -1):
                    caps.append(to)
                    king_taken = True
            elif self._sandwiched(att, dfn, king, to, side):
                caps.append(to)
                if side == ATT:
                    att &= ~bit[to]
                    attT &= ~tbit[to]
                else:
                    dfn &= ~bit[to]
                    dfnT &= ~tbit[to]

        if king_taken:
            if king not in caps:
                caps.append(king)
            king = -1
        result: Outcome | None = None
        if king < 0:
            result = Outcome(Side.ATTACKERS, "king_captured")
        elif self.escape_mask >> king & 1 and (not o["escape_safe"] or (
                side == DEF and self._escape_is_safe(att, dfn, attT, dfnT, king))):
            result = Outcome(Side.DEFENDERS, "king_escaped")
        elif side == DEF and o["edge_forts"] and self.edge_mask >> king & 1 and self._edge_fort(att, dfn, king):
            result = Outcome(Side.DEFENDERS, "edge_fort")
        elif side == ATT and o["encirclement"] and self._encircled(att, attT, dfn, king):
            result = Outcome(Side.ATTACKERS, "encircled")
        ply = pos.ply + 1
        if result is None:
            # as hnefatafl.org orders them (src/board.rs play_internal, src/game.rs Game::play):
            # a win on the board first, then the move limit, then "the king can't escape"
            if self.turn_limit and ply >= self.turn_limit:
                result = Outcome(None, "turn_limit")
            elif self.cant_escape is not None and self.cant_escape.king_cannot_escape(att, dfn, king):
                result = Outcome(Side.ATTACKERS, "cant_escape")
        quiet = 0 if caps else pos.quiet + 1
        return TaflPosition(att, dfn, attT, dfnT, king, 1 - side, quiet, result, ply), tuple(caps)

    def _escape_is_safe(self, att: int, dfn: int, attT: int, dfnT: int, king: int) -> bool:
        """Safe edge escape (source 000, 'full tablut'): no attacker move captures the king next."""
        probe = TaflPosition(att, dfn, attT, dfnT, king, ATT)
        return not self.king_threats(probe)

    # ------------------------------------------------------------------------------ capture tests
    def _hostile_to(self, victim: int, square: int, att: int, dfn: int, king: int) -> bool:
        """Does ``square`` act against a piece of side ``victim`` (as enemy piece or hostile square)?"""
        b = self.bit[square]
        occ = att | dfn | (self.bit[king] if king >= 0 else 0)
        if victim == DEF:
            if att & b:
                return True
        else:
            if dfn & b or (square == king and self.king_anvil):
                return True
        return bool(self.host_always[victim] & b or (self.host_empty[victim] & b and not occ & b))

    def _king_otherwise_surrounded(self, att: int, king: int, spared: int) -> bool:
        """Linnaean capture: attackers on every side of the throned king except ``spared``."""
        return all(att >> n & 1 for n in self.adj[king] if n != spared) and len(self.adj[king]) == 4

    def _king_side_hostile(self, att: int, dfn: int, king: int, n: int | None) -> bool:
        """One side of the king for a four-sided capture: attacker, hostile square or (maybe) the edge."""
        if n is None:
            return self.king_edge_capture or self.rim_against_king
        return self._hostile_to(DEF, n, att, dfn, king)

    def _king_captured(self, att: int, dfn: int, king: int, mover: int) -> bool:
        """Is the king captured?  ``mover`` is the attacker that just moved next to him (-1: any)."""
        mode = self.opts["king_capture"]
        thr = self.throne
        if mode == "strong":
            four = True
        elif mode == "double_weak":
            four = king == thr
        elif mode == "weak_near_throne":
            four = thr >= 0 and (king == thr or thr in self.adj[king])
        else:
            four = False
        dirs = self.adj_dirs[king]
        if four:
            return all(self._king_side_hostile(att, dfn, king, n) for n in dirs)
        # custodial: two opposite sides
        for a, b in ((dirs[0], dirs[1]), (dirs[2], dirs[3])):
            if mover >= 0 and mover not in (a, b):
                continue
            if self._custodial_side(att, dfn, king, a) and self._custodial_side(att, dfn, king, b):
                return True
        return False

    def _custodial_side(self, att: int, dfn: int, king: int, n: int | None) -> bool:
        if n is None:
            return self.rim_against_king
        return self._hostile_to(DEF, n, att, dfn, king)

    def _sandwiched(self, att: int, dfn: int, king: int, s: int, side: int) -> bool:
        """Strict custodian: is the soldier on ``s`` between two enemies (or, with
        ``strict_custodian_squares``, hostile squares and the hostile rim)?"""
        victim = side
        dirs = self.adj_dirs[s]
        squares = self.strict_squares
        enemy = att if victim == DEF else dfn | (self.bit[king] if king >= 0 and self.king_anvil else 0)
        for a, b in ((dirs[0], dirs[1]), (dirs[2], dirs[3])):
            ok = True
            for n in (a, b):
                if n is None:
                    if not (squares and self.edge_hostile):
                        ok = False
                        break
                elif not (self._hostile_to(victim, n, att, dfn, king) if squares else enemy >> n & 1):
                    ok = False
                    break
            if ok:
                return True
        return False

    def _immobilised(self, att: int, dfn: int, king: int, s: int, mover: int) -> bool:
        """Immobilisation: every neighbour of ``s`` is the rim, the piece that just moved (the
        hammer), a standing enemy able to capture, or a hostile square."""
        victim = ATT if att >> s & 1 else DEF
        for n in self.adj_dirs[s]:
            if n is None or n == mover:
                continue
            if not self._hostile_to(victim, n, att, dfn, king):
                return False
        return True

    def _shield_walls(self, att: int, dfn: int, king: int, side: int, to: int) -> tuple[list[int], bool]:
        """Edge rows captured by the move to ``to``; returns (captured soldiers, king captured)."""
        g = self.geometry
        o = self.opts
        if side == ATT:
            enemy = dfn | (self.bit[king] if king >= 0 else 0)
            friends = att
        else:
            enemy = att
            # standing kings are anvils; the moving piece on ``to`` is the hammer (checked by the caller)
            friends = dfn | (self.bit[king] if king >= 0 and self.king_anvil else 0) | self.bit[to]
        # candidate edge squares holding an enemy, each with the along-edge step
        starts: list[tuple[int, int]] = []
        W = self.W
        f, r = g.file_rank(to)
        if g.is_edge(to):
            # along the edge (both edges from a board's corner square: on a board without marked
            # corners any piece may stop there, and a piece there brackets like any other)
            along = ((1, -1) if r in (0, self.H - 1) else ()) + ((W, -W) if f in (0, W - 1) else ())
            for st in along:
                n = to + st
                if 0 <= n < self.N and (st != 1 or n % W) and (st != -1 or to % W) and enemy >> n & 1:
                    starts.append((n, st))
        if not o["shield_wall_flank"]:
            for e in self.adj[to]:
                if g.is_edge(e) and not g.is_edge(to) and enemy >> e & 1:
                    ef, er = g.file_rank(e)
                    starts.append((e, 1 if er in (0, self.H - 1) else W))
        captured: list[int] = []
        king_hit = False
        seen: set[int] = set()
        for start, st in starts:
            run = self._edge_run(enemy, start, st)
            if run[0] in seen or len(run) < 2:
                continue
            seen.add(run[0])
            lo, hi = run[0], run[-1]
            step = abs(st)
            ends = (lo - step, hi + step)
            ok = True
            for e, inner in ((ends[0], lo), (ends[1], hi)):
                if not self._along_neighbour(inner, e, step):
                    ok = False
                    break
                if friends >> e & 1:
                    continue
                if e in self.corners and o["shield_wall_corners"]:
                    continue
                ok = False
                break
            if not ok:
                continue
            if o["shield_wall_flank"] and to not in ends:
                continue
            if not all(self._faced(m, friends) for m in run):
                continue
            for m in run:
                if m == king:
                    if not o["shield_wall_king_spared"]:
                        king_hit = True
                else:
                    captured.append(m)
        return captured, king_hit

    def _along_neighbour(self, s: int, e: int, step: int) -> bool:
        """Is ``e`` on the board and really next to ``s`` along the edge (no wrap-around)?"""
        if not 0 <= e < self.N:
            return False
        return (step != 1 or e // self.W == s // self.W) and not (self.walls and self._wall(s, e))

    def _edge_run(self, enemy: int, start: int, st: int) -> list[int]:
        """The maximal run of enemy pieces along the edge containing ``start``, in ascending order."""
        step = abs(st)
        lo = start
        while self._along_neighbour(lo, lo - step, step) and enemy >> (lo - step) & 1:
            lo -= step
        hi = start
        while self._along_neighbour(hi, hi + step, step) and enemy >> (hi + step) & 1:
            hi += step
        return list(range(lo, hi + 1, step))

    def _faced(self, m: int, friends: int) -> bool:
        """Is edge square ``m`` faced by a friendly piece on its inner side?"""
        g = self.geometry
        f, r = g.file_rank(m)
        if r == 0:
            inner = m + self.W
        elif r == self.H - 1:
            inner = m - self.W
        elif f == 0:
            inner = m + 1
        else:
            inner = m - 1
        return bool(friends >> inner & 1) and not (self.walls and self._wall(m, inner))

    # --------------------------------------------------------------------------- region tests
    def _dilate(self, x: int) -> int:
        """``x`` grown by one orthogonal step (no wrap-around between files)."""
        W = self.W
        return (x | ((x & self.open_e) << 1) | ((x & self.open_w) >> 1)
                | ((x & self.open_n) << W) | ((x & self.open_s) >> W))

    def _encircled(self, att: int, attT: int, dfn: int, king: int) -> bool:
        """No defender (king included) can reach the edge through squares free of attackers."""
        region = dfn | (self.bit[king] if king >= 0 else 0)
        if region & self.edge_mask:
            return False
        if king >= 0 and not self.walls and self._clear_ray_to_edge(att, attT, king):
            return False  # cheap and by far the usual answer: the king sees the edge
        allowed = self.full & ~att
        while True:
            grown = self._dilate(region) & allowed
            if grown & self.edge_mask:
                return False
            if grown == region:
                return True
            region = grown

    def _clear_ray_to_edge(self, att: int, attT: int, s: int) -> bool:
        """Is there a row or column ray from ``s`` to the edge with no attacker on it?"""
        W = self.W
        r, f = divmod(s, W)
        row = (att >> (r * W)) & self.row_mask
        if not row >> f or not row & ((1 << f) - 1):
            return True
        col = (attT >> (f * self.H)) & self.col_mask
        return not col >> r or not col & ((1 << r) - 1)

    def _edge_fort(self, att: int, dfn: int, king: int) -> bool:
        """Copenhagen exit fort (cached per position): see :meth:`_find_edge_fort`."""
        key = (att, dfn, king)
        hit = self._fort_cache.get(key)
        if hit is None:
            if len(self._fort_cache) > 50_000:
                self._fort_cache.clear()
            hit = self._fort_cache[key] = self._find_edge_fort(att, dfn, king)
        return hit

    def _find_edge_fort(self, att: int, dfn: int, king: int) -> bool:
        """Is the king (on the edge) in an exit fort the attackers can never break?

        Copenhagen rules: the defenders win when the king "has contact with the board edge, is
        able to move, and it is impossible for the attackers to break the fort".  Read here as:

        * the king's space (he and the empty squares he can reach, grown through every square an
          attacker could enter; a corner or other square closed to attackers is part of it but
          nothing grows past it) touches no attacker, and the king has a legal move;
        * every defender around that space is *safe*: the largest set of defenders none of which
          could be captured even if every square outside the space and the set held an attacker
          (custodial captures against attackers and squares hostile to defenders, the rim when
          it is hostile, shield walls when they are on, immobilisation when it is on; the king
          by the king-capture rules in force), where a capture counts only if it needs no more
          attackers than stand on the board (a lone attacker can take a defender only against a
          hostile square).  A square no attacker can reach (an empty pocket sealed by such
          defenders) acts against nobody.

        Defenders outside the ring count when they are safe by the same test, however far out
        (a wall backed by a second wall, a piece holding a wall piece from outside); a defender
        that could itself be captured counts for nothing.  Nothing is assumed about the
        defenders' later moves: the fort is judged as it stands, when the game ends.
        """
        kb = self.bit[king]
        empty = self.full & ~(att | dfn | kb)
        region = frontier = kb
        closed = self.att_closed
        while frontier:
            around = self._dilate(frontier & ~closed)
            if around & att:
                return False  # an attacker touches the king's space
            frontier = around & empty & ~region
            region |= frontier
        if region == kb:
            return False
        W, H = self.W, self.H
        r, f = divmod(king, W)
        occ = att | dfn | kb
        occT = self._transpose(occ)
        if not (self._origin_moves(C_KING, r, f, (occ >> (r * W)) & self.row_mask)
                or self._origin_moves(C_KING, H + f, r, (occT >> (f * H)) & self.col_mask)):
            return False  # the king cannot move
        attackers = att.bit_count()
        ring = self._dilate(region & ~closed) & ~region  # all defenders: attackers and empty squares ruled out above
        safe = dfn
        while True:
            # squares no attacker can ever reach count like the king's space: nothing acts from there
            sealed = region | self._never_reached(att, safe | kb | region)
            lost = 0
            for d in _bits(safe):
                if self._fort_piece_capturable(d, sealed, safe, dfn | kb, False, attackers):
                    lost |= 1 << d
            if not lost:
                break
            if lost & ring:
                return False
            safe &= ~lost
        return not self._fort_piece_capturable(king, sealed, safe | kb, dfn | kb, True, attackers)

    def _never_reached(self, att: int, walls: int) -> int:
        """Squares no attacker can ever stand on or pass: the board less everything the attackers
        reach from where they stand through squares that are not ``walls`` (pieces that stay, and
        the king's space) nor closed to them.  A pocket sealed by pieces that can never be taken
        is one the attackers can never use (Copenhagen: a fort is one "impossible for the
        attackers to break")."""
        allowed = self.full & ~(walls | self.att_closed)
        reach = att
        while True:
            grown = reach | (self._dilate(reach) & allowed)
            if grown == reach:
                return self.full & ~reach
            reach = grown

    def _transpose(self, x: int) -> int:
        out = 0
        tbit = self.tbit
        for q in _bits(x):
            out |= tbit[q]
        return out

    def _fort_cost(self, n: int | None, region: int, safe: int, king: bool = False) -> int:
        """How many attackers it takes to make ``n`` (None: the rim or a wall) act against a
        defender of the fort: 0 for a square (or rim) hostile by itself, 1 for a square an
        attacker could stand on, :data:`NEVER` when nothing there can ever act."""
        if n is None:
            rim = (self.rim_against_king or self.king_edge_capture) if king else self.edge_hostile
            return 0 if rim else NEVER
        b = 1 << n
        if self.def_hostile & b:
            return 0
        if region & b or safe & b or self.att_nostand & b:
            return NEVER
        return 1

    def _fort_piece_capturable(self, d: int, region: int, safe: int, pieces: int, is_king: bool,
                               attackers: int) -> bool:
        """Could the attackers capture the piece on ``d`` if every square outside ``region`` and
        ``safe`` were theirs, using no more than the ``attackers`` they have?  ``pieces`` are all
        the defenders and the king standing now.

        Counting material is what makes a fort against a lone attacker unbreakable (Copenhagen:
        "impossible for the attackers to break the fort"; hnefatafl.org counts the attackers the
        same way): a capture between two attackers needs two of them, a four-sided king capture
        four less the hostile squares and rim around him, a shield wall one per member and one per
        end that is not a corner."""
        o = self.opts
        dirs = self.adj_dirs[d]
        cost = self._fort_cost

        def enough(*sides: int) -> bool:
            return max(1, sum(sides)) <= attackers  # a capture needs at least the attacker that moves

        if is_king:
            mode = o["king_capture"]
            thr = self.throne
            four = (mode == "strong" or (mode == "double_weak" and d == thr)
                    or (mode == "weak_near_throne" and thr >= 0 and (d == thr or thr in self.adj[d])))
            if four:
                if enough(*(cost(n, region, safe, True) for n in dirs)):
                    return True
            elif any(enough(cost(a, region, safe, True), cost(b, region, safe, True))
                     for a, b in ((dirs[0], dirs[1]), (dirs[2], dirs[3]))):
                return True
            if not (o["shield_wall"] and not o["shield_wall_king_spared"]):
                return False
        else:
            if any(enough(cost(a, region, safe), cost(b, region, safe))
                   for a, b in ((dirs[0], dirs[1]), (dirs[2], dirs[3]))):
                return True
            if o["immobilisation"] and enough(*(0 if n is None else cost(n, region, safe) for n in dirs)):
                return True
        return bool(o["shield_wall"]) and self._fort_wall_breakable(d, region, safe, pieces, attackers)

    def _fort_wall_breakable(self, d: int, region: int, safe: int, pieces: int, attackers: int) -> bool:
        """Shield wall: could a row along the edge through ``d`` be bracketed at both ends with
        every member faced from inside, if the attackers held every square they might, with no
        more attackers than they have (one facing each member, one on each end but a corner)?"""
        dirs = self.adj_dirs[d]
        corners_close = self.opts["shield_wall_corners"]
        for along, across in (((0, 1), (2, 3)), ((2, 3), (0, 1))):
            out_side = [k for k in across if dirs[k] is None and not self._walled_dir(d, k)]
            if len(out_side) != 1:
                continue
            inner_k = across[1] if out_side[0] == across[0] else across[0]

            def faced(q: int, inner_k: int = inner_k) -> bool:  # an attacker could stand on q's inner side
                inner = self.adj_dirs[q][inner_k]
                return inner is not None and not (region | safe | self.att_nostand) >> inner & 1

            if not faced(d):
                continue
            members, ends, manned = 1, 0, 0
            for k in along:
                q = dirs[k]
                while True:
                    if q is None:
                        break
                    b = 1 << q
                    if q in self.corners:
                        if corners_close and not pieces & b:
                            ends += 1
                        break
                    if pieces & b and (safe | region) & b:  # a defender that stays (or the king)
                        if not faced(q):
                            break
                        members += 1
                        q = self.adj_dirs[q][k]
                        continue
                    if not region & b and not self.att_nostand & b:
                        ends += 1  # an attacker could stand here (a defender now that could be taken first)
                        manned += 1
                    break
            if ends == 2 and members >= 2 and members + manned <= attackers:
                return True
        return False

    def _walled_dir(self, d: int, k: int) -> bool:
        """Is direction ``k`` of ``d`` closed by a wall (rather than by the board's edge)?"""
        W = self.W
        step = (1, -1, W, -W)[k]
        f, r = d % W, d // W
        on = (f < W - 1, f > 0, r < self.H - 1, r > 0)[k]
        return on and self._wall(d, d + step)

    # ------------------------------------------------------------------------------- outcomes
    def outcome(self, pos: TaflPosition) -> Outcome | None:
        if pos.result is not None:
            return pos.result
        if self.count_moves(pos) == 0:
            if self.opts["no_moves"] == "draw":
                return Outcome(None, "no_moves")
            return Outcome(Side(1 - pos.side), "no_moves")
        n = int(self.opts["captureless_draw"])
        if n and pos.quiet >= n:
            return Outcome(None, "no_captures")
        return None

    def repetition_outcome(self, pos: TaflPosition, count: int) -> Outcome | None:
        mode = self.opts["repetition"]
        if mode == "defenders_no_repeat":
            # :class:`Game` refuses such a move (see forbids_repetition); a search that reaches
            # one anyway scores it as lost for the defenders, which keeps it off their choices
            return Outcome(Side.ATTACKERS, "repetition") if count >= 2 and pos.side == ATT else None
        if mode == "allowed" or count < int(self.opts["repetition_count"]):
            return None
        if mode == "mover_wins":
            return Outcome(Side(1 - pos.side), "repetition")  # OpenTafl tfr:l: the side completing it wins
        if mode == "draw":
            return Outcome(None, "repetition")
        if mode == "defenders_lose":
            return Outcome(Side.ATTACKERS, "repetition")
        return Outcome(Side(pos.side), "repetition")  # the side that just moved (made it) loses

    def forbids_repetition(self, pos: TaflPosition) -> bool:
        """Must the side to move avoid recreating an earlier board (hnefatafl.org's rule that a
        defenders' move may not repeat a board position, whichever side was to move there)?
        :class:`Game` applies it with :meth:`board_key`: it needs the history."""
        return self.no_repeat and pos.side == DEF

    def no_moves_outcome(self, pos: TaflPosition) -> Outcome:
        """The result when the side to move has no legal move."""
        if self.opts["no_moves"] == "draw":
            return Outcome(None, "no_moves")
        return Outcome(Side(1 - pos.side), "no_moves")

    # ---------------------------------------------------------------------------- square legality
    def square_violations(self, pos: TaflPosition) -> list[str]:
        """Pieces on squares they may never stand on under the rules in force, one sentence each
        naming the square and the rule (empty when the position is possible)."""
        g = self.geometry
        out: list[str] = []
        for q in _bits(pos.att & self.never_stop[C_ATT]):
            out.append(_NEVER_STOP_TEXT["attacker", self._square_kind(q)]().format(square=g.name(q)))
        for q in _bits(pos.dfn & self.never_stop[C_DEF]):
            out.append(_NEVER_STOP_TEXT["defender", self._square_kind(q)]().format(square=g.name(q)))
        if pos.king >= 0 and pos.king in self.camps:
            out.append(_("the king stands on {square}, a camp square, where he may never stop").format(
                square=g.name(pos.king)))
        if self.camps and not self.opts["camp_reentry"] and pos is not getattr(self, "start", None):
            start = getattr(self, "start", None)
            groups = g.mark_groups("camp")
            if self.opts["camp_to_camp"]:  # attackers move between camps, so only the camps' total is bounded
                groups = [frozenset().union(*groups)]
            for grp in groups:
                gm = self._mask(grp)
                had = bin(start.att & gm).count("1") if start is not None else None
                now = bin(pos.att & gm).count("1")
                if had is not None and now > had:
                    names = listing(g.name(q) for q in sorted(grp) if pos.att >> q & 1)
                    out.append(_("{now} attackers stand in the camp {squares}, which held {had} at the start and "
                                  "may never be entered from outside").format(now=now, squares=names, had=had))
        return out

    def check_squares(self, pos: TaflPosition) -> None:
        """Raise ValueError naming the first piece on a square it may never stand on."""
        bad = self.square_violations(pos)
        if bad:
            raise ValueError(bad[0])

    # ------------------------------------------------------------------------------ announcements
    def escape_routes(self, pos: TaflPosition) -> list[int]:
        """Escape squares the king could reach with his next move (Raichi: one, Tuichi: two+)."""
        if pos.king < 0 or pos.result is not None:
            return []
        probe = pos if pos.side == DEF else TaflPosition(pos.att, pos.dfn, pos.attT, pos.dfnT, pos.king, DEF)
        return [t for f, t in self.legal_moves(probe) if f == pos.king and self.escape_mask >> t & 1]

    def king_threats(self, pos: TaflPosition) -> list[Move]:
        """Attacker moves that would capture the king next ("Watch your king")."""
        if pos.king < 0 or pos.result is not None:
            return []
        probe = pos if pos.side == ATT else TaflPosition(pos.att, pos.dfn, pos.attT, pos.dfnT, pos.king, ATT)
        near = set(self.adj[pos.king])
        out = []
        for m in self.legal_moves(probe):
            if m[1] in near or self.opts["shield_wall"] or self.opts["immobilisation"]:
                nxt, _caps = self.play(probe, m)
                if nxt.king < 0:
                    out.append(m)
        return out

    # ------------------------------------------------------------------------------- notation
    def move_text(self, move: Move) -> str:
        g = self.geometry
        return "-".join(g.name(s) for s in move)

    def parse_move(self, pos: TaflPosition, text: str) -> Move:
        parts = (text.strip().lower() if text.isascii() else "").split("-")  # the Kelvin sign lower-cases to k
        if len(parts) != 2 or not parts[0] or not parts[1]:
            raise ValueError(_("{text} is not a move (expected e.g. e1-e5)").format(text=quote(text)))
        to = parts[1].split("x")[0]  # a record may append captures: e1-e5xe6
        return (self.geometry.parse_square(parts[0]), self.geometry.parse_square(to))

    def explain_illegal(self, pos: TaflPosition, move: Move) -> str:
        """A clause saying why ``move`` is not legal in ``pos`` (for the status bar, lessons and
        CLI), whole in the reader's language: each case is its own sentence in the catalogue,
        with a square's name the only thing filled in."""
        g = self.geometry
        if pos.result is not None:
            return _("the game is over ({result})").format(result=pos.result.describe(self.variant))
        if len(move) != 2:
            return _("a Tafl move goes from one square to another")
        frm, to = move
        if not (0 <= frm < self.N and 0 <= to < self.N):
            return _("the square is off the board")
        owner = self.piece_at(pos, frm)
        if owner is None:
            return _("there is no piece on {square}").format(square=g.name(frm))
        if (owner == ATTACKER_CHAR) != (pos.side == ATT):
            if pos.side == ATT:
                return _("the piece on {square} is not yours: it is the attackers' turn").format(square=g.name(frm))
            return _("the piece on {square} is not yours: it is the defenders' turn").format(square=g.name(frm))
        piece = "king" if frm == pos.king else "attacker" if owner == ATTACKER_CHAR else "defender"
        if frm == to:
            if not self.moves_from(pos, frm):
                return self._blocked_reason(piece, g.name(frm))
            return _STAY_TEXT[piece]().format(square=g.name(frm))
        (f1, r1), (f2, r2) = g.file_rank(frm), g.file_rank(to)
        if f1 != f2 and r1 != r2:
            return _("pieces move in straight lines along a row or column")
        dist = abs(f1 - f2) + abs(r1 - r2)
        c = C_KING if frm == pos.king else (C_ATT if owner == ATTACKER_CHAR else C_DEF)
        maxd = self.king_maxdist if c == C_KING else self.maxdist
        if dist > maxd:
            return ngettext("this piece may move at most {n} square", "this piece may move at most {n} squares",
                            maxd).format(n=maxd)
        step = (1 if f2 > f1 else -1 if f2 < f1 else 0) + (self.W if r2 > r1 else -self.W if r2 < r1 else 0)
        s = frm
        while s != to:
            if self.walls and self._wall(s, s + step):
                return _("a wall stands between {a} and {b}: no piece moves across a wall").format(
                    a=g.name(s), b=g.name(s + step))
            s += step
        s = frm + step
        while s != to:
            if self.piece_at(pos, s) is not None:
                return _("the way is blocked at {square}").format(square=g.name(s))
            if s in self.block[c][frm] or s in self.endpoint[c][frm]:
                return _CROSS_TEXT[self._square_kind(s)]().format(square=g.name(s))
            s += step
        if self.piece_at(pos, to) is not None:
            return _("{square} is occupied").format(square=g.name(to))
        if to in self.block[c][frm] or to in self.nostop[c][frm]:
            return _STOP_TEXT[self._square_kind(to)]().format(square=g.name(to))
        if not self.moves_from(pos, frm):
            return self._blocked_reason(piece, g.name(frm))
        return _("the rules do not allow this move")

    @staticmethod
    def _blocked_reason(piece: str, square: str) -> str:
        return _BLOCKED_TEXT[piece]().format(square=square)

    def _square_kind(self, s: int) -> str:
        """Which kind of special square ``s`` is ("throne", "corner", "camp" or "square"): the
        key of the whole sentence that names it."""
        if s == self.throne:
            return "throne"
        if s in self.corners:
            return "corner"
        if s in self.camps:
            return "camp"
        return "square"

    def piece_at(self, pos: TaflPosition, s: int) -> str | None:
        """'t' attacker, 'T' defender, 'K' king, or None."""
        if s == pos.king:
            return KING_CHAR
        if pos.att >> s & 1:
            return ATTACKER_CHAR
        if pos.dfn >> s & 1:
            return DEFENDER_CHAR
        return None

    def position_text(self, pos: TaflPosition) -> str:
        """Row notation, top row first (OpenTafl's ``starti:`` form), with outer slashes."""
        rows = []
        for r in range(self.H - 1, -1, -1):
            row, run = "", 0
            for f in range(self.W):
                p = self.piece_at(pos, r * self.W + f)
                if p is None:
                    run += 1
                else:
                    if run:
                        row += str(run)
                        run = 0
                    row += p
            if run:
                row += str(run)
            rows.append(row)
        return "/" + "/".join(rows) + "/"

    def parse_position(self, text: str, to_move: Side) -> TaflPosition:
        """Parse row notation (top row first, outer slashes optional); ValueError says what is wrong."""
        rows = [r for r in text.strip().strip("/").split("/")]
        rows = [r.strip() for r in rows]
        if len(rows) != self.H:
            raise ValueError(ngettext("position has {n} row, the board has {height}",
                                      "position has {n} rows, the board has {height}", len(rows)).format(
                n=len(rows), height=self.H))
        att = dfn = 0
        king = -1
        for i, row in enumerate(rows):
            r = self.H - 1 - i
            f = 0
            k = 0
            while k < len(row):
                ch = row[k]
                if ch in ASCII_DIGITS:
                    j = k
                    while j < len(row) and row[j] in ASCII_DIGITS:
                        j += 1
                    if j - k > 3:  # never convert a 5,000-digit run: no board is that wide
                        raise ValueError(ngettext(
                            "row {n} of the position has an empty run of {run} square, the board is {width} wide",
                            "row {n} of the position has an empty run of {run} squares, the board is {width} wide",
                            # the form as for the run's last three digits (every form rule looks no further,
                            # and a run this long is never 0 or 1): never convert the whole run
                            int("1" + row[j - 3:j])).format(n=i + 1, run=quote(row[k:j]), width=self.W))
                    f += int(row[k:j])
                    k = j
                elif ch in (ATTACKER_CHAR, DEFENDER_CHAR, KING_CHAR):
                    if f < self.W:
                        s = r * self.W + f
                        if ch == ATTACKER_CHAR:
                            att |= 1 << s
                        elif ch == DEFENDER_CHAR:
                            dfn |= 1 << s
                        elif king >= 0:
                            raise ValueError(_("row {n} of the position makes two kings (K), on {first} and "
                                               "{second}").format(n=i + 1, first=self.geometry.name(king),
                                                                  second=self.geometry.name(s)))
                        else:
                            king = s
                    f += 1
                    k += 1
                else:
                    raise ValueError(_("row {n} of the position has {char}: use t (attacker), T (defender), K "
                                       "(king) or digits for empty squares").format(n=i + 1, char=quote(ch)))
            if f != self.W:
                raise ValueError(ngettext("row {n} of the position ({row}) covers {covered} square, the board is "
                                            "{width} wide",
                                            "row {n} of the position ({row}) covers {covered} squares, the board is "
                                            "{width} wide", f).format(n=i + 1, row=quote(row), covered=f, width=self.W))
        if king < 0:
            raise ValueError(_("position has no king (K)"))
        attT = dfnT = 0
        for s in _bits(att):
            attT |= self.tbit[s]
        for s in _bits(dfn):
            dfnT |= self.tbit[s]
        pos = TaflPosition(att, dfn, attT, dfnT, king, int(to_move))
        self.check_squares(pos)
        if self.escape_mask >> king & 1 and (not self.opts["escape_safe"] or (
                pos.side == ATT and self._escape_is_safe(att, dfn, attT, dfnT, king))):
            pos.result = Outcome(Side.DEFENDERS, "king_escaped")
        return pos

    def pieces(self, pos: TaflPosition) -> dict[int, str]:
        """Square -> piece letter, for drawing."""
        out = {s: ATTACKER_CHAR for s in _bits(pos.att)}
        out.update({s: DEFENDER_CHAR for s in _bits(pos.dfn)})
        if pos.king >= 0:
            out[pos.king] = KING_CHAR
        return out


# Whole sentences for each case of an illegal move (a lambda each, so that the text is looked up in
# the language in use when the sentence is needed, not when the module was imported).
_STAY_TEXT = {
    "king": lambda: _("a move must go to another square (the king on {square} cannot stay where it is)"),
    "attacker": lambda: _("a move must go to another square (the attacker on {square} cannot stay where it is)"),
    "defender": lambda: _("a move must go to another square (the defender on {square} cannot stay where it is)"),
}
_BLOCKED_TEXT = {
    "king": lambda: _("the king on {square} cannot move: it is blocked on every side"),
    "attacker": lambda: _("the attacker on {square} cannot move: it is blocked on every side"),
    "defender": lambda: _("the defender on {square} cannot move: it is blocked on every side"),
}
_CROSS_TEXT = {
    "throne": lambda: _("this piece may not pass over the throne {square}"),
    "corner": lambda: _("this piece may not pass over the corner square {square}"),
    "camp": lambda: _("this piece may not pass over the camp square {square}"),
    "square": lambda: _("this piece may not pass over {square}"),
}
_STOP_TEXT = {
    "throne": lambda: _("this piece may not stop on the throne {square}"),
    "corner": lambda: _("this piece may not stop on the corner square {square}"),
    "camp": lambda: _("this piece may not stop on the camp square {square}"),
    "square": lambda: _("this piece may not stop on {square}"),
}
_NEVER_STOP_TEXT = {
    ("attacker", "throne"): lambda: _("an attacker stands on the throne {square}, where no attacker may ever stop"),
    ("attacker", "corner"): lambda: _("an attacker stands on the corner square {square}, where no attacker may "
                                      "ever stop"),
    ("attacker", "camp"): lambda: _("an attacker stands on the camp square {square}, where no attacker may ever "
                                    "stop"),
    ("attacker", "square"): lambda: _("an attacker stands on {square}, where no attacker may ever stop"),
    ("defender", "throne"): lambda: _("a defender stands on the throne {square}, where no defender may ever stop"),
    ("defender", "corner"): lambda: _("a defender stands on the corner square {square}, where no defender may "
                                      "ever stop"),
    ("defender", "camp"): lambda: _("a defender stands on the camp square {square}, where no defender may ever "
                                    "stop"),
    ("defender", "square"): lambda: _("a defender stands on {square}, where no defender may ever stop"),
}
