"""The native Dablot search: :class:`~tafl_desktop.native.search.NativeSearcher`'s contract for
Dablot, searched in ``tafl_native.DablotSearch``.

Why: the Python search walks 15,000 to 35,000 Dablot positions a second, so Hard and Expert
reached depth 5 or 6 and drew won endings at the ply cap (the side far ahead took nothing for a
hundred plies), and a match between the strong levels took hours.  The native search walks the
same moves (the Python rules' own lattice and toggles, as the native prover does) and scores them
with the same evaluation, term for term (the Python evaluator's tables and weights cross as
data; ``tests/test_native_dablot_search.py`` holds the two to equal scores, moves and forcing
facts), many times faster.

Which levels play it: only those with a native budget of their own (Hard and Expert,
``Level.native_nodes``); Beginner, Easy and Medium keep the Python search, whose play their
measured strength is (:func:`tafl_desktop.ai.engine.native_plays_level`).  The rules it refuses
are the native prover's (:func:`tafl_desktop.native.dablot.unsupported`).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any, cast

from tafl_desktop.native import dablot as native_dablot
from tafl_desktop.native.search import TABLE_BITS, NativeSearcher

if TYPE_CHECKING:
    from tafl_desktop.core.dablot import DablotPosition, DablotRules

try:  # built by `make` (maturin); without a Rust toolchain it is simply absent
    import tafl_native as _native
except ImportError:  # pragma: no cover - exercised on machines without the module
    _native = None  # type: ignore[assignment]  # typed as the module; None where it is not built


def unsupported(rules: DablotRules) -> str | None:
    """Why ``rules`` cannot be searched natively here (None: they can)."""
    if _native is None or not hasattr(_native, "DablotSearch"):
        return "the native engine is not built"
    return native_dablot.unsupported(rules)


class NativeDablotSearcher(NativeSearcher):
    """A reusable native searcher for one Dablot rules object; ``evaluator`` is the Python
    ``DablotEvaluator`` whose tables and weights the native evaluation uses."""

    def __init__(self, rules: DablotRules, evaluator: Any, table_bits: int = TABLE_BITS) -> None:
        reason = unsupported(rules)
        if reason is not None:
            raise RuntimeError(f"the native Dablot search cannot play these rules: {reason}")
        self.rules = rules  # type: ignore[assignment]  # the base class is typed for Tafl
        self.ev = evaluator
        self.lines = 1
        self.threads = 1
        self.finished = []
        self.finished_depth = 0
        self.nodes = 0
        self._pvs = {}
        self._dablot_build = (*native_dablot.lattice(rules), native_dablot.settings(rules),
                              native_dablot.evaluation_tables(evaluator), table_bits)
        self._core = cast("Any", _native.DablotSearch(*self._dablot_build))

    @staticmethod
    def _position(pos: Any) -> Any:
        return native_dablot.position_tuple(cast("DablotPosition", pos))

    @staticmethod
    def _key(key: Hashable) -> Any:
        """A position of the game's history from its key (``DablotRules.position_key``)."""
        cells, side, _actions = cast("tuple[tuple[int, ...], int, int]", key)
        return list(cells), int(side), None

    def clear(self) -> None:
        """Forget the table and the ordering history (see ``NativeSearcher.clear``)."""
        self._core = cast("Any", _native.DablotSearch(*self._dablot_build))
