"""The engine's score of each move the explorer lists, computed once and kept in the database.

Why cached: a search is thousands of times slower than a lookup, and the explorer shows the same
openings again and again; a move's score depends only on the position it leads to, the rules and
the search's budget, so it is stored under those (the ``scores`` table of :mod:`.store`) and a
later visit, or another session, reads it back.  The position is the folded one (:mod:`.keys`),
so a move and its mirror image share their score, as they share their counts.

The budget is a fixed number of positions on one thread (:data:`BUDGET`), so the score is the
same on every machine and a cached score is the one a new search would give; a stronger budget
is another key, never mixed with this one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tafl_desktop.core.game import P, Rules

if TYPE_CHECKING:
    from tafl_desktop.search_contract import Searcher

#: Positions searched for one move's score on the native engine (one thread, so any machine gives
#: the same score): a few milliseconds.
BUDGET = 5000
#: The same on the Python engine (the Fox games, Dablot, a rule the native engine leaves to the
#: core): a search of 5,000 positions there takes a second or two, and it shares the window's
#: interpreter, so it searches fewer.
PYTHON_BUDGET = 1000


def budget_for(rules: Rules[P]) -> int:
    """The budget of a score under ``rules``: the engine that searches them decides it (a part of
    the cache's key, so scores of the two budgets never mix)."""
    from tafl_desktop.ai.engine import resolve

    try:
        return BUDGET if resolve(rules, None) == "native" else PYTHON_BUDGET
    except ValueError:  # $TAFL_ENGINE names no engine: the search says so where it is asked for
        return PYTHON_BUDGET


@dataclass(frozen=True)
class MoveScore:
    """The engine's view of the position a move leads to: ``score`` from the view of the side to
    move there (hundredths of a soldier), or a proven result (``result_in`` plies, ``winner`` a
    side key), and the depth searched."""

    score: int
    result_in: int | None
    winner: str | None
    depth: int

    def words(self, variant: Any, to_move_after: int) -> str:
        """As the analysis board writes a score: "+1.4 attackers", "The defenders win in 2 moves"."""
        from tafl_desktop.analysis.words import line_words

        return line_words(variant, self.score, self.result_in, self.winner, to_move_after)

    def for_mover(self) -> int:
        """The score from the view of the side that played the move (for sorting and tests)."""
        return -self.score


def score_after(rules: Rules[P], after: P, searcher: Searcher[P] | None = None, budget: int = BUDGET) -> MoveScore:
    """Search the position a move led to with ``budget`` positions on one thread, from a cleared
    table (so the score depends on the position and the budget alone: the one a cache may keep);
    an ended position is scored by its outcome (its winner has won: a result in 0 plies)."""
    from tafl_desktop.ai.multipv import analyse

    out = rules.outcome(after)
    if out is not None:
        if out.winner is None:
            return MoveScore(0, None, None, 0)
        return MoveScore(0, 0, rules.variant.side_key(int(out.winner)), 0)
    if searcher is not None:
        searcher.clear()  # what earlier searches learnt would make the score depend on them
    report = analyse(rules, after, lines=1, time_limit=0.0, nodes=budget, searcher=searcher, reproducible=True)
    if not report.lines:
        return MoveScore(0, None, None, 0)
    line = report.lines[0]
    return MoveScore(int(line.score), line.result_in, line.winner, int(line.depth))
