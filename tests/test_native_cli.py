"""``analyse``, ``review`` and ``selfplay`` with ``--engine native|python``, driven as a user
does: the real command in a subprocess.  Both engines answer in the contract's JSON; ``--lines N``
gives N lines whenever the position has N legal moves; ``--nodes`` gives the same answer twice."""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys

import pytest

from tafl_desktop.ai.engine import native_search_available
from tafl_desktop.core.game import Game
from tafl_desktop.core.variants import find_variant

ENGINES = ["python"] + (["native"] if native_search_available() else [])
LINE_KEYS = {"moves", "score", "result_in", "winner", "depth"}


def run(*args: str, ok: bool = True) -> subprocess.CompletedProcess:
    p = subprocess.run([sys.executable, "-m", "tafl_desktop", *args], capture_output=True, text=True, timeout=300)
    if ok:
        assert p.returncode == 0, p.stderr
    return p


def analyse(*args: str) -> dict:
    return json.loads(run("analyse", *args, "--json").stdout)


def analyse_here(*args: str) -> dict:
    """The same command through the same front door, in this process (a launch costs a second)."""
    from tafl_desktop.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["analyse", *args, "--json"]) == 0
    return json.loads(out.getvalue())


@pytest.mark.parametrize("engine", ENGINES)
def test_analyse_answers_the_contract_on_either_engine(engine):
    out = analyse("brandubh", "--moves", "d1-c1 d3-a3", "--lines", "3", "--time", "0.5", "--engine", engine)
    assert out["engine"] == engine
    assert {"lines", "nodes", "seconds"} <= set(out)
    assert len(out["lines"]) == 3
    rules = find_variant("brandubh").make_rules()
    game = Game(rules)
    for text in ("d1-c1", "d3-a3"):
        game.play_text(text)
    legal = {rules.move_text(m) for m in rules.legal_moves(game.position)}
    for line in out["lines"]:
        assert set(line) == LINE_KEYS
        assert line["moves"][0] in legal
        assert line["depth"] >= 1
    scores = [line["score"] for line in out["lines"]]
    assert scores == sorted(scores, reverse=True)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("position,side", [
    # a lone king on a3 between attackers on a4 and b3: two legal moves, a2 and a1 (the escape)
    ("/7/7/7/t6/Kt5/7/7/", "defenders"),
    # on a2: one legal move, the escape to a1
    ("/7/7/7/7/t6/Kt5/7/", "defenders"),
    # a king who can escape at once: every line is still given, the escape first
    ("/1K5/7/2t4/4t2/7/7/1t5/", "defenders"),
    ("/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/", "attackers"),
])
def test_lines_n_gives_n_lines_whenever_there_are_n_moves(engine, position, side):
    rules = find_variant("brandubh").make_rules()
    pos = rules.parse_position(position, _side(side))
    count = len(rules.legal_moves(pos))
    for n in (1, 2, 5):  # the widest through a real process, the others through the same entry point here
        ask = analyse if n == 5 else analyse_here
        out = ask("brandubh", "--position", position, "--to-move", side, "--lines", str(n), "--depth", "3",
                  "--engine", engine)
        assert len(out["lines"]) == min(n, count), (n, count)
        firsts = [line["moves"][0] for line in out["lines"]]
        assert len(set(firsts)) == len(firsts)
    if position.startswith("/1K5"):
        assert out["lines"][0]["result_in"] == 1 and out["lines"][0]["winner"] == "defenders"


def _side(name: str):
    from tafl_desktop.core.game import Side

    return Side.parse(name)


@pytest.mark.skipif(not native_search_available(), reason="the native engine is not built")
def test_analyse_at_a_node_limit_is_the_same_every_time():
    args = ("copenhagen", "--moves", "h1-h3 f8-i8", "--lines", "2", "--nodes", "60000", "--engine", "native")
    a, b = analyse(*args), analyse(*args)
    assert a["lines"] == b["lines"] and a["nodes"] == b["nodes"] == 60000


def test_analyse_refuses_bad_engine_and_nodes_in_one_line():
    p = run("analyse", "brandubh", "--engine", "turbo", ok=False)
    assert p.returncode != 0 and "engine" in p.stderr and "Traceback" not in p.stderr
    p = run("analyse", "brandubh", "--nodes", "5", ok=False)
    assert p.returncode != 0 and "--nodes" in p.stderr and len(p.stderr.strip().splitlines()) == 1


@pytest.mark.skipif(not native_search_available(), reason="the native engine is not built")
def test_the_fox_games_are_analysed_by_the_engine_asked_for():
    """The Fox games have a native search too (analysis and the strong levels): each engine asked
    for is the one that answers, with the lines asked for."""
    for engine in ENGINES:
        out = analyse("fox_geese_13", "--lines", "2", "--time", "0.3", "--engine", engine)
        assert out["engine"] == engine and len(out["lines"]) == 2


@pytest.mark.parametrize("engine", ENGINES)
def test_review_runs_on_either_engine(tmp_path, engine):
    rules = find_variant("brandubh").make_rules()
    game = Game(rules)
    for text in ("d1-c1", "d3-a3", "c1-c2", "a3-a2"):
        game.play_text(text)
    from tafl_desktop.core.record import save_game

    path = tmp_path / "g.tafl.json"
    save_game(game, path)
    out = json.loads(run("review", str(path), "--time", "0.2", "--engine", engine, "--json").stdout)
    assert [p["ply"] for p in out["plies"]] == [1, 2, 3, 4]
    assert out["summary"]["complete"]


@pytest.mark.skipif(not native_search_available(), reason="the native engine is not built")
def test_selfplay_engine_match_counts_wins_per_engine():
    out = json.loads(run("selfplay", "brandubh", "--games", "2", "--attackers", "easy", "--defenders", "easy",
                         "--attackers-engine", "native", "--defenders-engine", "python", "--move-time", "0.05",
                         "--swap", "--json").stdout)
    assert out["engines"] == ["native", "python"]
    assert sum(out["engine_wins"].values()) + out["draws"] == 2
