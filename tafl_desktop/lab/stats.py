"""The statistics of a study: shares with Wilson intervals, balance measures, games needed.

Wilson intervals stay inside 0..1 and behave at small counts and extreme shares, where the
textbook normal interval does not.  They and the sample size are closed formulas over the normal
quantile (the standard library's ``statistics.NormalDist``), and Fisher's exact test is a sum over
the hypergeometric distribution, so the rules lab needs no SciPy (``make run`` installs only what
the window needs; tests/test_lab_study.py checks all three against SciPy).

The balance measures follow Ludii's definitions (its ``Evaluation`` metrics), so our figures can
sit beside Ludii's: balance = 1 - |share won by one side - share won by the other|, drawishness =
draws (not counting capped games) per game, timeouts = capped games per game, completion = games
ended by the rules per game.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist
from typing import Any

#: Confidence of every interval the lab reports.
CONFIDENCE = 0.95


def wilson(k: int, n: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The Wilson score interval of the share ``k / n`` (``(0, 1)`` when ``n`` is 0)."""
    if n == 0:
        return 0.0, 1.0
    # Wilson (1927), without continuity correction: the same interval as SciPy's
    # binomtest(k, n).proportion_ci(method="wilson"); tests/test_lab_study.py compares the two.
    z = NormalDist().inv_cdf(1 - (1 - confidence) / 2)
    p = k / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    low = 0.0 if k == 0 else max(0.0, centre - half)
    high = 1.0 if k == n else min(1.0, centre + half)
    return low, high


def games_to_tell(p0: float = 0.5, p1: float = 0.55, alpha: float = 0.05, power: float = 0.8) -> int:
    """Decisive games a cell needs to tell a win share of ``p1`` from ``p0`` (two-sided test at
    level ``alpha`` with the given power; normal approximation to the binomial)."""
    z_a = NormalDist().inv_cdf(1 - alpha / 2)
    z_b = NormalDist().inv_cdf(power)
    n = ((z_a * math.sqrt(p0 * (1 - p0)) + z_b * math.sqrt(p1 * (1 - p1))) / (p1 - p0)) ** 2
    return math.ceil(n)


def summarise_cell(options: dict[str, Any], results: Sequence[dict[str, Any]],
                   side_keys: tuple[str, str]) -> dict[str, Any]:
    """One cell's line of the report: counts, intervals, game length and balance measures."""
    n = len(results)
    first, second = side_keys
    wins0 = sum(r["winner"] == first for r in results)
    wins1 = sum(r["winner"] == second for r in results)
    capped = sum(bool(r.get("capped")) for r in results)
    draws = n - wins0 - wins1 - capped
    lo0, hi0 = wilson(wins0, n)
    lo1, hi1 = wilson(wins1, n)
    plies = [r["plies"] for r in results]
    share0, share1 = (wins0 / n, wins1 / n) if n else (0.0, 0.0)
    return {
        "options": dict(options),
        "games": n,
        first: wins0,
        second: wins1,
        "draws": draws,
        "capped": capped,
        f"{first}_ci": [round(lo0, 4), round(hi0, 4)],
        f"{second}_ci": [round(lo1, 4), round(hi1, 4)],
        "mean_plies": round(sum(plies) / n, 1) if n else 0.0,
        "median_plies": _median(plies),
        "balance": round(1 - abs(share0 - share1), 4) if n else None,
        "drawishness": round(draws / n, 4) if n else None,
        "timeouts": round(capped / n, 4) if n else None,
        "completion": round((n - capped) / n, 4) if n else None,
    }


def _median(values: Sequence[int]) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    mid = len(s) // 2
    return float(s[mid]) if len(s) % 2 else (s[mid - 1] + s[mid]) / 2


def compare_cells(a: dict[str, Any], b: dict[str, Any], side: str) -> dict[str, Any]:
    """How two cells' win shares of ``side`` differ: the difference and Fisher's exact p-value."""
    ka, na, kb, nb = a[side], a["games"], b[side], b["games"]
    p = fisher_exact_p(ka, na, kb, nb) if na and nb else 1.0
    return {"difference": round((ka / na if na else 0) - (kb / nb if nb else 0), 4), "p_value": round(p, 4)}


def fisher_exact_p(ka: int, na: int, kb: int, nb: int) -> float:
    """Two-sided p-value of Fisher's exact test on the table ``[[ka, na - ka], [kb, nb - kb]]``.

    With the margins fixed, the first cell follows the hypergeometric distribution; the p-value
    sums the probabilities of every table no more likely than the one seen (with SciPy's relative
    tolerance of 1e-7, so that tables tied with it in exact arithmetic count despite rounding).
    """
    total, successes = na + nb, ka + kb
    low, high = max(0, successes - nb), min(successes, na)

    def log_p(x: int) -> float:
        return (_log_comb(na, x) + _log_comb(nb, successes - x) - _log_comb(total, successes))

    seen = log_p(ka)
    bound = seen + math.log1p(1e-7)
    p = sum(math.exp(v) for v in (log_p(x) for x in range(low, high + 1)) if v <= bound)
    return min(1.0, p)


def _log_comb(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
