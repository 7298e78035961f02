"""The game database's command line (issue 39), run as the real program in subprocesses:
``db import PATH…``, ``db stats``, ``db find VARIANT --moves``, ``db rebuild`` and ``explore`` with
the exact JSON keys of the contract.

The fast tests start from a database whose shipped games are marked as imported (an empty
``real`` source) so that each command answers in a second; ``test_explore_imports_the_shipped_games_first``
(slow, ``pytest -m slow tests/test_gamedb_cli.py``) runs the real first use.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tafl_desktop.gamedb.library import SHIPPED_VERSION
from tafl_desktop.gamedb.store import GameDb

GAMES = Path(__file__).resolve().parents[1] / "resources" / "games"
MOVE_KEYS = {"move", "games", "attackers", "defenders", "draws", "unfinished"}


def _cli(*args: str, db: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, TAFL_DESKTOP_GAMEDB=str(db))
    return subprocess.run([sys.executable, "-m", "tafl_desktop", *args], capture_output=True, text=True,
                          timeout=300, env=env)


def _lines(count: int, start: int = 0) -> list[str]:
    out = []
    for line in (GAMES / "copenhagen.csv").read_text(encoding="utf-8").splitlines()[start:]:
        moves = " ".join(t for t in line.rsplit(",", 3)[0].split() if t != "timeout")
        if moves:
            out.append(moves)
        if len(out) == count:
            break
    return out


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "games.sqlite3"
    with GameDb(path) as d:
        d.con.execute("INSERT INTO meta VALUES ('shipped', ?)", (SHIPPED_VERSION,))
    return path


@pytest.fixture
def collection(tmp_path):
    folder = tmp_path / "collection"
    folder.mkdir()
    for i, moves in enumerate(_lines(12)):
        (folder / f"game{i}.txt").write_text(moves + "\n", encoding="utf-8")
    (folder / "broken.txt").write_text("d1-d3 d1-d3\n", encoding="utf-8")
    (folder / "notes.md").write_text("not a record\n", encoding="utf-8")
    return folder


def test_import_stats_find_and_explore(db, collection):
    r = _cli("db", "import", str(collection), "--variant", "copenhagen", "--set", "repetition=allowed", "--json", db=db)
    report = json.loads(r.stdout)
    assert r.returncode == 0 and report["added"] == 12 and report["duplicates"] == 0
    assert len(report["problems"]) == 1 and "broken.txt" in report["problems"][0]
    again = json.loads(_cli("db", "import", str(collection), "--variant", "copenhagen", "--json", db=db).stdout)
    assert (again["added"], again["duplicates"]) == (0, 12)  # the same games imported twice are one

    stats = json.loads(_cli("db", "stats", "--json", db=db).stdout)
    assert stats["games"] == 12 and stats["sources"] == {"imported": 12} and stats["positions"] > 12

    r = _cli("explore", "copenhagen", "--source", "imported", "--json", db=db)
    data = json.loads(r.stdout)
    assert r.returncode == 0, r.stderr
    assert {"games", "opening", "moves"} <= set(data) and data["games"] == 12 and data["opening"] is None
    assert all(set(m) == MOVE_KEYS for m in data["moves"])
    assert sum(m["games"] for m in data["moves"]) == 12
    for m in data["moves"]:
        assert m["games"] == m["attackers"] + m["defenders"] + m["draws"] + m["unfinished"]
    # the real games are a source of their own: none were imported into this database
    assert json.loads(_cli("explore", "copenhagen", "--json", db=db).stdout)["games"] == 0

    first = _lines(1)[0].split()
    r = _cli("db", "find", "copenhagen", "--moves", " ".join(first[:3]), "--source", "imported", "--json", db=db)
    found = json.loads(r.stdout)
    assert found["games"] >= 1 and any(g["origin"].endswith("game0.txt") for g in found["list"])


def test_explore_shows_moves_as_played_on_the_board_given(db, tmp_path):
    """``h1-h3`` imported, explored after ``d1-d3`` (its mirror image): the reply is mirrored too."""
    (tmp_path / "a.txt").write_text("h1-h3 g5-g2\n", encoding="utf-8")
    assert _cli("db", "import", str(tmp_path / "a.txt"), "--variant", "copenhagen", db=db).returncode == 0
    data = json.loads(_cli("explore", "copenhagen", "--moves", "d1-d3", "--source", "all", "--json", db=db).stdout)
    assert [m["move"] for m in data["moves"]] == ["e5-e2"]
    data = json.loads(_cli("explore", "copenhagen", "--moves", "h1-h3 g5-g2", "--source", "all", "--json",
                           db=db).stdout)
    assert data["opening"] == "Millar Gambit" and data["games"] == 1
    mirrored = json.loads(_cli("explore", "copenhagen", "--moves", "d1-d3 e5-e2", "--source", "all", "--json",
                               db=db).stdout)
    assert mirrored["opening"] == "Millar Gambit"


@pytest.mark.parametrize("args", [
    ("explore", "copenhagen", "--moves", "d1-d3 d1-d3"),
    ("explore", "nosuchgame"),
    ("db", "find", "copenhagen", "--moves", "zz"),
    ("db", "import", "/nonexistent/file.otg"),
])
def test_bad_input_is_one_line(db, args):
    r = _cli(*args, db=db)
    assert r.returncode in (1, 2) and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_a_damaged_database_is_one_line_naming_the_rebuild(db, tmp_path):
    (tmp_path / "a.txt").write_text(_lines(1)[0] + "\n", encoding="utf-8")
    assert _cli("db", "import", str(tmp_path / "a.txt"), "--variant", "copenhagen", "--set", "repetition=allowed",
                db=db).returncode == 0
    db.write_bytes(b"this is no database" * 100)
    for extra in ("-wal", "-shm"):
        Path(str(db) + extra).unlink(missing_ok=True)
    r = _cli("db", "stats", db=db)
    assert r.returncode == 1 and len(r.stderr.strip().splitlines()) == 1 and "db rebuild" in r.stderr
    assert "Traceback" not in r.stderr


@pytest.mark.slow
def test_explore_imports_the_shipped_games_first(tmp_path):
    """First use: the 2,275 real games are in before ``explore`` answers (their README's counts:
    1,752 Copenhagen, 523 Brandubh with moves)."""
    db = tmp_path / "games.sqlite3"
    data = json.loads(_cli("explore", "copenhagen", "--json", db=db).stdout)
    assert data["games"] == 1752
    assert sum(m["games"] for m in data["moves"]) + data["ended_here"]["games"] == 1752
    stats = json.loads(_cli("db", "stats", "--json", db=db).stdout)
    assert stats["sources"] == {"real": 2275}
    r = _cli("db", "rebuild", db=db)
    assert r.returncode == 0
    # the Brandubh games are filed under the preset of the rules they were played under
    federation = json.loads(_cli("explore", "brandubh_federation", "--json", db=db).stdout)
    assert federation["games"] == 523 and federation["other_rules"] == []
    assert json.loads(_cli("explore", "brandubh", "--json", db=db).stdout)["games"] == 0
