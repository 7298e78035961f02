"""Rules Lab and self-play games go into the game database as they finish (issue 39: "Rules Lab and
self-play games (by level), each a filter; never mixed by default"), driven as a user does: the
``lab`` and ``selfplay`` commands in a subprocess, a database file of the test's own
(``TAFL_DESKTOP_GAMEDB``), and the explorer's command reading it back.

A study's games are the lines of its ``games.jsonl``; each must be in the database under source
``lab`` as the same moves, with its levels as its players (the explorer's player filter).  The
self-play command's go under ``selfplay``; both are the explorer's ``--source lab``, and neither
is among the real games (the default).  ``--no-game-db`` leaves them out.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tafl_desktop.gamedb.store import GameDb

STUDY = ["brandubh", "--vary", "king_capture=strong,custodial", "--level", "random", "--games", "2",
         "--max-plies", "60", "--seed", "5", "--workers", "1"]


def run(db: Path, *argv: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "TAFL_DESKTOP_GAMEDB": str(db)}
    return subprocess.run([sys.executable, "-m", "tafl_desktop", *argv], capture_output=True, text=True,
                          timeout=300, env=env)


def test_a_studys_games_go_in_under_lab_with_their_levels(tmp_path):
    db = tmp_path / "games.sqlite3"
    r = run(db, "lab", *STUDY, "--out", str(tmp_path / "study"), "--json")
    assert r.returncode == 0, r.stderr
    lines = [json.loads(x) for x in (tmp_path / "study" / "games.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 4
    with GameDb(db) as g:
        rows = g.con.execute("SELECT source, attackers, defenders, moves, tags FROM games ORDER BY id").fetchall()
    assert [r[0] for r in rows] == ["lab"] * 4
    assert {r[1] for r in rows} == {r[2] for r in rows} == {"computer:random"}
    stored = {(json.loads(t)["cell"], json.loads(t)["game"]): m for _s, _a, _d, m, t in rows}
    cells = ("king_capture=strong", "king_capture=custodial")
    assert stored == {(cells[x["cell"]], str(x["game"])): " ".join(x["moves"]) for x in lines}

    # the explorer: the study's games under --source lab (the cell's rules), none among the real games
    out = run(db, "explore", "brandubh", "--set", "king_capture=strong", "--source", "lab", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["games"] == 2
    out = run(db, "explore", "brandubh", "--set", "king_capture=strong", "--source", "lab", "--player",
              "computer:random", "--json")
    assert json.loads(out.stdout)["games"] == 2
    out = run(db, "explore", "brandubh", "--set", "king_capture=strong", "--json")
    assert json.loads(out.stdout)["games"] == 0

    # the same study run again into another folder plays the same games: held already, not doubled
    r = run(db, "lab", *STUDY, "--out", str(tmp_path / "again"), "--json")
    assert r.returncode == 0, r.stderr
    with GameDb(db) as g:
        assert g.count("lab") == 4


def test_self_play_games_go_in_under_selfplay_unless_asked_not_to(tmp_path):
    db = tmp_path / "games.sqlite3"
    r = run(db, "selfplay", "brandubh", "--games", "3", "--attackers", "random", "--defenders", "beginner",
            "--seed", "3", "--json")
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    with GameDb(db) as g:
        rows = g.con.execute("SELECT source, attackers, defenders, result FROM games").fetchall()
    assert [(s, a, d) for s, a, d, _r in rows] == [("selfplay", "computer:random", "computer:beginner")] * 3
    assert sum(res == "attackers" for *_x, res in rows) == report["attackers_wins"]
    assert sum(res == "defenders" for *_x, res in rows) == report["defenders_wins"]
    out = run(db, "explore", "brandubh", "--source", "lab", "--json")
    assert json.loads(out.stdout)["games"] == 3

    other = tmp_path / "none.sqlite3"
    r = run(other, "selfplay", "brandubh", "--games", "2", "--attackers", "random", "--defenders", "random",
            "--no-game-db", "--json")
    assert r.returncode == 0, r.stderr
    assert not other.exists()


def test_a_database_that_cannot_be_used_is_one_line_and_the_games_go_on(tmp_path):
    bad = tmp_path / "games.sqlite3"
    bad.write_bytes(b"this is no database" * 100)
    r = run(bad, "selfplay", "brandubh", "--games", "2", "--attackers", "random", "--defenders", "random",
            "--json")
    assert r.returncode == 0
    assert json.loads(r.stdout)["games"] == 2
    problems = [line for line in r.stderr.splitlines() if line.strip()]
    assert len(problems) == 1 and "game database" in problems[0] and "Traceback" not in r.stderr
    assert bad.read_bytes() == b"this is no database" * 100
