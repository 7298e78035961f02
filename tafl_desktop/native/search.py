"""The native (Rust) search, one of the two implementations of the search contract
(:class:`tafl_desktop.search_contract.Searcher`; :func:`tafl_desktop.ai.engine.make_searcher`
picks between them).

:class:`NativeSearcher` does what the Python searcher does, with the same arguments and the same
:class:`~tafl_desktop.search_contract.SearchResult`, but searches in the
``tafl_native`` module: about fifty times as many positions per second, without holding the
interpreter lock (so the caller's threads, e.g. the engine protocol's reader, keep running).

What crosses the boundary is plain data: the core's validated position as bitboards (lists of
64-bit words), the evaluation's tables and weights (:mod:`tafl_desktop.native.search_tables`),
the limits, and the game's earlier positions for the repetition rule.  ``should_stop`` is polled
every few thousand nodes (the interpreter lock taken just for that call), and ``on_iteration``
is called after each finished depth.  A failure inside the native code (a Rust panic included)
arrives as a ``RuntimeError`` with one line, never as a crash.

Which move a weak level picks among those within its margin is decided here, by the caller's
``rng`` and :func:`~tafl_desktop.search_contract.drift_pick`, exactly as the Python searcher does.

This module imports nothing from ``ai/`` (which sits above ``native/``): the caller hands in the
Python evaluator whose tables the native evaluation uses (``ai.engine.make_searcher`` does).
"""

from __future__ import annotations

import os
import random
import time
import weakref
from collections.abc import Callable, Hashable, Iterable
from typing import TYPE_CHECKING, cast

from tafl_desktop.core.game import Move, unrepeated
from tafl_desktop.native.bridge import position_tuple
from tafl_desktop.search_contract import MATE, PROGRESS_EVERY, SearchLimits, SearchResult, drift_pick

if TYPE_CHECKING:  # the evaluator is handed in from above (ai/ imports native/, not the reverse)
    from tafl_desktop.ai.evaluation_tafl import TaflEvaluator
    from tafl_desktop.core.tafl import TaflPosition, TaflRules
    from tafl_native import NativePosition, SearchReport, TaflSearch

try:  # the module is built by `make` (maturin); without a Rust toolchain it is simply absent
    import tafl_native as _native
except ImportError:  # pragma: no cover - exercised on machines without the module
    _native = None  # type: ignore[assignment]  # typed as the module; None where it is not built

#: Transposition table size, as a power of two of 16-byte entries (2^20: 16 MiB).  Fixed, so
#: that a one-thread search at a node limit is the same on every machine.  Not bigger: with a
#: 32 MiB table two threads searched 1.56 times as fast as one (each thread's memory reads
#: waited on the other's, past the processor's last cache), with 16 MiB 1.9 to 2.1 times, for 7 %
#: more positions to reach depth 9 with three lines (medians of 12 Copenhagen middle games).
TABLE_BITS = 20
#: The native search's main thread polls ``should_stop`` once every this many of its nodes.
POLL_NODES = 2048


def available() -> bool:
    """Is the native search built into this installation?"""
    return _native is not None and hasattr(_native, "TaflSearch")


def unsupported_reason() -> str | None:
    """Why the native search cannot run here (None: it can)."""
    from tafl_desktop.native.bridge import available as rules_available
    from tafl_desktop.native.bridge import unavailable_reason

    if not rules_available():
        return unavailable_reason() or "the native engine is not built"
    if not available():
        return "the native engine was built without its search"
    return None


_PROVERS: weakref.WeakKeyDictionary[TaflRules, TaflSearch] = weakref.WeakKeyDictionary()


def prover_core(rules: TaflRules, make_evaluator: Callable[[TaflRules], TaflEvaluator]) -> TaflSearch:
    """The native object that proves forced wins for ``rules`` (one per rules object, kept while
    the rules live: building it compiles the rules and the evaluation tables, the latter from
    ``make_evaluator(rules)``, the family's Python evaluator)."""
    core = _PROVERS.get(rules)
    if core is None:
        core = _PROVERS[rules] = NativeSearcher(rules, make_evaluator(rules), table_bits=10)._core
    return core


def default_threads() -> int:
    """Threads for searches that need not be reproducible (analysis, hints): the cores there are."""
    return max(1, min(8, os.cpu_count() or 1))


class NativeSearcher:
    """A reusable native searcher for one rules object (its table lives between searches).
    ``evaluator`` is the family's Python evaluator for ``rules`` (a ``TaflEvaluator``): the
    source of the native evaluation's tables, and of the levels' drift scales."""

    engine = "native"

    def __init__(self, rules: TaflRules, evaluator: TaflEvaluator, table_bits: int = TABLE_BITS) -> None:
        from tafl_desktop.native.bridge import config_for
        from tafl_desktop.native.search_tables import evaluation_tables

        if not available():
            raise RuntimeError("the native search is not built")
        self.rules = rules
        #: The Python evaluator: the source of the native tables, and of the levels' drift scales.
        self.ev = evaluator
        self.lines = 1
        self.threads = 1
        self.finished: list[tuple[Move, int]] = []
        self.finished_depth = 0
        self.nodes = 0
        self._pvs: dict[Move, list[Move]] = {}
        self._build = (config_for(rules.variant), evaluation_tables(self.ev), table_bits)
        self._core = _native.TaflSearch(*self._build)

    # ------------------------------------------------------------------------------ conversion
    @staticmethod
    def _position(pos: TaflPosition) -> NativePosition:
        return position_tuple(pos)

    @staticmethod
    def _key(key: Hashable) -> NativePosition:
        """A position of the game's history from its key (``TaflRules.position_key``)."""
        att, dfn, king, side = cast("tuple[int, int, int, int]", key)
        return att, dfn, king, side, 0, None

    # ------------------------------------------------------------------------------ interface
    def search(self, pos: TaflPosition, limits: SearchLimits | None = None, history_keys: Iterable[Hashable] = (),
               should_stop: Callable[[], bool] | None = None, rng: random.Random | None = None,
               on_iteration: Callable[[SearchResult], None] | None = None,
               on_progress: Callable[[int, int], None] | None = None) -> SearchResult:
        """Best move for the side to move in ``pos`` (see ``Searcher.search``).  ``on_progress``
        gets, between finished depths, an estimate of the nodes (the main thread's polls, one
        every :data:`POLL_NODES` of its nodes, times the threads) and the depth being searched."""
        lim = limits or SearchLimits()
        t0 = time.perf_counter()
        if on_progress is not None:
            should_stop = self._progress_poll(should_stop, on_progress, lim)
        history_keys = list(history_keys)
        history = [self._key(k) for k in history_keys]
        only = None
        rules = self.rules
        forbids = getattr(rules, "forbids_repetition", None)
        if history_keys and pos.result is None and forbids is not None and forbids(pos):
            legal = rules.legal_moves(pos)
            allowed = unrepeated(rules, pos, legal, history_keys)  # a no-repeat rule is a rule of legality
            if not allowed and legal:  # every move would repeat: as if there were none
                out = rules.no_moves_outcome(pos)
                score = 0 if out.winner is None else (MATE if int(out.winner) == pos.side else -MATE)
                return SearchResult(None, score, 0, 0, time.perf_counter() - t0, stopped="depth")
            if len(allowed) < len(legal):
                only = [tuple(m) for m in allowed]
        settings = {"time": float(lim.time), "depth": int(lim.depth), "nodes": int(lim.nodes),
                    "quiescence": bool(lim.quiescence), "margin": int(lim.margin), "lines": int(self.lines),
                    "selective": bool(lim.selective), "captures": bool(getattr(lim, "captures", True)),
                    "threads": int(getattr(lim, "threads", 0) or self.threads)}

        def iteration(report: SearchReport) -> None:
            self._take(report)
            if on_iteration is not None:
                on_iteration(self._result(report, time.perf_counter() - t0))

        self.finished, self.finished_depth, self.nodes = [], 0, 0
        wants_reports = on_iteration is not None or on_progress is not None
        report = self._core.search(self._position(pos), settings, history, should_stop,
                                   iteration if wants_reports else None, only)
        self._take(report)
        self.nodes = report["nodes"]
        res = self._result(report, time.perf_counter() - t0)
        if lim.margin and res.candidates:
            rng = rng or random.Random()
            res.move = drift_pick(res.candidates, rng) if lim.ranked_drift else rng.choice(res.candidates)[0]
        return res

    def _progress_poll(self, should_stop: Callable[[], bool] | None, on_progress: Callable[[int, int], None],
                       lim: SearchLimits) -> Callable[[], bool]:
        """``should_stop`` wrapped so that each poll also counts nodes for ``on_progress``."""
        threads = max(1, int(getattr(lim, "threads", 0) or self.threads))
        polls = [0]
        due = [time.perf_counter() + PROGRESS_EVERY]

        def poll() -> bool:
            polls[0] += 1
            now = time.perf_counter()
            if now >= due[0]:
                due[0] = now + PROGRESS_EVERY
                on_progress(max(self.nodes, polls[0] * POLL_NODES * threads), self.finished_depth + 1)
            return bool(should_stop()) if should_stop is not None else False
        return poll

    def clear(self) -> None:
        """Forget the transposition table and the move-ordering history (a fresh native searcher
        from the same tables), so that the next search depends on its position and limits only
        (with one thread): a review's reproducibility."""
        self._core = _native.TaflSearch(*self._build)

    def _take(self, report: SearchReport) -> None:
        """Keep a report's root moves and the principal variations of its best lines (the
        native searcher is busy while it reports, so ``pv`` answers from these)."""
        self.finished = [(tuple(m), s) for m, s in report["scored"]]
        self.finished_depth = report["finished_depth"]
        self.nodes = report["nodes"]
        self._pvs = {tuple(pv[0]): [tuple(m) for m in pv] for pv in report["pvs"] if pv}

    @staticmethod
    def _result(report: SearchReport, seconds: float) -> SearchResult:
        move = tuple(report["move"]) if report["move"] is not None else None
        return SearchResult(move, report["score"], report["depth"], report["nodes"], seconds,
                            [tuple(m) for m in report["pv"]], [(tuple(m), s) for m, s in report["candidates"]],
                            report["stopped"], report["full_width_depth"])

    def pv(self, pos: TaflPosition, first: Move) -> list[Move]:
        """The principal variation starting with ``first``, from the native table."""
        known = self._pvs.get(tuple(first))
        if known is not None:
            return list(known)
        return [tuple(m) for m in self._core.pv(self._position(pos), tuple(first))]

    def evaluate(self, pos: TaflPosition) -> int:
        """The native static evaluation from the side to move's view (equal to the Python one)."""
        return self._core.evaluate(self._position(pos))
