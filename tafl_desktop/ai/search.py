"""Alpha-beta search over any family's own move generator.

Negamax with principal-variation search, iterative deepening, a transposition table, and move
ordering by table move, killer moves, history counters and the family's static hints.  At the
horizon a small quiescence search follows only the family's *forcing* lines (in Tafl: an open
escape route that must be blocked, a king that can be captured), because those are exactly the
threats a fixed-depth search would otherwise walk into.

The search is generic: it uses the rules protocol (``legal_moves``, ``play``, ``outcome``,
``position_key``, ``repetition_outcome``) and the family evaluator's hooks (``evaluate``,
``quick_outcome``, ``tactics``, ``order_key``).  Positions are immutable, so there is no unmake:
``play`` returns a new position and the old one is simply kept on the Python stack.

Stopping: every 256 nodes the search checks the clock, the node budget and an optional
``should_stop`` callable (the worker process passes a shared event), and unwinds with
:class:`SearchAborted`.  The root keeps the best move of the last finished iteration, upgraded by
any root move of the unfinished one that was searched to the end and scored better, so a stop at
any moment still yields a sound move.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Hashable, Iterable
from typing import Generic, cast

from tafl_desktop.ai.evaluation import Evaluator, QuiescenceHooks, make_evaluator
from tafl_desktop.ai.evaluation_tafl import FORCED, TERMINAL, WIN_NOW
from tafl_desktop.ai.zobrist import key_hasher
from tafl_desktop.core.game import Move, Outcome, P, RepetitionRules, Rules, unrepeated
from tafl_desktop.search_contract import (
    MATE,
    MATE_BOUND,
    PROGRESS_EVERY,
    SearchLimits,
    SearchResult,
    drift_pick,
)

# MATE, MATE_BOUND, PROGRESS_EVERY, SearchLimits, SearchResult and drift_pick are the search
# contract's (tafl_desktop.search_contract, shared with the native searcher); they are
# re-exported here, where callers have always imported them.
INF = 10 * MATE
EXACT, LOWER, UPPER = 0, 1, 2
MAX_PLY = 128
QUIESCENCE_PLIES = 6
#: Iterations up to this depth are always full width, selective search or not.
FULL_WIDTH_DEPTH = 4
#: Moves searched at full depth before late-move reductions start.
LMR_AFTER = 3
#: A repeat's score for the side the repetition rule does not oblige to break the cycle (see
#: ``Searcher._repetition``); it was a lean of 150, too little to make the obliged side leave a
#: cycle while a good exit remained (issue 44).
CYCLE_BREAK = 1000


class SearchAborted(Exception):
    """Raised inside the tree when time, nodes or the caller say stop; caught at the root."""


def settled(scored: list[tuple[Move, int]], lines: int, full_width: int) -> bool:
    """May deepening stop?  Only when each of the best ``lines`` root scores (sorted, best first)
    is a proven result that no deeper search can change.

    Why that is decidable: a proven score is a forced result in ``k`` plies found in the tree (the
    last plies often past the horizon, found by the forcing tactics or the capture search), so its
    *result* is final; but a deeper search may still find it *faster* (a quicker win, a quicker
    loss for the other side; never a slower one: the result found is already forced within ``k``).
    A faster result takes at most ``k - 1`` plies, and a search full width to ``full_width`` plies
    (no move reduced) finds every result within that many plies; so ``k <= full_width + 1`` leaves
    nothing to find (a win in 3 plies after depth 2: a win in 1 or 2 would have shown).  A line
    that is only an evaluation may change at any depth: with several lines asked for, the search
    goes on while any of them is one (a proven best line no longer stops the others at depth 2)."""
    top = scored[:max(1, lines)]
    return bool(top) and all(abs(s) >= MATE_BOUND and MATE - abs(s) <= full_width + 1 for _m, s in top)


class Searcher(Generic[P]):
    """The Python search engine: a reusable searcher for one rules object, keeping its
    transposition table between moves.  It is one of the two implementations of the
    :class:`~tafl_desktop.search_contract.Searcher` Protocol (the other is the native one):
    ``search``, ``pv``, ``clear``, ``lines``, ``finished`` and ``finished_depth``, ``nodes``,
    ``ev``, ``rules`` and ``engine``."""

    engine = "python"
    #: How many best root moves get exact scores (multi-PV; 1 for play).
    lines = 1
    #: The contract's thread count: the Python search has one thread, whatever is set here.
    threads = 1

    def __init__(self, rules: Rules[P], evaluator: Evaluator[P] | None = None, tt_entries: int = 400_000) -> None:
        self.rules = rules
        self.ev: Evaluator[P] = evaluator if evaluator is not None else make_evaluator(rules)
        #: Whether the evaluator names moves for the quiescence search besides its forcing lines.
        self.noisy = hasattr(self.ev, "noisy_moves")
        self.hash = key_hasher(rules)
        self.tt: dict[int, tuple[int, int, int, Move | None]] = {}
        self.tt_entries = tt_entries
        self.history: list[dict[Move, int]] = [{}, {}]
        self.killers: list[list[Move | None]] = [[None, None] for _ in range(MAX_PLY + 8)]
        self.nodes = 0
        #: Root moves and scores of the last finished iteration, best first, and its depth.
        self.finished: list[tuple[Move, int]] = []
        self.finished_depth = 0

    # ------------------------------------------------------------------------------ public
    def search(self, pos: P, limits: SearchLimits | None = None, history_keys: Iterable[Hashable] = (),
               should_stop: Callable[[], bool] | None = None, rng: random.Random | None = None,
               on_iteration: Callable[[SearchResult], None] | None = None,
               on_progress: Callable[[int, int], None] | None = None) -> SearchResult:
        """Best move for the side to move in ``pos``.

        ``history_keys`` are the ``rules.position_key`` values of the game so far (the current
        position included or not: it is counted once either way), so that the repetition rule in
        force is applied to positions the search reaches.  ``on_progress(nodes, depth)`` is called
        about every :data:`PROGRESS_EVERY` seconds while a depth is searched (live counters).
        """
        lim = limits or SearchLimits()
        self.limits = lim
        self.t0 = time.perf_counter()
        self.deadline = self.t0 + lim.time if lim.time > 0 else float("inf")
        self.max_nodes = lim.nodes
        self.should_stop = should_stop
        self.on_progress = on_progress
        self._progress_at = self.t0 + PROGRESS_EVERY
        self._depth_now = 0
        self.nodes = 0
        self.stop_reason = ""
        self.qmax = QUIESCENCE_PLIES if lim.quiescence else 0
        self.captures_q = bool(lim.follow_captures and lim.captures and lim.quiescence
                               and hasattr(self.ev, "capture_moves"))
        self.reduce = False
        full_width = 0
        rng = rng or random.Random()
        self._age_tables()
        self.finished, self.finished_depth = [], 0

        rules = self.rules
        root_key = self.hash(pos)
        game_counts: dict[int, int] = {}
        history_keys = list(history_keys)
        for k in history_keys:
            h = hash(k) if not isinstance(k, int) else k
            game_counts[h] = game_counts.get(h, 0) + 1
        game_counts[root_key] = max(game_counts.get(root_key, 0), 1)
        self.game_counts = game_counts
        self.path: dict[int, int] = {}

        moves = rules.legal_moves(pos) if self.ev.quick_outcome(pos) is None else []
        allowed = unrepeated(rules, pos, moves, history_keys)  # a no-repeat rule is a rule of legality
        if not moves or not allowed:
            out = (rules.outcome(pos) if not moves  # every move would repeat: only a no-repeat rule forbids them all
                   else cast("RepetitionRules[P]", rules).no_moves_outcome(pos))
            return SearchResult(None, self._terminal(pos, out, 0), 0, 0, 0.0, stopped="depth")
        moves = allowed
        if len(moves) == 1 and lim.margin == 0 and not on_iteration:
            static = self.ev.evaluate(pos)  # nothing to choose: no search, a static score will do
            return SearchResult(moves[0], static, 0, 0, time.perf_counter() - self.t0, [moves[0]],
                                [(moves[0], static)], stopped="forced")

        kind, payload = self.ev.tactics(pos, moves)
        if kind == WIN_NOW and self.lines <= 1:  # analysis of several lines scores the others too
            return SearchResult(payload, MATE - 1, 1, 1, time.perf_counter() - self.t0, [payload],
                                [(payload, MATE - 1)], stopped="forced")

        order = self.ev.order_key(pos)
        hist = self.history[self._side(pos)]
        entry = self.tt.get(root_key)
        tt_move = entry[3] if entry else None
        root: list[Move] = sorted(moves, key=lambda m: -(order(m) + hist.get(m, 0)))
        if tt_move in moves:
            root.remove(tt_move)
            root.insert(0, tt_move)
        best = SearchResult(root[0], 0, 0, 0, 0.0, [root[0]], [(root[0], 0)])
        for depth in range(1, max(1, lim.depth) + 1):
            self.reduce = lim.selective and depth > FULL_WIDTH_DEPTH
            self._depth_now = depth
            try:
                scored = self._root(pos, root, depth, lim.margin)
            except SearchAborted:
                scored = self._partial
                # the unfinished iteration counts once it has re-searched the previous best move
                if scored and (depth == 1 or any(m == best.move for m, _ in scored)):
                    scored.sort(key=lambda ms: -ms[1])
                    best = self._result(pos, scored, depth - 1 if depth > 1 else 1, lim.margin)
                break
            scored.sort(key=lambda ms: -ms[1])
            best = self._result(pos, scored, depth, lim.margin)
            if not self.reduce:
                full_width = depth
            if on_iteration:
                on_iteration(best)
            root = [m for m, _ in scored]
            if depth >= 2 and settled(scored, self.lines, full_width):
                self.stop_reason = self.stop_reason or "proven"
                break  # every line asked for is a proven result no deeper search can change
            # no early stop before an iteration predicted not to finish: the time given is used to
            # its deadline, and an unfinished iteration's best move counts once it has re-searched
            # the previous best (an early stop left 38-71 % of a fixed time per move unused)
        else:
            self.stop_reason = self.stop_reason or "depth"
        best.nodes = self.nodes
        best.seconds = time.perf_counter() - self.t0
        best.stopped = self.stop_reason or "depth"
        best.full_width_depth = min(full_width, best.depth)
        best.candidates = [(m, s) for m, s in best.candidates]
        if lim.margin and best.candidates:
            best.move = drift_pick(best.candidates, rng) if lim.ranked_drift else rng.choice(best.candidates)[0]
        return best

    # ------------------------------------------------------------------------------ internals
    def _side(self, pos: P) -> int:
        return int(self.rules.side_to_move(pos))

    def _age_tables(self) -> None:
        """Between searches: halve history counters, drop killers, trim an overfull table."""
        for h in self.history:
            for k in list(h):
                v = h[k] >> 1
                if v:
                    h[k] = v
                else:
                    del h[k]
        for pair in self.killers:
            pair[0] = pair[1] = None
        if len(self.tt) > self.tt_entries:
            self.tt.clear()

    def clear(self) -> None:
        """Forget everything learnt in earlier searches (table, history, killers), so that the
        next search depends on its position and limits only: a review's reproducibility."""
        self.tt.clear()
        self.history = [{}, {}]
        self.killers = [[None, None] for _ in range(MAX_PLY + 8)]

    def _check(self) -> None:
        now = time.perf_counter()
        if self.on_progress is not None and now >= self._progress_at:
            self._progress_at = now + PROGRESS_EVERY
            self.on_progress(self.nodes, self._depth_now)
        if now >= self.deadline:
            self.stop_reason = "time"
            raise SearchAborted
        if self.max_nodes and self.nodes >= self.max_nodes:
            self.stop_reason = "nodes"
            raise SearchAborted
        if self.should_stop is not None and self.should_stop():
            self.stop_reason = "cancelled"
            raise SearchAborted

    def _terminal(self, pos: P, out: Outcome | None, ply: int) -> int:
        if out is None or out.winner is None:
            return 0
        return MATE - ply if int(out.winner) == self._side(pos) else -(MATE - ply)

    def _repetition(self, pos: P, key: int, ply: int) -> int | None:
        """Score of a repeated position, or None if the position is new on this line.

        When the rule's count is reached the rule decides (a win, loss or draw).  An earlier
        repeat (a cycle inside the search line or back to a game position) is judged by who must
        break the cycle: if both sides went on repeating, the position just repeated would be the
        first to reach the rule's count, made by the same side each time.  So under a rule that
        decides repetition for one side (``mover_loses``, ``mover_wins``, ``defenders_lose``) that
        side's opponent is obliged to leave the cycle, and the repeat scores at least
        :data:`CYCLE_BREAK` against it (more than any quiet positional difference, so the obliged
        side leaves the cycle at its best exit, early, while one is still good, instead of at the
        last repeat), and no better for it than the position itself (a side far behind finds no
        refuge in a cycle it must break anyway); never a proven result (a cycle found in one
        line is no proof in another).  Under
        ``draw`` (and where repetition decides nothing) a repeat is a draw: the side ahead gets
        no credit for shuffling back and forth.
        """
        in_path = self.path.get(key, 0)
        in_game = self.game_counts.get(key, 0)
        if not in_path and not in_game:
            return None
        count = in_game + in_path + 1
        rules = self.rules
        out = rules.repetition_outcome(pos, count)
        if out is not None:
            return self._terminal(pos, out, ply)
        out = rules.repetition_outcome(pos, 99)
        if out is None or out.winner is None:
            return 0
        # never a refuge for the obliged side, never a loss of lead for the other
        if int(out.winner) == self._side(pos):
            return max(CYCLE_BREAK, self.ev.evaluate(pos))
        return min(-CYCLE_BREAK, self.ev.evaluate(pos))

    def _result(self, pos: P, scored: list[tuple[Move, int]], depth: int, margin: int) -> SearchResult:
        best_move, best_score = scored[0]
        floor = best_score - margin
        cands = [(m, s) for m, s in scored if s >= floor] if margin else [scored[0]]
        return SearchResult(best_move, best_score, depth, self.nodes, time.perf_counter() - self.t0,
                            self._pv(pos, best_move), cands)

    def _pv(self, pos: P, first: Move) -> list[Move]:
        pv = [first]
        rules = self.rules
        p, _ = rules.play(pos, first)
        seen = set()
        while len(pv) < 24:
            k = self.hash(p)
            if k in seen:
                break
            seen.add(k)
            e = self.tt.get(k)
            if not e or e[3] is None or self.ev.quick_outcome(p) is not None:
                break
            if e[3] not in rules.legal_moves(p):
                break
            pv.append(e[3])
            p, _ = rules.play(p, e[3])
        return pv

    def _root(self, pos: P, moves: list[Move], depth: int, margin: int) -> list[tuple[Move, int]]:
        """One iteration at the root: every root move scored; the best ``lines`` and those within
        ``margin`` of the best exactly, the others proven worse by a null window against the
        ``lines``-th best score found so far (less the margin), sharing one table and clock."""
        play = self.rules.play
        n = max(1, self.lines)
        scored: list[tuple[Move, int]] = []
        self._partial = scored
        top: list[int] = []  # the best n scores so far, ascending
        for m in moves:
            child, _ = play(pos, m)
            ck = self.hash(child)
            if len(top) < n:
                score = -self._negamax(child, ck, depth - 1, -INF, INF, 1)
            else:
                a = top[0] - margin
                score = -self._negamax(child, ck, depth - 1, -a - 1, -a, 1)
                if score > a:
                    score = -self._negamax(child, ck, depth - 1, -INF, -a, 1)
            scored.append((m, score))
            top.append(score)
            top.sort()
            if len(top) > n:
                top.pop(0)
        best = max(scored, key=lambda ms: ms[1])
        self._store(self.hash(pos), depth, EXACT, best[1], best[0], 0)
        self.finished = sorted(scored, key=lambda ms: -ms[1])
        self.finished_depth = depth
        return scored

    def pv(self, pos: P, first: Move) -> list[Move]:
        """The principal variation starting with ``first``, from the transposition table."""
        return self._pv(pos, first)

    def _store(self, key: int, depth: int, flag: int, score: int, move: Move | None, ply: int) -> None:
        if score >= MATE_BOUND:
            score += ply
        elif score <= -MATE_BOUND:
            score -= ply
        old = self.tt.get(key)
        if old is not None and old[0] > depth and old[3] is not None:
            return
        self.tt[key] = (depth, flag, score, move)

    def _negamax(self, pos: P, key: int, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        if not self.nodes & 255:
            self._check()
        ev = self.ev
        out = ev.quick_outcome(pos)
        if out is not None:
            return self._terminal(pos, out, ply)
        rep = self._repetition(pos, key, ply)
        if rep is not None:
            return rep
        if depth <= 0 or ply >= MAX_PLY:
            return self._qsearch(pos, alpha, beta, ply, 0)

        # mate-distance pruning: no result can beat a win next move
        if alpha >= MATE - ply - 1:
            return alpha
        entry = self.tt.get(key)
        tt_move = None
        if entry is not None:
            e_depth, flag, score, tt_move = entry
            if e_depth >= depth:
                if score >= MATE_BOUND:
                    score -= ply
                elif score <= -MATE_BOUND:
                    score += ply
                if flag == EXACT:
                    return score
                if flag == LOWER and score >= beta:
                    return score
                if flag == UPPER and score <= alpha:
                    return score

        rules = self.rules
        moves = rules.legal_moves(pos)
        if not moves:
            return self._terminal(pos, rules.outcome(pos), ply)
        kind, payload = ev.tactics(pos, moves)
        if kind == WIN_NOW:
            return MATE - ply - 1
        if kind == TERMINAL:
            return self._terminal(pos, payload, ply)
        if kind == FORCED:
            moves = payload
            if not moves:
                return -(MATE - ply - 2)

        hist = self.history[self._side(pos)]
        if len(moves) > 1:
            order = ev.order_key(pos)
            hget = hist.get
            moves = sorted(moves, key=lambda m: -(order(m) + hget(m, 0)))
            killers = self.killers[ply]
            front = 0
            if tt_move is not None and tt_move in moves:
                moves.remove(tt_move)
                moves.insert(0, tt_move)
                front = 1
            for k in killers:
                if k is not None and k != tt_move and k in moves:
                    idx = moves.index(k)
                    if idx > front:
                        moves.pop(idx)
                        moves.insert(front, k)
                        front += 1

        play = rules.play
        hasher = self.hash
        path = self.path
        path[key] = path.get(key, 0) + 1
        best = -INF
        best_move = moves[0]
        orig_alpha = alpha
        first = True
        reduce = self.reduce and depth >= 3 and kind != FORCED
        if reduce:
            order = ev.order_key(pos)
            killers = self.killers[ply]
        try:
            for idx, m in enumerate(moves):
                child, caps = play(pos, m)
                ck = hasher(child)
                if first:
                    score = -self._negamax(child, ck, depth - 1, -beta, -alpha, ply + 1)
                    first = False
                else:
                    if (reduce and idx >= LMR_AFTER and not caps and m != tt_move and m not in killers
                            and order(m) < 200):
                        # a late quiet move: a shallower look first; only a surprise earns the full depth
                        r = 2 if idx >= 12 and depth >= 5 else 1
                        score = -self._negamax(child, ck, depth - 1 - r, -alpha - 1, -alpha, ply + 1)
                        if score > alpha:
                            score = -self._negamax(child, ck, depth - 1, -alpha - 1, -alpha, ply + 1)
                    else:
                        score = -self._negamax(child, ck, depth - 1, -alpha - 1, -alpha, ply + 1)
                    if alpha < score < beta:
                        score = -self._negamax(child, ck, depth - 1, -beta, -alpha, ply + 1)
                if score > best:
                    best = score
                    best_move = m
                    if score > alpha:
                        alpha = score
                        if alpha >= beta:
                            if not caps:
                                kl = self.killers[ply]
                                if kl[0] != m:
                                    kl[1] = kl[0]
                                    kl[0] = m
                                hist[m] = hist.get(m, 0) + depth * depth
                            break
        finally:
            n = path[key] - 1
            if n:
                path[key] = n
            else:
                del path[key]
        flag = LOWER if best >= beta else (EXACT if best > orig_alpha else UPPER)
        self._store(key, depth, flag, best, best_move, ply)
        return best

    def _qsearch(self, pos: P, alpha: int, beta: int, ply: int, qd: int) -> int:
        """Horizon search along forcing lines only (escape routes to block, king captures), and
        the evaluator's noisy moves (the hunters' captures), which the side may take or not."""
        ev = self.ev
        if qd:
            self.nodes += 1
            if not self.nodes & 255:
                self._check()
            out = ev.quick_outcome(pos)
            if out is not None:
                return self._terminal(pos, out, ply)
        if qd >= self.qmax:
            return ev.evaluate(pos)
        kind, payload = ev.tactics(pos, None)
        if kind == WIN_NOW:
            return MATE - ply - 1
        if kind == TERMINAL:
            return self._terminal(pos, payload, ply)
        if kind != FORCED:
            stand = ev.evaluate(pos)
            if stand >= beta:
                return stand
            hooks = cast("QuiescenceHooks[P]", ev)  # asked only where it has them (noisy, captures_q)
            noisy = hooks.noisy_moves(pos) if self.noisy else None
            if self.captures_q:
                caps = hooks.capture_moves(pos)
                noisy = caps if not noisy else list(dict.fromkeys([*caps, *noisy]))
            if not noisy:
                return stand
            return self._qmoves(pos, noisy, stand, max(alpha, stand), beta, ply, qd)
        if not payload:
            return -(MATE - ply - 2)
        return self._qmoves(pos, payload, -INF, alpha, beta, ply, qd)

    def _qmoves(self, pos: P, moves: list[Move], best: int, alpha: int, beta: int, ply: int, qd: int) -> int:
        """The best of ``best`` (standing pat, or -INF where the side must move) and ``moves``."""
        play = self.rules.play
        for m in moves:
            child, _ = play(pos, m)
            score = -self._qsearch(child, -beta, -alpha, ply + 1, qd + 1)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best


__all__ = ["CYCLE_BREAK", "EXACT", "FULL_WIDTH_DEPTH", "INF", "LMR_AFTER", "LOWER", "MATE", "MATE_BOUND",
           "MAX_PLY", "PROGRESS_EVERY", "QUIESCENCE_PLIES", "SearchAborted", "SearchLimits",
           "SearchResult", "Searcher", "UPPER", "drift_pick", "settled"]
