"""The shipped levels' ratings are the fit of the games kept beside them (issue 45): refitting
the match folders under ``benchmarks/results/level_ratings`` gives ``resources/ai/level_ratings.json``
exactly, so the figures New Game shows can be traced to the games played."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _script():
    spec = importlib.util.spec_from_file_location("level_ratings_script", ROOT / "benchmarks" / "level_ratings.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_shipped_ratings_are_the_fit_of_the_kept_games():
    script = _script()
    shipped = json.loads((ROOT / "resources" / "ai" / "level_ratings.json").read_text(encoding="utf-8"))
    assert shipped["anchor"] == {"level": "beginner", "rating": 1000.0}
    everything = []
    for variant in ("brandubh", "copenhagen"):
        res = script.results(variant)
        assert res, f"no games kept for {variant}"
        assert shipped["variants"][variant] == script.summary(res)
        everything += res
    assert shipped["all"] == script.summary(everything)
    for variant in ("brandubh", "copenhagen"):
        assert shipped["variants"][variant]["ratings"]["beginner"] == 1000
