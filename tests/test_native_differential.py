"""The native rules agree with the core after every ply of random games (issue 31).

Presets under random toggle combinations, and random sparse positions built to reach edge
forts, shield walls and encirclement (see ``tests/native_differential.py``).  The default run
compares a sample of about 6,000 plies; the long run (at least 100,000 plies) is

    QT_QPA_PLATFORM=offscreen .venv/bin/python -m pytest -m slow tests/test_native_differential.py
"""

from __future__ import annotations

import pytest

from tafl_desktop import native

pytestmark = pytest.mark.skipif(not native.available(), reason=f"native engine: {native.unavailable_reason()}")


def test_a_sample_of_random_games_agrees_ply_by_ply():
    import native_differential

    tally = native_differential.run(6_000, seed=31)
    assert tally.plies >= 6_000
    assert tally.captures > 100, tally
    assert {"king_escaped", "king_captured"} <= set(tally.endings), tally


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_hundred_thousand_plies_agree(seed):
    """Four runs of 30,000 plies: 120,000 compared plies, every ending the rules know."""
    import native_differential

    tally = native_differential.run(30_000, seed=1000 + seed)
    assert tally.plies >= 30_000
    assert {"king_escaped", "king_captured", "edge_fort", "encircled"} <= set(tally.endings), tally
