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
from collections.abc import Callable, Hashable, Iterable
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from tafl_desktop.ai.engine import make_searcher
from tafl_desktop.ai.evaluation import full_width_sides
from tafl_desktop.ai.levels import HINT_LEVEL, get_level
from tafl_desktop.ai.proven_line import complete_line
from tafl_desktop.ai.search import MATE, MATE_BOUND, Searcher, SearchLimits, SearchResult
from tafl_desktop.core.game import Move, P, Position, Rules

if TYPE_CHECKING:
    from tafl_desktop.search_contract import Searcher as SearcherContract

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


class MultiPVSearcher(Searcher[Position]):
    """The Python searcher as analysis uses it (kept for callers that name it; the root of
    :class:`~tafl_desktop.ai.search.Searcher` scores the best ``lines`` moves exactly)."""


def _lines(rules: Rules[P], pos: P, searcher: SearcherContract[P], scored: list[tuple[Move, int]], depth: int,
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
        if plies is not None:
            pv = complete_line(rules, pos, pv, plies, getattr(searcher, "engine", None))
        out.append(Line(moves=[rules.move_text(m) for m in pv], score=int(score),
                        result_in=abs(plies) if plies is not None else None, winner=winner,
                        depth=depth, move=tuple(move)))
    return out


def analysis_limits(time_limit: float = 0.0, depth: int = 64, nodes: int = 0,
                    reproducible: bool = False, full_width: bool = False) -> SearchLimits:
    """The search settings of analysis and review: the strongest level's, with captures followed
    past the horizon in either engine (a piece left hanging at the horizon is seen), and one
    thread when a node budget or ``reproducible`` asks for the same answer on any machine.
    ``full_width``: the side to move is one the game's evaluator names in ``full_width_sides``
    (see :func:`searches_full_width`), which the strongest level searches without reductions."""
    level = get_level(HINT_LEVEL)
    return SearchLimits(time=time_limit, depth=depth, nodes=nodes, quiescence=level.quiescence,
                        selective=getattr(level, "selective", False) and not full_width,
                        threads=1 if nodes or reproducible else 0, captures=True, follow_captures=True)


def searches_full_width(rules: Rules[P], pos: P, searcher: SearcherContract[P]) -> bool:
    """Whether the strongest level searches ``pos``'s side to move full width, as it does when it
    plays that side (``ComputerPlayer.limits``): the Fox games' hunters have a handful of moves,
    and searching the late ones a ply shallower hid the fox's defences (Expert's fox held out a
    median 99 plies with it and 155 without, benchmarks/results/README.md).  Analysis and review
    judge a move by the search that would play it."""
    return int(rules.side_to_move(pos)) in full_width_sides(searcher)


def playable_moves(rules: Rules[P], pos: P, history_keys: Iterable[Hashable] = ()) -> list[Move]:
    """The moves the side to move may play here (a no-repeat rule honoured): the most lines
    a position can have."""
    from tafl_desktop.core.game import unrepeated

    if rules.outcome(pos) is not None:
        return []
    return unrepeated(rules, pos, rules.legal_moves(pos), list(history_keys))


def analyse(rules: Rules[P], pos: P, lines: int = 3, time_limit: float = 2.0, depth: int = 64, nodes: int = 0,
            history_keys: Iterable[Hashable] = (), should_stop: Callable[[], bool] | None = None,
            on_iteration: Callable[[Report], None] | None = None,
            searcher: SearcherContract[P] | None = None, engine: str | None = None,
            on_progress: Callable[[int, int], None] | None = None, reproducible: bool = False) -> Report:
    """The best ``lines`` (1..5) lines of ``pos`` for the side to move, searched for ``time_limit``
    seconds (0: no limit) or to ``depth``.  ``on_iteration`` gets a :class:`Report` after every
    finished depth (the window's live display), ``on_progress(nodes, depth)`` the running counts
    in between.  An ended position has no lines.  With ``nodes`` the search stops after that many
    positions on one thread: the same answer on any machine (``reproducible`` asks for one thread
    with a depth too).

    The report always holds ``min(lines, playable moves)`` lines unless the caller stopped it
    first: a proven result or a clock that runs out before the first depth is finished still
    gets every line asked for (that depth is then finished without the clock)."""
    n = max(1, min(MAX_LINES, int(lines)))
    s = searcher if searcher is not None else make_searcher(rules, engine)
    history_keys = list(history_keys)
    want = min(n, len(playable_moves(rules, pos, history_keys)))
    s.lines = n
    s.finished, s.finished_depth = [], 0
    full_width = searches_full_width(rules, pos, s)
    limits = analysis_limits(time_limit, depth, nodes, reproducible, full_width)
    t0 = time.perf_counter()

    def iteration(res: SearchResult) -> None:
        if on_iteration is not None and s.finished:
            on_iteration(Report(_lines(rules, pos, s, s.finished, s.finished_depth, n), s.nodes,
                                time.perf_counter() - t0, s.finished_depth, ""))

    res = s.search(pos, limits, history_keys, should_stop, on_iteration=iteration, on_progress=on_progress)
    nodes_used = res.nodes
    if res.move is None:
        return Report([], nodes_used, time.perf_counter() - t0, 0, res.stopped)
    if len(s.finished) < want and res.stopped != "cancelled":
        # the clock or the node budget ran out inside the first depth: finish that depth alone
        first = analysis_limits(0.0, 1, 0, reproducible, full_width)
        again = s.search(pos, first, history_keys, should_stop, on_iteration=iteration)
        nodes_used += again.nodes
    seconds = time.perf_counter() - t0
    if s.finished:
        # the lines of the last finished depth: all N scored exactly against each other
        return Report(_lines(rules, pos, s, s.finished, s.finished_depth, n), nodes_used, seconds,
                      s.finished_depth, res.stopped)
    # stopped by the caller before its first depth: the search's answer alone
    return Report(_lines(rules, pos, s, [(res.move, res.score)], max(1, res.depth), 1), nodes_used, seconds,
                  max(1, res.depth), res.stopped)
