"""Puzzle ratings: Glicko-2 for the player and for every puzzle, with lichess's parameters.

Each attempt is one game between the player and the puzzle: solved without a wrong move or a
shown solution is a win for the player, anything else a loss; both ratings move, as on lichess.
The algorithm is Glickman's ("Example of the Glicko-2 system", 2012: steps 1-8, the volatility
by the Illinois method of step 5.1-5.5), each attempt its own rating period.  The deviation grows
with the time since the last attempt as lichess lets it (``ratingPeriodsPerDay`` 0.21436: about
one period every 4.7 days, so an absent player's rating becomes uncertain again).

Parameters are lichess's (lila ``modules/rating``: ``Glicko.default``, ``tau``, ``minDeviation``,
``maxDeviation``, ``maxVolatility``, ``minRating``/``maxRating``, ``maxRatingDelta``,
``provisionalDeviation``): a new player starts at 1500 with deviation 500 and volatility 0.09,
tau 0.75, deviation kept within 45-500, volatility at most 0.1, rating within 400-4000 and moved by
at most 700 at once; a rating whose deviation is 110 or more is provisional (shown with "?").

Why not a library: the established ``glicko2`` package (2.1.0) computes step 5's f(x) with the
player's rating where Glickman has the deviation (phi), so its volatility is wrong for every
player away from 1500; ``glicko2-py`` is a first 0.1.0 beta that installs under the same import
name.  Glickman's algorithm is forty lines; the tests pin it to his worked example.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

SCALE = 173.7178  # Glickman's step 2: rating units per Glicko-2 unit
DEFAULT_RATING = 1500.0
DEFAULT_DEVIATION = 500.0
DEFAULT_VOLATILITY = 0.09
TAU = 0.75
MIN_DEVIATION = 45.0
MAX_DEVIATION = 500.0
MAX_VOLATILITY = 0.1
MIN_RATING = 400.0
MAX_RATING = 4000.0
MAX_DELTA = 700.0
PROVISIONAL_DEVIATION = 110.0
PERIODS_PER_DAY = 0.21436
_EPSILON = 1e-6


@dataclass(frozen=True)
class Glicko:
    """A rating: ``rating``, ``deviation`` (RD) and ``volatility``; ``at`` is when it was last
    updated (seconds since the epoch, 0 = never), from which the deviation grows."""

    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY
    at: float = 0.0

    @property
    def provisional(self) -> bool:
        return self.deviation >= PROVISIONAL_DEVIATION

    def shown(self) -> str:
        """The rating as lichess shows it: whole points, a "?" while provisional."""
        return f"{round(self.rating)}{'?' if self.provisional else ''}"

    def live_deviation(self, now: float) -> float:
        """The deviation at ``now``: grown by the rating periods since :attr:`at` (step 6 for
        each period without games), within the bounds."""
        if not self.at or now <= self.at:
            return self.deviation
        periods = (now - self.at) / 86400.0 * PERIODS_PER_DAY
        phi = math.hypot(self.deviation / SCALE, self.volatility * math.sqrt(periods))
        return min(MAX_DEVIATION, max(MIN_DEVIATION, phi * SCALE))

    def as_list(self) -> list[float]:
        return [round(self.rating, 3), round(self.deviation, 3), round(self.volatility, 6), round(self.at, 1)]

    @classmethod
    def from_list(cls, value: object, default: Glicko | None = None) -> Glicko:
        """A rating kept as ``[rating, deviation, volatility, at]``; ``default`` (or a new
        player's) when the stored value is missing or malformed."""
        try:
            r, d, v, at = (float(x) for x in value)  # type: ignore[attr-defined]
            if not (MIN_RATING <= r <= MAX_RATING and 0 < d <= MAX_DEVIATION and 0 < v <= 1 and at >= 0):
                raise ValueError
        except (TypeError, ValueError):
            return default or cls()
        return cls(r, d, v, at)


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, the root of f by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    for _ in range(100):
        if abs(big_b - big_a) <= _EPSILON:
            break
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def glicko2_update(player: Glicko, results: list[tuple[Glicko, float]], tau: float = TAU,
                   deviation: float | None = None) -> tuple[float, float, float]:
    """Glickman's steps 2-8 for one rating period: ``results`` are (opponent, score) pairs (score
    1 win, 0 loss, 0.5 draw).  Returns (rating, deviation, volatility) unbounded, as the paper
    computes them; ``deviation`` replaces the player's own (the live one) when given."""
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = (player.deviation if deviation is None else deviation) / SCALE
    sigma = player.volatility
    if not results:
        return player.rating, math.hypot(phi, sigma) * SCALE, sigma
    v_inv = 0.0
    total = 0.0
    for opp, score in results:
        mu_j, phi_j = (opp.rating - DEFAULT_RATING) / SCALE, opp.deviation / SCALE
        e = _expected(mu, mu_j, phi_j)
        g = _g(phi_j)
        v_inv += g * g * e * (1.0 - e)
        total += g * (score - e)
    v = 1.0 / v_inv
    delta = v * total
    sigma2 = _new_volatility(sigma, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma2 * sigma2)
    phi2 = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu2 = mu + phi2 * phi2 * total
    return mu2 * SCALE + DEFAULT_RATING, phi2 * SCALE, sigma2


def _bounded(before: Glicko, rating: float, deviation: float, volatility: float, now: float) -> Glicko:
    delta = max(-MAX_DELTA, min(MAX_DELTA, rating - before.rating))
    return Glicko(min(MAX_RATING, max(MIN_RATING, before.rating + delta)),
                  min(MAX_DEVIATION, max(MIN_DEVIATION, deviation)), min(MAX_VOLATILITY, volatility), now)


def play(player: Glicko, puzzle: Glicko, solved: bool, now: float) -> tuple[Glicko, Glicko]:
    """The player's and the puzzle's ratings after one attempt (each the other's opponent)."""
    p_live = replace(player, deviation=player.live_deviation(now))
    z_live = replace(puzzle, deviation=puzzle.live_deviation(now))
    score = 1.0 if solved else 0.0
    p_new = glicko2_update(p_live, [(z_live, score)])
    z_new = glicko2_update(z_live, [(p_live, 1.0 - score)])
    return _bounded(p_live, *p_new, now), _bounded(z_live, *z_new, now)


#: A shipped puzzle's starting rating by its difficulty (1-5), and its starting deviation: the
#: difficulty is a measured fact (plies, the weak search's depth), so the puzzle starts less
#: uncertain than a new player.
DIFFICULTY_RATING = {1: 900.0, 2: 1200.0, 3: 1500.0, 4: 1800.0, 5: 2100.0}
PUZZLE_DEVIATION = 200.0


def initial_puzzle_rating(difficulty: int, nodes: int = 0, plies: int = 1) -> float:
    """A puzzle's first rating: its difficulty's step, raised a little by the weak search's effort
    (up to +150 for a search that needed many positions) and by its length (+25 a winner's move
    past the first), so puzzles of one difficulty are ordered too."""
    base = DIFFICULTY_RATING.get(int(difficulty), 1500.0)
    effort = min(150.0, 25.0 * math.log2(1.0 + max(0, nodes) / 200.0))
    return round(base + effort + 25.0 * max(0, (plies - 1) // 2), 0)


def choose_puzzle(puzzles: list[dict[str, Any]], player: Glicko, attempted: set[str], ratings: dict[str, Glicko],
                  exclude: str | None = None) -> dict[str, Any] | None:
    """The next puzzle for the player, as lichess picks one: among the puzzles not yet attempted,
    the one whose rating is nearest the player's.  A player with no attempt at all (a newcomer)
    gets the easiest, shortest puzzle instead, whatever the starting 1500 says.  When every
    puzzle was attempted, the nearest of all (but ``exclude``, the one on the board)."""
    pool = [p for p in puzzles if p["id"] != exclude]
    if not pool:
        return None
    fresh = [p for p in pool if p["id"] not in attempted] or pool

    def rating_of(p: dict[str, Any]) -> float:
        return ratings[p["id"]].rating if p["id"] in ratings else float(p.get("rating") or 1500.0)

    if not attempted:
        return min(fresh, key=lambda p: (rating_of(p), int(p["plies"]), str(p["id"])))
    return min(fresh, key=lambda p: (abs(rating_of(p) - player.rating), int(p["plies"]), str(p["id"])))
