"""The best N lines of a position (multi-PV), each with an exact score and any proven result.

Why a subclass of :class:`~tafl_desktop.ai.search.Searcher` and not N separate searches: the
ordinary root already scores every root move, but only the best one exactly (the others are
refuted by a null window against the best).  Here the null window is set against the *N-th* best
score found so far instead, so the N best moves all get exact scores in one pass, sharing the
transposition table, move ordering and clock with each other; every other move is still only
proven to be worse than the N-th.

Scores are from the side to move's view, in the evaluators' units (100 ~ one soldier).  A score
beyond :data:`~tafl_desktop.ai.search.MATE_BOUND` is a result the search *proved* (the king
escapes or is captured, the fox is trapped, the leader is taken...): it is reported as
``result_in`` plies and the ``winner`` side, never guessed from a large evaluation.

Every legal move up to ``lines`` gets a line, a move that wins at once included (one line only
when a single line is asked for: then the winning move is answered without a search).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from tafl_desktop.ai.engine import make_searcher
from tafl_desktop.ai.levels import HINT_LEVEL, get_level
from tafl_desktop.ai.search import MATE, MATE_BOUND, Searcher, SearchLimits, SearchResult
from tafl_desktop.core.game import Move

MAX_LINES = 5


@dataclass
class Line:
    """One analysed line; plain data (pickles to the window, dumps to JSON)."""

    moves: list[str]
    score: int
    result_in: int | None
    winner: str | None
    depth: int
    #: The first move as a tuple, for the window to play (not part of the CLI's JSON).
    move: tuple[int, ...] = ()


@dataclass
class Report:
    """A multi-PV search: its lines (best first) and figures."""

    lines: list[Line] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    depth: int = 0
    stopped: str = ""

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        """The CLI contract: ``{"lines": [{"moves", "score", "result_in", "winner", "depth"}],
        "nodes", "seconds"}``."""
        keys = ("moves", "score", "result_in", "winner", "depth")
        return {"lines": [{k: asdict(line)[k] for k in keys} for line in self.lines],
                "nodes": self.nodes, "seconds": round(self.seconds, 3)}


def proven(score: int) -> int | None:
    """Plies to a proven result (positive: the side to move wins), None for an evaluation."""
    if score >= MATE_BOUND:
        return MATE - score
    if score <= -MATE_BOUND:
        return -(MATE + score)
    return None


class MultiPVSearcher(Searcher):
    """The Python searcher as analysis uses it (kept for callers that name it; the root of
    :class:`~tafl_desktop.ai.search.Searcher` scores the best ``lines`` moves exactly)."""


def _lines(rules: Any, pos: Any, searcher: Any, scored: list[tuple[Move, int]], depth: int,
           n: int) -> list[Line]:
    side = rules.side_to_move(pos)
    variant = rules.variant
    out = []
    for move, score in scored[:n]:
        plies = proven(score)
        winner = None
        if plies is not None:
            winner = variant.side_key(side if plies > 0 else side.other)
        pv = searcher.pv(pos, move)
        out.append(Line(moves=[rules.move_text(m) for m in pv], score=int(score),
                        result_in=abs(plies) if plies is not None else None, winner=winner,
                        depth=depth, move=tuple(move)))
    return out


def analyse(rules: Any, pos: Any, lines: int = 3, time_limit: float = 2.0, depth: int = 64, nodes: int = 0,
            history_keys: Iterable[Any] = (), should_stop: Callable[[], bool] | None = None,
            on_iteration: Callable[[Report], None] | None = None,
            searcher: Any | None = None, engine: str | None = None) -> Report:
    """The best ``lines`` (1..5) lines of ``pos`` for the side to move, searched for ``time_limit``
    seconds (0: no limit) or to ``depth``.  ``on_iteration`` gets a :class:`Report` after every
    finished depth (the window's live display).  An ended position has no lines.  With ``nodes``
    the search stops after that many positions on one thread: the same answer on any machine."""
    n = max(1, min(MAX_LINES, int(lines)))
    s = searcher if searcher is not None else make_searcher(rules, engine)
    s.lines = n
    s.finished, s.finished_depth = [], 0
    level = get_level(HINT_LEVEL)
    limits = SearchLimits(time=time_limit, depth=depth, nodes=nodes, quiescence=level.quiescence,
                          selective=getattr(level, "selective", False), threads=1 if nodes else 0)
    t0 = time.perf_counter()

    def iteration(res: SearchResult) -> None:
        if on_iteration is not None and s.finished:
            on_iteration(Report(_lines(rules, pos, s, s.finished, s.finished_depth, n), s.nodes,
                                time.perf_counter() - t0, s.finished_depth, ""))

    res = s.search(pos, limits, history_keys, should_stop, on_iteration=iteration)
    seconds = time.perf_counter() - t0
    if res.move is None:
        return Report([], res.nodes, seconds, 0, res.stopped)
    if s.finished and res.stopped != "forced":
        # the lines of the last finished depth: all N scored exactly against each other
        return Report(_lines(rules, pos, s, s.finished, s.finished_depth, n), res.nodes, seconds,
                      s.finished_depth, res.stopped)
    # a move that wins at once (or the search stopped before its first depth): the search's answer
    return Report(_lines(rules, pos, s, [(res.move, res.score)], max(1, res.depth), 1), res.nodes, seconds,
                  max(1, res.depth), res.stopped)
