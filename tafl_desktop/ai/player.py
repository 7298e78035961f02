"""A computer player: one level's search settings and deliberate weaknesses around a Searcher.

Used by the worker process (GUI games, hints, evaluation) and by self-play, so that a level
plays the same everywhere.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Hashable, Iterable
from typing import TYPE_CHECKING, Generic

from tafl_desktop.ai.engine import make_searcher, native_plays_level
from tafl_desktop.ai.evaluation import full_width_sides
from tafl_desktop.ai.levels import UNTIMED_CEILING, Level, get_level
from tafl_desktop.ai.search import SearchLimits, SearchResult
from tafl_desktop.core.game import P, Rules, unrepeated

if TYPE_CHECKING:
    from tafl_desktop.ai.evaluation import Evaluator
    from tafl_desktop.search_contract import Searcher

#: The depth limit of a search that only its node budget (and time) bounds.
MAX_DEPTH = 64


class ComputerPlayer(Generic[P]):
    """Chooses moves at one level; keeps its searcher (and transposition table) between moves."""

    def __init__(self, rules: Rules[P], level: str | Level, seed: int | None = None,
                 evaluator: Evaluator[P] | None = None, time_scale: float = 1.0, searcher: Searcher[P] | None = None,
                 engine: str | None = None,
                 timed: bool = False, weights: dict[str, int] | None = None) -> None:
        self.rules = rules
        #: Whether the level's time (times ``time_scale``) is a real limit: a clock is running (the
        #: engine protocol's host).  Untimed, the node budget binds and the time is only a guard
        #: (``UNTIMED_CEILING`` times it), so that a level plays the same on any machine.
        self.timed = timed
        self.level = level if isinstance(level, Level) else get_level(level)
        self.rng = random.Random(seed)
        self.time_scale = time_scale
        if self.level.random_mover:
            self.searcher = None
        else:
            if searcher is None and evaluator is None and weights is None and not self.level.game_terms:
                from tafl_desktop.ai.evaluation import plain_evaluator

                evaluator = plain_evaluator(rules)
            if searcher is None and not native_plays_level(rules, self.level):
                engine = "python"  # the level's measured play is the Python search's
            self.searcher = searcher if searcher is not None else make_searcher(rules, engine, evaluator, weights)
        #: The part of the level's error margins that applies in this game (see evaluation.py).
        self.drift_scale = self.searcher.ev.drift_scale if self.searcher else 1.0
        #: ... per side (an evaluator may say a side's errors cost more: ``side_drift_scales``).
        self.drift_scales: tuple[float, ...] = tuple(
            getattr(self.searcher.ev, "side_drift_scales", None) or (self.drift_scale,) * 2
            if self.searcher else (1.0, 1.0))
        #: The search engine that plays ("native" or "python"; see tafl_desktop.ai.engine).
        self.engine = getattr(self.searcher, "engine", "python") if self.searcher else "python"
        #: The sides whose moves a selective level searches full width here (see evaluation.py).
        self.full_width_sides: tuple[int, ...] = full_width_sides(self.searcher)
        #: Whether the level's node budget alone bounds its search here (see evaluation.py).
        self.uncapped = bool(self.searcher and getattr(self.searcher.ev, "uncapped_depth", False))

    def scale(self, side: int | None = None) -> float:
        """The part of the level's error margins that applies to ``side`` (None: the game's)."""
        return self.drift_scale if side is None else self.drift_scales[side]

    def limits(self, margin: int | None = None, ranked: bool | None = None, side: int | None = None) -> SearchLimits:
        """The search settings of a move for ``side`` (None: the game's default margins)."""
        lv = self.level
        own = round(lv.margin * self.scale(side))
        native = self.engine == "native"
        nodes = lv.native_nodes if native and lv.native_nodes else lv.nodes
        depth = lv.native_depth if native and lv.native_depth else lv.depth
        depth = MAX_DEPTH if self.uncapped and lv.depth > 1 and lv.nodes else depth
        guard = 1.0 if self.timed or not nodes else UNTIMED_CEILING
        return SearchLimits(time=lv.time * self.time_scale * guard, depth=depth, nodes=nodes,
                            quiescence=lv.quiescence, margin=own if margin is None else margin,
                            ranked_drift=lv.ranked_drift if ranked is None else ranked,
                            selective=lv.selective and side not in self.full_width_sides,
                            captures=lv.captures, threads=1)

    def choose(self, pos: P, history_keys: Iterable[Hashable] = (), should_stop: Callable[[], bool] | None = None,
               margin: int | None = None, on_iteration: Callable[[SearchResult], None] | None = None,
               time_limit: float | None = None, soft_limit: float | None = None) -> SearchResult:
        """The level's move in ``pos`` (``move`` is None only when the side to move has no move).

        ``soft_limit`` (with ``time_limit``, under a clock): the share of the clock this move
        should take; the search stops after a depth that ends past it, later at a critical moment
        (:mod:`tafl_desktop.ai.clock_budget`), and never passes ``time_limit``."""
        lv = self.level
        side = int(self.rules.side_to_move(pos))
        blunder = bool(lv.blunder) and self.rng.random() < lv.blunder
        ranked = None
        if blunder and lv.blunder_margin:  # a slip: any move within blunder_margin, uniformly
            margin = max(margin or 0, round(lv.blunder_margin * self.scale(side)))
            ranked = False
            blunder = False
        if lv.random_mover or blunder:
            t0 = time.perf_counter()
            moves = unrepeated(self.rules, pos, self.rules.legal_moves(pos), list(history_keys))
            move = self.rng.choice(moves) if moves else None
            return SearchResult(move, 0, 0, 0, time.perf_counter() - t0, [move] if move else [], stopped="random")
        assert self.searcher is not None
        limits = self.limits(margin, ranked, side)
        if time_limit is not None:  # an explicit budget (hints, benchmarks) replaces the node budget
            limits.time = time_limit
            limits.nodes = 0
        if soft_limit is None or time_limit is None or soft_limit >= time_limit:
            return self.searcher.search(pos, limits, history_keys, should_stop, self.rng, on_iteration)
        from tafl_desktop.ai.clock_budget import SoftDeadline

        soft = SoftDeadline(soft_limit, should_stop, on_iteration)
        res = self.searcher.search(pos, limits, history_keys, soft.should_stop, self.rng, soft.on_iteration)
        if soft.stop and res.stopped == "cancelled":
            res.stopped = "time"  # its share of the clock used, not a cancel
        return res
