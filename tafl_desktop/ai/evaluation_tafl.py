"""Tafl knowledge for the generic search: evaluation, forcing moves, move-ordering hints.

Everything the search knows about Tafl lives here; ``search.py`` only speaks the family
protocol (legal_moves / play / outcome / position_key / side_to_move) plus the four hooks of
:class:`TaflEvaluator` (``evaluate``, ``quick_outcome``, ``tactics``, ``order_key``).  A new family
(Fox games, Dablot) brings its own module with the same hooks.

Speed matters more than finesse here: in CPython the evaluation is most of a leaf's cost, so every
feature is a handful of bitboard operations or a lookup in a memo.  The king's moves come from the
rules' own line generator (``TaflRules._origin_moves``, the line memo), so throne, corners, camps and the
king's speed limit are respected exactly as in play, without repeating any rule here.

Scores are in "soldier hundredths": an attacker is worth about 100.  :meth:`TaflEvaluator.evaluate`
answers from the side to move's view (what negamax wants); :meth:`TaflEvaluator.defenders_score` from
the defenders' view (what an evaluation bar wants).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from functools import lru_cache
from pathlib import Path
from typing import Any

from tafl_desktop.core.game import Move, Outcome
from tafl_desktop.core.quoting import quote
from tafl_desktop.core.tafl import C_KING, TaflPosition, TaflRules

ATT, DEF = 0, 1

#: ``tactics`` kinds: nothing forcing; the side to move wins with its next move; the side to move
#: must parry (only the listed moves do, none listed = lost); the position is decided.
QUIET, WIN_NOW, FORCED, TERMINAL = 0, 1, 2, 3
#: Plies without a capture beyond which the no-progress term grows no further.
NO_PROGRESS_CAP = 100
#: The mop-up term (``defender_mobility``) starts where the attackers lead by this much (the
#: score so far, against the start's): about 8 soldiers, beyond 95 % of the real Copenhagen games'
#: positions, so normal play never meets it; it grows to its full weight at MOP_UP_FULL.
MOP_UP_FROM = 800
MOP_UP_FULL = 1600


#: The evaluation's weights as data, shared with the native engine (see the file's header).
WEIGHTS_FILE = "ai/tafl_evaluation.toml"


@lru_cache(maxsize=64)
def file_weights(variant: str | None = None) -> dict[str, int]:
    """The weights of :data:`WEIGHTS_FILE` in the resources folder (read once per variant): its
    ``[weights]``, with the ``[variants.<id>]`` section of ``variant`` over them if it has one."""
    from tafl_desktop.core.paths import resources_dir

    return load_weights(resources_dir() / WEIGHTS_FILE, variant)


def variant_id(rules: object) -> str | None:
    """The id of the preset ``rules`` were made from (what a ``[variants.<id>]`` section names)."""
    return getattr(getattr(rules, "variant", None), "id", None)


def read_weights_file(path: Path, what: str) -> dict[str, Any]:
    """A family's weights file as TOML data (every family's evaluation weights are such a file);
    ValueError in one line, naming ``what`` it holds, where it cannot be read."""
    import tomllib

    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ValueError(f"the {what} {path.name} cannot be read: {exc}") from None


def load_weights(path: str | os.PathLike[str], variant: str | None = None) -> dict[str, int]:
    """A weights file, checked: every term of :class:`TaflWeights` present in ``[weights]``, no
    other key, every value a whole number; each ``[variants.<id>]`` section (a variant's own
    values for some terms) checked the same way.  The weights of ``variant`` (None: the shared
    ``[weights]``).  ValueError in one line otherwise."""
    path = Path(path)
    data = read_weights_file(path, "evaluation weights")
    base = check_weights(data.get("weights", {}), path.name)
    sections = data.get("variants", {})
    if not isinstance(sections, dict):
        raise ValueError(f"{path.name}: [variants] must hold one table per variant")
    own = {vid: check_weights(table, f"{path.name} [variants.{vid}]", partial=True)
           for vid, table in sections.items()}
    return {**base, **own.get(variant or "", {})}


def variant_sections(path: str | os.PathLike[str]) -> dict[str, dict[str, int]]:
    """The ``[variants.<id>]`` sections of a weights file (each variant's own values only)."""
    base = load_weights(path)
    import tomllib

    with open(path, "rb") as fh:
        ids = list(tomllib.load(fh).get("variants", {}))
    return {vid: {k: v for k, v in load_weights(path, vid).items() if v != base[k]} for vid in ids}


def check_weights(table: object, where: str, partial: bool = False) -> dict[str, int]:
    """``table`` as term -> int, refusing unknown terms and values that are not integers (and,
    unless ``partial``, a table that leaves a term out)."""
    if not isinstance(table, dict):
        raise ValueError(f"{where}: [weights] must be a table of terms")
    names = {f.name for f in fields(TaflWeights)}
    out: dict[str, int] = {}
    for key, value in table.items():
        if key not in names:
            raise ValueError(f"{where}: {quote(key)} is not a term of the Tafl evaluation")
        if isinstance(value, bool) or not isinstance(value, int) or abs(value) > 1_000_000:
            raise ValueError(f"{where}: the weight {key} must be a whole number of at most a million")
        out[key] = value
    missing = sorted(names - set(out))
    if missing and not partial:
        raise ValueError(f"{where}: the weights {', '.join(missing)} are missing")
    return out


def _default(name: str) -> Any:
    return field(default_factory=lambda: file_weights()[name])


@dataclass
class TaflWeights:
    """Evaluation weights, defenders' view.  Defaults: ``resources/ai/tafl_evaluation.toml``,
    where each term is explained (tuned by self-play: tune.py)."""

    attacker: int = _default("attacker")
    defender: int = _default("defender")
    king_mobility: int = _default("king_mobility")
    king_distance: int = _default("king_distance")
    route_two: int = _default("route_two")
    fork_threat: int = _default("fork_threat")
    fork_to_move: int = _default("fork_to_move")
    raichi: int = _default("raichi")
    tuichi: int = _default("tuichi")
    king_hostile: int = _default("king_hostile")
    king_hostile3: int = _default("king_hostile3")
    king_near: int = _default("king_near")
    king_ring: int = _default("king_ring")
    king_path: int = _default("king_path")
    king_enclosed: int = _default("king_enclosed")
    hunt: int = _default("hunt")
    king_space: int = _default("king_space")
    king_guard: int = _default("king_guard")
    guard1: int = _default("guard1")
    guard2: int = _default("guard2")
    guard3: int = _default("guard3")
    tempo: int = _default("tempo")
    # issue 44's terms for converting a won endgame (kept apart from the tuned ones above)
    defender_mobility: int = _default("defender_mobility")
    no_progress: int = _default("no_progress")

    def to_dict(self) -> dict[str, int]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TaflWeights:
        names = {f.name for f in fields(cls)}
        return cls(**{k: int(v) for k, v in data.items() if k in names})


def _popcount(x: int) -> int:
    return x.bit_count()


class TaflEvaluator:
    """Evaluation and tactical hooks for one compiled :class:`~tafl_desktop.core.tafl.TaflRules`."""

    drift_scale = 1.0  # a weak level's margins apply in full (see evaluation.py)
    uncapped_depth = False  # the levels' depth caps apply (see evaluation.py)

    def __init__(self, rules: TaflRules, weights: TaflWeights | None = None) -> None:
        self.rules = rules
        #: Given weights, else the weights file's for this variant (its own section, if any).
        self.w = weights or TaflWeights.from_dict(file_weights(variant_id(rules)))
        r = rules
        W, H, N = r.W, r.H, r.N
        self.W, self.H, self.N = W, H, N
        self.rm, self.cm = r.row_mask, r.col_mask
        self.bit, self.tbit = r.bit, r.tbit
        self.escape_mask = r.escape_mask
        g = r.geometry
        self.line_squares = [sq for _, sq in r.rows] + [sq for _, sq in r.cols]
        self.kmemo: list[dict[int, tuple[int, int, int, tuple[int, ...]]]] = [{} for _ in range(H + W)]
        self.captureless = int(r.opts.get("captureless_draw") or 0)

        esc = [s for s in range(N) if r.escape_mask >> s & 1]
        # Manhattan distance to the nearest escape square (the king's goal; the attackers' guard posts)
        def fr(s: int) -> tuple[int, int]:
            return s % W, s // W
        self.kdist = [min((abs(fr(s)[0] - fr(e)[0]) + abs(fr(s)[1] - fr(e)[1]) for e in esc), default=0)
                      for s in range(N)]
        self.guard_masks = [0, 0, 0]
        for s in range(N):
            d = self.kdist[s]
            if 1 <= d <= 3 and not (r.escape_mask >> s & 1):
                self.guard_masks[d - 1] |= 1 << s
        # squares sharing a row or column with an escape square: only from there can the king see one
        esc_rows = {fr(e)[1] for e in esc}
        esc_cols = {fr(e)[0] for e in esc}
        self.reach_mask = sum(1 << s for s in range(N) if fr(s)[1] in esc_rows or fr(s)[0] in esc_cols)
        self.adj_mask = [sum(1 << n for n in r.adj[s]) for s in range(N)]
        self.near_mask = []
        for s in range(N):
            f0, r0 = fr(s)
            m = 0
            for t in range(N):
                f1, r1 = fr(t)
                if t != s and max(abs(f1 - f0), abs(r1 - r0)) <= 2:
                    m |= 1 << t
            self.near_mask.append(m)
        self.ring_mask = []
        for s in range(N):
            f0, r0 = fr(s)
            self.ring_mask.append(sum(1 << t for t in range(N)
                                      if t != s and max(abs(fr(t)[0] - f0), abs(fr(t)[1] - r0)) <= 4))
        # squares the king may never enter (throne or camps, as the toggles say): walls for his walk
        forbidden = set()
        for sq in range(N):
            forbidden |= r.block[C_KING][sq]
        self.king_walls = sum(1 << q for q in forbidden)
        self.not_file_a = sum(1 << q for q in range(N) if q % W)
        self.not_file_last = sum(1 << q for q in range(N) if q % W != W - 1)
        self.walk_limit = W + H
        # squares that act against the king as a capturing side (throne, hostile corners, camps)
        host_king = r.host_always[DEF] | r.host_empty[DEF]
        self.king_host_sq = [_popcount(self.adj_mask[s] & host_king) for s in range(N)]
        edge_counts = bool(r.opts.get("king_edge_capture")) or bool(r.edge_hostile)
        self.king_offboard = [(4 - len(r.adj[s])) if edge_counts else 0 for s in range(N)]
        self.strong_king = r.opts.get("king_capture") in ("strong", "weak_near_throne", "double_weak")
        # move-generation-free capture prediction needs per-direction validity masks
        col_of = [s % W for s in range(N)]
        self.m_east = sum(1 << s for s in range(N) if col_of[s] <= W - 3)
        self.m_west = sum(1 << s for s in range(N) if col_of[s] >= 2)
        self.m_east_edge = sum(1 << s for s in range(N) if col_of[s] == W - 2)
        self.m_west_edge = sum(1 << s for s in range(N) if col_of[s] == 1)
        self.m_north_edge = sum(1 << s for s in range(N) if s // W == H - 2)
        self.m_south_edge = sum(1 << s for s in range(N) if s // W == 1)
        self.full = (1 << N) - 1
        self.host_always, self.host_empty = r.host_always, r.host_empty
        self.king_anvil = r.king_anvil
        self.edge_hostile = bool(r.edge_hostile)
        opts = r.opts
        # moves that may capture the king although they do not land next to him
        self.king_wall_risk = bool(opts.get("shield_wall")) and not opts.get("shield_wall_king_spared", True)
        self.edge_mask = r.edge_mask
        self.geometry = g
        # the start position scores 0: a constant shift (the search does not care) that makes the
        # evaluation bar read "even" at the start instead of showing raw material sums
        self.start_defenders = max(1, _popcount(r.initial_position().dfn))
        self.offset = 0
        self._mop_up = False  # the start's score is measured without it (the native engine gets it as data)
        try:
            self.offset = self.defenders_score(r.initial_position())
        except (AttributeError, ValueError):
            pass
        self._mop_up = True

    # ------------------------------------------------------------------------------ king lines
    def king_line(self, li: int, i: int, occ: int) -> tuple[int, int, int, tuple[int, ...]]:
        """(moves, escape squares reached, blocking-ray mask, targets) of a king at ``i`` on line ``li``.

        The blocking-ray mask holds every square between the king and an escape square he can reach,
        that square included: an attacker that lands on one of them closes that route.
        """
        key = (occ << 5) | i
        memo = self.kmemo[li]
        hit = memo.get(key)
        if hit is not None:
            return hit
        moves = self.rules._origin_moves(C_KING, li, i, occ)
        squares = self.line_squares[li]
        index = {s: j for j, s in enumerate(squares)}
        esc = 0
        ray = 0
        targets = []
        for _, t in moves:
            targets.append(t)
            if self.escape_mask >> t & 1:
                esc += 1
                j = index[t]
                lo, hi = (i + 1, j) if j > i else (j, i - 1)
                for k in range(lo, hi + 1):
                    ray |= 1 << squares[k]
        res = (len(moves), esc, ray, tuple(targets))
        if len(memo) > 100_000:
            memo.clear()
        memo[key] = res
        return res

    def king_lines(self, pos: TaflPosition) -> tuple[int, int, int, tuple[int, ...], tuple[int, ...]]:
        """(mobility, routes, ray mask, row targets, column targets) of the king in ``pos``."""
        king = pos.king
        W, H = self.W, self.H
        r, f = divmod(king, W)
        occ = pos.att | pos.dfn | self.bit[king]
        occT = pos.attT | pos.dfnT | self.tbit[king]
        mr, er, rr, tr = self.king_line(r, f, (occ >> (r * W)) & self.rm)
        mc, ec, rc, tc = self.king_line(H + f, r, (occT >> (f * H)) & self.cm)
        return mr + mc, er + ec, rr | rc, tr, tc

    def king_walk(self, pos: TaflPosition) -> int:
        """One-square steps from the king to the nearest escape square through empty squares
        (a flood fill on bitboards: cheap, and it sees his own defenders in the way).

        When no escape square can be reached the answer is ``-size``: minus the number of
        squares of the king's pen, so that the attackers are rewarded for tightening it.
        """
        kb = self.bit[pos.king]
        full = self.full
        free = full & ~(pos.att | pos.dfn | self.king_walls)
        esc = self.escape_mask & free
        W = self.W
        nfa, nfl = self.not_file_a, self.not_file_last
        region = kb
        for step in range(1, self.walk_limit):
            grown = (region | ((region << 1) & nfa) | ((region >> 1) & nfl) | (region << W) | (region >> W)) & free
            if grown & esc:
                return step
            grown |= kb
            if grown == region:
                return -_popcount(region)
            region = grown
        return -_popcount(region)

    # ------------------------------------------------------------------------------ hooks
    def quick_outcome(self, pos: TaflPosition) -> Outcome | None:
        """What is decided without generating moves: the last move's result, the captureless draw."""
        if pos.result is not None:
            return pos.result
        n = self.captureless
        if n and pos.quiet >= n:
            return Outcome(None, "no_captures")
        return None

    def evaluate(self, pos: TaflPosition) -> int:
        """Static score from the side to move's view, shrunk by the no-progress count.

        Why shrink it: a side far ahead that captures nothing for many moves is not converting
        its lead, and a search that scores every quiet leaf alike has no reason to prefer the line
        that captures (issue 44: 118 plies of shuffling in a won Copenhagen endgame).  Each ply
        since the last capture (``pos.quiet``, up to :data:`NO_PROGRESS_CAP`) takes ``no_progress``
        thousandths of the score away, so a capture within the horizon wins back the lead's full
        value and the side ahead reaches for it; the side behind gains nothing it can play for.
        """
        s = self.defenders_score(pos)
        s = s if pos.side == DEF else -s
        quiet = min(pos.quiet, NO_PROGRESS_CAP)
        if quiet and self.w.no_progress:
            s -= s * quiet * self.w.no_progress // 1000
        return s

    def defender_moves(self, pos: TaflPosition) -> int:
        """Squares the defenders' soldiers could slide to (the king's own moves count elsewhere):
        per direction, the soldiers' bitboard shifted one square at a time through empty squares.

        The restricted squares (throne, corners) are counted like any empty square: a cheap
        measure of how much room the encirclement leaves them, the same in both engines, not a
        move count.  It falls as the attackers close the ring and hunt the soldiers down.
        """
        empty = self.full & ~(pos.att | pos.dfn | (self.bit[pos.king] if pos.king >= 0 else 0))
        W = self.W
        nfa, nfl = self.not_file_a, self.not_file_last
        total = 0
        m = pos.dfn
        while m:
            m = (m << 1) & nfa & empty
            total += _popcount(m)
        m = pos.dfn
        while m:
            m = (m >> 1) & nfl & empty
            total += _popcount(m)
        m = pos.dfn
        while m:
            m = (m << W) & empty
            total += _popcount(m)
        m = pos.dfn
        while m:
            m = (m >> W) & empty
            total += _popcount(m)
        return total

    def mop_up(self, pos: TaflPosition, base: int) -> int:
        """What the defenders lose where the attackers are far ahead and the king is walled in (no
        walk to an escape square; the caller checks): the room their soldiers lack.

        Why: with the king walled in and most soldiers gone, the attackers must still take or
        immobilise the last soldiers, and a search a few plies deep sees no capture to play for,
        so it shuffles (issue 44: the suite's Copenhagen endgames drawn at the ply cap).  Here each
        square the soldiers cannot slide to (the board less their slides) counts, so closing in on
        them pays before a capture is in sight.  Only from :data:`MOP_UP_FROM` of lead (``base``:
        the defenders' score against the start's, the lower of those before and after the king's
        walk is scored: on a big board walling him in can cost the attackers several hundred,
        their guard posts and a large pen's room, and the lead taken after that alone held the
        term back just when the wall closed), growing to the full weight at :data:`MOP_UP_FULL`,
        so an even game never meets it; only with the king walled in, so the hunt never opens him
        a way out (applied wherever the lead was, one suite position was lost by an escape);
        measured against the board, not as room alone, so taking a soldier never costs the
        attackers through this term.
        """
        lead = -base - MOP_UP_FROM
        if lead <= 0:
            return 0
        ramp = min(lead, MOP_UP_FULL - MOP_UP_FROM)
        lack = self.N - self.defender_moves(pos)
        return self.w.defender_mobility * lack * ramp // (MOP_UP_FULL - MOP_UP_FROM)

    def defenders_score(self, pos: TaflPosition) -> int:
        """Static score from the defenders' view (positive: good for the king's side)."""
        w = self.w
        att, dfn, king = pos.att, pos.dfn, pos.king
        if king < 0:
            return -100_000
        W, H = self.W, self.H
        rm, cm = self.rm, self.cm
        r, f = divmod(king, W)
        occ = att | dfn | self.bit[king]
        occT = pos.attT | pos.dfnT | self.tbit[king]
        occrow = (occ >> (r * W)) & rm
        occcol = (occT >> (f * H)) & cm
        kline = self.king_line
        mr, er, _, tr = kline(r, f, occrow)
        mc, ec, _, tc = kline(H + f, r, occcol)
        routes = er + ec

        # two-move escapes: king squares from which an escape square would be in sight
        reach = self.reach_mask
        two = forks = 0
        fbit = 1 << f
        for t in tr:
            if reach >> t & 1:
                j = t - r * W
                e = kline(r, j, occrow ^ fbit ^ (1 << j))[1] + \
                    kline(H + j, r, ((occT >> (j * H)) & cm) | (1 << r))[1]
                if e:
                    two += 1
                    if e > 1:
                        forks += 1
        rbit = 1 << r
        for t in tc:
            if reach >> t & 1:
                j = t // W
                e = kline(H + f, j, occcol ^ rbit ^ (1 << j))[1] + \
                    kline(j, f, ((occ >> (j * W)) & rm) | fbit)[1]
                if e:
                    two += 1
                    if e > 1:
                        forks += 1

        adj = self.adj_mask[king]
        hostile = _popcount(att & adj) + self.king_host_sq[king] + self.king_offboard[king]
        gm = self.guard_masks
        walk = self.king_walk(pos)
        score = (w.defender * _popcount(dfn) - w.attacker * _popcount(att)
                 + w.king_mobility * (mr + mc)
                 - w.king_distance * self.kdist[king]
                 + w.route_two * two
                 - w.king_hostile * hostile
                 - w.king_near * _popcount(att & self.near_mask[king])
                 + w.king_guard * _popcount(dfn & adj)
                 - w.king_ring * _popcount(att & self.ring_mask[king]))
        lost = self.start_defenders - _popcount(dfn)
        if lost > 0 and w.hunt:
            score -= w.hunt * lost * _popcount(att & self.near_mask[king]) // self.start_defenders
        # the score before the king's walk is scored: the mop-up's lead is the larger of the two
        # (see mop_up for why)
        unwalked = score
        if walk < 0:
            # the blockade has done its work: guard posts no longer count, closing in does
            score -= w.king_enclosed + w.king_path * self.walk_limit // 2 + w.king_space * walk
        else:
            score -= (w.king_path * walk + w.guard1 * _popcount(att & gm[0]) + w.guard2 * _popcount(att & gm[1])
                      + w.guard3 * _popcount(att & gm[2]))
        if hostile >= 3 and self.strong_king:
            score -= w.king_hostile3
        if walk < 0 and w.defender_mobility and self._mop_up:
            # the king walled in: hunting the last soldiers cannot let him out
            score -= self.mop_up(pos, min(unwalked, score) - self.offset)
        score -= self.offset
        if pos.side == DEF:
            score += w.tempo
            if routes:
                score += w.tuichi * 4  # escapes next move; the search scores it as a win
            elif forks:
                score += w.fork_to_move
        else:
            score -= w.tempo
            if routes:
                score += w.raichi if routes == 1 else w.tuichi
            if forks:
                score += w.fork_threat
        return score

    def tactics(self, pos: TaflPosition, moves: list[Move] | None = None) -> tuple[int, Any]:
        """Forcing facts about ``pos`` for the search (see QUIET, WIN_NOW, FORCED, TERMINAL).

        * defenders to move and an escape square in sight: WIN_NOW with the escaping move;
        * attackers to move and a king capture available: WIN_NOW with the capturing move;
        * attackers to move and an escape square in sight: FORCED with the moves that land on a
          route (every other move lets the king out; a capture of the king was tried first).
        ``moves`` may pass the legal moves when the caller already has them.
        """
        king = pos.king
        if pos.side == DEF:
            _, routes, ray, tr, tc = self.king_lines(pos)
            if routes:
                for t in tr + tc:
                    if self.escape_mask >> t & 1:
                        return WIN_NOW, (king, t)
            return QUIET, None
        # attackers to move
        adj = self.adj_mask[king]
        hostile = _popcount(pos.att & adj) + self.king_host_sq[king] + self.king_offboard[king]
        _, routes, ray, _, _ = self.king_lines(pos)
        if not hostile and not routes and not self.king_wall_risk:
            return QUIET, None
        rules = self.rules
        if moves is None:
            moves = rules.legal_moves(pos)
            if not moves:
                return TERMINAL, rules.outcome(pos)
        if hostile or self.king_wall_risk:
            targets = adj
            if self.king_wall_risk and self.edge_mask >> king & 1:
                targets |= self.edge_mask
            play = rules.play
            for m in moves:
                if targets >> m[1] & 1:
                    nxt, _ = play(pos, m)
                    if nxt.king < 0:
                        return WIN_NOW, m
        if routes:
            return FORCED, [m for m in moves if ray >> m[1] & 1]
        return QUIET, None

    def order_key(self, pos: TaflPosition) -> Callable[[Move], int]:
        """A function move -> static ordering score (higher first) for the moves of ``pos``.

        Predicts captures without playing the move: a target square next to an enemy with an anvil
        (friend, hostile square, armed king, hostile rim) straight beyond it.
        """
        cap = self.capture_targets(pos)
        king = pos.king
        bit = self.bit
        if king < 0:
            return lambda m: 1000 if cap >> m[1] & 1 else 0
        kadj = self.adj_mask[king]
        if pos.side == ATT:
            _, _, ray, tr, tc = self.king_lines(pos)
            reach = ray
            for t in tr:
                reach |= bit[t]
            for t in tc:
                reach |= bit[t]

            def att_key(m: Move) -> int:
                t = m[1]
                return (1000 if cap >> t & 1 else 0) + (500 if kadj >> t & 1 else 0) + \
                    (200 if reach >> t & 1 else 0)
            return att_key
        kd = self.kdist

        def def_key(m: Move) -> int:
            f, t = m
            if f == king:
                return 300 + 60 * (kd[f] - kd[t]) + (1000 if cap >> t & 1 else 0)
            return (1000 if cap >> t & 1 else 0) + (100 if kadj >> f & 1 else 0)
        return def_key

    def capture_targets(self, pos: TaflPosition) -> int:
        """The empty squares where a piece of the side to move would capture by the ordinary
        custodial rule (an enemy soldier next to it with an anvil straight beyond: a friend, a
        hostile square, an armed king, a hostile rim), as a bit mask; no move is generated."""
        att, dfn, king = pos.att, pos.dfn, pos.king
        bit = self.bit
        kb = bit[king] if king >= 0 else 0
        occ = att | dfn | kb
        empty = self.full & ~occ
        W = self.W
        if pos.side == ATT:
            enemies = dfn
            anvils = att | self.host_always[DEF] | (self.host_empty[DEF] & empty)
        else:
            enemies = att
            anvils = dfn | self.host_always[ATT] | (self.host_empty[ATT] & empty)
            if self.king_anvil:
                anvils |= kb
        cap = (((enemies >> 1) & (anvils >> 2) & self.m_east)
               | ((enemies << 1) & (anvils << 2) & self.m_west)
               | ((enemies >> W) & (anvils >> (2 * W)))
               | ((enemies << W) & (anvils << (2 * W))))
        if self.edge_hostile:
            cap |= (((enemies >> 1) & self.m_east_edge) | ((enemies << 1) & self.m_west_edge)
                    | ((enemies >> W) & self.m_north_edge) | ((enemies << W) & self.m_south_edge))
        return cap & empty

    def capture_moves(self, pos: TaflPosition) -> list[Move]:
        """The moves of the side to move that land where they capture (:meth:`capture_targets`):
        what the quiescence search follows past the horizon when asked to (analysis, review)."""
        cap = self.capture_targets(pos)
        if not cap:
            return []
        return [m for m in self.rules.legal_moves(pos) if cap >> m[1] & 1]
