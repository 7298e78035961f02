"""The study commands as a user runs them (issue 19): ``tafl-desktop analyse`` and ``tafl-desktop
review`` in a subprocess, their JSON checked against the contract, forced results taken from the
rule sources, graphs written as real PNG and PDF files, bad input answered in one line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tafl_desktop.core.game import Game
from tafl_desktop.core.record import save_game
from tafl_desktop.core.variants import find_variant

CLASSES = {"best", "good", "inaccuracy", "mistake", "blunder"}
#: A real Brandubh game (shared/reference/games/brandubh.csv): the defenders' 6th ply d4-f4 puts the
#: king between two attackers' reach, and e6-e4 captures it (attackers win).
SHORT_GAME = "d2-c2 e4-e2 d6-e6 d3-g3 f4-f5 d4-f4 e6-e4"


def cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tafl_desktop", *args], capture_output=True, text=True,
                          timeout=timeout)


def analyse_json(*args: str) -> dict:
    res = cli("analyse", *args, "--json")
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


def check_analysis_schema(data: dict, lines: int) -> None:
    """The contract's keys (``engine``: which search ran, issue 31), and exactly ``lines`` lines:
    every position these tests analyse has at least that many legal moves."""
    assert set(data) == {"lines", "nodes", "seconds", "engine"}
    assert data["engine"] in ("native", "python")
    assert isinstance(data["nodes"], int) and isinstance(data["seconds"], float)
    assert len(data["lines"]) == lines
    for line in data["lines"]:
        assert set(line) == {"moves", "score", "result_in", "winner", "depth"}
        assert line["moves"] and all(isinstance(m, str) for m in line["moves"])
        assert isinstance(line["score"], int) and isinstance(line["depth"], int) and line["depth"] >= 1
        assert (line["result_in"] is None) == (line["winner"] is None)
    scores = [line["score"] for line in data["lines"]]
    assert scores == sorted(scores, reverse=True), "best line first"
    firsts = [line["moves"][0] for line in data["lines"]]
    assert len(set(firsts)) == len(firsts), "each line starts with a different move"


@pytest.mark.parametrize("variant", ["brandubh", "fox_geese_13", "dablot_mini"])
def test_analyse_start_positions_of_every_family(variant):
    data = analyse_json(variant, "--lines", "3", "--time", "0.4")
    check_analysis_schema(data, 3)
    assert len(data["lines"]) == 3
    # every line is playable from the start, move after move
    for line in data["lines"]:
        game = Game(find_variant(variant).make_rules())
        for move in line["moves"]:
            game.play_text(move)


def test_king_one_move_from_a_corner_wins_in_one():
    # Source 002 (Winther, Tablut/Brandubh): the king wins by reaching a corner square.  King on b7,
    # the corner a7 beside it, g7 along the open top edge: a proven win in 1 ply for the defenders.
    data = analyse_json("brandubh", "--position", "/1K5/7/2t4/2t4/7/7/1t5/", "--to-move", "defenders", "--lines", "2",
                        "--time", "1")
    check_analysis_schema(data, 2)
    best = data["lines"][0]
    assert best["moves"][0] in ("b7-a7", "b7-g7")
    assert (best["result_in"], best["winner"]) == (1, "defenders")


def test_an_unstoppable_tuichi_is_a_proven_loss_for_the_side_to_move():
    # Source 001: "Tuichi" - the king has two open paths to escape, which cannot both be blocked in one
    # move.  King on e11 sees both top corners; whatever the attackers do, he escapes next ply.
    data = analyse_json("copenhagen", "--position", "/4K6/11/11/5t5/11/11/11/11/t10/t10/11/",
                        "--to-move", "attackers", "--lines", "3", "--depth", "3")
    check_analysis_schema(data, 3)
    for line in data["lines"]:
        assert (line["result_in"], line["winner"]) == (2, "defenders")
        assert line["score"] < -90_000


def test_king_captured_in_one_after_moves():
    # Source 003: Brandubh's "double weak" king is captured custodially by two attackers when away from
    # the throne.  After the real game's first six plies the king stands on f4 with an attacker on g4:
    # e6-e4 closes the other side.
    data = analyse_json("brandubh", "--moves", " ".join(SHORT_GAME.split()[:6]), "--lines", "2", "--time", "1")
    best = data["lines"][0]
    assert best["moves"][0] == "e6-e4"
    assert (best["result_in"], best["winner"]) == (1, "attackers")


def test_geese_trap_the_fox_in_one():
    # hunt-games.md HG 2.6: the geese win when the fox cannot move.  With d5-d6 the fox on c7 is hemmed in
    # (the trapped position of tests/test_hunt_rules.py, one goose move before).
    data = analyse_json("fox_geese_13", "--position", "hunters=c7 flock=d7,c6,e7,e6,c5,e5,d5,c1",
                        "--to-move", "geese", "--time", "1")
    best = data["lines"][0]
    assert best["moves"][0] == "d5-d6"
    assert (best["result_in"], best["winner"]) == (1, "geese")


def test_dablot_leader_taken_in_one():
    # Source 000 / HG 1.6: a player whose leader is captured loses; only a leader takes a leader.
    data = analyse_json("dablot", "--position", "south=kc3,sa1 north=kc4,sf13", "--to-move", "saami",
                        "--time", "1")
    best = data["lines"][0]
    assert best["moves"][0] == "c3xd5"
    assert (best["result_in"], best["winner"]) == (1, "saami")


def test_analyse_follows_the_rule_toggles():
    # Source 003: "edge win" (Tablut, Tawlbwrdd) - the king wins on reaching any edge square; "corner win"
    # (Hnefatafl) only on a corner.  King on c3 with an open line down to c1.
    pos = ["--position", "/11/11/11/11/11/11/11/11/2K3t4/11/1t9/", "--to-move", "defenders", "--lines", "1"]
    edge = analyse_json("copenhagen", *pos, "--set", "escape=edge", "--depth", "2")["lines"][0]
    assert (edge["result_in"], edge["winner"]) == (1, "defenders")
    corner = analyse_json("copenhagen", *pos, "--depth", "1")["lines"][0]
    assert corner["result_in"] is None or corner["result_in"] > 1


def test_analyse_after_moves_and_text_output():
    res = cli("analyse", "brandubh", "--moves", "d2-c2 e4-e2", "--lines", "2", "--time", "0.3")
    assert res.returncode == 0, res.stderr
    lines = res.stdout.strip().splitlines()
    assert lines[0].startswith("1. ") and "depth" in lines[0]
    assert lines[1].startswith("2. ")


@pytest.mark.parametrize("args,code,words", [
    (["brandubh", "--lines", "6"], 1, "--lines"),
    (["brandubh", "--moves", "d2-d9"], 2, "move 1"),
    (["brandubh", "--position", "/7/xx/"], 1, "--position"),
    (["no_such_game"], 1, "no_such_game"),
    (["brandubh", "--time", "0"], 2, "--time"),  # out of range at the parser, as every argument
    (["brandubh", "--nodes", "5"], 1, "--nodes"),
])
def test_analyse_bad_input_is_one_line(args, code, words):
    res = cli("analyse", *args, "--json")
    assert res.returncode == code
    assert res.stdout == ""
    assert len(res.stderr.strip().splitlines()) == 1 and words in res.stderr


@pytest.fixture
def short_game(tmp_path) -> Path:
    game = Game(find_variant("brandubh").make_rules())
    for move in SHORT_GAME.split():
        game.play_text(move)
    path = tmp_path / "short.tafl.json"
    save_game(game, path)
    return path


def test_review_json_plot_png_and_pdf(short_game, tmp_path):
    png, pdf = tmp_path / "graph.png", tmp_path / "graph.pdf"
    res = cli("review", str(short_game), "--time", "0.2", "--json", "--plot", str(png))
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    assert set(data) == {"plies", "summary"}
    moves = SHORT_GAME.split()
    assert [p["ply"] for p in data["plies"]] == list(range(1, len(moves) + 1))
    assert [p["move"] for p in data["plies"]] == moves
    for p in data["plies"]:
        assert {"ply", "move", "score", "best", "class"} <= set(p)
        assert p["class"] in CLASSES and isinstance(p["score"], int) and isinstance(p["best"], str)
    # the defenders' d4-f4 lets the king be captured next ply: a proven loss, so a blunder
    assert data["plies"][5]["class"] == "blunder" and data["plies"][5]["best"] != "d4-f4"
    # the capture itself is the winning move: best
    assert data["plies"][6]["class"] == "best"
    summary = data["summary"]
    assert summary["complete"] is True and summary["score_for"] == "defenders"
    assert summary["sides"]["attackers"]["moves"] == 4 and summary["sides"]["defenders"]["moves"] == 3
    assert summary["sides"]["defenders"]["blunder"] >= 1
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    res = cli("review", str(short_game), "--time", "0.1", "--plot", str(pdf))
    assert res.returncode == 0, res.stderr
    assert pdf.read_bytes()[:5] == b"%PDF-"
    assert "blunder" in res.stdout


def test_review_bad_input_is_one_line_and_keeps_files(short_game, tmp_path):
    broken = tmp_path / "broken.tafl.json"
    broken.write_text("{not json")
    res = cli("review", str(broken), "--json")
    assert res.returncode != 0 and res.stdout == "" and len(res.stderr.strip().splitlines()) == 1
    res = cli("review", str(short_game), "--plot", str(tmp_path / "graph.svg"))
    assert res.returncode == 1 and len(res.stderr.strip().splitlines()) == 1 and ".png or .pdf" in res.stderr
    folder = tmp_path / "folder.png"
    folder.mkdir()
    res = cli("review", str(short_game), "--time", "0.05", "--plot", str(folder), "--json")
    assert res.returncode == 1 and len(res.stderr.strip().splitlines()) == 1
    assert folder.is_dir() and not list(folder.iterdir())
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".review-")]


#: The shipped puzzle brandubh-0005: the attackers to move win in three plies (d3-d5, then b3-b5 or
#: another capture of the king whatever the defenders do); the search proves it at depth 2, past its
#: horizon, and used to print only "d3-d5 c5-b5".
PROVEN_POSITION = "/3t3/1t5/2K1T2/t1T2Tt/1t1t1t1/2t4/7/"


def _ends_with_the_win(variant: str, position: str, to_move: str, line: dict) -> None:
    """The line's moves replay from the position and the last one ends the game, won by the
    line's winner after exactly ``result_in`` plies."""
    from tafl_desktop.core.game import Side

    v = find_variant(variant)
    rules = v.make_rules()
    side = Side.ATTACKERS if to_move == "attackers" else Side.DEFENDERS
    game = Game(rules, rules.parse_position(position, side))
    for move in line["moves"]:
        assert game.outcome is None, line
        game.play_text(move)
    assert len(line["moves"]) == line["result_in"], line
    assert game.outcome is not None and v.side_key(game.outcome.winner) == line["winner"], line


@pytest.mark.parametrize("engine", ["python"] + (["native"] if os.environ.get("TAFL_NATIVE_EXPECTED") == "1" else []))
def test_a_proven_line_is_printed_to_the_winning_move(engine):
    """Issue 42, item 3: a forced win shows every move to the end, in ``analyse``'s JSON and text.
    (The second line is an evaluation, so the search goes on to the depth asked: 4 with the slower
    Python search, tests/test_search_proven_stop.py.)"""
    args = ("brandubh", "--position", PROVEN_POSITION, "--to-move", "attackers", "--depth",
            "9" if engine == "native" else "4", "--lines", "2", "--engine", engine)
    data = analyse_json(*args)
    best = data["lines"][0]
    assert best["moves"][0] == "d3-d5" and (best["result_in"], best["winner"]) == (3, "attackers")
    _ends_with_the_win("brandubh", PROVEN_POSITION, "attackers", best)
    text = cli("analyse", *args)
    assert text.returncode == 0, text.stderr
    first = text.stdout.splitlines()[0]
    assert first.endswith(" ".join(best["moves"])), first
    # the Tuichi of source 001: every attackers' move loses in two plies, each line shown to the escape
    tuichi = "/4K6/11/11/5t5/11/11/11/11/t10/t10/11/"
    data = analyse_json("copenhagen", "--position", tuichi, "--to-move", "attackers", "--lines", "3", "--depth", "3",
                        "--engine", engine)
    for line in data["lines"]:
        _ends_with_the_win("copenhagen", tuichi, "attackers", line)


def test_a_review_and_its_exercise_explanation_show_the_whole_proven_line(tmp_path):
    """The review's better line (the one Learn from your mistakes explains) reaches the win too."""
    from tafl_desktop.core.game import Side

    rules = find_variant("brandubh").make_rules()
    game = Game(rules, rules.parse_position(PROVEN_POSITION, Side.ATTACKERS))
    for move in ("b3-b5", "e5-d5"):  # not the win: the review names the proven line instead
        game.play_text(move)
    path = tmp_path / "missed.tafl.json"
    save_game(game, path)
    res = cli("review", str(path), "--depth", "9", "--json")
    assert res.returncode == 0, res.stderr
    first = json.loads(res.stdout)["plies"][0]
    assert first["best"] == "d3-d5" and first["class"] == "blunder"
    _ends_with_the_win("brandubh", PROVEN_POSITION, "attackers",
                       {"moves": first["line"], "result_in": 3, "winner": "attackers"})
