"""One search-engine interface, two implementations: the native (Rust) search and the Python one.

Everything in the app that thinks (the computer player, hints, the evaluation bar, the analysis
board, game review, puzzle mining and proving, the Rules Lab, the ``engine`` command) asks
:func:`make_searcher` for a searcher and never learns which one it got.  Both implement the
contract of :mod:`tafl_desktop.search_contract` (the :class:`~tafl_desktop.search_contract.Searcher`
Protocol):

* ``search(pos, limits, history_keys=(), should_stop=None, rng=None, on_iteration=None)`` ->
  :class:`~tafl_desktop.search_contract.SearchResult` (``limits`` a
  :class:`~tafl_desktop.search_contract.SearchLimits`; ``should_stop()`` polled while searching;
  ``on_iteration(result)`` after every finished depth);
* ``pv(pos, move)``: the principal variation starting with ``move`` after a search;
* ``lines`` (how many best root moves get exact scores), ``finished`` and ``finished_depth``
  (the root moves of the last finished iteration, best first, and its depth);
* ``ev`` (the family's Python evaluator: its drift scales and hooks), ``rules`` and ``engine``
  (``"native"`` or ``"python"``, for reports such as ``bench --json``).

The native engine serves the Tafl family wherever its module is built (``tafl_native``, see
:mod:`tafl_desktop.native`), and the strong levels, analysis and hints of Dablot and the Fox
games (:mod:`tafl_desktop.native.dablot_search`, :mod:`tafl_desktop.native.hunt_search`; their
weaker levels keep the Python search, see :func:`native_plays_level`); a machine without a Rust
toolchain, or a rules set the native engine refuses get the Python search, slower but the same
in kind.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, cast

from tafl_desktop.core.families import FAMILIES
from tafl_desktop.core.game import P, Rules
from tafl_desktop.search_contract import Searcher as SearcherContract

if TYPE_CHECKING:
    from tafl_desktop.ai.evaluation import Evaluator
    from tafl_desktop.ai.evaluation_dablot import DablotEvaluator
    from tafl_desktop.ai.levels import Level
    from tafl_desktop.core.dablot import DablotRules
    from tafl_desktop.core.hunt import HuntRules
    from tafl_desktop.core.tafl import TaflPosition, TaflRules
    from tafl_desktop.native.dablot_search import NativeDablotSearcher
    from tafl_desktop.native.hunt_search import NativeHuntSearcher
    from tafl_desktop.native.search import NativeSearcher
    from tafl_native import TaflSearch

#: An environment variable that picks the engine for a whole process tree (tests, benchmarks).
ENGINE_ENV = "TAFL_ENGINE"


def native_search_available() -> bool:
    """Is the native search built and importable here?"""
    try:
        from tafl_desktop.native import search as native_search
    except ImportError:
        return False
    return native_search.available() and native_search.unsupported_reason() is None


def resolve(rules: Rules[P], engine: str | None = None) -> str:
    """The engine that will search ``rules``: ``engine`` if given (else ``$TAFL_ENGINE``, else
    native where built, for every family it plays).  ValueError (one line) for an unknown
    name, or for ``native`` asked for explicitly on a machine where it is not built."""
    from tafl_desktop.native.bridge import ENGINES

    name = engine if engine is not None else (os.environ.get(ENGINE_ENV) or None)
    if name is not None and name not in ENGINES:
        raise ValueError(f"--engine must be native or python, not {name[:20]!r}")
    family = FAMILIES.get(getattr(rules, "family", ""))
    if family is not None and family.name in NATIVE_STRONG_LEVELS_ONLY:
        return _strong_levels_engine(rules, name, engine)
    if name == "python" or family is None or not family.native_engine:
        return "python"
    variant = getattr(rules, "variant", None)
    if variant is not None:
        from tafl_desktop.native.bridge import python_only_in_force

        refused = python_only_in_force(variant)
        if refused:  # rules the native engine does not play: the Python search plays them
            if engine == "native":
                raise ValueError(f"--engine native: the native engine does not play {', '.join(refused)}; "
                                 "the Python engine does")
            return "python"
    if native_search_available():
        return "native"
    if engine == "native":
        from tafl_desktop.native.search import unsupported_reason

        raise ValueError(f"--engine native: {unsupported_reason()}")
    return "python"


def _strong_levels_engine(rules: Rules[P], name: str | None, engine: str | None) -> str:
    """Dablot's and the Fox games' engine: native where their native search is built and plays
    the rules."""
    if name == "python":
        return "python"
    reason = _native_refusal(rules)
    if reason is None:
        return "native"
    if engine == "native":
        raise ValueError(f"--engine native: the native search cannot play these rules: {reason}")
    return "python"


def _native_refusal(rules: Rules[P]) -> str | None:
    """Why the native search of ``rules``' family (Dablot, the Fox games) cannot play them."""
    if getattr(rules, "family", "") == "dablot":
        from tafl_desktop.native.dablot_search import unsupported as dablot_refusal

        return dablot_refusal(cast("DablotRules", rules))
    from tafl_desktop.native.hunt_search import unsupported as hunt_refusal

    return hunt_refusal(cast("HuntRules", rules))


#: Families whose native search plays only the levels with a native budget of their own (Hard
#: and Expert): there the weaker levels' measured play is the Python search's, which the native
#: one does not repeat position for position (Tafl's does: every level plays it).
NATIVE_STRONG_LEVELS_ONLY = frozenset({"dablot", "hunt"})


def native_plays_level(rules: Rules[P], level: Level) -> bool:
    """May the native search play ``level`` in ``rules``' family?"""
    return getattr(rules, "family", "") not in NATIVE_STRONG_LEVELS_ONLY or bool(level.native_nodes)


def engine_name(rules: Rules[P], engine: str | None = None) -> str:
    """The engine that searches ``rules`` (for reports), never raising: python if in doubt."""
    try:
        return resolve(rules, engine)
    except ValueError:
        return "python"


def make_searcher(rules: Rules[P], engine: str | None = None, evaluator: Evaluator[P] | None = None,
                  weights: dict[str, int] | None = None) -> SearcherContract[P]:
    """A searcher for ``rules`` (see the module docstring for the interface).  A custom
    ``evaluator`` (tuning experiments) keeps the Python search, whose hooks it replaces.
    ``weights`` (Tafl: the terms of ``resources/ai/tafl_evaluation.toml``; Dablot: terms of
    ``DablotWeights`` over today's) replace the evaluation's weights in either engine, so that a
    tuned set can play a match against today's."""
    from tafl_desktop.ai.search import Searcher

    family = getattr(rules, "family", "")
    if evaluator is not None:
        return Searcher(rules, evaluator)
    if weights is not None and family not in ("tafl", "dablot"):
        raise ValueError("evaluation weights apply to the Tafl games and Dablot only")
    if family == "dablot" and weights is not None:
        from tafl_desktop.ai.evaluation_dablot import DablotEvaluator, DablotWeights

        dablot = cast("DablotRules", rules)
        ev = DablotEvaluator(dablot, DablotWeights.from_dict({**DablotWeights().to_dict(), **weights}))
        if resolve(rules, engine) != "native":
            return Searcher(rules, cast("Evaluator[P]", ev))
        return cast("SearcherContract[P]", native_dablot_searcher(dablot, ev))
    if weights is None and resolve(rules, engine) != "native":
        return Searcher(rules)
    if family == "dablot":
        return cast("SearcherContract[P]", native_dablot_searcher(cast("DablotRules", rules)))
    if family == "hunt":
        return cast("SearcherContract[P]", native_hunt_searcher(cast("HuntRules", rules)))
    # the Tafl family's own searchers (tuned weights, the native engine): P is TaflPosition here
    return cast("SearcherContract[P]", _tafl_searcher(tafl_rules(rules), engine, weights))


def _tafl_searcher(rules: TaflRules, engine: str | None,
                   weights: dict[str, int] | None) -> SearcherContract[TaflPosition]:
    """A searcher of Tafl ``rules``: with ``weights`` in the engine asked for, else the native one."""
    from tafl_desktop.ai.search import Searcher

    if weights is None:
        return native_searcher(rules)
    from tafl_desktop.ai.evaluation_tafl import TaflEvaluator, TaflWeights

    tw = TaflWeights.from_dict(weights)
    if resolve(rules, engine) == "native":
        from tafl_desktop.native.search import NativeSearcher

        return NativeSearcher(rules, TaflEvaluator(rules, tw))
    return Searcher(rules, TaflEvaluator(rules, tw))


def tafl_rules(rules: Rules[P]) -> TaflRules:
    """``rules`` as the Tafl rules they are, where the family was asked first (the weights are
    Tafl's; the native engine plays the Tafl family only, so :func:`resolve` said "native" for
    Tafl rules alone)."""
    return cast("TaflRules", rules)


def native_searcher(rules: TaflRules, table_bits: int | None = None) -> NativeSearcher:
    """The native searcher of Tafl ``rules``, its evaluation tables from the Python evaluator
    (the native bridge imports nothing from ``ai/``: the evaluator is handed in here)."""
    from tafl_desktop.ai.evaluation_tafl import TaflEvaluator
    from tafl_desktop.native.search import TABLE_BITS, NativeSearcher

    return NativeSearcher(rules, TaflEvaluator(rules), TABLE_BITS if table_bits is None else table_bits)


def native_dablot_searcher(rules: DablotRules, evaluator: DablotEvaluator | None = None) -> NativeDablotSearcher:
    """The native searcher of Dablot ``rules``, its tables from the Python evaluator (today's,
    or ``evaluator``)."""
    from tafl_desktop.ai.evaluation_dablot import DablotEvaluator
    from tafl_desktop.native.dablot_search import NativeDablotSearcher

    return NativeDablotSearcher(rules, evaluator or DablotEvaluator(rules))


def native_hunt_searcher(rules: HuntRules) -> NativeHuntSearcher:
    """The native searcher of Fox-game ``rules``, its tables from the Python evaluator (with the
    game's own weights, as the strong levels play)."""
    from tafl_desktop.ai.evaluation_hunt import HuntEvaluator
    from tafl_desktop.native.hunt_search import NativeHuntSearcher

    return NativeHuntSearcher(rules, HuntEvaluator(rules))


def native_hunt_prover_core(rules: HuntRules) -> Any:
    """The native object that proves forced wins for Fox-game ``rules`` (kept while they live)."""
    from tafl_desktop.ai.evaluation_hunt import HuntEvaluator
    from tafl_desktop.native.hunt_search import prover_core

    return prover_core(rules, HuntEvaluator)


def native_prover_core(rules: TaflRules) -> TaflSearch:
    """The native object that proves forced wins for Tafl ``rules`` (kept while the rules live)."""
    from tafl_desktop.ai.evaluation_tafl import TaflEvaluator
    from tafl_desktop.native.search import prover_core

    return prover_core(rules, TaflEvaluator)
