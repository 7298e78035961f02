"""Issue 45, item 2: a match's figures as the chess engine testers define them.

Sources (the formulas, read and re-derived here step by step, independently of the module):

* Cute Chess, ``projects/lib/src/elo.cpp``: score ``mu = (W + D/2)/N``, per-game deviation
  ``sqrt(W/N (1-mu)^2 + D/N (1/2-mu)^2 + L/N mu^2)``, error ``dev/sqrt(N)``, the Elo difference
  ``-400 log10(1/mu - 1)`` and the 95 % interval the differences at ``mu -/+ 1.95996 err``.
* fastchess, ``src/matchmaking/sprt/sprt.cpp``: bounds ``ln(beta/(1-alpha))`` and
  ``ln((1-beta)/alpha)``; the GSPRT ``LLR = n/2 ln(var0/var1)`` (M. Van den Bergh, "Support of
  the MLE for multinomial", hardy.uhasselt.be/Fishtest/support_MLE_multinomial.pdf) with the
  "normalized" model (``s = 1/2 + nelo sqrt(v)/(800/ln 10)``, ``sqrt(2v)`` for pairs) and the
  "logistic" one (``s = 1/(1 + 10^(-elo/400))``).

The pinned figures were worked out by hand from those formulas (the arithmetic is in each
test's comment) and are checked against the module to four or more decimals.
"""

from __future__ import annotations

import math

import pytest

from tafl_desktop.match import stats


def test_sprt_bounds_are_fishtests_2_94_at_alpha_beta_5_percent():
    # fastchess: lower = ln(0.05/0.95) = -2.9444, upper = ln(0.95/0.05) = 2.9444 (fishtest shows
    # "(-2.94, 2.94)" for every test at alpha = beta = 0.05)
    lower, upper = stats.sprt_bounds(0.05, 0.05)
    assert lower == pytest.approx(-2.944439, abs=1e-6)
    assert upper == pytest.approx(2.944439, abs=1e-6)
    assert stats.sprt_bounds(0.1, 0.05) == pytest.approx((math.log(0.05 / 0.9), math.log(0.95 / 0.1)))


def test_elo_and_its_95_percent_interval_for_60_20_20():
    # mu = (60 + 10)/100 = 0.7; dev^2 = 0.6*0.3^2 + 0.2*0.2^2 + 0.2*0.7^2 = 0.054 + 0.008 + 0.098
    # = 0.16, err = 0.4/10 = 0.04; mu -/+ 1.959964*0.04 = 0.621601, 0.778399
    # Elo = -400 log10(0.3/0.7) = 147.19; low = -400 log10(0.378399/0.621601) = 86.23;
    # high = -400 log10(0.221601/0.778399) = 218.25; Cute Chess's "+/-" = (218.25-86.23)/2 = 66.01
    est = stats.elo_estimate(60, 20, 20)
    assert est.elo == pytest.approx(147.1907, abs=1e-3)
    assert est.low == pytest.approx(86.2250, abs=1e-3)
    assert est.high == pytest.approx(218.2518, abs=1e-3)
    assert est.margin == pytest.approx(66.0134, abs=1e-3)


def test_even_score_is_zero_elo_with_a_symmetric_interval():
    # 30-40-30: mu = 0.5, dev^2 = 0.3*0.25*2 = 0.15, err = sqrt(0.15)/10 = 0.0387298
    # high = -400 log10((1-0.575909)/0.575909) = -400 log10(0.736384) = 53.158
    # (0.5 + 1.959964*0.0387298 = 0.575909)
    est = stats.elo_estimate(30, 40, 30)
    assert est.elo == pytest.approx(0.0, abs=1e-9)
    assert est.high == pytest.approx(53.1580, abs=1e-3)
    assert est.low == pytest.approx(-53.1580, abs=1e-3)


def test_a_perfect_or_empty_score_has_no_finite_elo():
    assert stats.elo_estimate(5, 0, 0).elo is None
    assert stats.elo_estimate(0, 0, 5).elo is None
    assert stats.elo_estimate(0, 0, 0) == stats.EloEstimate(None, None, None)


def _hand_llr(p: list[float], x: list[float], n: float, s0: float, s1: float) -> float:
    var0 = sum(pi * (xi - s0) ** 2 for pi, xi in zip(p, x, strict=True))
    var1 = sum(pi * (xi - s1) ** 2 for pi, xi in zip(p, x, strict=True))
    return n / 2 * math.log(var0 / var1)


def test_trinomial_llr_logistic_for_60_20_20_elo_0_10():
    # s0 = 1/(1+10^0) = 0.5, s1 = 1/(1+10^(-10/400)) = 0.514387
    # var0 = 0.6*0.5^2 + 0.2*0^2 + 0.2*0.5^2 = 0.2; var1 = 0.6*0.485613^2 + 0.2*0.014387^2
    # + 0.2*0.514387^2 = 0.194409; LLR = 50 ln(0.2/0.194409) = 1.4066
    s1 = 1 / (1 + 10 ** (-10 / 400))
    assert s1 == pytest.approx(0.514387, abs=1e-6)
    hand = _hand_llr([0.2, 0.2, 0.6], [0, 0.5, 1], 100, 0.5, s1)
    assert hand == pytest.approx(1.40657, abs=1e-4)
    assert stats.llr_trinomial(60, 20, 20, 0, 10, "logistic") == pytest.approx(1.40657, abs=1e-4)


def test_trinomial_llr_normalized_for_60_20_20_elo_0_10():
    # the observed variance v = 0.16 (see the Elo test); s1 = 0.5 + 10*0.4/(800/ln 10) = 0.511513
    # var0 = 0.2 (as above); var1 = 0.6*0.488487^2 + 0.2*0.011513^2 + 0.2*0.511513^2 = 0.195518
    # LLR = 50 ln(0.2/0.195518) = 1.1308
    s1 = 0.5 + 10 * 0.4 / (800 / math.log(10))
    assert s1 == pytest.approx(0.511513, abs=1e-6)
    assert _hand_llr([0.2, 0.2, 0.6], [0, 0.5, 1], 100, 0.5, s1) == pytest.approx(1.13085, abs=1e-4)
    assert stats.llr_trinomial(60, 20, 20, 0, 10) == pytest.approx(1.13085, abs=1e-4)


def test_pentanomial_llr_normalized_and_logistic():
    # 55 pairs: LL 2, LD 10, DD+WL 20, WD 15, WW 8; p = (2,10,20,15,8)/55
    # mean = (10*0.25 + 20*0.5 + 15*0.75 + 8)/55 = 31.75/55 = 0.577273
    # v = sum p (x - mean)^2 = (2*0.333244 + 10*0.107107 + 20*0.005971 + 15*0.029835
    # + 8*0.178698)/55 = 0.067893; var_k = v + (mean - s_k)^2, so var0 = 0.073864
    # logistic [0, 10]: s1 = 0.514387, var1 = 0.071848: LLR = 27.5 ln(0.073864/0.071848) = 0.7610
    # normalized [0, 10]: s1 = 0.5 + 10 sqrt(2v)/347.436 = 0.510606, var1 = 0.072337:
    # LLR = 27.5 ln(0.073864/0.072337) = 0.5745
    penta = [2, 10, 20, 15, 8]
    x = [0, 0.25, 0.5, 0.75, 1]
    p = [c / 55 for c in penta]
    mean = sum(pi * xi for pi, xi in zip(p, x, strict=True))
    v = sum(pi * (xi - mean) ** 2 for pi, xi in zip(p, x, strict=True))
    assert mean == pytest.approx(0.577273, abs=1e-6)
    assert v == pytest.approx(0.067893, abs=1e-6)
    s1n = 0.5 + 10 * math.sqrt(2 * v) / (800 / math.log(10))
    assert s1n == pytest.approx(0.510606, abs=1e-6)
    assert _hand_llr(p, x, 55, 0.5, s1n) == pytest.approx(0.5745, abs=3e-4)
    assert stats.llr_pentanomial(penta, 0, 10) == pytest.approx(0.5745, abs=3e-4)
    assert stats.llr_pentanomial(penta, 0, 10, "logistic") == pytest.approx(0.7610, abs=3e-4)


def test_zero_counts_are_regularised_as_fastchess_does():
    # one won pair and nothing else: counts (0.001, 0.001, 0.001, 0.001, 1); logistic [0, 400]:
    # s1 = 1/(1 + 10^-1) = 0.909091; n = 1.004
    p = [0.001 / 1.004] * 4 + [1 / 1.004]
    hand = _hand_llr(p, [0, 0.25, 0.5, 0.75, 1], 1.004, 0.5, 1 / 1.1)
    assert stats.llr_pentanomial([0, 0, 0, 0, 1], 0, 400, "logistic") == pytest.approx(hand, rel=1e-9)
    assert hand > 1.0
    assert stats.llr_trinomial(0, 0, 0, 0, 10) == 0.0


def test_verdicts_follow_the_bounds():
    assert stats.sprt_verdict(3.0, 0.05, 0.05) == "H1"
    assert stats.sprt_verdict(-3.0, 0.05, 0.05) == "H0"
    assert stats.sprt_verdict(2.9, 0.05, 0.05) == "continue"
    assert stats.pentanomial([2.0, 1.5, 1.0, 0.5, 0.0, 1.0]) == [1, 1, 2, 1, 1]
