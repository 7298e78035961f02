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
* ``wtf-groups`` (groups seeded by rating, a round robin in each, two qualify per group by
  the tie-breaks below, then a knock-out of the qualifiers) and ``double-elimination`` (out
  after two lost matches, a grand final): who meets whom is :mod:`tafl_desktop.match.brackets`.
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

from tafl_desktop.i18n import _, ngettext

FORMAT = "tafl-desktop-tournament"
VERSION = 1
SYSTEMS = ("round-robin", "monrad", "wtf-groups", "double-elimination")
#: Systems whose rounds end when one player is left, not after a planned number.
ELIMINATION = ("wtf-groups", "double-elimination")
#: Players who qualify from each group (the WTF's rule).
QUALIFY = 2
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
    #: "" (round robin, Monrad), "group:G" (group G, from 0), "knockout", "winners", "losers", "final"
    stage: str = ""


@dataclass
class Round:
    number: int
    pairings: list[Pairing] = field(default_factory=list)
    bye: int | None = None
    #: players who sit the round out without points (a group's odd one out, a bracket's wait)
    resting: list[int] = field(default_factory=list)

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
    #: the groups' players (wtf-groups), seeded by rating when the tournament is made
    groups: list[list[int]] = field(default_factory=list)
    #: the time control, as the club writes it ("25 min + 10 s a move"); printed on the score sheets
    clock: str = ""

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
                                            int(g.get("plies", 0))) for g in p["games"]], str(p.get("stage", "")))
                             for p in r["pairings"]],
                            None if r.get("bye") is None else int(r["bye"]),
                            [int(x) for x in r.get("resting", [])]) for r in data.get("rounds", [])]
            groups = [[int(x) for x in g] for g in data.get("groups", [])]
            t = cls(str(data["name"]), str(data["system"]), players, int(data["rounds_planned"]),
                    int(data.get("games_per_pairing", 2)), str(data.get("variant", "")), rounds, groups,
                    str(data.get("clock", ""))[:200])
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
        if self.system == "wtf-groups" and (sorted(x for g in self.groups for x in g) != list(range(n))
                                            or any(len(g) < QUALIFY for g in self.groups)):
            raise TournamentError(_("the tournament file is damaged: {problem}").format(problem="groups"))
        stages = {"", "knockout", "winners", "losers", "final", *(f"group:{g}" for g in range(len(self.groups)))}
        for r in self.rounds:
            for p in r.pairings:
                for g in p.games:
                    if {g.attackers, g.defenders} != {p.a, p.b} or not 0 <= p.a < n or not 0 <= p.b < n \
                            or p.stage not in stages or any(not 0 <= x < n for x in r.resting) \
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
        number = len(self.rounds) + 1
        if self.system in ELIMINATION:
            if self.finished:
                raise TournamentError(_("the tournament is finished: {name} won").format(
                    name=self.players[self.champion()].name))  # type: ignore[index]
            staged, resting = (self._group_or_knockout(number) if self.system == "wtf-groups"
                               else self._double_elimination())
            rnd = Round(number, [], None, resting)
            for k, (stage, a, b) in enumerate(staged):
                pairing = self._pairing(a, b, number, k)
                pairing.stage = stage
                rnd.pairings.append(pairing)
            self.rounds.append(rnd)
            return rnd
        if len(self.rounds) >= self.rounds_planned:
            raise TournamentError(_("all {n} rounds have been paired").format(n=self.rounds_planned))
        pairs, bye = (round_robin_round(len(self.players), number) if self.system == "round-robin"
                      else self._monrad_pairs())
        rnd = Round(number, [self._pairing(a, b, number, k) for k, (a, b) in enumerate(pairs)], bye)
        self.rounds.append(rnd)
        return rnd

    # ------------------------------------------------------------------------ groups, brackets
    def make_groups(self, count: int) -> None:
        """Seed the players into ``count`` groups by rating (snake seeding); TournamentError when
        a group would have fewer than two players."""
        from tafl_desktop.match.brackets import snake_groups

        if count < 1 or len(self.players) < QUALIFY * count:
            raise TournamentError(ngettext("{players} players cannot make {groups} group of at least two",
                                            "{players} players cannot make {groups} groups of at least two",
                                            count).format(
                players=len(self.players), groups=count))
        self.groups = snake_groups([p.rating for p in self.players], count)

    def group_rounds(self) -> int:
        """The rounds of the group stage: the largest group's round robin."""
        return max((rounds_for("round-robin", len(g), None) for g in self.groups), default=0)

    def seed(self, i: int) -> int:
        """A player's seed (0 the highest rated; ties: the earlier entry)."""
        order = sorted(range(len(self.players)), key=lambda k: (-self.players[k].rating, k))
        return order.index(i)

    def pairing_winner(self, p: Pairing) -> int | None:
        """Who won the match (None while a game is unplayed): more points, then the shorter win
        in it, then the higher seed (see :mod:`tafl_desktop.match.brackets`)."""
        if any(g.result is None for g in p.games):
            return None
        pts = {p.a: 0.0, p.b: 0.0}
        short = {p.a: 10**9, p.b: 10**9}
        for g in p.games:
            for who, score in _scores(g):
                pts[who] += score
                if score == 1.0 and g.plies:
                    short[who] = min(short[who], g.plies)
        return min((p.a, p.b), key=lambda i: (-pts[i], short[i], self.seed(i)))

    def losses(self) -> list[int]:
        """Matches lost in the brackets (knock-out and double elimination), per player."""
        lost = [0] * len(self.players)
        for r in self.rounds:
            for p in r.pairings:
                w = self.pairing_winner(p)
                if w is not None and not p.stage.startswith("group"):
                    lost[p.b if w == p.a else p.a] += 1
        return lost

    def qualifiers(self) -> list[tuple[int, int]]:
        """(winner, runner-up) of each group, by the group's standings."""
        names = {p.name: i for i, p in enumerate(self.players)}
        out = []
        for g, members in enumerate(self.groups):
            table = self.standings(members, f"group:{g}")
            out.append((names[table[0]["name"]], names[table[1]["name"]]))
        return out

    def _group_or_knockout(self, number: int) -> tuple[list[tuple[str, int, int]], list[int]]:
        from tafl_desktop.match.brackets import first_knockout, next_knockout

        staged: list[tuple[str, int, int]] = []
        resting: list[int] = []
        if number <= self.group_rounds():
            for g, members in enumerate(self.groups):
                if number > rounds_for("round-robin", len(members), None):
                    resting.extend(members)
                    continue
                pairs, bye = round_robin_round(len(members), number)
                staged.extend((f"group:{g}", members[a], members[b]) for a, b in pairs)
                if bye is not None:
                    resting.append(members[bye])
            return staged, resting
        if number == self.group_rounds() + 1:
            return [("knockout", a, b) for a, b in first_knockout(self.qualifiers())], []
        last = self.rounds[-1]
        winners = [w for p in last.pairings if (w := self.pairing_winner(p)) is not None] + last.resting
        pairs, resting = next_knockout(winners)
        return [("knockout", a, b) for a, b in pairs], resting

    def _double_elimination(self) -> tuple[list[tuple[str, int, int]], list[int]]:
        from tafl_desktop.match.brackets import pair_bracket

        lost = self.losses()
        seeds = sorted(range(len(self.players)), key=self.seed)
        winners = [i for i in seeds if lost[i] == 0]
        losers = [i for i in seeds if lost[i] == 1]
        met = {frozenset((p.a, p.b)) for r in self.rounds for p in r.pairings}
        if len(winners) + len(losers) == 2:
            a, b = (winners + losers)
            return [("final", a, b)], []
        staged: list[tuple[str, int, int]] = []
        resting: list[int] = []
        for stage, bracket in (("winners", winners), ("losers", losers)):
            pairs, waiting = pair_bracket(bracket, met) if len(bracket) > 1 else ([], bracket)
            staged.extend((stage, a, b) for a, b in pairs)
            resting.extend(waiting)
        return staged, resting

    @property
    def finished(self) -> bool:
        """Every round played: the planned rounds, or (elimination) one player left."""
        if self.rounds and not self.rounds[-1].complete:
            return False
        return self.champion() is not None if self.system in ELIMINATION else len(self.rounds) >= self.rounds_planned

    def champion(self) -> int | None:
        """The winner of a finished elimination (knock-out or double elimination), else None."""
        if not self.rounds or not self.rounds[-1].complete:
            return None
        if self.system == "double-elimination":
            alive = [i for i, n in enumerate(self.losses()) if n < 2]
            return alive[0] if len(alive) == 1 else None
        last = self.rounds[-1]
        if len(last.pairings) == 1 and not last.resting and last.pairings[0].stage == "knockout":
            return self.pairing_winner(last.pairings[0])
        return None

    def reach(self) -> list[int]:
        """How far each player got in an elimination, for the standings: the champion most, then
        the round of the last match lost (later is further); 0 for those out in a group."""
        far = [0] * len(self.players)
        for r in self.rounds:
            for p in r.pairings:
                if not p.stage.startswith("group") and p.stage:
                    far[p.a] = far[p.b] = r.number
        if self.system == "double-elimination":
            lost = self.losses()
            for i in range(len(far)):  # out after a second loss in round r; still in: later
                far[i] = far[i] if lost[i] >= 2 else len(self.rounds) + 1
        champ = self.champion()
        if champ is not None:
            far[champ] = len(self.rounds) + 2
        return far

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
        later = [p for r in self.rounds[round_number:] for p in r.pairings if not p.stage.startswith("group")]
        if self.system in ELIMINATION and later:
            raise TournamentError(_("round {n} was paired from this result: it cannot be changed now").format(
                n=self.rounds[round_number].number))
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
    def standings(self, members: list[int] | None = None, stage: str | None = None) -> list[dict[str, Any]]:
        """The table, best first: name, rating, points, direct, sonneborn_berger, shortest_win
        (plies; None without a win), games, and the place (shared places are not given: the
        tie-breaks order every tie they can).  ``members`` and ``stage`` (a pairing stage, e.g.
        ``group:0``) give one group's table from its own games; without them an elimination's
        table puts first whoever got further, then the tie-breaks over every game."""
        if members is not None or stage is not None:
            return self._sub(members, stage).standings()
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
        far = self.reach() if self.system in ELIMINATION else [0] * n
        order = sorted(range(n), key=lambda i: (-far[i], -pts[i], -direct[i], -sb[i],
                                                shortest[i] if shortest[i] is not None else 10**9,
                                                -self.players[i].rating, i))
        return [{"place": k + 1, "name": self.players[i].name, "rating": self.players[i].rating, "points": pts[i],
                 "direct": direct[i], "sonneborn_berger": sb[i], "shortest_win": shortest[i], "games": played[i]}
                for k, i in enumerate(order)]

    def _sub(self, members: list[int] | None, stage: str | None) -> Tournament:
        """The tournament of ``members`` alone, with only ``stage``'s pairings (a group's table)."""
        keep = list(range(len(self.players))) if members is None else list(members)
        index = {old: new for new, old in enumerate(keep)}
        rounds = []
        for r in self.rounds:
            pairings = [Pairing(index[p.a], index[p.b],
                                [TGame(index[g.attackers], index[g.defenders], g.result, g.plies) for g in p.games])
                        for p in r.pairings if (stage is None or p.stage == stage) and p.a in index and p.b in index]
            rounds.append(Round(r.number, pairings, index.get(r.bye) if r.bye is not None else None))
        return Tournament(self.name, "round-robin", [self.players[i] for i in keep], len(rounds),
                          self.games_per_pairing, self.variant, rounds)


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
    as asked (at most that many); an elimination its rounds as they come (0 here)."""
    full = players - 1 if players % 2 == 0 else players
    if system == "round-robin":
        return full
    if system in ELIMINATION:
        return 0
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
