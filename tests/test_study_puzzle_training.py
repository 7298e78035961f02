"""Puzzles as a trainer: Glicko-2 ratings (Glickman's worked example; lichess's parameters),
the puzzle a newcomer gets first, themes read from the solution through the real CLI, the shape of
the shipped sets (depth, spacing), puzzles from a player's own game (the function a review calls
and ``puzzles mine``), and OpenTafl puzzle files with hostile ones."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from tafl_desktop.ai.prover import prove_unique
from tafl_desktop.core.game import Game, Side
from tafl_desktop.core.game_tree import GameTree
from tafl_desktop.core.record import save_game
from tafl_desktop.core.variants import find_variant
from tafl_desktop.study.generator import MIN_GAP, balance, game_and_ply, is_long, space_out
from tafl_desktop.study.my_games import mine_game, puzzle_from_mistake
from tafl_desktop.study.puzzles import LIST_KEYS, PuzzleError, all_puzzles, check_puzzle, shipped_sets
from tafl_desktop.study.rating import (
    MAX_DEVIATION,
    MIN_DEVIATION,
    Glicko,
    choose_puzzle,
    glicko2_update,
    play,
)
from tafl_desktop.study.record_puzzles import check_record_puzzle, main_line_depth, read_record_puzzle, split_hints
from tafl_desktop.study.themes import THEMES, detect_themes

BRANDUBH = find_variant("brandubh")
CLI = [sys.executable, "-m", "tafl_desktop"]


# ------------------------------------------------------------------------------------ ratings
def test_glicko2_matches_glickmans_worked_example():
    """Glickman, "Example of the Glicko-2 system" (2012): a 1500/200/0.06 player beats 1400/30 and
    loses to 1550/100 and 1700/300 with tau 0.5 -> 1464.06, 151.52, 0.05999."""
    games = [(Glicko(1400, 30), 1.0), (Glicko(1550, 100), 0.0), (Glicko(1700, 300), 0.0)]
    r, d, v = glicko2_update(Glicko(1500, 200, 0.06), games, tau=0.5)
    assert (round(r, 2), round(d, 2), round(v, 5)) == (1464.05, 151.52, 0.06000)
    # away from 1500 step 5 must use the deviation, not the rating (computed independently)
    r, d, v = glicko2_update(Glicko(1800, 120, 0.06), games, tau=0.5)
    assert (round(r, 2), round(d, 2), round(v, 6)) == (1721.13, 111.33, 0.060008)


def test_an_attempt_moves_player_and_puzzle_apart_within_lichess_bounds():
    now = 1_000_000.0
    player, puzzle = Glicko(), Glicko(1200, 200)
    won, puzzle_lost = play(player, puzzle, True, now)
    assert won.rating > 1500 and puzzle_lost.rating < 1200 and won.deviation < 500 and won.at == now
    lost, puzzle_won = play(player, puzzle, False, now)
    assert lost.rating < 1500 and puzzle_won.rating > 1200
    assert won.shown().endswith("?")  # provisional while the deviation is 110 or more
    settled = Glicko(1600, MIN_DEVIATION, 0.06, now)
    assert settled.shown() == "1600"
    # an absent player's rating grows uncertain again: about 60 -> 110 in a year (lichess's rate)
    later = Glicko(1600, 60, 0.06, now).live_deviation(now + 365 * 86400)
    assert 100 < later < 120 and Glicko(1600, 490, 0.09, now).live_deviation(now + 10**9) == MAX_DEVIATION


def test_a_newcomer_gets_the_easiest_shortest_puzzle_then_the_rating_leads():
    puzzles = [{"id": "a", "rating": 1800, "plies": 5}, {"id": "b", "rating": 900, "plies": 3},
               {"id": "c", "rating": 900, "plies": 1}, {"id": "d", "rating": 1550, "plies": 3}]
    assert choose_puzzle(puzzles, Glicko(), set(), {})["id"] == "c"
    assert choose_puzzle(puzzles, Glicko(1500), {"c"}, {})["id"] == "d"
    assert choose_puzzle(puzzles, Glicko(1750), {"c"}, {})["id"] == "a"
    moved = {"a": Glicko(1400)}  # a puzzle's own rating, as attempts moved it, counts
    assert choose_puzzle(puzzles, Glicko(1420), {"c"}, moved)["id"] == "a"


def test_the_shipped_newcomer_puzzle_is_short_and_easy():
    first = choose_puzzle(all_puzzles(), Glicko(), set(), {})
    assert first["plies"] == 1 and first["difficulty"] == 1


# ------------------------------------------------------------------------------------- themes
def test_themes_are_read_from_the_solution():
    rules = BRANDUBH.make_rules()
    pos = rules.parse_position("/7/3t3/7/2tKt2/7/7/7/", Side.DEFENDERS)  # two escape routes at once
    proof = prove_unique(rules, pos, 5)
    from tafl_desktop.ai.prover import main_line

    line = main_line(rules, pos, proof.tree)
    assert detect_themes(rules, pos, line, proof.tree, "king_escaped") == ["escape", "double_threat", "short"]
    one = rules.parse_position("/7/7/7/K6/7/t6/3t3/", Side.DEFENDERS)
    proof1 = prove_unique(rules, one, 3)
    assert detect_themes(rules, one, ["a4-a7"], proof1.tree, "king_escaped") == ["escape", "one_move"]


def _single_answers(rules, pos, first_move):
    """The winner's moves that win at once against every defence to ``first_move`` from ``pos``,
    and whether the prover finds a win within two plies after it: every defence the rules allow
    is tried (not only the solution tree's), each answer asked of the prover at zero plies."""
    from tafl_desktop.ai.prover import Prover

    winner = rules.side_to_move(pos)
    prover = Prover(rules, winner)
    after = rules.play(pos, rules.parse_move(pos, first_move))[0]
    common = None
    for defence in rules.legal_moves(after):
        defended = rules.play(after, defence)[0]
        if rules.outcome(defended) is not None:
            continue
        wins = {m for m in rules.legal_moves(defended) if prover.wins(rules.play(defended, m)[0], 0)}
        common = wins if common is None else common & wins
    return common or set(), prover.wins(after, 2)


def test_a_double_threat_has_no_single_answer_to_every_defence():
    """Issue 42, item 2: brandubh-0040 was tagged a double threat because its tree answers most
    defences with c7-a7 and a few with c7-g7, yet c7-a7 wins against every one of them.  Every
    shipped three-ply Brandubh puzzle now carries the tag exactly when the prover wins after the
    first move within two plies and no single move wins at once against every legal defence."""
    rules = BRANDUBH.make_rules()
    brandubh = next(s for s in shipped_sets() if s.variant == "brandubh")
    by_id = {pz["id"]: pz for pz in brandubh.puzzles}
    pz = by_id["brandubh-0040"]
    pos = rules.parse_position(pz["position"], Side.DEFENDERS)
    answers, forced = _single_answers(rules, pos, pz["solution"][0])
    assert forced and {rules.move_text(m) for m in answers} == {"c7-a7"}
    assert "double_threat" not in pz["themes"]
    checked = tagged = 0
    for pz in brandubh.puzzles:
        if pz["plies"] != 3:
            continue
        side = Side.DEFENDERS if pz["to_move"] == "defenders" else Side.ATTACKERS
        pos = rules.parse_position(pz["position"], side)
        answers, forced = _single_answers(rules, pos, pz["solution"][0])
        assert ("double_threat" in pz["themes"]) == (forced and not answers), pz["id"]
        checked += 1
        tagged += "double_threat" in pz["themes"]
    assert checked >= 20 and tagged >= 5


def test_a_shield_wall_capture_is_a_theme():
    """Copenhagen's shield wall (source 003, as pinned in test_tafl_toggles_capture.py): the row d1-f1
    faced by attackers and bracketed by c1 and g1 goes at once; d1 and e1 are not beside g1, so
    only a shield wall took them."""
    variant = find_variant("copenhagen")
    rules = variant.make_rules()
    pos = rules.parse_position("/11/11/11/11/11/5K5/6t4/11/11/3ttt5/2tTTT5/", Side.ATTACKERS)
    _after, caps = rules.play(pos, rules.parse_move(pos, "g5-g1"))
    assert len(caps) == 3
    assert "shield_wall" in detect_themes(rules, pos, ["g5-g1"], {}, "")
    plain = rules.parse_position("/11/11/11/11/11/5K5/6t4/11/11/11/4tT5/", Side.ATTACKERS)
    assert "shield_wall" not in detect_themes(rules, plain, ["g5-g1"], {}, "")


def test_list_json_keeps_its_keys_and_gains_themes_through_the_real_cli():
    out = subprocess.run([*CLI, "puzzles", "list", "--json"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)
    assert rows and all(all(k in row for k in (*LIST_KEYS, "themes")) for row in rows)
    assert all(isinstance(row["themes"], list) and set(row["themes"]) <= set(THEMES) for row in rows)
    seen = Counter(t for row in rows for t in row["themes"])
    for theme in ("escape", "capture_king", "double_threat", "fort", "trap", "dablot_ranks", "long"):
        assert seen[theme] > 0, seen
    only = subprocess.run([*CLI, "puzzles", "list", "--theme", "double_threat", "--json"], capture_output=True,
                          text=True, timeout=300)
    picked = json.loads(only.stdout)
    assert picked and all("double_threat" in row["themes"] for row in picked) and len(picked) < len(rows)


# ----------------------------------------------------------------------------- the sets' shape
def test_every_set_is_half_long_and_spaced_out():
    """At least half of each set three moves of the winner or longer, and no two puzzles of one
    game within a few plies."""
    for pset in shipped_sets():
        long_ = sum(1 for pz in pset.puzzles if is_long(pz))
        assert pset.puzzles, pset.variant
        assert 2 * long_ >= len(pset.puzzles), (pset.variant, long_, len(pset.puzzles))
        plies: dict[str, list[int]] = {}
        for pz in pset.puzzles:
            game, ply = game_and_ply(pz["source"])
            plies.setdefault(game, []).append(ply)
        for game, ks in plies.items():
            ks.sort()
            assert all(b - a >= MIN_GAP for a, b in zip(ks, ks[1:], strict=False)), (pset.variant, game, ks)


def test_every_set_was_proved_under_the_rules_in_force():
    """A set's stamp names the preset's rules and the prover version its proofs were made with: a
    rule corrected since, or a set mined under other rules, shows here (``puzzles generate V
    --seconds 0`` re-proves it)."""
    from tafl_desktop.core.variants import find_variant
    from tafl_desktop.study.generator import proof_stamp

    stale = {pset.variant: pset.scanned.get("proved_under") for pset in shipped_sets()
             if pset.scanned.get("proved_under") != proof_stamp(find_variant(pset.variant))}
    assert stale == {}


def test_sets_cover_the_presets_with_games_or_self_play():
    """Every preset has a set (from its real games, or the app's self-play or composed endgames)."""
    from tafl_desktop.core.variants import presets

    have = {pset.variant for pset in shipped_sets()}
    assert set(presets()) - have == set()


def test_spacing_and_balance_keep_the_longest_and_the_newcomers():
    def pz(i, plies, ply, game="g", difficulty=1):
        return {"id": f"x-{i}", "plies": plies, "difficulty": difficulty, "source": f"{game} ply {ply}",
                "rating": 100 * i}

    spaced = space_out([pz(1, 1, 20), pz(2, 5, 16), pz(3, 3, 18), pz(4, 1, 40), pz(5, 3, 60, "h")])
    assert [p["id"] for p in spaced] == ["x-2", "x-4", "x-5"]
    mixed = [pz(i, 1, 10 * i, f"g{i}") for i in range(1, 7)] + [pz(7, 3, 0, "a"), pz(8, 5, 0, "b"), pz(9, 5, 0, "c")]
    kept = balance(mixed)
    assert sum(1 for p in kept if is_long(p)) * 2 >= len(kept) and {"x-1", "x-8", "x-9"} <= {p["id"] for p in kept}


# -------------------------------------------------------------------------- the player's games
def _missed_win_game(tmp_path):
    """A Brandubh game from a shipped three-move puzzle's position where the defenders play
    another move first (they missed the win)."""
    pz = next(p for p in all_puzzles() if p["variant"] == "brandubh" and p["plies"] == 5 and p["winner"] == "defenders")
    rules = BRANDUBH.make_rules()
    start = rules.parse_position(pz["position"], Side.DEFENDERS)
    game = Game(rules, start)
    other = next(m for m in rules.legal_moves(start) if rules.move_text(m) != pz["solution"][0]
                 and rules.outcome(rules.play(start, m)[0]) is None)
    game.play(other)
    game.play(rules.legal_moves(game.position)[0])
    path = tmp_path / "mine.tafl.json"
    save_game(game, path)
    return pz, game, path


def test_a_reviewed_mistake_becomes_a_puzzle(tmp_path):
    pz, game, _path = _missed_win_game(tmp_path)
    made = puzzle_from_mistake(game, 1, pz["solution"][0])
    assert made is not None and made["solution"][0] == pz["solution"][0] and made["plies"] == pz["plies"]
    assert check_puzzle(made) is None and made["themes"] and made["source"].endswith("ply 0")
    assert puzzle_from_mistake(game, 1, game.rules.move_text(game.plies[0].move)) is None  # not the win
    with pytest.raises(PuzzleError):
        puzzle_from_mistake(game, 99, pz["solution"][0])
    with pytest.raises(PuzzleError):
        puzzle_from_mistake(game, 1, "a1-a1")
    assert [p["id"] for p in mine_game(game)][:1] == [made["id"]]


def test_puzzles_mine_through_the_real_cli(tmp_path):
    pz, _game, path = _missed_win_game(tmp_path)
    out = tmp_path / "my.json"
    run = subprocess.run([*CLI, "puzzles", "mine", str(path), "--out", str(out), "--json"], capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    got = json.loads(run.stdout)
    assert got["added"] >= 1 and got["out"] == str(out)
    again = json.loads(subprocess.run([*CLI, "puzzles", "mine", str(path), "--out", str(out), "--json"],
                                      capture_output=True, text=True, timeout=300).stdout)
    assert again["added"] == 0  # the same game adds nothing twice
    check = subprocess.run([*CLI, "puzzles", "check", "--file", str(out)], capture_output=True, text=True, timeout=300)
    assert check.returncode == 0, check.stderr
    bad = tmp_path / "bad.tafl.json"
    bad.write_text("{not json", encoding="utf-8")
    fail = subprocess.run([*CLI, "puzzles", "mine", str(bad), "--out", str(out)], capture_output=True, text=True,
                          timeout=120)
    assert fail.returncode == 1 and fail.stderr.count("\n") == 1 and "Traceback" not in fail.stderr
    assert json.loads(out.read_text())["puzzles"]  # nothing lost


def test_puzzles_mine_keeps_what_the_readable_games_gave(tmp_path):
    """One unreadable game among several is named in one line; the puzzles of the others are still
    added (exit 1 says not every game was mined), and an even --max-plies is refused in one line."""
    _pz, _game, good = _missed_win_game(tmp_path)
    bad = tmp_path / "broken.tafl.json"
    bad.write_text("{not json", encoding="utf-8")
    out = tmp_path / "my.json"
    run = subprocess.run([*CLI, "puzzles", "mine", str(bad), str(good), "--out", str(out)], capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 1 and run.stderr.count("\n") == 1 and "broken.tafl.json" in run.stderr, run.stderr
    assert "Traceback" not in run.stderr and "mine.tafl.json: " in run.stdout
    assert json.loads(out.read_text(encoding="utf-8"))["puzzles"]  # the good game's puzzles were kept
    as_json = subprocess.run([*CLI, "puzzles", "mine", str(good), str(bad), "--out", str(out), "--json"],
                             capture_output=True, text=True, timeout=300)
    got = json.loads(as_json.stdout)
    assert as_json.returncode == 1 and [g.get("error") is None for g in got["games"]] == [True, False]
    assert got["found"] >= 1 and got["added"] == 0  # the same game adds nothing twice
    for plies in ("4", "2"):
        even = subprocess.run([*CLI, "puzzles", "mine", str(good), "--out", str(out), "--max-plies", plies],
                              capture_output=True, text=True, timeout=120)
        assert even.returncode == 1 and even.stderr.count("\n") == 1 and "odd" in even.stderr, even.stderr
    alone = subprocess.run([*CLI, "puzzles", "mine", str(bad), "--out", str(tmp_path / "none.json")],
                           capture_output=True, text=True, timeout=120)
    assert alone.returncode == 1 and not (tmp_path / "none.json").exists()  # a run that only failed makes nothing
    assert "added" not in alone.stdout, alone.stdout  # and does not claim to have added to it


#: Runs the command line with Qt made unimportable (``import PySide6`` raises ImportError).
NO_QT = [sys.executable, "-c", "import sys; sys.modules['PySide6'] = None; from tafl_desktop.cli import main; "
         "sys.exit(main(sys.argv[1:]))"]


@pytest.mark.parametrize("xdg", [True, False])
def test_puzzles_mine_runs_without_qt_into_the_windows_folder(tmp_path, xdg):
    """``puzzles mine`` without ``--out`` needs no Qt, and writes the set into the folder where the
    window reads it: Qt's AppDataLocation under the app's names (asked of Qt in another process)."""
    import os

    _pz, _game, path = _missed_win_game(tmp_path)
    home = tmp_path / "home"
    env = {k: v for k, v in os.environ.items() if k != "XDG_DATA_HOME"}
    env.update(HOME=str(home), QT_QPA_PLATFORM="offscreen", TAFL_LANG="en")
    if xdg:
        env["XDG_DATA_HOME"] = str(tmp_path / "data")
    run = subprocess.run([*NO_QT, "puzzles", "mine", str(path)], capture_output=True, text=True, timeout=300, env=env)
    assert run.returncode == 0, run.stderr
    qt = subprocess.run([sys.executable, "-c", (
        "from PySide6.QtCore import QCoreApplication, QStandardPaths\n"
        "from tafl_desktop.gui.app import APPLICATION, ORGANISATION\n"
        "QCoreApplication.setOrganizationName(ORGANISATION); QCoreApplication.setApplicationName(APPLICATION)\n"
        "print(QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation))")],
        capture_output=True, text=True, timeout=120, env=env)
    assert qt.returncode == 0, qt.stderr
    folder = Path(qt.stdout.strip())
    assert folder.is_relative_to(tmp_path / ("data" if xdg else "home"))
    written = folder / "puzzles" / "my_games.json"
    assert json.loads(written.read_text(encoding="utf-8"))["puzzles"]
    assert str(written) in run.stdout


# ----------------------------------------------------------------------- OpenTafl puzzle files
def _otg_puzzle(tmp_path, mode="strict", start="0a", extra_tags=None, name="p.otg"):
    """A Brandubh puzzle file written as OpenTafl writes records (a shipped two-move puzzle of the
    attackers, with one other defence as a variation), with puzzle tags."""
    from tafl_desktop.interop.formats import write_game
    from tafl_desktop.interop.transfer import GameTransfer

    pz = next(p for p in all_puzzles() if p["variant"] == "brandubh" and p["plies"] == 3 and p["winner"] == "attackers")
    rules = BRANDUBH.make_rules()
    start_pos = rules.parse_position(pz["position"], Side.ATTACKERS)
    tree = GameTree(rules, start_pos)
    node = tree.root
    for text in pz["solution"]:
        node = tree.play(node, rules.parse_move(tree.position(node), text))
    first = tree.root.children[0]
    first.comment = "Right. (Hint: the king has one way out left.)"
    tree.root.comment = "Attackers to move and take the king in two. (Hint: look for the double threat.)"
    replies = [m for m in rules.legal_moves(tree.position(first)) if rules.move_text(m) != pz["solution"][1]]
    prover_tree = prove_unique(rules, start_pos, 3).tree
    other = rules.move_text(replies[0])
    answer = next(sub["move"] for names, sub in [(k, v) for k, v in prover_tree["then"]["replies"].items()]
                  if names == other)
    var = tree.play(first, replies[0])
    tree.play(var, rules.parse_move(tree.position(var), answer))
    tags = {"puzzle-mode": mode, "puzzle-start": start, **(extra_tags or {})}
    path = tmp_path / name
    write_game(GameTransfer.from_tree(tree, tags), path, "otg")
    return pz, path


def test_opentafl_addresses_name_the_position_after_the_move():
    """opentafl-notation-spec.txt (puzzle-start) and ReplayGame/MoveAddress: 0a is the start,
    1a the position after the first move, 1b after the second."""
    assert [main_line_depth(a, 30) for a in ("0a", "1a", "1b", "6a", "6b")] == [0, 1, 2, 11, 12]
    for bad in ("0b", "7c", "", "a1", "1a.2.1a", "99a", "-1a", "1" * 40 + "a"):
        with pytest.raises(PuzzleError):
            main_line_depth(bad, 30)
    assert split_hints("Good. (Hint: the corner.) Then (hint: twice)") == ("Good. Then", ["the corner.", "twice"])


def test_an_opentafl_puzzle_is_read_and_its_claim_proved(tmp_path):
    pz, path = _otg_puzzle(tmp_path)
    puzzle = read_record_puzzle(path)
    assert puzzle.mode == "strict" and puzzle.start.depth == 0 and puzzle.variant.id == "brandubh"
    assert [puzzle.rules.move_text(n.move) for n in puzzle.main_line()] == pz["solution"]
    assert puzzle.hints(puzzle.tree.root) == ["look for the double threat."]
    report = check_record_puzzle(path)
    assert report["proof"] == {"status": "proved", "plies": 3, "unique": True, "first": [pz["solution"][0]]}
    run = subprocess.run([*CLI, "puzzles", "check", "--file", str(path)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0 and "proved: a forced win in 3 plies, only by " + pz["solution"][0] in run.stdout
    later, path2 = _otg_puzzle(tmp_path, start="1a", name="q.otg")
    assert read_record_puzzle(path2).start.depth == 1 and read_record_puzzle(path2).solver == Side.DEFENDERS


@pytest.mark.parametrize(("tags", "says"), [
    ({"puzzle-start": "9a"}, "past the record's last move"),
    ({"puzzle-start": "2a"}, "already over"),
    ({"puzzle-start": "x"}, "not a move address"),
    ({"puzzle-prestart": "1b", "puzzle-start": "1a"}, "prestart comes after"),
    ({"puzzle-mode": "maybe"}, "not an OpenTafl puzzle"),
])
def test_hostile_opentafl_puzzles_are_one_line(tmp_path, tags, says):
    _pz, path = _otg_puzzle(tmp_path, extra_tags=tags)
    with pytest.raises(PuzzleError, match=says):
        read_record_puzzle(path)
    run = subprocess.run([*CLI, "puzzles", "check", "--file", str(path)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 1 and run.stderr.count("\n") == 1 and says in run.stderr


def test_broken_puzzle_files_are_one_line(tmp_path):
    _pz, good = _otg_puzzle(tmp_path)
    text = good.read_text(encoding="utf-8")
    cases = {"garbage.otg": b"\x00\xff\xfe garbage", "norules.otg": text.replace("[rules:", "[nules:").encode(),
             "badmove.otg": text.replace("1. ", "1. z9-z10 ").encode(), "empty.otg": b"",
             "huge.otg": b"[puzzle-mode:loose]\n" + b"[x:" + b"y" * 3_000_000 + b"]\n"}
    for name, data in cases.items():
        path = tmp_path / name
        path.write_bytes(data)
        with pytest.raises(PuzzleError):
            read_record_puzzle(path)
        run = subprocess.run([*CLI, "puzzles", "check", "--file", str(path)], capture_output=True, text=True,
                             timeout=120)
        assert run.returncode == 1 and run.stderr.count("\n") == 1 and "Traceback" not in run.stderr, name
    shadow = copy.deepcopy(text)
    assert shadow == good.read_text(encoding="utf-8")  # the good file is untouched
