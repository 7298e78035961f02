"""Which evaluation module serves which game family (the search itself is family-blind)."""

from __future__ import annotations

from typing import Any


def make_evaluator(rules: Any, weights: Any | None = None) -> Any:
    """The evaluator for ``rules.family``; ValueError for a family without one yet."""
    family = getattr(rules, "family", "")
    if family == "tafl":
        from tafl_desktop.ai.evaluation_tafl import TaflEvaluator
        return TaflEvaluator(rules, weights)
    raise ValueError(f"the computer player does not know the {family or 'unknown'} family yet")
