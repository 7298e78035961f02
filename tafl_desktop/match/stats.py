"""A match's figures as chess engine testers compute them: Elo with a 95 % interval, and SPRT.

Pure arithmetic on counts, so a match report, the window and the tests agree.  The formulas are
the published ones, written here from their definitions:

* **Elo difference and interval** (Cute Chess, ``projects/lib/src/elo.cpp``; fastchess's
  ``EloWDL`` the same): the score ``mu = (W + D/2) / N``, the per-game deviation
  ``sigma = sqrt(W/N (1-mu)^2 + D/N (0.5-mu)^2 + L/N mu^2)``, the standard error
  ``sigma / sqrt(N)``; the Elo difference is ``-400 log10(1/mu - 1)`` and the 95 % interval the
  differences at ``mu -/+ 1.95996 sigma/sqrt(N)`` (Cute Chess prints half its width as the
  "+/-" margin).  A score of 0 or 1 has no finite difference: ``None``.
* **SPRT** (fastchess, ``src/matchmaking/sprt/sprt.cpp``, its default "normalized" model, and
  the "logistic" one): the generalized SPRT of M. Van den Bergh ("Support of the MLE for
  multinomial", hardy.uhasselt.be/Fishtest/support_MLE_multinomial.pdf).  With outcome scores
  ``x_i`` (games: 0, 1/2, 1; game pairs: 0, 1/4, 1/2, 3/4, 1) seen with frequencies ``p_i`` in
  ``n`` trials, ``LLR = n/2 * ln(var0 / var1)`` where ``var_k = sum p_i (x_i - s_k)^2`` and
  ``s_k`` is the expected score under hypothesis ``k``: in the logistic model
  ``1 / (1 + 10^(-elo_k/400))``; in the normalized model ``0.5 + nelo_k * sqrt(v) / (800/ln 10)``
  for games and ``0.5 + nelo_k * sqrt(2 v) / (800/ln 10)`` for pairs, ``v`` the observed
  variance of one trial.  Zero counts are read as 0.001 (fastchess's ``regularize``), so the
  ratio exists from the first game.  The bounds are ``ln(beta/(1-alpha))`` (accept H0: reject
  the gain) and ``ln((1-beta)/alpha)`` (accept H1).

Pairs (one game with each colour from the same opening) are what fastchess and fishtest test
on ("pentanomial"): a pair's two games share an opening, so they are not independent.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: The 97.5 % quantile of the standard normal distribution (a two-sided 95 % interval).
Z95 = 1.959963984540054
#: 800 / ln 10: the Elo scale of a normalized-Elo unit (fastchess, fishtest).
NELO_SCALE = 800.0 / math.log(10.0)
#: The scores of a game (loss, draw, win) and of a game pair (LL, LD, DD or WL, WD, WW).
GAME_SCORES = (0.0, 0.5, 1.0)
PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
MODELS = ("normalized", "logistic")


def elo_from_score(score: float) -> float | None:
    """The Elo difference that expects ``score`` (0 < score < 1); None at 0 or 1."""
    if not 0.0 < score < 1.0:
        return None
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_from_elo(elo: float) -> float:
    """The expected score of a player ``elo`` points stronger (the logistic curve)."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


@dataclass(frozen=True)
class EloEstimate:
    """An Elo difference and its 95 % interval (None where the score is 0 or 1)."""

    elo: float | None
    low: float | None
    high: float | None

    @property
    def margin(self) -> float | None:
        """Half the interval's width: Cute Chess's "+/-" figure."""
        if self.low is None or self.high is None:
            return None
        return (self.high - self.low) / 2.0


def elo_estimate(wins: int, draws: int, losses: int) -> EloEstimate:
    """The Elo difference of a player with ``wins``, ``draws``, ``losses`` and its 95 % interval."""
    n = wins + draws + losses
    if n <= 0:
        return EloEstimate(None, None, None)
    mu = (wins + draws / 2.0) / n
    var = (wins * (1.0 - mu) ** 2 + draws * (0.5 - mu) ** 2 + losses * mu ** 2) / n
    err = math.sqrt(var) / math.sqrt(n)
    low = elo_from_score(mu - Z95 * err) if mu - Z95 * err > 0 else None
    high = elo_from_score(mu + Z95 * err) if mu + Z95 * err < 1 else None
    return EloEstimate(elo_from_score(mu), low, high)


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """The LLR bounds: below the first, H0 is accepted; above the second, H1."""
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def _regularised(counts: Sequence[int]) -> list[float]:
    return [float(c) if c else 1e-3 for c in counts]


def _llr(counts: Sequence[int], scores: Sequence[float], elo0: float, elo1: float, model: str,
         pairs: bool) -> float:
    """The GSPRT log-likelihood ratio for outcome ``counts`` with outcome ``scores``."""
    if model not in MODELS:
        raise ValueError(f"unknown SPRT model {model!r}")
    if sum(counts) <= 0:
        return 0.0
    c = _regularised(counts)
    n = sum(c)
    p = [x / n for x in c]
    mean = sum(pi * xi for pi, xi in zip(p, scores, strict=True))
    var = sum(pi * (xi - mean) ** 2 for pi, xi in zip(p, scores, strict=True))
    if var <= 0:
        return 0.0
    if model == "normalized":
        spread = math.sqrt(2.0 * var if pairs else var) / NELO_SCALE
        s0, s1 = 0.5 + elo0 * spread, 0.5 + elo1 * spread
    else:
        s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    var0 = sum(pi * (xi - s0) ** 2 for pi, xi in zip(p, scores, strict=True))
    var1 = sum(pi * (xi - s1) ** 2 for pi, xi in zip(p, scores, strict=True))
    if var0 <= 0 or var1 <= 0:
        return 0.0
    return 0.5 * n * math.log(var0 / var1)


def llr_trinomial(wins: int, draws: int, losses: int, elo0: float, elo1: float,
                  model: str = "normalized") -> float:
    """The SPRT log-likelihood ratio of single games (wins, draws, losses)."""
    return _llr((losses, draws, wins), GAME_SCORES, elo0, elo1, model, pairs=False)


def llr_pentanomial(penta: Sequence[int], elo0: float, elo1: float, model: str = "normalized") -> float:
    """The SPRT log-likelihood ratio of game pairs; ``penta`` counts the pairs scoring 0, 1/2,
    1, 3/2 and 2 points (LL, LD, DD or WL, WD, WW)."""
    if len(penta) != 5:
        raise ValueError("a pentanomial count has five numbers")
    return _llr(tuple(penta), PAIR_SCORES, elo0, elo1, model, pairs=True)


def sprt_verdict(llr: float, alpha: float, beta: float) -> str:
    """``"H1"`` (the gain elo1 is accepted), ``"H0"`` (elo0 is: no gain) or ``"continue"``."""
    lower, upper = sprt_bounds(alpha, beta)
    if llr >= upper:
        return "H1"
    if llr <= lower:
        return "H0"
    return "continue"


def pentanomial(pair_points: Sequence[float]) -> list[int]:
    """Counts of game pairs by the points the player took from them (0, 0.5, 1, 1.5, 2)."""
    counts = [0] * 5
    for points in pair_points:
        counts[round(points * 2)] += 1
    return counts
