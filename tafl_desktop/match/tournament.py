"""A club tournament: players with ratings, pairings round by round, results, standings.

Pure data and arithmetic (no Qt), kept in one JSON file that reopens (``save``/``load``).

* **Systems**: ``round-robin`` (everyone meets everyone once; the circle method's rounds, the
  Berger tables' order) and ``monrad`` (a Swiss system: each round the players are ranked by
  points, then rating, and paired top down, 1st against the next they have not met; an odd one
  out gets a bye, never twice while another has had none).
* **Pairings**: a pairing is a match of ``games_per_pairing`` games; with two (the World Tafl
  Federation's rule: one game with each colour) the colours balance themselves; with one, the
  player who has had the attackers less often gets them (then the one who had the defenders
  last, then the higher ranked).
* **Points**: 1 a won game, 1/2 a drawn one; a bye scores a won pairing (``games_per_pairing``
  points) and counts for no tie-break.
* **Standings**, with the WTF's tie-breaks in its order (aagenielsen.dk's championship pages
  ``wtfturnering2020.php`` and ``wtfturnering2024.php``, summarised in the project's research
  notes, ``turn2-research.md`` 1.1, and issue 45): points; then **direct comparison**, the points
  the tied players took in their games against each other; then **Sonneborn-Berger**, the final
  points of every opponent beaten plus half of those of every opponent drawn with; then the
  **shortest win**, the fewest plies of any game the player won (fewer is better); then rating.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from tafl_desktop.i18n import _

FORMAT = "tafl-desktop-tournament"
VERSION = 1
SYSTEMS = ("round-robin", "monrad")
RESULTS = ("attackers", "defenders", "draw")
#: The largest tournament file read (bytes).
MAX_BYTES = 4_000_000


class TournamentError(ValueError):
    """A tournament file or request that cannot be used; the message is one line."""


@dataclass
class Player:
    name: str
    rating: int = 0


@dataclass
class TGame:
    """One game of a pairing: the players (indices) on each side, the result, its length."""

    attackers: int
    defenders: int
    result: str | None = None
    plies: int = 0


@dataclass
class Pairing:
    a: int
    b: int
    games: list[TGame] = field(default_factory=list)


@dataclass
class Round:
    number: int
    pairings: list[Pairing] = field(default_factory=list)
    bye: int | None = None

    @property
    def complete(self) -> bool:
        return all(g.result is not None for p in self.pairings for g in p.games)


@dataclass
class Tournament:
    name: str
    system: str
    players: list[Player]
    rounds_planned: int
    games_per_pairing: int = 2
    variant: str = ""
    rounds: list[Round] = field(default_factory=list)

    # ------------------------------------------------------------------------ file
    def to_data(self) -> dict[str, Any]:
        data = asdict(self)
        data.update(format=FORMAT, version=VERSION)
        return data

    @classmethod
    def from_data(cls, data: Any) -> Tournament:
        try:
            if data.get("format") != FORMAT:
                raise TournamentError(_("this is not a tournament file"))
            players = [Player(str(p["name"]), int(p.get("rating", 0))) for p in data["players"]]
            rounds = [Round(int(r["number"]),
                            [Pairing(int(p["a"]), int(p["b"]),
                                     [TGame(int(g["attackers"]), int(g["defenders"]), g.get("result"),
                                            int(g.get("plies", 0))) for g in p["games"]]) for p in r["pairings"]],
                            None if r.get("bye") is None else int(r["bye"])) for r in data.get("rounds", [])]
            t = cls(str(data["name"]), str(data["system"]), players, int(data["rounds_planned"]),
                    int(data.get("games_per_pairing", 2)), str(data.get("variant", "")), rounds)
        except (AttributeError, KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, TournamentError):
                raise
            raise TournamentError(_("the tournament file is damaged: {problem}").format(problem=exc)) from None
        t.check()
        return t

    def check(self) -> None:
        """TournamentError for data no tournament could hold (a damaged or edited file)."""
        n = len(self.players)
        if self.system not in SYSTEMS or self.games_per_pairing not in (1, 2) or n < 2:
            raise TournamentError(_("the tournament file is damaged: {problem}").format(problem="settings"))
        for r in self.rounds:
            for p in r.pairings:
                for g in p.games:
                    if {g.attackers, g.defenders} != {p.a, p.b} or not 0 <= p.a < n or not 0 <= p.b < n \
                            or g.result not in (*RESULTS, None) or g.plies < 0:
                        raise TournamentError(_("the tournament file is damaged: {problem}").format(
                            problem=f"round {r.number}"))

    # ------------------------------------------------------------------------ results
    def game_points(self) -> list[float]:
        """Each player's points (byes included)."""
        pts = [0.0] * len(self.players)
        for r in self.rounds:
            if r.bye is not None:
                pts[r.bye] += self.games_per_pairing
            for p in r.pairings:
                for g in p.games:
                    for who, score in _scores(g):
                        pts[who] += score
        return pts

    def colour_counts(self) -> list[list[int]]:
        """[attacker games, defender games] per player."""
        counts = [[0, 0] for _p in self.players]
        for r in self.rounds:
            for p in r.pairings:
                for g in p.games:
                    counts[g.attackers][0] += 1
                    counts[g.defenders][1] += 1
        return counts

    def met(self, i: int, j: int) -> bool:
        return any({p.a, p.b} == {i, j} for r in self.rounds for p in r.pairings)

    # ------------------------------------------------------------------------ pairing
    def pair_next(self) -> Round:
        """Pair the next round (and keep it); TournamentError when the last round is not
        finished or every round has been played."""
        if self.rounds and not self.rounds[-1].complete:
            raise TournamentError(_("round {n} is not finished").format(n=self.rounds[-1].number))
        if len(self.rounds) >= self.rounds_planned:
            raise TournamentError(_("all {n} rounds have been paired").format(n=self.rounds_planned))
        number = len(self.rounds) + 1
        pairs, bye = (round_robin_round(len(self.players), number) if self.system == "round-robin"
                      else self._monrad_pairs())
        rnd = Round(number, [self._pairing(a, b, number, k) for k, (a, b) in enumerate(pairs)], bye)
        self.rounds.append(rnd)
        return rnd

    def _rank_order(self) -> list[int]:
        pts = self.game_points()
        return sorted(range(len(self.players)), key=lambda i: (-pts[i], -self.players[i].rating, i))

    def _monrad_pairs(self) -> tuple[list[tuple[int, int]], int | None]:
        order = self._rank_order()
        bye = None
        if len(order) % 2:
            had = {r.bye for r in self.rounds}
            bye = next((i for i in reversed(order) if i not in had), order[-1])
            order.remove(bye)
        pairs: list[tuple[int, int]] = []
        left = list(order)
        while left:
            top = left.pop(0)
            partner = next((j for j in left if not self.met(top, j)), left[0])
            left.remove(partner)
            pairs.append((top, partner))
        return pairs, bye

    def _pairing(self, a: int, b: int, number: int, board: int) -> Pairing:
        if self.games_per_pairing == 2:
            return Pairing(a, b, [TGame(a, b), TGame(b, a)])
        counts = self.colour_counts()
        last = self._last_colour()
        if counts[a][0] != counts[b][0]:
            first = a if counts[a][0] < counts[b][0] else b
        elif last.get(a) != last.get(b) and (last.get(a) == "defenders" or last.get(b) == "defenders"):
            first = a if last.get(a) == "defenders" else b
        else:
            first = a if (number + board) % 2 else b
        second = b if first == a else a
        return Pairing(a, b, [TGame(first, second)])

    def _last_colour(self) -> dict[int, str]:
        last: dict[int, str] = {}
        for r in self.rounds:
            for p in r.pairings:
                for g in p.games:
                    last[g.attackers], last[g.defenders] = "attackers", "defenders"
        return last

    def enter(self, round_number: int, table: int, game: int, result: str, plies: int = 0) -> TGame:
        """Record a game's result (``attackers``, ``defenders`` or ``draw``)."""
        if result not in RESULTS:
            raise TournamentError(_("a result is attackers, defenders or draw"))
        if not 1 <= round_number <= len(self.rounds):
            raise TournamentError(_("there is no round {n}").format(n=round_number))
        rnd = self.rounds[round_number - 1]
        if not 1 <= table <= len(rnd.pairings) or not 1 <= game <= len(rnd.pairings[table - 1].games):
            raise TournamentError(_("round {n} has no table {table}, game {game}").format(
                n=round_number, table=table, game=game))
        g = rnd.pairings[table - 1].games[game - 1]
        g.result, g.plies = result, max(0, plies)
        return g

    def find_game(self, attackers: str, defenders: str) -> tuple[int, int, int]:
        """The (round, table, game) of the unplayed game with these players on these sides (the
        earliest), for a result read from a game file."""
        names = [p.name.casefold() for p in self.players]
        try:
            a, d = names.index(attackers.strip().casefold()), names.index(defenders.strip().casefold())
        except ValueError:
            raise TournamentError(_("the game's players ({a}, {d}) are not both in the tournament").format(
                a=attackers[:40], d=defenders[:40])) from None
        for r in self.rounds:
            for t, p in enumerate(r.pairings, 1):
                for k, g in enumerate(p.games, 1):
                    if g.attackers == a and g.defenders == d and g.result is None:
                        return r.number, t, k
        raise TournamentError(_("no unplayed game of {a} (attackers) against {d} (defenders) is paired").format(
            a=self.players[a].name, d=self.players[d].name))

    # ------------------------------------------------------------------------ standings
    def standings(self) -> list[dict[str, Any]]:
        """The table, best first: name, rating, points, direct, sonneborn_berger, shortest_win
        (plies; None without a win), games, and the place (shared places are not given: the
        tie-breaks order every tie they can)."""
        pts = self.game_points()
        n = len(self.players)
        sb = [0.0] * n
        shortest: list[int | None] = [None] * n
        played = [0] * n
        for r in self.rounds:
            for p in r.pairings:
                for g in p.games:
                    if g.result is None:
                        continue
                    for who, score in _scores(g):
                        other = g.defenders if who == g.attackers else g.attackers
                        played[who] += 1
                        sb[who] += score * pts[other]
                        if score == 1.0 and g.plies:
                            best = shortest[who]
                            shortest[who] = g.plies if best is None else min(best, g.plies)
        groups: dict[float, list[int]] = {}
        for i in range(n):
            groups.setdefault(pts[i], []).append(i)
        direct = [0.0] * n
        for members in groups.values():
            if len(members) < 2:
                continue
            inside = set(members)
            for r in self.rounds:
                for p in r.pairings:
                    if p.a in inside and p.b in inside:
                        for g in p.games:
                            for who, score in _scores(g):
                                direct[who] += score
        order = sorted(range(n), key=lambda i: (-pts[i], -direct[i], -sb[i],
                                                shortest[i] if shortest[i] is not None else 10**9,
                                                -self.players[i].rating, i))
        return [{"place": k + 1, "name": self.players[i].name, "rating": self.players[i].rating, "points": pts[i],
                 "direct": direct[i], "sonneborn_berger": sb[i], "shortest_win": shortest[i], "games": played[i]}
                for k, i in enumerate(order)]


def _scores(g: TGame) -> list[tuple[int, float]]:
    """(player, points) for both players of a finished game; [] for an unplayed one."""
    if g.result is None:
        return []
    if g.result == "draw":
        return [(g.attackers, 0.5), (g.defenders, 0.5)]
    winner = g.attackers if g.result == "attackers" else g.defenders
    loser = g.defenders if winner == g.attackers else g.attackers
    return [(winner, 1.0), (loser, 0.0)]


def round_robin_round(players: int, number: int) -> tuple[list[tuple[int, int]], int | None]:
    """Round ``number`` (from 1) of a round robin by the circle method: player 0 (or the bye)
    stays, the others turn one place a round; the pairs and the player with the bye."""
    slots: list[int | None] = list(range(players)) + ([None] if players % 2 else [])
    m = len(slots)
    rest = slots[1:]
    k = (number - 1) % (m - 1)
    rest = rest[-k:] + rest[:-k] if k else rest
    ring = [slots[0], *rest]
    pairs: list[tuple[int, int]] = []
    bye = None
    for i in range(m // 2):
        a, b = ring[i], ring[m - 1 - i]
        if a is None or b is None:
            bye = b if a is None else a
            continue
        pairs.append((a, b) if (i == 0 and number % 2) or (i and i % 2 == 0) else (b, a))
    return pairs, bye


def rounds_for(system: str, players: int, asked: int | None) -> int:
    """The rounds of a tournament: a round robin has players-1 (one more with a bye); Monrad
    as asked (at most that many)."""
    full = players - 1 if players % 2 == 0 else players
    if system == "round-robin":
        return full
    return max(1, min(asked or full, full))


def save(t: Tournament, path: str | Path) -> None:
    """Write the tournament (atomically: the old file or the new one, never half)."""
    from tafl_desktop.core.safe_files import write_safely

    write_safely(path, json.dumps(t.to_data(), indent=1, ensure_ascii=False) + "\n")


def load(path: str | Path) -> Tournament:
    """The tournament in ``path``; TournamentError (one line) for one that cannot be read."""
    from tafl_desktop.core.quoting import os_reason, shown
    from tafl_desktop.core.safe_files import read_limited

    try:
        raw = read_limited(path, MAX_BYTES)
    except OSError as exc:
        raise TournamentError(_("cannot read {path}: {reason}").format(
            path=shown(path), reason=os_reason(exc))) from None
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise TournamentError(_("{path} is not a tournament file").format(path=shown(path))) from None
    return Tournament.from_data(data)
