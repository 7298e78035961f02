"""Synchronous entry points: a level's move, a hint, an evaluation for the evaluation bar.

These block while they search, so the GUI never calls them directly: it goes through
:class:`tafl_desktop.ai.worker.AIWorker`, whose process calls these.  Tests and the CLI may call
them in-process.

Score conventions (the same in :class:`tafl_desktop.ai.worker.AIResult`):

* ``score``: from the side to move's view, in hundredths of a soldier (100 ~ one attacker);
* ``defenders_score``: the same number from the defenders' (king's side's) view, for a bar that
  does not flip with the turn;
* ``defenders_win_chance``: a 0..1 squashing of ``defenders_score`` (logistic, 300 units ~ 73%);
  exactly 0 or 1 when the search proved a forced result;
* ``mate_in``: plies to a proven result, positive if the side to move wins, else None.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tafl_desktop.ai.levels import HINT_LEVEL, get_level
from tafl_desktop.ai.player import ComputerPlayer
from tafl_desktop.ai.search import MATE_BOUND, SearchResult
from tafl_desktop.core.game import P, Rules

if TYPE_CHECKING:
    from tafl_desktop.search_contract import Searcher

#: Default think time of an evaluation-bar request (seconds): shorter than a hint.
EVAL_TIME = 1.0


@dataclass
class Analysis:
    """A move (or None) with its score and search figures; plain data, safe to pickle."""

    move: tuple[int, ...] | None
    move_text: str
    score: int
    defenders_score: int
    defenders_win_chance: float
    mate_in: int | None
    depth: int
    nodes: int
    seconds: float
    pv: list[str] = field(default_factory=list)
    stopped: str = ""


#: The winning-chance curve's scale, in score units per unit of the logistic: 300 units of
#: advantage ~ 73 %.  Fitted to the results of 20,366 positions of real Copenhagen and Brandubh
#: games (``benchmarks/win_chance_fit.py``: 304 and 288, pooled 303), as lichess fitted its chess
#: curve to its games.
WIN_SCALE = 300.0


def win_chance(defenders_score: int) -> float:
    """Squash a defenders'-view score to 0..1 (proven results give exactly 0 or 1)."""
    if defenders_score >= MATE_BOUND:
        return 1.0
    if defenders_score <= -MATE_BOUND:
        return 0.0
    return 1.0 / (1.0 + math.exp(-defenders_score / WIN_SCALE))


def to_analysis(rules: Rules[P], pos: P, res: SearchResult) -> Analysis:
    """Package a search result with the side-independent views of its score."""
    defenders = res.score if int(rules.side_to_move(pos)) == 1 else -res.score
    return Analysis(
        move=tuple(res.move) if res.move is not None else None,
        move_text=rules.move_text(res.move) if res.move is not None else "",
        score=res.score, defenders_score=defenders, defenders_win_chance=win_chance(defenders),
        mate_in=res.mate_in, depth=res.depth, nodes=res.nodes, seconds=round(res.seconds, 3),
        pv=[rules.move_text(m) for m in res.pv if m is not None], stopped=res.stopped,
    )


def best_move(rules: Rules[P], pos: P, level: str = "medium", history_keys: Iterable[Hashable] = (),
              should_stop: Callable[[], bool] | None = None, seed: int | None = None,
              searcher: Searcher[P] | None = None, on_iteration: Callable[[SearchResult], None] | None = None,
              time_limit: float | None = None, soft_limit: float | None = None) -> Analysis:
    """The move a computer player of ``level`` makes in ``pos`` (randomness and blunders included);
    ``time_limit`` overrides the level's think time (``soft_limit``: a clock's share, see
    :meth:`~tafl_desktop.ai.player.ComputerPlayer.choose`)."""
    player = ComputerPlayer(rules, level, seed=seed, searcher=searcher)
    res = player.choose(pos, history_keys, should_stop, on_iteration=on_iteration, time_limit=time_limit,
                        soft_limit=soft_limit)
    return to_analysis(rules, pos, res)


def hint(rules: Rules[P], pos: P, history_keys: Iterable[Hashable] = (), should_stop: Callable[[], bool] | None = None,
         time_limit: float | None = None, searcher: Searcher[P] | None = None,
         on_iteration: Callable[[SearchResult], None] | None = None) -> Analysis:
    """The best move for the side to move, searched with the strongest level's settings."""
    player = ComputerPlayer(rules, get_level(HINT_LEVEL), searcher=searcher)
    res = player.choose(pos, history_keys, should_stop, margin=0, on_iteration=on_iteration, time_limit=time_limit)
    return to_analysis(rules, pos, res)


def evaluate(rules: Rules[P], pos: P, history_keys: Iterable[Hashable] = (),
             should_stop: Callable[[], bool] | None = None, time_limit: float = EVAL_TIME,
             searcher: Searcher[P] | None = None) -> Analysis:
    """A searched evaluation of ``pos`` for the evaluation bar (strongest settings, short time)."""
    return hint(rules, pos, history_keys, should_stop, time_limit, searcher)
