"""The levels' ratings fit (issue 45): Bradley-Terry maximum likelihood over all results at once,
checked against cases computed by hand from the Elo formula.

The logistic model: ``P(A beats B) = 1 / (1 + 10^(-(R_A - R_B)/400))`` (A. Elo, *The Rating of
Chessplayers, Past and Present*, 1978; the curve Cute Chess and fastchess use for their Elo
figures, see :mod:`tafl_desktop.match.stats`).  For two players the maximum-likelihood difference
is the one whose expected score equals the observed score: ``400 log10(s / (1 - s))``.
"""

from __future__ import annotations

import math

import pytest

from tafl_desktop.match.ratings import fit_ratings


def test_two_players_by_hand_without_prior():
    # A scores 3 of 4 against B: 3 = 4 / (1 + 10^(-d/400))  =>  d = 400 log10(3) = 190.85
    r = fit_ratings([("a", "b", 1.0)] * 3 + [("a", "b", 0.0)], "b", 1000.0, prior_draws=0)
    assert r["b"] == 1000.0
    assert r["a"] == pytest.approx(1000.0 + 400 * math.log10(3), abs=1e-6)
    assert r["a"] == pytest.approx(1190.85, abs=0.01)


def test_the_prior_draw_by_hand():
    # with one virtual draw, A scores 3.5 of 5: d = 400 log10(3.5 / 1.5) = 147.19
    r = fit_ratings([("a", "b", 1.0)] * 3 + [("a", "b", 0.0)], "b", 1000.0)
    assert r["a"] == pytest.approx(1147.19, abs=0.01)


def test_a_clean_sweep_stays_finite_and_draws_count_half():
    r = fit_ratings([("a", "b", 1.0)] * 4, "b")
    # 4.5 of 5 with the prior: 400 log10(9) = 381.70
    assert r["a"] - r["b"] == pytest.approx(400 * math.log10(9), abs=1e-6)
    even = fit_ratings([("a", "b", 0.5)] * 6, "a", 1500.0)
    assert even == {"a": pytest.approx(1500.0), "b": pytest.approx(1500.0)}


def test_three_players_fitted_at_once_by_hand():
    # A 3-1 against B, B 3-1 against C, A and C never met: the joint maximum is the chain,
    # A = B + 190.85 = C + 381.70 (each pair's score equation holds, and only those games tie
    # the ratings together)
    res = [("a", "b", 1.0)] * 3 + [("a", "b", 0.0)] + [("b", "c", 1.0)] * 3 + [("b", "c", 0.0)]
    r = fit_ratings(res, "c", 1000.0, prior_draws=0)
    assert r["b"] == pytest.approx(1000 + 400 * math.log10(3), abs=1e-6)
    assert r["a"] == pytest.approx(1000 + 800 * math.log10(3), abs=1e-6)
    # a game A-C that A won pulls A up and C down: everything is fitted together
    r2 = fit_ratings(res + [("c", "a", 0.0)], "c", 1000.0, prior_draws=0)
    assert r2["a"] > r["a"]


def test_players_that_never_met_have_no_common_scale():
    with pytest.raises(ValueError):
        fit_ratings([("a", "b", 1.0), ("c", "d", 0.0)], "a")
    with pytest.raises(ValueError):
        fit_ratings([("a", "b", 1.0)], "z")
