"""Which evaluation module serves which game family (the search itself is family-blind).

Every evaluator offers the four hooks the search calls:

* ``evaluate(pos) -> int``: static score from the side to move's view (100 ~ one ordinary piece);
* ``quick_outcome(pos) -> Outcome | None``: what is decided without generating moves;
* ``tactics(pos, moves | None) -> (kind, payload)``: forcing facts for the quiescence search
  (kinds in ``evaluation_tafl``: QUIET, WIN_NOW, FORCED, TERMINAL);
* ``order_key(pos) -> (move -> int)``: static move-ordering hints, higher first;

and two attributes: ``drift_scale``, the part of a weak level's error margins that applies in
this game (1.0, less where a move that scores near the best can still lose the game), and
``uncapped_depth``, true where a level's node budget alone should bound its search (the depth
caps are set for Tafl; where one side has a handful of moves and a plan takes many of them, the
same budget reaches far deeper).  An evaluator may also offer ``side_drift_scales`` (the same
scale per side, where one side's errors cost more than the other's), ``full_width_sides`` (the
sides whose moves a selective level searches without reductions, where a side has so few moves
that reducing the late ones hides its defences) and ``noisy_moves(pos)`` (moves the quiescence
search tries beyond the horizon, besides the forcing lines of ``tactics``).

Tafl has ``evaluation_tafl``, the Fox games ``evaluation_hunt``, Dablot ``evaluation_dablot``.
A family without its own module gets :class:`GenericEvaluator`: exact results from the rules plus
mobility, which plays legal and sees wins within its horizon, but knows no strategy.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, cast

from tafl_desktop.ai.evaluation_tafl import QUIET
from tafl_desktop.core.game import Move, Outcome, P, Position, Rules

if TYPE_CHECKING:
    from tafl_desktop.ai.evaluation_dablot import DablotWeights
    from tafl_desktop.ai.evaluation_hunt import HuntWeights
    from tafl_desktop.ai.evaluation_tafl import TaflWeights
#: An evaluator of a family's positions takes only those (contravariant: it is only handed them).
P_contra = TypeVar("P_contra", bound=Position, contravariant=True)


class Evaluator(Protocol[P_contra]):
    """The hooks the search calls and the attributes the levels read (see the module's docstring),
    generic in the family's position type as the core's :class:`~tafl_desktop.core.game.Rules`."""

    drift_scale: float
    uncapped_depth: bool

    def quick_outcome(self, pos: P_contra) -> Outcome | None: ...
    def evaluate(self, pos: P_contra) -> int: ...
    def defenders_score(self, pos: P_contra) -> int: ...
    def tactics(self, pos: P_contra, moves: list[Move] | None = None) -> tuple[int, Any]: ...
    def order_key(self, pos: P_contra) -> Callable[[Move], int]: ...


class QuiescenceHooks(Protocol[P_contra]):
    """The hooks an evaluator may offer beyond :class:`Evaluator` (the search asks whether it has
    them first): ``noisy_moves`` beyond the forcing lines, ``capture_moves`` for the capture search."""

    def noisy_moves(self, pos: P_contra) -> list[Move]: ...
    def capture_moves(self, pos: P_contra) -> list[Move]: ...


class GenericEvaluator(Generic[P]):
    """Family-blind fallback: the rules' own outcome, mobility as the only positional idea."""

    drift_scale = 1.0
    uncapped_depth = False

    def __init__(self, rules: Rules[P]) -> None:
        self.rules = rules

    def quick_outcome(self, pos: P) -> Outcome | None:
        return self.rules.outcome(pos)

    def evaluate(self, pos: P) -> int:
        return 5 * len(self.rules.legal_moves(pos))

    def defenders_score(self, pos: P) -> int:
        s = self.evaluate(pos)
        return s if int(self.rules.side_to_move(pos)) == 1 else -s

    def tactics(self, pos: P, moves: list[Move] | None = None) -> tuple[int, Any]:
        return QUIET, None

    def order_key(self, pos: P) -> Callable[[Move], int]:
        # chained or jumping moves (captures in the jump families) first
        return lambda m: 100 * (len(m) - 2)


def full_width_sides(searcher: object) -> tuple[int, ...]:
    """The sides whose moves a selective level searches full width with ``searcher``: its
    evaluator's ``full_width_sides`` (none where the evaluator names none, or without a searcher).
    One reading for the levels, analysis and the benchmarks."""
    return tuple(getattr(getattr(searcher, "ev", None), "full_width_sides", ()))


def make_evaluator(rules: Rules[P], weights: TaflWeights | HuntWeights | DablotWeights | None = None) -> Evaluator[P]:
    """The evaluator for ``rules.family`` (the generic one for families without their own).
    The family's evaluator takes that family's rules and positions, which ``rules`` are (a
    family name names one rules class), so it is an evaluator of ``rules``' positions."""
    where = EVALUATORS.get(getattr(rules, "family", ""))
    if where is None:
        return GenericEvaluator(rules)
    module, _, name = where.partition(":")
    return cast("Evaluator[P]", getattr(importlib.import_module(module), name)(rules, weights))


def plain_evaluator(rules: Rules[P]) -> Evaluator[P] | None:
    """The family's evaluator without a game's own terms (the weak levels': ``Level.game_terms``),
    for the families :data:`PLAIN_EVALUATORS` names; None elsewhere, where there is nothing to leave
    out (Tafl's variant weights are tuned values of the same terms, which every level plays with)."""
    where = PLAIN_EVALUATORS.get(getattr(rules, "family", ""))
    if where is None:
        return None
    module, _, name = where.partition(":")
    cls_name, _, method = name.partition(".")
    make: Callable[[Rules[P]], object] = getattr(getattr(importlib.import_module(module), cls_name), method)
    return cast("Evaluator[P]", make(rules))


#: Each family's evaluator, ``"module:Class"``, imported when a game of that family is searched.
EVALUATORS: dict[str, str] = {
    "tafl": "tafl_desktop.ai.evaluation_tafl:TaflEvaluator",
    "hunt": "tafl_desktop.ai.evaluation_hunt:HuntEvaluator",
    "dablot": "tafl_desktop.ai.evaluation_dablot:DablotEvaluator",
}
#: The families whose evaluator takes a game's own terms (a section of the family's weights file)
#: that the weak levels leave out, and what makes it without them (``"module:Class.method"``).
PLAIN_EVALUATORS: dict[str, str] = {
    "hunt": "tafl_desktop.ai.evaluation_hunt:HuntEvaluator.plain",
}
