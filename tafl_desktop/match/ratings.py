"""Ratings on one Elo scale fitted from every result at once (the levels' ratings, New Game).

Pairwise scores alone (A beat B 3-1, B beat C 4-0) do not give a scale: each pair's Elo
difference has its own noise and a level that never met another is not placed against it.  So
the ratings are fitted jointly, by maximum likelihood under the logistic (Bradley-Terry) model
that Elo assumes, ``P(i beats j) = 1 / (1 + 10^((R_j - R_i) / 400))``, a draw counting half a
win to each side (as Elo scores it).  The fit is Hunter's MM iteration for Bradley-Terry
(D. R. Hunter, "MM algorithms for generalized Bradley-Terry models", Annals of Statistics 32,
2004, eq. 3): with strengths ``g_i = 10^(R_i/400)``, ``w_i`` player i's points and ``n_ij``
the games between i and j, ``g_i <- w_i / sum_j n_ij / (g_i + g_j)``; it increases the
likelihood at every step and converges to the maximum when one exists.

A clean sweep (4-0) has no maximum: the difference runs to infinity.  So each pair that met
also gets ``prior_draws`` virtual draws (one by default), the prior Rémi Coulom's BayesElo adds
for the same reason; it pulls every difference a little towards 0, less the more games there
are.  Ratings are anchored by fixing one player's rating (Beginner = 1000 in the shipped file).

Pure arithmetic, no Qt: a benchmark script writes the shipped file with it and a test checks
it against hand-computed cases.
"""

from __future__ import annotations

import math
from collections.abc import Iterable


def fit_ratings(results: Iterable[tuple[str, str, float]], anchor: str, anchor_rating: float = 1000.0,
                prior_draws: float = 1.0, iterations: int = 10_000, tolerance: float = 1e-10) -> dict[str, float]:
    """Each player's rating from ``results`` (``(a, b, score of a)``, a score 1, 0.5 or 0), with
    ``anchor`` fixed at ``anchor_rating``.  ValueError when the anchor played no game or the
    players fall into groups that never met (no common scale exists then)."""
    games: dict[tuple[str, str], float] = {}
    points: dict[str, float] = {}
    for a, b, score in results:
        if a == b:
            continue
        key = (a, b) if a < b else (b, a)
        games[key] = games.get(key, 0.0) + 1.0
        points[a] = points.get(a, 0.0) + score
        points[b] = points.get(b, 0.0) + 1.0 - score
    if anchor not in points:
        raise ValueError(f"the anchor {anchor!r} played no game")
    for key in list(games):  # the prior: virtual draws between every pair that met
        games[key] += prior_draws
        for p in key:
            points[p] += prior_draws / 2.0
    players = sorted(points)
    _check_connected(players, games)
    strength = {p: 1.0 for p in players}
    for _step in range(iterations):
        new = {}
        for p in players:
            denom = sum(n / (strength[a] + strength[b]) for (a, b), n in games.items() if p in (a, b))
            new[p] = points[p] / denom if denom > 0 else strength[p]
        norm = new[anchor]
        new = {p: g / norm for p, g in new.items()}
        change = max(abs(math.log(new[p] / strength[p])) for p in players)
        strength = new
        if change < tolerance:
            break
    return {p: anchor_rating + 400.0 * math.log10(strength[p]) for p in players}


def _check_connected(players: list[str], games: dict[tuple[str, str], float]) -> None:
    seen = {players[0]}
    todo = [players[0]]
    while todo:
        p = todo.pop()
        for a, b in games:
            other = b if a == p else a if b == p else None
            if other is not None and other not in seen:
                seen.add(other)
                todo.append(other)
    if len(seen) != len(players):
        raise ValueError("some players never met the others, even indirectly: no common scale")
