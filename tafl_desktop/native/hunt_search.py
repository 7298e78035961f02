"""The native Fox-games search: :class:`~tafl_desktop.native.search.NativeSearcher`'s contract for
the Fox games, searched in ``tafl_native.HuntSearch``.

Why: the Python search walks 15,000 to 35,000 positions a second here, so a match between the
strong levels took hours to days, and Hard and Expert saw no further than their Python budgets.
The native search walks the same moves (``tafl_native.HuntRules``, from the Python rules' own
board and toggles) and scores them with the same evaluation, term for term: the Python
evaluator's lattice, shifts, tables and weights cross as data (:func:`evaluation_tables`), and
``tests/test_native_hunt_search.py`` holds the two to equal scores and forcing facts.

As for Dablot, only the levels with a native budget of their own (Hard and Expert) play it;
Beginner, Easy and Medium keep the Python search their strength was measured with
(:func:`tafl_desktop.ai.engine.native_plays_level`).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any, cast

from tafl_desktop.native import hunt as native_hunt
from tafl_desktop.native.search import TABLE_BITS, NativeSearcher

if TYPE_CHECKING:
    from tafl_desktop.core.hunt import HuntPosition, HuntRules

try:  # built by `make` (maturin); without a Rust toolchain it is simply absent
    import tafl_native as _native
except ImportError:  # pragma: no cover - exercised on machines without the module
    _native = None  # type: ignore[assignment]  # typed as the module; None where it is not built

#: The lattice's bits the native evaluation holds (one 128-bit word).
LATTICE_BITS = 128


def unsupported(rules: HuntRules) -> str | None:
    """Why ``rules`` cannot be searched natively here (None: they can)."""
    if _native is None or not hasattr(_native, "HuntSearch"):
        return "the native engine is not built"
    reason = native_hunt.unsupported(rules)
    if reason is not None:
        return reason
    coords = rules.geometry.coords
    xs, ys = [c[0] for c in coords], [c[1] for c in coords]
    if (max(ys) - min(ys) + 1) * (max(xs) - min(xs) + 1) > LATTICE_BITS:
        return f"the board's lattice has more than {LATTICE_BITS} points"
    return None


def evaluation_tables(ev: Any) -> dict[str, Any]:
    """The Python evaluator's lattice, tables and weights as the native search takes them (``ev``
    is a ``HuntEvaluator``, handed in from ``ai/``: this module imports nothing from there)."""
    w = ev.w
    weights = {
        "goose": w.goose, "danger": [w.danger1, w.danger2, w.danger3], "hunter": w.hunter,
        "hunter_step": w.hunter_step, "hunter_jump": w.hunter_jump, "stuck_hunter": w.stuck_hunter,
        "region": ev.region_weight, "pocket": w.pocket, "pocket_size": w.pocket_size,
        "holes": list(ev.hole_weights), "fork": w.fork, "near_fork": w.near_fork, "cohesion": w.cohesion,
        "reserve": ev.reserve_weight, "behind": w.behind, "advance": ev.advance_weight, "hang_one": w.hang_one,
        "hang_more": w.hang_more, "capture_now": w.capture_now, "pen": w.pen, "pen_near": w.pen_near,
        "pen_hunter": w.pen_hunter, "open_road": w.open_road, "road_step": w.road_step, "tempo": w.tempo,
        "ahead": w.ahead, "ahead_reach": w.ahead_reach, "refuge": ev.refuge_weight,
        "hunter_centre": w.hunter_centre, "hunter_pen": w.hunter_pen,
    }
    return {
        "lattice": [b.bit_length() - 1 for b in ev.gbit], "gall": ev.gall,
        "hsteps": list(ev.hsteps), "hjumps": list(ev.hjumps), "fsteps": list(ev.fsteps),
        "half_steps": list(ev.half_steps), "hstep_mask": list(ev.hstep_mask), "rows": list(ev.rows),
        "below": list(ev.below), "one_way": ev.one_way, "captures": ev.captures, "threshold": ev.threshold,
        "fill_pen": ev.fill_pen, "breakthrough": ev.breakthrough, "multi": ev.multi, "pen_mask": ev.pen_mask,
        "home_mask": ev.home_mask, "ghome": ev.ghome, "centre": list(ev.centre),
        "pen_distance": list(ev.pen_distance), "weights": {k: v if isinstance(v, list) else int(v)
                                                           for k, v in weights.items()},
    }


_PROVERS: weakref.WeakKeyDictionary[HuntRules, Any] = weakref.WeakKeyDictionary()


def prover_refusal(rules: HuntRules) -> str | None:
    """Why the native prover cannot settle ``rules`` (None: it can).  A draw after a count of
    moves without a capture is refused, as for Dablot: the proof table keys on positions alone."""
    reason = unsupported(rules)
    if reason is None and rules.captureless:
        return "the draw without captures is on"
    return reason


def prover_core(rules: HuntRules, make_evaluator: Callable[[HuntRules], Any]) -> Any:
    """The native object that proves forced wins for ``rules`` (one per rules object, kept while
    the rules live); ``make_evaluator(rules)`` is the family's Python evaluator, whose tables the
    searcher is built with (the proofs use its moves only)."""
    core = _PROVERS.get(rules)
    if core is None:
        core = _PROVERS[rules] = NativeHuntSearcher(rules, make_evaluator(rules), table_bits=10)._core
    return core


class NativeHuntSearcher(NativeSearcher):
    """A reusable native searcher for one Fox-game rules object; ``evaluator`` is the Python
    ``HuntEvaluator`` whose lattice, tables and weights the native evaluation uses."""

    def __init__(self, rules: HuntRules, evaluator: Any, table_bits: int = TABLE_BITS) -> None:
        reason = unsupported(rules)
        if reason is not None:
            raise RuntimeError(f"the native Fox-games search cannot play these rules: {reason}")
        self.rules = rules  # type: ignore[assignment]  # the base class is typed for Tafl
        self.ev = evaluator
        self.lines = 1
        self.threads = 1
        self.finished = []
        self.finished_depth = 0
        self.nodes = 0
        self._pvs = {}
        steps = [[list(s) for s in rules.steps[side]] for side in (0, 1)]
        self._hunt_build = (steps, [list(j) for j in rules.jumps], rules.home_mask, rules.pen_mask,
                            native_hunt.settings(rules), evaluation_tables(evaluator), table_bits)
        self._core = cast("Any", _native.HuntSearch(*self._hunt_build))

    @staticmethod
    def _position(pos: Any) -> Any:
        return native_hunt.position_tuple(cast("HuntPosition", pos))

    @staticmethod
    def _key(key: Hashable) -> Any:
        """A position of the game's history from its key (``HuntRules.position_key``)."""
        flock, hunters, side = cast("tuple[int, int, int]", key)
        return flock, hunters, int(side), 0, None

    def clear(self) -> None:
        """Forget the table and the ordering history (see ``NativeSearcher.clear``)."""
        self._core = cast("Any", _native.HuntSearch(*self._hunt_build))
