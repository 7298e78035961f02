"""The Rust tests' fixture of the native Tafl evaluation: a preset's evaluation tables
(:func:`tafl_desktop.native.search_tables.evaluation_tables`) and the Python evaluator's scores
of positions from seeded random games, so that ``cargo test`` checks the native evaluation
against the Python one without Python.

Here, in ``ai/``, and not beside the tables in ``native/``: it needs the Python evaluator, and
``native/`` imports nothing from ``ai/`` (``docs/ARCHITECTURE.md`` §1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from tafl_desktop.core.tafl import TaflRules

from tafl_desktop.native.search_tables import evaluation_tables

#: The presets whose tables the Rust tests read (the rules layer's Rust presets are these two).
FIXTURE_VARIANTS = ("brandubh", "copenhagen")


def fixture(variant_id: str, positions: int = 60, seed: int = 1) -> dict[str, Any]:
    """The evaluation tables of a preset and the Python evaluator's scores of ``positions``
    positions from seeded random games: the Rust tests' fixture (``tafl_native/tests/data``), so
    that ``cargo test`` checks the native evaluation against the Python one without Python."""
    import random

    from tafl_desktop.ai.evaluation_tafl import TaflEvaluator
    from tafl_desktop.core.variants import find_variant

    rules = cast("TaflRules", find_variant(variant_id).make_rules())  # a Tafl preset
    ev = TaflEvaluator(rules)
    rng = random.Random(seed)
    samples: list[Any] = []
    while len(samples) < positions:
        pos = rules.initial_position()
        for _ in range(rng.randrange(1, 80)):
            moves = rules.legal_moves(pos)
            if pos.result is not None or not moves:
                break
            pos, _ = rules.play(pos, rng.choice(moves))
        if pos.result is None:
            samples.append({"position": rules.position_text(pos), "side": pos.side, "quiet": pos.quiet,
                            "score": ev.evaluate(pos)})
    return {"variant": variant_id, "tables": evaluation_tables(ev), "samples": samples}


if __name__ == "__main__":  # python -m tafl_desktop.ai.native_fixtures OUT_DIR: rewrite the Rust fixtures
    import json
    import sys
    from pathlib import Path

    out = Path(sys.argv[1] if len(sys.argv) > 1 else "tafl_native/tests/data")
    out.mkdir(parents=True, exist_ok=True)
    for vid in FIXTURE_VARIANTS:
        (out / f"eval_{vid}.json").write_text(json.dumps(fixture(vid), separators=(",", ":")) + "\n",
                                              encoding="utf-8")
