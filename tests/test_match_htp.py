"""HTP engines as players of ``tafl-desktop match`` (issue 43 item 4, the matches side), as a user
meets it: the real CLI in a subprocess, ``--player htp:COMMAND`` (the engine on its stdin) and
``--player htp-host@PORT:COMMAND`` (the engine in its ``--host`` mode, connecting to us on
127.0.0.1), with the OpenTafl host's safety: a crash, a hang or an illegal move loses the game
recorded as such, a resignation (``play ROLE resigns``) is a resignation, not a failure.

Protocol source: the crate ``hnefatafl-copenhagen`` 6.4.1, ``src/bin/hnefatafl-text-protocol.rs``
(``play ROLE FROM TO`` answered ``= ...``, ``generate_move`` answered ``= play ROLE FROM TO``;
in ``--host`` mode the same without ``=``) and ``src/lib.rs`` (``SERVER_PORT = ":49152"``).  The
engines are our own ``tafl-desktop htp`` and small scripts; the crate's binary is the slow test's.
"""

from __future__ import annotations

import json
import shlex
import socket
import sys
import time
from pathlib import Path

import pytest

from tests.test_match_cli import journal, one_line_error, run

OUR_HTP = f"{shlex.quote(sys.executable)} -m tafl_desktop htp --seconds 0.05"

#: A fake HTP engine on stdin: answers ``play`` with ``=``, and ``generate_move`` as the argument says.
FAKE = """import sys, time
how = sys.argv[1]
for line in sys.stdin:
    word = line.split()[0] if line.split() else ''
    if word == 'generate_move':
        if how == 'resign':
            print('= play attacker resigns _', flush=True)
        elif how == 'crash':
            sys.exit(3)
        elif how == 'hang':
            time.sleep(60)
        else:
            print('= play attacker a1 a2', flush=True)
    elif word == 'quit':
        break
    else:
        print('=', flush=True)
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _fake(tmp_path: Path, how: str) -> str:
    path = tmp_path / "fake_htp.py"
    path.write_text(FAKE, encoding="utf-8")
    return f"htp:{shlex.quote(sys.executable)} {shlex.quote(str(path))} {how}"


def _replayed(folder: Path, games: int) -> list[dict]:
    """The journal's games, each replayed move by move under hnefatafl.org's rules."""
    from tafl_desktop.core.game import Game
    from tafl_desktop.core.variants import presets

    entries = sorted(journal(folder), key=lambda e: e["game"])
    assert len(entries) == games
    for entry in entries:
        game = Game(presets()["copenhagen_org"].make_rules())
        for move in entry["moves"]:
            game.play_text(move)  # raises on a move our rules refuse
    return entries


@pytest.mark.parametrize("mode", ["stdin", "host"])
def test_an_htp_engine_plays_whole_match_games_in_either_hosting_mode(tmp_path, mode):
    if mode == "stdin":
        spec = f"htp:{OUR_HTP}"
    else:
        port = _free_port()
        spec = f"htp-host@{port}:{OUR_HTP} --host 127.0.0.1 --port {port}"
    out = tmp_path / "m"
    proc = run("copenhagen_org", "--player", spec, "--player", "python:nodes=150", "--games", "2",
               "--max-plies", "10", "--out", str(out), "--json", timeout=180)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["wins"] + report["draws"] + report["losses"] == 2
    assert report["failures"] == [] and report["endings"] == {"ply_cap": 2}
    entries = _replayed(out, 2)
    # it played both colours, ten plies each game, every one of its moves legal under our rules
    assert {e["players"]["attackers"] for e in entries} == {spec, "python:nodes=150"}
    assert all(e["plies"] == 10 for e in entries)


@pytest.mark.parametrize(("how", "ending", "words"), [
    ("crash", "crash", "exit code 3"),
    ("hang", "timeout", "did not answer within its time"),
    ("illegal", "illegal", "a1"),
])
def test_an_htp_engine_that_crashes_hangs_or_plays_illegally_loses_recorded(tmp_path, how, ending, words):
    out = tmp_path / "m"
    t0 = time.monotonic()
    proc = run("copenhagen_org", "--player", _fake(tmp_path, how), "--player", "python:nodes=100", "--games", "2",
               "--opening-plies", "0", "--time", "0.3", "--out", str(out), "--json", timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert time.monotonic() - t0 < 60
    report = json.loads(proc.stdout)
    assert (report["wins"], report["draws"], report["losses"]) == (0, 0, 2)
    assert [f["kind"] for f in report["failures"]] == [ending, ending]
    assert all(words in f["text"] and "\n" not in f["text"] for f in report["failures"])
    entries = sorted(journal(out), key=lambda e: e["game"])
    assert [e["failed"] for e in entries] == ["attackers", "defenders"]


def test_an_htp_engine_that_resigns_loses_by_resignation_not_failure(tmp_path):
    from tafl_desktop.core.record import load_game

    out = tmp_path / "m"
    proc = run("copenhagen_org", "--player", _fake(tmp_path, "resign"), "--player", "python:nodes=100",
               "--games", "2", "--opening-plies", "0", "--out", str(out), "--json", timeout=120)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert (report["wins"], report["draws"], report["losses"]) == (0, 0, 2)
    assert report["failures"] == [] and report["endings"] == {"resigned": 2}
    entries = sorted(journal(out), key=lambda e: e["game"])
    assert all(e["failed"] is None and "resigned" in e["text"] for e in entries)
    assert load_game(out / "games" / "game-0001.tafl.json").outcome.reason == "resigned"


@pytest.mark.parametrize(("variant", "players", "extra", "words"), [
    ("brandubh", ["htp:true", "easy"], [], "copenhagen_org"),
    ("copenhagen_org", ["htp:", "easy"], [], "htp:"),
    ("copenhagen_org", ["htp-host@80:true", "easy"], [], "1024"),
    ("copenhagen_org", ["htp-host:true", "htp-host:true"], [], "port 49152"),
    ("copenhagen_org", ["htp:/no/such/htp-program", "easy"], [], "htp-program"),
    ("copenhagen_org", ["htp-host:true", "easy"], ["--concurrency", "2"], "--concurrency 1"),
    ("copenhagen_org", ["htp:true", "easy"], ["--set", "turn_limit=0"], "unchanged"),
])
def test_htp_players_that_cannot_play_are_one_line(variant, players, extra, words):
    args = [a for p in players for a in ("--player", p)]
    line = one_line_error(run(variant, *args, "--games", "2", *extra))
    assert words in line


def test_the_help_says_how_to_write_an_htp_player():
    proc = run("--help")
    assert proc.returncode == 0
    text = " ".join(proc.stdout.split())
    assert "htp:COMMAND" in text and "htp-host[@PORT]:COMMAND" in text
