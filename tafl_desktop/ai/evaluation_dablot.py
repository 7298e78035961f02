"""Dablot Prejjesne knowledge for the generic search: evaluation, forcing moves, move ordering.

The search only speaks the family protocol plus the four hooks of :class:`DablotEvaluator`
(``evaluate``, ``quick_outcome``, ``tactics``, ``order_key``), with the contracts described in
``evaluation_tafl``.  Side 0 is South, side 1 North, as in ``core/dablot.py``.

What the evaluation knows (South's view; 100 ~ one soldier):

* material weighted by rank (soldier, officer, son; the leader dear when losing him loses), with
  the four-ranks and promotion toggles read from the rules' own rank table;
* pieces that can be jumped next move: the quiescence search follows only forcing lines, so an
  ordinary capture at the horizon must be judged statically: the side to move either cashes its
  best capture (and loses its most valuable hanging piece) or saves that piece (and loses the
  next one);
* the leader: threats to him are forcing (``tactics``); near the end, the lone-leader rule makes
  the last few other pieces dear;
* trading down when ahead, advancement where promotion exists, mobility near the end;
* the side ahead hunting: its son and leader sent after what they could take (``_hunt``);
* the side far ahead squeezing: the other side's last free steps, squared (``squeeze``), since a
  side left without a move loses.

Speed: a single pass over the 72 (or 32) points with neighbour and jump tables built once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, fields
from typing import Any

from tafl_desktop.ai.evaluation_tafl import FORCED, QUIET, TERMINAL, WIN_NOW
from tafl_desktop.core.dablot import END_TURN, LEADER, OFFICER, SEP, SOLDIER, SON, DablotPosition, DablotRules
from tafl_desktop.core.game import Move, Outcome

SOUTH, NORTH = 0, 1
#: The mop-up's gate: the material lead (100 = a soldier) from which it counts, and the lead at
#: which it counts in full.  Three soldiers: normal play rarely sees such a lead before the game is
#: decided, so an even game never meets the term.
MOP_UP_FROM = 300
MOP_UP_FULL = 600
#: The squeeze's threshold: the side behind's free steps below which each one fewer counts (see
#: ``DablotWeights.squeeze``).  Eight: in the won-endgame suite's Mini-Dablot endings the side behind
#: had 6 to 14.
SQUEEZE_FROM = 8


@dataclass
class DablotWeights:
    """Evaluation weights.  Hand-set, then adjusted on the ladder."""

    soldier: int = 100
    officer: int = 230          # a promoted soldier (rank 2)
    son: int = 280              # the leader's son (rank 2 of 3, or rank 3 of 4)
    leader: int = 450           # the leader as a fighting piece (when his loss does not end the game)
    leader_life: int = 3000     # the leader when his capture loses the game
    cash: int = 80              # percent of the static capture estimate that is counted
    trade: int = 30             # ahead in material: bonus scaled by how much has been traded
    bare: int = 120             # the lone-leader rule: each missing piece below three others
    advance: int = 4            # promotion on: each row an eligible soldier has advanced
    space: int = 2              # promotion off: each row a soldier has advanced (space to move in)
    mobility: int = 3           # each free step of each piece (the side that runs out of moves loses)
    # the ending (half the pieces gone) or a lead of MOP_UP_FROM, side ahead: each unit its
    # officers/son/leader are nearer their prey (see ``_hunt``).  Easy against a random mover on the
    # full board, 80 games: 2 left unfinished at 300 plies with 4, none with 20 (Mini-Dablot ladder
    # up to Hard unchanged).
    hunt: int = 20
    backed: int = 4             # each piece that cannot be jumped from the front (a friend behind)
    tempo: int = 10
    # the mop-up (issue 44): where one side leads by MOP_UP_FROM or more in material (full weight from
    # MOP_UP_FULL), each step the enemy pieces are from the nearest piece that may take them, and each
    # free step they have, counts against that side (measured against the most there could be, so a
    # capture never costs).  0 turns it off, as it ships: on the won-endgame suite at 8 it converted no
    # more than without it and no match has measured it (benchmarks/README.md), so the levels keep
    # their measured play until one does.  8 is the weight the suite tried.
    mop_up: int = 0
    # the squeeze (issue 44): where one side leads by more than MOP_UP_FROM, the side behind's free
    # steps short of SQUEEZE_FROM, squared, times this, count against it.  The side left without a
    # move loses (source 000), and in the suite's Mini-Dablot endings the side behind keeps its
    # soldiers where nothing can jump them and moves its leader: taking away its last steps is
    # the way to win, a plan longer than the search sees, and a linear mobility term gives it no
    # more weight near the end than anywhere.  Squared, each step taken away counts more than the
    # one before.  At 10 the suite's eight Mini-Dablot endings converted 3, 3, 2 and 3 at 300,000,
    # 450,000, 600,000 and 1,000,000 nodes a move (1, not run, 2 and 1 without), and 1 at 1 s a move
    # in one run, as before (benchmarks/README.md).
    squeeze: int = 10

    def to_dict(self) -> dict[str, int]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DablotWeights:
        names = {f.name for f in fields(cls)}
        return cls(**{k: int(v) for k, v in data.items() if k in names})


class DablotEvaluator:
    """Evaluation and tactical hooks for one compiled :class:`~tafl_desktop.core.dablot.DablotRules`."""

    drift_scale = 1.0  # a weak level's margins apply in full (see evaluation.py)
    #: The levels' node budgets, not the depth caps set for Tafl, bound the search (see
    #: evaluation.py).  Capped, Hard was Medium plus one ply here: at the Mini-Dablot start Medium
    #: stopped at depth 4 after 2,980 of its 20,000 nodes and Hard at depth 5 after 2,493 of its
    #: 150,000 (the full board: 11,011 and 14,985), so Hard could not out-plan Medium and drew
    #: five of six games at the 300-ply cap (benchmarks/results/ladder_hunt.txt).  In a won
    #: ending (8 pieces against 4) Medium capped at depth 4 shuffled for 30 plies; searching its
    #: whole budget it took the enemy son within 15 (benchmarks/results/README.md).
    uncapped_depth = True
    #: The mop-up's gate as the native evaluation reads it (one source: the constants above).
    mop_up_gate = (MOP_UP_FROM, MOP_UP_FULL)
    #: The squeeze's threshold as the native evaluation reads it.
    squeeze_from = SQUEEZE_FROM

    def __init__(self, rules: DablotRules, weights: DablotWeights | None = None) -> None:
        self.rules = rules
        self.w = weights or DablotWeights()
        w = self.w
        r = rules
        o = r.opts
        N = r.N
        self.N = N
        g = r.geometry
        self.steps = r.steps
        self.jumps = r.jumps
        self.over = r.over
        ys = [c[1] for c in g.coords]
        ymin, ymax = min(ys), max(ys)
        self.onward = bool(o["ever_onward"])
        self.leader_loses = bool(o["leader_captured_loses"])
        self.bare_loses = bool(o["bare_leader_loses"])
        self.ambush = bool(o["ambush"])
        self.action_points = bool(r.actions_per_turn)
        self.promotion = bool(o["promotion"])
        self.officer_material = bool(o["officer_material"])
        self.compulsory = o["compulsory_capture"] == "soldiers"
        self.captureless = int(o.get("captureless_draw") or 0)
        # per cell code (0 empty, 1..16): side, kind, rank, value, retreat mark
        self.side_t = [-1] * 17
        self.kind_t = [-1] * 17
        self.rank_t = [0] * 17
        self.val_t = [0] * 17
        self.marked_t = [False] * 17
        kind_value = {SOLDIER: w.soldier, OFFICER: w.officer, SON: w.son,
                      LEADER: w.leader_life if self.leader_loses else w.leader}
        for c in range(1, 17):
            self.side_t[c] = (c - 1) & 1
            k = ((c - 1) >> 1) & 3
            self.kind_t[c] = k
            self.rank_t[c] = r.rank(c)
            self.val_t[c] = kind_value[k]
            self.marked_t[c] = bool((c - 1) & 8)
        # jumps a piece of each side may make from each point: all of them, or forward only for
        # soldiers under Ever Onward
        def forward(side: int, a: int, b: int) -> bool:
            dy = ys[b] - ys[a]
            return dy >= 0 if side == SOUTH else dy <= 0
        self.soldier_jumps = [[tuple((ov, la) for ov, la in r.jumps[p] if not self.onward or forward(s, p, la))
                               for p in range(N)] for s in (SOUTH, NORTH)]
        # (front, land) pairs over each point: an enemy on front jumps the piece onto land
        self.jumped_from: list[tuple[tuple[int, int], ...]] = [() for _ in range(N)]
        acc: list[list[tuple[int, int]]] = [[] for _ in range(N)]
        for p in range(N):
            for ov, la in r.jumps[p]:
                acc[ov].append((p, la))
        self.jumped_from = [tuple(a) for a in acc]
        # rows to go to the far edge for each side (promotion)
        self.to_go = [[(ymax - y) for y in ys], [(y - ymin) for y in ys]]
        self.depth_rows = (ymax - ymin)
        coords = g.coords
        self.dist = [[max(abs(a[0] - b[0]), abs(a[1] - b[1])) for b in coords] for a in coords]
        self.far = max(max(row) for row in self.dist)
        self.start_total = sum(1 for c in r.initial_position().cells if c)
        # the mop-up: steps along the lines between points, and the most its sum can reach (every
        # enemy piece of the larger army as far as can be and with all its steps free)
        self.walk = [_walk(r.steps, p) for p in range(N)]
        self.far_walk = max(max(row) for row in self.walk)
        start = r.initial_position().cells
        army = max(sum(1 for c in start if c and self.side_t[c] == s) for s in (SOUTH, NORTH))
        self.mop_up_cap = army * (self.far_walk + max(len(n) for n in r.steps))

    # ------------------------------------------------------------------------------ hooks
    def quick_outcome(self, pos: DablotPosition) -> Outcome | None:
        """What is decided without generating moves: the last move's result, the captureless draw."""
        if pos.result is not None:
            return pos.result
        n = self.captureless
        if n and pos.quiet >= n:
            return Outcome(None, "no_captures")
        return None

    def evaluate(self, pos: DablotPosition) -> int:
        """Static score from the side to move's view."""
        s = self.south_score(pos)
        return s if pos.side == SOUTH else -s

    def defenders_score(self, pos: DablotPosition) -> int:
        """Static score from side 1's (North's) view, as the evaluation bar wants it."""
        return -self.south_score(pos)

    def south_score(self, pos: DablotPosition) -> int:
        """Static score from South's view (positive: good for South)."""
        w = self.w
        cells = pos.cells
        side_t, rank_t, val_t, kind_t = self.side_t, self.rank_t, self.val_t, self.kind_t
        jumps_of = self.soldier_jumps
        all_jumps = self.jumps
        onward = self.onward
        mat = [0, 0]
        count = [0, 0]
        backed = [0, 0]
        adv = [0, 0]
        best_gain = [0, 0]          # the most valuable enemy piece each side could jump now
        hanging: list[list[int]] = [[], []]   # values of each side's pieces the enemy could jump now
        hit = set()
        shut: set[int] = set()      # points whose piece no line lets anyone jump now
        jumped_from = self.jumped_from
        promo = self.promotion
        to_go = self.to_go
        mob = [0, 0]
        mob_w = w.mobility
        count_steps = bool(mob_w or w.mop_up or w.squeeze)
        steps = self.steps
        for p, c in enumerate(cells):
            if not c:
                continue
            s = side_t[c]
            mat[s] += val_t[c]
            count[s] += 1
            k = kind_t[c]
            rk = rank_t[c]
            js = jumps_of[s][p] if (onward and k == SOLDIER) else all_jumps[p]
            for ov, la in js:
                v = cells[ov]
                if v and side_t[v] != s and rank_t[v] <= rk and not cells[la]:
                    if val_t[v] > best_gain[s]:
                        best_gain[s] = val_t[v]
                    if ov not in hit:
                        hit.add(ov)
                        hanging[1 - s].append(val_t[v])
            # a piece whose every line is closed behind it cannot be jumped at all
            safe = True
            for fr, la in jumped_from[p]:
                if not cells[la] and not (cells[fr] and side_t[cells[fr]] == s):
                    safe = False
                    break
            if safe:
                backed[s] += 1
                shut.add(p)
            if k == SOLDIER and (not promo or not (self.officer_material and self.marked_t[c])):
                adv[s] += self.depth_rows - to_go[s][p]
            if count_steps:
                for q in steps[p]:
                    if not cells[q]:
                        mob[s] += 1
        advance = w.advance if promo else w.space
        score = (mat[0] - mat[1] + w.backed * (backed[0] - backed[1]) + advance * (adv[0] - adv[1])
                 + mob_w * (mob[0] - mob[1]))
        # trading down when ahead: the same lead counts for more with fewer pieces left
        total = count[0] + count[1]
        lead = mat[0] - mat[1]
        if lead and total < self.start_total:
            score += lead * w.trade * (self.start_total - total) // (100 * self.start_total)
        if w.hunt and (total * 2 <= self.start_total or abs(lead) > MOP_UP_FROM):
            score += w.hunt * self._hunt(cells, mat[0] - mat[1], shut)
        if w.mop_up and abs(lead) > MOP_UP_FROM:
            score += self.mop_up(cells, lead, mob)
        if w.squeeze and abs(lead) > MOP_UP_FROM:
            short = max(0, SQUEEZE_FROM - mob[1 if lead > 0 else 0])
            term = w.squeeze * short * short
            score += term if lead > 0 else -term
        if self.bare_loses:
            for s, sign in ((0, 1), (1, -1)):
                others = count[s] - 1
                if others < 3:
                    score -= sign * w.bare * (3 - others)
        # the side to move cashes its best capture or saves its dearest hanging piece
        me = pos.side
        mine = sorted(hanging[me], reverse=True)
        t1 = mine[0] if mine else 0
        t2 = mine[1] if len(mine) > 1 else 0
        est = max(best_gain[me] - t1, -t2)
        est = est * w.cash // 100
        score += est if me == SOUTH else -est
        score += w.tempo if me == SOUTH else -w.tempo
        return score

    def _hunt(self, cells: tuple[int, ...], lead: int, shut: set[int]) -> int:
        """The ending: the side ahead sends its high-ranked pieces after the enemy pieces they may
        take (closeness summed, South's view); the side behind is not rewarded for chasing.

        The prey is what could be taken where it stands: not a piece no line lets anyone jump
        (``shut``: a soldier in a row on the back line, say), and the enemy leader where taking
        him wins (only a leader may).  Why: in the won-endgame suite's Mini-Dablot endings the side
        behind kept three or four soldiers shut on its back row and moved only its leader; the
        side ahead's leader and son, sent after the nearest soldiers, stood beside those for the
        rest of the game, which was drawn at the cap (benchmarks/README.md)."""
        if not lead:
            return 0
        hunter = SOUTH if lead > 0 else NORTH
        dist = self.dist
        side_t, rank_t, kind_t = self.side_t, self.rank_t, self.kind_t
        leader_prey = self.leader_loses
        mine = [(p, rank_t[c]) for p, c in enumerate(cells) if c and side_t[c] == hunter and kind_t[c] != SOLDIER]
        prey = [(p, rank_t[c]) for p, c in enumerate(cells)
                if c and side_t[c] != hunter and p not in shut and (leader_prey or kind_t[c] != LEADER)]
        total = 0
        for p, rk in mine:
            row = dist[p]
            best = min((row[q] for q, r2 in prey if r2 <= rk), default=0)
            total += self.far - best
        return total if hunter == SOUTH else -total

    def mop_up(self, cells: tuple[int, ...], lead: int, room: list[int]) -> int:
        """The side ahead by more than :data:`MOP_UP_FROM` converts (South's view): the enemy pieces'
        distance (steps along the lines) from the nearest of its pieces that may take them (equal or
        higher rank) and their free steps (``room``, per side), subtracted from ``mop_up_cap``.

        Why this form: without it a side far ahead that sees no capture within its horizon has no
        reason to approach, and shuffles to the ply cap (a Hard Mini-Dablot side with 8 pieces to 4
        did).  Why against the cap: a captured piece then counts as one at distance 0 with no room,
        so taking a piece never lowers the term, and the ramp over the lead only raises it.  The
        enemy leader is no prey where a bare leader loses (taking the others wins); the side behind
        gets nothing (it is not rewarded for chasing).  Not enough on its own: at 1 s a move the
        won-endgame suite's eight Mini-Dablot positions were all drawn at the 100-ply cap with it as
        without it (benchmarks/README.md)."""
        hunter = SOUTH if lead > 0 else NORTH
        side_t, rank_t, kind_t = self.side_t, self.rank_t, self.kind_t
        mine = [(p, rank_t[c]) for p, c in enumerate(cells) if c and side_t[c] == hunter]
        far = self.far_walk
        spare_leader = self.bare_loses
        apart = 0
        for q, c in enumerate(cells):
            if not c or side_t[c] == hunter or (spare_leader and kind_t[c] == LEADER):
                continue
            rk = rank_t[c]
            row = self.walk[q]
            apart += min((row[p] for p, r2 in mine if r2 >= rk), default=far)
        credit = self.mop_up_cap - apart - room[1 - hunter]
        ramp = min(abs(lead) - MOP_UP_FROM, MOP_UP_FULL - MOP_UP_FROM)
        term = self.w.mop_up * credit * ramp // (MOP_UP_FULL - MOP_UP_FROM)
        return term if hunter == SOUTH else -term

    # ------------------------------------------------------------------------------ tactics
    def _leader_at(self, cells: tuple[int, ...], side: int) -> int:
        for p, c in enumerate(cells):
            if c and self.kind_t[c] == LEADER and self.side_t[c] == side:
                return p
        return -1

    def _captured(self, pos: DablotPosition, move: Move) -> list[int]:
        """Points a move of ``pos`` captures (without playing it)."""
        segs = self.rules.segments(move)
        if len(segs) > 1:
            return [self.over[(segs[0][0], segs[0][1])]]
        seg: tuple[int, ...] = segs[0] if segs else ()
        if len(seg) < 2 or (len(seg) == 2 and seg[1] in self.steps[seg[0]]):
            return []
        return [self.over[(x, y)] for x, y in zip(seg, seg[1:], strict=False)]

    def _leader_threat_near(self, cells: tuple[int, ...], victim: int) -> bool:
        """Could the enemy of the leader on ``victim`` take him next move?  Exact for the enemy
        leader's own jumps and chains (only a leader takes a leader) but blind to compulsory
        capture; an over-estimate for ambushes.  ``_threatened`` confirms with the rules."""
        vside = self.side_t[cells[victim]]
        need = self.rank_t[cells[victim]]
        total = 0
        for fr, la in self.jumped_from[victim]:
            c = cells[fr]
            if c and self.side_t[c] != vside and not cells[la]:
                if self.rank_t[c] >= need:
                    return True
                total += self.rank_t[c]
        if self.ambush and total >= need:
            return True
        if not self.rules.opts["chain_jumps"]:
            return False
        for p, c in enumerate(cells):
            if c and self.side_t[c] != vside and self.rank_t[c] >= need:
                return self._chain_reaches(list(cells), p, self.rank_t[c], vside, victim, 6)
        return False

    def _chain_reaches(self, cells: list[int], a: int, rank: int, vside: int, victim: int, budget: int) -> bool:
        """Depth-first over the jump chains of a piece of ``rank`` on ``a``: does one pass over ``victim``?"""
        if budget <= 0:
            return False
        side_t, rank_t = self.side_t, self.rank_t
        for ov, la in self.jumps[a]:
            v = cells[ov]
            if v and side_t[v] == vside and rank_t[v] <= rank and not cells[la]:
                if ov == victim:
                    return True
                cells[ov] = 0
                found = self._chain_reaches(cells, la, rank, vside, victim, budget - 1)
                cells[ov] = v
                if found:
                    return True
        return False

    def _takes_leader(self, pos: DablotPosition, moves: list[Move], target: int) -> Move | None:
        for m in moves:
            if m and target in self._captured(pos, m):
                return m
        return None

    def _threatened(self, pos: DablotPosition) -> bool:
        """Exact: with the other side to move in ``pos``'s place, could it capture the leader of
        the side to move?  (Checked with the rules' own moves, so compulsory capture counts.)"""
        me = pos.side
        lp = self._leader_at(pos.cells, me)
        if lp < 0 or not self._leader_threat_near(pos.cells, lp):
            return False
        if not self.compulsory and not self.ambush:
            return True
        flipped = DablotPosition(pos.cells, 1 - me, pos.actions, pos.quiet)
        return self._takes_leader(flipped, self.rules.legal_moves(flipped), lp) is not None

    def tactics(self, pos: DablotPosition, moves: list[Move] | None = None) -> tuple[int, Any]:
        """Forcing facts (QUIET, WIN_NOW, FORCED, TERMINAL; see ``evaluation_tafl``).

        * a capture of the enemy leader (when that loses him the game), or a capture that leaves
          him bare or with nothing: WIN_NOW;
        * the enemy could take our leader next move: FORCED with the moves after which he cannot
          (not with Action Points, where a turn is several plies of one side).
        """
        rules = self.rules
        cells = pos.cells
        me = pos.side
        foe_count = 0
        foe_leader = -1
        for p, c in enumerate(cells):
            if c and self.side_t[c] != me:
                foe_count += 1
                if self.kind_t[c] == LEADER:
                    foe_leader = p
        if self.leader_loses and foe_leader >= 0 and self._leader_threat_near(cells, foe_leader):
            if moves is None:
                moves = rules.legal_moves(pos)
            m = self._takes_leader(pos, moves, foe_leader)
            if m is not None:
                return WIN_NOW, m
        if foe_count <= 4:
            if moves is None:
                moves = rules.legal_moves(pos)
            play = rules.play
            for m in moves:
                if m and self._captured(pos, m):
                    res = play(pos, m)[0].result
                    if res is not None and res.winner is not None and int(res.winner) == me:
                        return WIN_NOW, m
        if self.leader_loses and not self.action_points and self._threatened(pos):
            if moves is None:
                moves = rules.legal_moves(pos)
            if not moves:
                return TERMINAL, rules.outcome(pos)
            play = rules.play
            parry = []
            for m in moves:
                nxt, _ = play(pos, m)
                if nxt.result is not None:
                    parry.append(m)
                    continue
                # nxt has the enemy to move: is our leader (wherever he went) still takeable?
                lp = self._leader_at(nxt.cells, me)
                if lp < 0:
                    continue
                if not self._leader_threat_near(nxt.cells, lp):
                    parry.append(m)
                    continue
                if (self.compulsory or self.ambush) and self._takes_leader(nxt, rules.legal_moves(nxt), lp) is None:
                    parry.append(m)
            return FORCED, parry
        return QUIET, None

    # ------------------------------------------------------------------------------ ordering
    def order_key(self, pos: DablotPosition) -> Callable[[Move], int]:
        """A function move -> static ordering score (higher first): captures by the value taken."""
        cells = pos.cells
        val_t = self.val_t
        over = self.over
        steps = self.steps

        def key(m: Move) -> int:
            if not m:
                return -50 if m == END_TURN else 0
            if SEP in m:
                return 1000 + val_t[cells[over[(m[0], m[1])]]]
            if len(m) == 2 and m[1] in steps[m[0]]:
                return 0
            return 1000 + sum(val_t[cells[over[(x, y)]]] for x, y in zip(m, m[1:], strict=False))
        return key


def _walk(steps: list[tuple[int, ...]], source: int) -> list[int]:
    """Steps along the lines from ``source`` to every point (breadth first; the lattice is connected)."""
    dist = [-1] * len(steps)
    dist[source] = 0
    frontier = [source]
    while frontier:
        nxt = []
        for a in frontier:
            for b in steps[a]:
                if dist[b] < 0:
                    dist[b] = dist[a] + 1
                    nxt.append(b)
        frontier = nxt
    return dist
