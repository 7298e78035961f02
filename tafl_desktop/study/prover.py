"""Deprecated alias of :mod:`tafl_desktop.ai.prover`, where the exhaustive prover now lives (the
search's proven lines use it, and ``ai/`` sits below ``study/``: ``docs/ARCHITECTURE.md`` §1).
Kept for one release so that code written against the old path still imports; import from
``tafl_desktop.ai.prover``."""

from __future__ import annotations

from tafl_desktop.ai.prover import (
    NativeProver,
    Proof,
    Prover,
    SearchBudgetExceeded,
    main_line,
    make_prover,
    prove_unique,
    prover_engine,
    tree_depth,
)

__all__ = ["NativeProver", "Proof", "Prover", "SearchBudgetExceeded", "main_line", "make_prover", "prove_unique",
           "prover_engine", "tree_depth"]
