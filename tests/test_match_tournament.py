"""Issue 45, item 4: club tournaments: pairings, results, standings with the WTF's tie-breaks.

No published World Tafl Federation standings are in the project's reference folder, so the
standings are checked against tournaments worked out by hand (in the comments), one for each
tie-break in the WTF's order (aagenielsen.dk ``wtfturnering2020.php``/``2024.php``, summarised in
``turn2-research.md`` 1.1, and issue 45): direct comparison, then Sonneborn-Berger, then the
shortest win.  Results are entered as a club would (``tournament result``, or read from a saved
game's file) through the real CLI, and the tournament's one file reopens.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tafl_desktop.match import tournament as tm

ROOT = Path(__file__).resolve().parents[1]


def play_round_robin(t: tm.Tournament, score: dict[tuple[str, str], float]) -> None:
    """Pair every round and enter results giving the first named player ``score`` points of the
    pairing's games (2: both won; 1.5: a win and a draw; 1: a win each, as the attackers...)."""
    names = [p.name for p in t.players]
    while len(t.rounds) < t.rounds_planned:
        rnd = t.pair_next()
        for table, p in enumerate(rnd.pairings, 1):
            a, b = names[p.a], names[p.b]
            s = score[(a, b)] if (a, b) in score else len(p.games) - score[(b, a)]
            first = p.a  # the player whose points are ``s``
            per_game = {2: [1, 1], 1.5: [1, 0.5], 1: [1, 0], 0.5: [0.5, 0], 0: [0, 0]}[s] if len(p.games) == 2 \
                else [s]
            if s == 1 and len(p.games) == 2:  # a win each: each wins as the attackers
                per_game = [1.0 if p.games[0].attackers == first else 0.0, 1.0 if p.games[1].attackers == first
                            else 0.0]
            for k, (g, pts) in enumerate(zip(p.games, per_game, strict=True), 1):
                if pts == 0.5:
                    result = "draw"
                else:
                    winner = first if pts == 1 else (p.b if first == p.a else p.a)
                    result = "attackers" if g.attackers == winner else "defenders"
                t.enter(rnd.number, table, k, result, plies=40)


def test_direct_comparison_decides_a_tie_before_sonneborn_berger():
    # E 4 = F 4, E beat F 1.5-0.5; G 3.5, H 0.5.
    # SB(E) = 1.5*4 (F) + 0.5*3.5 (G) + 2*0.5 (H) = 8.75; SB(F) = 0.5*4 + 2*3.5 + 1.5*0.5 = 9.75
    # so F has the better Sonneborn-Berger, but E the better direct comparison: E first
    t = tm.Tournament("direct", "round-robin", [tm.Player(n, 1800) for n in "EFGH"], 3)
    play_round_robin(t, {("E", "F"): 1.5, ("E", "G"): 0.5, ("E", "H"): 2, ("F", "G"): 2, ("F", "H"): 1.5,
                         ("G", "H"): 2})
    table = t.standings()
    assert [(r["name"], r["points"], r["direct"], r["sonneborn_berger"]) for r in table] == [
        ("E", 4.0, 1.5, 8.75), ("F", 4.0, 0.5, 9.75), ("G", 3.5, 0.0, pytest.approx(3.5 * 0 + 1.5 * 4 + 2 * 0.5)),
        ("H", 0.5, 0.0, 0.5 * 4)]


def test_sonneborn_berger_decides_a_tie_the_direct_comparison_leaves():
    # A 4 = B 4, 1-1 between them; C 2.5, D 1.5 (C beat D 1.5-0.5)
    # SB(A) = 1*4 + 2*2.5 + 1*1.5 = 10.5; SB(B) = 1*4 + 1*2.5 + 2*1.5 = 9.5: A first, though B is
    # rated higher
    players = [tm.Player("A", 1700), tm.Player("B", 2000), tm.Player("C", 1800), tm.Player("D", 1900)]
    t = tm.Tournament("sb", "round-robin", players, 3)
    play_round_robin(t, {("A", "B"): 1, ("A", "C"): 2, ("A", "D"): 1, ("B", "C"): 1, ("B", "D"): 2,
                         ("C", "D"): 1.5})
    table = t.standings()
    assert [(r["name"], r["points"], r["direct"], r["sonneborn_berger"]) for r in table[:2]] == [
        ("A", 4.0, 1.0, 10.5), ("B", 4.0, 1.0, 9.5)]
    assert [r["name"] for r in table] == ["A", "B", "C", "D"]


def test_the_shortest_win_decides_what_points_direct_comparison_and_sb_leave():
    # three players, one game a pairing, a bye each (1 point); X beat Y in 30 plies, Y beat Z in
    # 50, Z beat X in 40: 2 points each, direct 1 each, SB 2 each: X (30), Z (40), Y (50)
    t = tm.Tournament("short", "round-robin", [tm.Player(n) for n in "XYZ"], 3, games_per_pairing=1)
    length = {frozenset("XY"): 30, frozenset("YZ"): 50, frozenset("XZ"): 40}
    winner = {frozenset("XY"): "X", frozenset("YZ"): "Y", frozenset("XZ"): "Z"}
    names = [p.name for p in t.players]
    while len(t.rounds) < t.rounds_planned:
        rnd = t.pair_next()
        assert rnd.bye is not None
        for table, p in enumerate(rnd.pairings, 1):
            g = p.games[0]
            key = frozenset((names[p.a], names[p.b]))
            t.enter(rnd.number, table, 1, "attackers" if names[g.attackers] == winner[key] else "defenders",
                    length[key])
    table = t.standings()
    assert [(r["name"], r["points"], r["direct"], r["sonneborn_berger"], r["shortest_win"]) for r in table] == [
        ("X", 2.0, 1.0, 2.0, 30), ("Z", 2.0, 1.0, 2.0, 40), ("Y", 2.0, 1.0, 2.0, 50)]


@pytest.mark.parametrize("n", [4, 5, 6, 7])
def test_a_round_robin_pairs_everyone_once_with_colours_balanced(n):
    t = tm.Tournament("rr", "round-robin", [tm.Player(f"P{i}") for i in range(n)],
                      tm.rounds_for("round-robin", n, None), games_per_pairing=1)
    byes = []
    while len(t.rounds) < t.rounds_planned:
        rnd = t.pair_next()
        byes.append(rnd.bye)
        for table, _p in enumerate(rnd.pairings, 1):
            t.enter(rnd.number, table, 1, "draw")
    met = sorted(tuple(sorted((p.a, p.b))) for r in t.rounds for p in r.pairings)
    assert met == list(itertools.combinations(range(n), 2))
    if n % 2:
        assert sorted(byes) == list(range(n))
    for attackers, defenders in t.colour_counts():
        assert abs(attackers - defenders) <= 1 + (n % 2)


def test_monrad_pairs_by_score_without_rematches_and_one_bye_each():
    t = tm.Tournament("swiss", "monrad", [tm.Player(f"P{i}", 2000 - 10 * i) for i in range(7)], 4,
                      games_per_pairing=1)
    for _r in range(4):
        rnd = t.pair_next()
        for table, p in enumerate(rnd.pairings, 1):  # the higher rated always wins
            winner = min(p.a, p.b)
            t.enter(rnd.number, table, 1, "attackers" if p.games[0].attackers == winner else "defenders", 20)
    pairs = [frozenset((p.a, p.b)) for r in t.rounds for p in r.pairings]
    assert len(pairs) == len(set(pairs)), "no rematch"
    # the attackers went to the player who had had them less often before that round
    counts = [0] * 7
    for r in t.rounds:
        for p in r.pairings:
            g = p.games[0]
            assert counts[g.attackers] <= counts[g.defenders]
        for p in r.pairings:
            counts[p.games[0].attackers] += 1
    for attackers, defenders in t.colour_counts():
        assert abs(attackers - defenders) <= 2
    byes = [r.bye for r in t.rounds]
    assert len(set(byes)) == 4 and byes[0] == 6  # the lowest ranked first
    # round 2 pairs the round-1 winners among themselves first
    winners_1 = {min(p.a, p.b) for p in t.rounds[0].pairings}
    assert {t.rounds[1].pairings[0].a, t.rounds[1].pairings[0].b} <= winners_1 | {6}
    with pytest.raises(tm.TournamentError):
        t.pair_next()


def cli(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, "-m", "tafl_desktop", "tournament", *args], capture_output=True,
                          text=True, timeout=60, env=env, cwd=ROOT)


def test_a_club_runs_it_from_the_command_line_and_the_file_reopens(tmp_path):
    from tafl_desktop.core.game import Game
    from tafl_desktop.core.record import save_game
    from tafl_desktop.core.variants import find_variant

    path = tmp_path / "club.json"
    made = cli("new", str(path), "--name", "Club night", "--variant", "brandubh", "--player", "Ann=1900",
               "--player", "Bo=1800", "--games-per-pairing", "1")
    assert made.returncode == 0, made.stderr
    paired = cli("pair", str(path))
    assert paired.returncode == 0, paired.stderr
    t = tm.load(path)
    g = t.rounds[0].pairings[0].games[0]
    attackers, defenders = t.players[g.attackers].name, t.players[g.defenders].name
    assert f"{attackers} (attackers) - {defenders} (defenders)" in paired.stdout
    # the game, played and saved with the players' names, gives the result
    rules = find_variant("brandubh").make_rules()
    game = Game(rules)
    for move in "d1-c1 d3-e3".split():
        game.play_text(move)
    from tafl_desktop.core.game import Side

    game.resign(Side.DEFENDERS, "resigned")
    record = tmp_path / "round1.tafl.json"
    save_game(game, record, {"attackers": attackers, "defenders": defenders})
    entered = cli("result", str(path), "--game-file", str(record))
    assert entered.returncode == 0, entered.stderr
    shown = cli("standings", str(path), "--json")
    assert shown.returncode == 0, shown.stderr
    table = json.loads(shown.stdout)["standings"]
    assert [(r["name"], r["points"], r["shortest_win"]) for r in table] == [(attackers, 1.0, 2), (defenders, 0.0, None)]
    again = tm.load(path)  # one file that reopens, with everything
    assert again.name == "Club night" and again.variant == "brandubh"
    assert again.rounds[0].pairings[0].games[0].result == "attackers"
    # the same game again: nothing left to enter it for; a damaged file, a clash: one line each
    for args, words in ((("result", str(path), "--game-file", str(record)), "no unplayed game"),
                        (("new", str(path), "--player", "X=1", "--player", "Y=2"), "exists"),
                        (("pair", str(tmp_path / "missing.json")), "missing.json"),
                        (("new", str(tmp_path / "n.json"), "--player", "Solo=1500"), "two players"),
                        (("new", str(tmp_path / "n.json"), "--player", "Ann=abc", "--player", "B"), "Ann=abc")):
        proc = cli(*args)
        assert proc.returncode != 0 and "Traceback" not in proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1 and words in proc.stderr, proc.stderr
    (tmp_path / "bad.json").write_text('{"format": "tafl-desktop-tournament", "players": 3}')
    proc = cli("standings", str(tmp_path / "bad.json"))
    assert proc.returncode != 0 and len(proc.stderr.strip().splitlines()) == 1 and "damaged" in proc.stderr
    assert tm.load(path).rounds[0].pairings[0].games[0].result == "attackers"  # untouched


# ------------------------------------------------------------------------------------ WTF groups, double elimination
RATED = [tm.Player(f"P{k}", 2100 - 100 * k) for k in range(1, 9)]  # P1 2000 ... P8 1300


def settle(t: tm.Tournament, rnd: tm.Round, winner: dict[frozenset[str], tuple[str, int]]) -> None:
    """Enter a round: the named winner of each pairing wins all its games, in the plies given
    (a pairing not listed: the higher rated wins, in 60 plies)."""
    names = [p.name for p in t.players]
    for table, p in enumerate(rnd.pairings, 1):
        key = frozenset((names[p.a], names[p.b]))
        name, plies = winner.get(key, (names[min(p.a, p.b)], 60))  # P1 before P8: the higher rated
        for k, g in enumerate(p.games, 1):
            t.enter(rnd.number, table, k, "attackers" if names[g.attackers] == name else "defenders", plies)


def test_wtf_groups_snake_seeding_qualification_by_tie_breaks_and_the_knockout():
    # The WTF's championship format (aagenielsen.dk wtfturnering2020.php/2024.php; issue 45):
    # groups seeded by rating, two qualify per group, then a knock-out.  Worked by hand:
    # snake seeding of P1..P8 into two groups: A = P1 P4 P5 P8, B = P2 P3 P6 P7.
    t = tm.Tournament("wtf", "wtf-groups", list(RATED), 0)
    t.make_groups(2)
    names = [p.name for p in t.players]
    assert [[names[i] for i in g] for g in t.groups] == [["P1", "P4", "P5", "P8"], ["P2", "P3", "P6", "P7"]]
    # group A: a cycle P1 > P4 > P5 > P1 (2-0 each, in 30, 50, 40 plies), all beat P8:
    # P1, P4, P5 have 4 points; direct comparison 2 each; Sonneborn-Berger 2*4 = 8 each; the
    # shortest win orders them P1 (30), P5 (40), P4 (50): P1 and P5 qualify.  Group B by rating.
    cycle = {frozenset(("P1", "P4")): ("P1", 30), frozenset(("P4", "P5")): ("P4", 50),
             frozenset(("P1", "P5")): ("P5", 40)}
    for _number in range(1, 4):
        rnd = t.pair_next()
        assert {p.stage for p in rnd.pairings} == {"group:0", "group:1"} and not rnd.resting
        settle(t, rnd, cycle)
    group_a = t.standings(t.groups[0], "group:0")
    assert [(r["name"], r["points"], r["direct"], r["sonneborn_berger"], r["shortest_win"]) for r in group_a] == [
        ("P1", 4.0, 2.0, 8.0, 30), ("P5", 4.0, 2.0, 8.0, 40), ("P4", 4.0, 2.0, 8.0, 50), ("P8", 0.0, 0.0, 0.0, None)]
    assert [r["name"] for r in t.standings(t.groups[1], "group:1")] == ["P2", "P3", "P6", "P7"]
    # the knock-out: A1-B2 and B1-A2
    ko = t.pair_next()
    assert [(names[p.a], names[p.b], p.stage) for p in ko.pairings] == [("P1", "P3", "knockout"),
                                                                         ("P2", "P5", "knockout")]
    settle(t, ko, {})
    final = t.pair_next()
    assert [(names[p.a], names[p.b]) for p in final.pairings] == [("P1", "P2")]
    settle(t, final, {})
    assert t.finished and names[t.champion()] == "P1"
    with pytest.raises(tm.TournamentError, match="finished"):
        t.pair_next()
    # the final table: the champion, the finalist, the semi-finalists (P5 before P3: equal on 4
    # points and direct comparison, but SB(P5) = 2*8 (beat P1) = 16 against SB(P3) = 2*2 (beat
    # P6) = 4), then the rest by points (P7, P8 on 0: the higher rated first)
    assert [r["name"] for r in t.standings()] == ["P1", "P2", "P5", "P3", "P4", "P6", "P7", "P8"]
    again = tm.Tournament.from_data(json.loads(json.dumps(t.to_data())))
    assert again.groups == t.groups and names[again.champion()] == "P1"


def test_double_elimination_a_hand_worked_bracket_with_a_reset_final():
    # out after two lost matches; worked by hand for P1..P4:
    # R1 winners: P1-P4 (P1), P2-P3 (P3 upsets);  R2 winners: P1-P3 (P3), losers: P2-P4 (P2; P4 out)
    # R3 losers: P1-P2 (P1; P2 out), P3 waits;  R4 grand final P3-P1: P1 wins, both have one loss,
    # R5 the reset: P1 wins again (P3 out).  Champion P1.
    t = tm.Tournament("de", "double-elimination", list(RATED[:4]), 0)
    names = [p.name for p in t.players]
    upsets = {frozenset(("P2", "P3")): ("P3", 40), frozenset(("P1", "P3")): ("P3", 40)}
    expected = [[("P1", "P4", "winners"), ("P2", "P3", "winners")],
                [("P1", "P3", "winners"), ("P2", "P4", "losers")],
                [("P1", "P2", "losers")],
                [("P3", "P1", "final")],
                [("P1", "P3", "final")]]
    resting = [[], [], ["P3"], [], []]
    for k, want in enumerate(expected):
        rnd = t.pair_next()
        assert [(names[p.a], names[p.b], p.stage) for p in rnd.pairings] == want, k
        assert [names[i] for i in rnd.resting] == resting[k]
        settle(t, rnd, upsets if k < 2 else {frozenset(("P1", "P3")): ("P1", 40)})
    assert names[t.champion()] == "P1" and t.losses() == [1, 2, 2, 2]
    assert [r["name"] for r in t.standings()] == ["P1", "P3", "P2", "P4"]
    with pytest.raises(tm.TournamentError, match="finished"):
        t.pair_next()


def _random_run(t: tm.Tournament, seed: int) -> None:
    import random

    rng = random.Random(seed)
    while not t.finished:
        rnd = t.pair_next()
        for table, p in enumerate(rnd.pairings, 1):
            for k, _g in enumerate(p.games, 1):
                t.enter(rnd.number, table, k, rng.choice(tm.RESULTS), rng.randint(5, 90))
        assert len(t.rounds) < 60


@pytest.mark.parametrize("seed", range(12))
def test_wtf_groups_properties(seed):
    import random

    rng = random.Random(seed)
    n = rng.randint(4, 13)
    groups = rng.randint(1, n // 2)
    gpp = rng.choice((1, 2))
    t = tm.Tournament("p", "wtf-groups", [tm.Player(f"Q{i}", rng.randint(1000, 2400)) for i in range(n)], 0, gpp)
    t.make_groups(groups)
    sizes = sorted(len(g) for g in t.groups)
    assert sizes[-1] - sizes[0] <= 1  # the snake keeps groups even
    _random_run(t, seed)
    for r in t.rounds:  # nobody twice in a round, nor playing while resting
        seen = [x for p in r.pairings for x in (p.a, p.b)] + r.resting
        assert len(seen) == len(set(seen))
    for g, members in enumerate(t.groups):
        met = sorted(tuple(sorted((p.a, p.b))) for r in t.rounds for p in r.pairings if p.stage == f"group:{g}")
        assert met == sorted(itertools.combinations(sorted(members), 2))  # everyone once
    for r in t.rounds:
        for p in r.pairings:
            if gpp == 2:  # one game with each colour
                assert sorted((g.attackers, g.defenders) for g in p.games) == sorted([(p.a, p.b), (p.b, p.a)])
    if gpp == 1:
        for attackers, defenders in t.colour_counts():
            assert abs(attackers - defenders) <= 2
    qualified = {x for pair in t.qualifiers() for x in pair}
    in_ko = {x for r in t.rounds for p in r.pairings if p.stage == "knockout" for x in (p.a, p.b)}
    assert in_ko == qualified and len(qualified) == 2 * groups
    assert t.standings()[0]["name"] == t.players[t.champion()].name


@pytest.mark.parametrize("seed", range(12))
def test_double_elimination_properties(seed):
    import random

    rng = random.Random(100 + seed)
    n = rng.randint(2, 12)
    t = tm.Tournament("p", "double-elimination", [tm.Player(f"Q{i}", rng.randint(1000, 2400)) for i in range(n)],
                      0, rng.choice((1, 2)))
    lost = [0] * n
    _random_run(t, seed)
    for r in t.rounds:
        seen = [x for p in r.pairings for x in (p.a, p.b)] + r.resting
        assert len(seen) == len(set(seen))
        for p in r.pairings:
            assert lost[p.a] < 2 and lost[p.b] < 2  # out after two losses
            if p.stage != "final":
                assert lost[p.a] == lost[p.b]  # each bracket among itself
        for p in r.pairings:
            w = t.pairing_winner(p)
            lost[p.b if w == p.a else p.a] += 1
    assert lost == t.losses()
    assert sorted(lost) == sorted([*([2] * (n - 1)), lost[t.champion()]]) and lost[t.champion()] < 2
    matches = sum(len(r.pairings) for r in t.rounds)
    assert matches in (2 * n - 2, 2 * n - 1)  # every loss but the champion's is someone's second or first


def test_a_club_runs_wtf_groups_from_the_command_line(tmp_path):
    # Ann 2000, Bo 1900, Cy 1800, Di 1700 in two groups, snake-seeded: A = Ann, Di; B = Bo, Cy.
    # Di beats Ann, Bo beats Cy; the knock-out A1-B2 (Di-Cy), B1-A2 (Bo-Ann): Cy and Bo win;
    # the final Cy-Bo: Cy wins.  Final order Cy, Bo, then the semi-finalists by points: Di (1), Ann (0).
    path = tmp_path / "open.json"
    made = cli("new", str(path), "--system", "wtf-groups", "--groups", "2", "--games-per-pairing", "1",
               "--player", "Ann=2000", "--player", "Bo=1900", "--player", "Cy=1800", "--player", "Di=1700")
    assert made.returncode == 0, made.stderr
    wins = {frozenset(("Ann", "Di")): "Di", frozenset(("Bo", "Cy")): "Bo", frozenset(("Cy", "Di")): "Cy",
            frozenset(("Ann", "Bo")): "Bo", frozenset(("Bo", "Cy", "final")): "Cy"}
    seen = []
    for number in (1, 2, 3):
        paired = cli("pair", str(path))
        assert paired.returncode == 0, paired.stderr
        t = tm.load(path)
        rnd = t.rounds[-1]
        seen.append([(t.players[p.a].name, t.players[p.b].name) for p in rnd.pairings])
        assert ("group A" if number == 1 else "knock-out") in paired.stdout
        for table, p in enumerate(rnd.pairings, 1):
            g = p.games[0]
            key = frozenset((t.players[p.a].name, t.players[p.b].name)) | ({"final"} if number == 3 else set())
            result = "attackers" if t.players[g.attackers].name == wins[key] else "defenders"
            entered = cli("result", str(path), "--round", str(number), "--table", str(table), "--result", result,
                          "--plies", "30")
            assert entered.returncode == 0, entered.stderr
    assert seen == [[("Ann", "Di"), ("Bo", "Cy")], [("Di", "Cy"), ("Bo", "Ann")], [("Cy", "Bo")]]
    shown = cli("standings", str(path), "--json")
    data = json.loads(shown.stdout)
    assert data["champion"] == "Cy"
    assert [[r["name"] for r in g] for g in data["groups"]] == [["Di", "Ann"], ["Bo", "Cy"]]
    assert [r["name"] for r in data["standings"]] == ["Cy", "Bo", "Di", "Ann"]
    done = cli("pair", str(path))
    assert done.returncode != 0 and len(done.stderr.strip().splitlines()) == 1 and "finished" in done.stderr


def test_a_bracket_result_cannot_change_once_the_next_round_is_paired_and_a_damaged_stage_is_refused():
    t = tm.Tournament("de", "double-elimination", list(RATED[:4]), 0)
    rnd = t.pair_next()
    settle(t, rnd, {})
    t.enter(1, 1, 1, rnd.pairings[0].games[0].result)  # still the last round: may be corrected
    t.pair_next()
    with pytest.raises(tm.TournamentError, match="cannot be changed"):
        t.enter(1, 1, 1, "draw")
    assert t.rounds[0].pairings[0].games[0].result != "draw"
    data = t.to_data()
    data["rounds"][0]["pairings"][0]["stage"] = "group:x"
    with pytest.raises(tm.TournamentError, match="damaged"):
        tm.Tournament.from_data(data)
    data = t.to_data()
    data["rounds"][0]["resting"] = [99]
    with pytest.raises(tm.TournamentError, match="damaged"):
        tm.Tournament.from_data(data)
