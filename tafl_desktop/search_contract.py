"""The search contract: what a searcher is asked (limits) and answers (a result, mate scores),
and the :class:`Searcher` Protocol both searchers implement.

Why a module of its own, below ``native/`` and ``ai/``: the two implementations (the Python
search, :class:`tafl_desktop.ai.search.Searcher`, and the native one,
:class:`tafl_desktop.native.search.NativeSearcher`) must agree on these types, and the native
bridge must not import the Python searcher to learn them (``ai/`` sits above ``native/``:
``ai.engine.make_searcher`` picks between them).  Pure Python, importing only the core
(``docs/ARCHITECTURE.md`` §1: the layers); the evaluators' Protocol, which lives above in
``ai/``, is named for the type checker alone.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, TypeVar, runtime_checkable

from tafl_desktop.core.game import Move, Position, Rules

if TYPE_CHECKING:  # the evaluators live above (ai/), the contract only names their Protocol
    from tafl_desktop.ai.evaluation import Evaluator

#: The family's position type a searcher searches (as :class:`~tafl_desktop.core.game.Rules`'s).
P = TypeVar("P", bound=Position)

#: The score of a won position (from the winner's view), less the plies it takes.
MATE = 100_000
#: Scores beyond this are wins or losses in a known number of plies.
MATE_BOUND = MATE - 1_000
#: How often (s) a running search reports its node count and depth to ``on_progress``.
PROGRESS_EVERY = 0.1


@dataclass
class SearchLimits:
    """When to stop: the first limit reached ends the search (0 = no limit)."""

    time: float = 5.0
    depth: int = 64
    nodes: int = 0
    quiescence: bool = True
    #: Root moves within this many units of the best get exact scores and may be chosen.
    margin: int = 0
    #: How a move within the margin is picked: ranked (best 1/2, next 1/4, ...) or uniformly.
    ranked_drift: bool = True
    #: Beyond the always full-width depths, reduce late quiet moves by a ply (re-searched if they
    #: look good).
    selective: bool = False
    #: Follow captures in the quiescence search (the native engine; the Python one never does).
    captures: bool = True
    #: Search threads for an engine that has them (the native one: Lazy SMP); 0 = the searcher's
    #: own setting.  More than one is faster but not reproducible.  The Python search has one.
    threads: int = 0
    #: Follow captures past the horizon in the Python search too (analysis and review ask for it,
    #: so that a piece left hanging at the horizon is seen; the levels, tuned without it, do not).
    #: The native search follows captures wherever ``captures`` is set.
    follow_captures: bool = False


@dataclass
class SearchResult:
    """The outcome of one search.  ``score`` is from the side to move's view."""

    move: Move | None
    score: int
    depth: int
    nodes: int
    seconds: float
    pv: list[Move] = field(default_factory=list)
    #: (move, score) for root moves within the margin of the best (best first).
    candidates: list[tuple[Move, int]] = field(default_factory=list)
    #: Why the search ended: "time", "nodes", "cancelled", "depth" (the depth asked), "proven" (every
    #: line asked for a result no deeper search changes: ``ai.search.settled``) or "forced" (no choice to make).
    stopped: str = ""
    #: Deepest iteration finished without any reduction (equal to ``depth`` unless selective).
    full_width_depth: int = 0

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    @property
    def mate_in(self) -> int | None:
        """Plies to a forced result (positive: the side to move wins), None if not proven."""
        if self.score >= MATE_BOUND:
            return MATE - self.score
        if self.score <= -MATE_BOUND:
            return -(MATE + self.score)
        return None


def drift_pick(candidates: list[tuple[Move, int]], rng: random.Random) -> Move:
    """A weak level's move among the root moves within its margin: the best with probability
    1/2, the second best 1/4, and so on (``SearchLimits.ranked_drift``).

    Why not uniformly: where many quiet moves score alike (the geese's slow advance in the Fox
    games), a uniform pick among them is a random walk that never closes the trap, so a weak
    flock could not even beat a random fox (0 of 10 before this).  Ranked, the weak player still
    strays from the best move half the time, but keeps a direction.  Both searchers pick with
    this one function, so a level plays alike on either.
    """
    ranked = sorted(candidates, key=lambda ms: -ms[1])
    r = rng.random()
    for move, _score in ranked[:-1]:
        r *= 2
        if r < 1:
            return move
        r -= 1
    return ranked[-1][0]


@runtime_checkable
class Searcher(Protocol[P]):
    """What everything that thinks may ask of a searcher, whichever engine it is
    (``ai.engine.make_searcher`` gives one and the caller never learns which).  Generic in the
    family's position type, as the rules and the evaluators are: a Tafl searcher is a
    ``Searcher[TaflPosition]``, and the type checker tells it from a Fox one."""

    #: ``"native"`` or ``"python"`` (for reports such as ``bench --json``).
    engine: str
    #: How many best root moves get exact scores (multi-PV; 1 for play).
    lines: int
    #: Search threads when the limits name none (the native search's Lazy SMP; the Python one
    #: has one whatever this says).
    threads: int
    #: Root moves and scores of the last finished iteration, best first, and its depth.
    finished: list[tuple[Move, int]]
    finished_depth: int
    #: Positions visited by the last search.
    nodes: int

    # read-only, so that a searcher holding its family's own rules (``TaflRules``) and evaluator
    # (``TaflEvaluator``) meets them: a property's type is covariant, an attribute's is not

    @property
    def rules(self) -> Rules[P]:
        """The rules object searched."""
        ...

    @property
    def ev(self) -> Evaluator[P]:
        """The family's Python evaluator (its drift scales and hooks)."""
        ...

    def search(self, pos: P, limits: SearchLimits | None = None, history_keys: Iterable[Hashable] = (),
               should_stop: Callable[[], bool] | None = None, rng: random.Random | None = None,
               on_iteration: Callable[[SearchResult], None] | None = None,
               on_progress: Callable[[int, int], None] | None = None) -> SearchResult:
        """Best move for the side to move in ``pos``: ``history_keys`` the game's earlier
        position keys (the repetition rule), ``should_stop()`` polled while searching,
        ``on_iteration(result)`` after every finished depth, ``on_progress(nodes, depth)`` about
        every :data:`PROGRESS_EVERY` seconds."""
        ...

    def pv(self, pos: P, first: Move) -> list[Move]:
        """The principal variation starting with ``first``, after a search."""
        ...

    def clear(self) -> None:
        """Forget what earlier searches learnt (a review's reproducibility)."""
        ...
