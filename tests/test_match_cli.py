"""Issue 45, items 1 and 3: ``tafl-desktop match`` as a user meets it, the real CLI in a subprocess.

The contract: ``match VARIANT --player A --player B --games N [--time S | --nodes N]
[--concurrency N] [--sprt ELO0,ELO1] [--openings FILE] [--out FOLDER] [--json]``; its JSON has
``wins``, ``draws``, ``losses`` (for the first player), ``elo``, ``elo_low``, ``elo_high`` and,
with ``--sprt``, ``llr`` and ``verdict``.  Every game is saved (``.tafl.json`` and ``.otg``); each
opening is played once with each colour; the same seed gives the same openings; a match killed
with ``kill -9`` resumes from its folder with nothing lost or counted twice; a hosted engine that
crashes, hangs or plays an illegal move loses that game, recorded as such; bad input is one line.
Tiny node budgets on Brandubh keep it fast.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HOSTILE = ROOT / "tests" / "hostile_engine.py"
FAST = ["--player", "native:nodes=300", "--player", "python:nodes=200"]


def run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, "-m", "tafl_desktop", "match", *args], capture_output=True, text=True,
                          timeout=timeout, env=env, cwd=ROOT)


def one_line_error(proc: subprocess.CompletedProcess) -> str:
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    return lines[0]


def journal(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "results.jsonl").read_text().splitlines() if line.strip()]


def test_the_json_contract_every_game_saved_and_openings_with_both_colours(tmp_path):
    from tafl_desktop.core.record import load_game
    from tafl_desktop.interop.formats import read_game

    out = tmp_path / "m"
    proc = run("brandubh", *FAST, "--games", "4", "--out", str(out), "--json")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    for key in ("wins", "draws", "losses", "elo", "elo_low", "elo_high"):
        assert key in report
    assert report["wins"] + report["draws"] + report["losses"] == 4
    colours = report["per_colour"]
    assert sum(sum(c.values()) for c in colours.values()) == 4
    assert sum(colours["attackers"].values()) == sum(colours["defenders"].values()) == 2
    assert "llr" not in report
    # progress lines on stderr, one per game
    assert len([line for line in proc.stderr.splitlines() if line.startswith("game ")]) == 4
    entries = sorted(journal(out), key=lambda e: e["game"])
    assert [e["game"] for e in entries] == [0, 1, 2, 3]
    settings = json.loads((out / "match.json").read_text())
    for pair in (0, 1):
        first, second = entries[2 * pair], entries[2 * pair + 1]
        opening = settings["openings"][pair]
        assert len(opening) == 2
        assert first["moves"][:2] == second["moves"][:2] == opening
        assert {first["first_side"], second["first_side"]} == {"attackers", "defenders"}
    for e in entries:
        stem = out / "games" / f"game-{e['game'] + 1:04d}"
        game = load_game(f"{stem}.tafl.json")
        assert game.move_texts() == e["moves"]
        assert read_game(f"{stem}.otg").game.move_texts() == e["moves"]
        winner = game.outcome.winner.key if game.outcome and game.outcome.winner is not None else None
        assert winner == e["winner"]


def test_the_same_seed_gives_the_same_openings_and_a_file_of_openings_is_used(tmp_path):
    def openings(folder: Path) -> list:
        return json.loads((folder / "match.json").read_text())["openings"]

    a, b, c = (tmp_path / n for n in "abc")
    for folder, seed in ((a, "7"), (b, "7"), (c, "8")):
        proc = run("brandubh", *FAST, "--games", "2", "--nodes", "100", "--seed", seed, "--out", str(folder),
                   "--opening-plies", "4", "--max-plies", "6")
        assert proc.returncode == 0, proc.stderr
    assert openings(a) == openings(b)
    assert openings(a) != openings(c)
    # node budgets, one thread: the same seed replays the same games
    assert [e["moves"] for e in journal(a)] == [e["moves"] for e in journal(b)]
    book = tmp_path / "book.txt"
    book.write_text("# two openings\nd1-c1 d3-e3\n\nd2-c2\n")
    d = tmp_path / "d"
    proc = run("brandubh", *FAST, "--games", "4", "--openings", str(book), "--out", str(d), "--max-plies", "6",
               "--json")
    assert proc.returncode == 0, proc.stderr
    assert sorted(map(tuple, openings(d))) == [("d1-c1", "d3-e3"), ("d2-c2",)]
    starts = {tuple(e["moves"][:len(openings(d)[e["game"] // 2])]) for e in journal(d)}
    assert starts == {("d1-c1", "d3-e3"), ("d2-c2",)}
    assert json.loads(proc.stdout)["endings"] == {"ply_cap": 4}


@pytest.mark.parametrize("concurrency", ["1", "2"])
def test_sprt_stops_the_match_once_decided(tmp_path, concurrency):
    # logistic [0, 400]: a won pair adds about 1.7 to the LLR (s1 = 0.909), so a random mover
    # against a searching engine is decided (H1, LLR >= 2.94) after a few pairs of the 20 games
    proc = run("brandubh", "--player", "native:nodes=500", "--player", "random", "--games", "20",
               "--sprt", "0,400", "--sprt-model", "logistic", "--concurrency", concurrency, "--json")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["verdict"] == "H1"
    assert report["llr"] >= report["upper"] == pytest.approx(2.944, abs=1e-3)
    assert report["games"] < 20
    assert report["complete"] is True


def _children(pid: int) -> list[int]:
    sys.path.insert(0, str(ROOT / "tests"))
    from process_family import family

    return [p for p in family(pid) if p != pid]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="processes are read from /proc")
@pytest.mark.parametrize("concurrency", ["1", "2"])
def test_a_match_killed_with_kill_9_resumes_with_nothing_lost_or_counted_twice(tmp_path, concurrency):
    sys.path.insert(0, str(ROOT / "tests"))
    from process_family import alive

    out = tmp_path / "m"
    args = ["brandubh", "--player", "python:nodes=150", "--player", "python:nodes=80", "--games", "8",
            "--max-plies", "40", "--out", str(out), "--concurrency", concurrency, "--json"]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.Popen([sys.executable, "-m", "tafl_desktop", "match", *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if (out / "results.jsonl").exists() and len(journal(out)) >= 2:
            break
        assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
        time.sleep(0.02)
    workers = _children(proc.pid)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(10)
    proc.stdout.close()
    proc.stderr.close()
    before = {e["game"]: e for e in journal(out)}
    assert 2 <= len(before) < 8
    gone_by = time.monotonic() + 5
    while alive(workers) and time.monotonic() < gone_by:
        time.sleep(0.1)
    assert alive(workers) == [], "the match's workers outlived it"
    done = run(*args)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["games"] == 8 and report["wins"] + report["draws"] + report["losses"] == 8
    after = journal(out)
    numbers = [e["game"] for e in after]
    assert sorted(numbers) == list(range(8)), "each game once"
    for index, entry in before.items():  # nothing lost: the games counted before the kill stand
        assert next(e for e in after if e["game"] == index) == entry
    assert len(list((out / "games").glob("*.tafl.json"))) == 8
    assert len(list((out / "games").glob("*.otg"))) == 8
    # the resumed run played only the games the killed one had not counted
    assert len([line for line in done.stderr.splitlines() if line.startswith("game ")]) == 8 - len(before)


def engine_spec(tmp_path: Path, name: str, script: dict) -> str:
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(script))
    return f"engine:{sys.executable} {HOSTILE} {path}"


@pytest.mark.parametrize(("name", "second_play", "ending"), [
    ("crash", [["exit", 3]], "crash"),
    ("hang", [["hang"]], "timeout"),
])
def test_a_hosted_engine_that_crashes_or_hangs_mid_game_loses_it_recorded(tmp_path, name, second_play, ending):
    # as the attackers (game 1) it plays d1-c1, then crashes or falls silent on its second move;
    # as the defenders (game 2) the same d1-c1 is not its piece: an illegal move
    spec = engine_spec(tmp_path, name, {"start": [["say", "hello"]],
                                        "per_play": [[["say", "move d1-c1"]], second_play]})
    out = tmp_path / "m"
    t0 = time.monotonic()
    proc = run("brandubh", "--player", spec, "--player", "python:nodes=200", "--games", "2", "--opening-plies", "0",
               "--time", "0.3", "--out", str(out), "--json", timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert time.monotonic() - t0 < 30
    report = json.loads(proc.stdout)
    assert (report["wins"], report["draws"], report["losses"]) == (0, 0, 2)
    assert [f["kind"] for f in report["failures"]] == [ending, "illegal"]
    entries = sorted(journal(out), key=lambda e: e["game"])
    assert entries[0]["moves"][0] == "d1-c1" and entries[0]["plies"] >= 2
    assert entries[0]["failed"] == "attackers" and entries[0]["winner"] == "defenders"
    assert entries[1]["failed"] == "defenders" and entries[1]["winner"] == "attackers"
    from tafl_desktop.core.record import load_game, read_record_tags

    first = out / "games" / "game-0001.tafl.json"
    assert load_game(first).outcome.reason == ("forfeit" if ending == "crash" else "time")
    assert read_record_tags(first)["match-ending"] == ending


@pytest.mark.parametrize(("args", "words"), [
    (["--player", "grandmaster", "--player", "easy"], "grandmaster"),
    (["--player", "native:nodes=abc", "--player", "easy"], "nodes"),
    (["--player", "python", "--player", "easy"], "budget"),
    (["--player", "easy"], "two players"),
    (["--player", "engine:/no/such/engine-program", "--player", "easy"], "engine-program"),
    (["--player", "easy", "--player", "easy", "--sprt", "10,0"], "ELO0"),
])
def test_bad_player_specs_are_one_line(args, words):
    line = one_line_error(run("brandubh", *args, "--games", "2"))
    assert words in line


def test_a_hunt_game_match_keeps_its_records_and_refuses_hosted_engines(tmp_path):
    # the OpenTafl protocol and .otg files hold Tafl only: a Fox game's games are saved as
    # .tafl.json, and an engine:COMMAND player is refused before anything starts
    out = tmp_path / "fox"
    proc = run("fox_geese_13", "--player", "python:nodes=100", "--player", "easy", "--games", "2",
               "--max-plies", "8", "--out", str(out), "--json")
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in (out / "games").iterdir()) == ["game-0001.tafl.json", "game-0002.tafl.json"]
    line = one_line_error(run("dablot_mini", "--player", f"engine:{sys.executable}", "--player", "easy"))
    assert "not a Tafl game" in line


def test_an_openings_file_with_an_illegal_move_is_one_line_naming_its_line(tmp_path):
    book = tmp_path / "book.txt"
    book.write_text("d1-c1\nd1-c1 a1-a7\n")
    line = one_line_error(run("brandubh", *FAST, "--openings", str(book)))
    assert "line 2, move 2" in line
    assert not (tmp_path / "m").exists()
    line = one_line_error(run("brandubh", *FAST, "--openings", str(tmp_path / "missing.txt")))
    assert "missing.txt" in line


def test_an_unwritable_out_folder_is_one_line_and_another_match_is_not_overwritten(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("mine")
    line = one_line_error(run("brandubh", *FAST, "--out", str(blocker / "sub")))
    assert "cannot write" in line
    assert blocker.read_text() == "mine"
    out = tmp_path / "m"
    assert run("brandubh", *FAST, "--games", "2", "--out", str(out), "--max-plies", "4").returncode == 0
    kept = (out / "results.jsonl").read_text()
    line = one_line_error(run("brandubh", "--player", "easy", "--player", "medium", "--out", str(out)))
    assert "another match" in line
    assert (out / "results.jsonl").read_text() == kept


def test_a_finished_match_is_extended_by_asking_for_more_games(tmp_path):
    out = tmp_path / "m"
    first = run("brandubh", *FAST, "--games", "2", "--out", str(out), "--max-plies", "6", "--json")
    assert first.returncode == 0, first.stderr
    before = journal(out)
    more = run("brandubh", *FAST, "--games", "4", "--out", str(out), "--max-plies", "6", "--json")
    assert more.returncode == 0, more.stderr
    assert json.loads(more.stdout)["games"] == 4
    after = journal(out)
    assert sorted(e["game"] for e in after) == [0, 1, 2, 3]
    assert after[:2] == before
    openings = json.loads((out / "match.json").read_text())["openings"]
    assert len(openings) == 2 and after[2]["moves"][:2] == openings[1]


def test_a_hosted_engine_that_behaves_plays_whole_games(tmp_path):
    # our own `engine` command over the OpenTafl Engine Protocol, refereed by our rules
    spec = f"engine:{sys.executable} -m tafl_desktop engine --level beginner"
    proc = run("brandubh", "--player", spec, "--player", "python:nodes=200", "--games", "2", "--time", "1",
               "--out", str(tmp_path / "m"), "--json")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["failures"] == []
    assert report["wins"] + report["draws"] + report["losses"] == 2
    entries = journal(tmp_path / "m")
    assert all(e["ending"] in ("rules", "proven", "ply_cap") and e["plies"] > 2 for e in entries)


def test_the_journal_ignores_a_line_torn_by_a_kill_and_counts_a_game_once(tmp_path):
    from tafl_desktop.match.runner import append_journal, read_journal

    path = tmp_path / "results.jsonl"
    path.write_text('{"game": 0, "winner": null}\n{"game": 0, "winner": "attackers"}\n{"game": 1, "win')
    assert read_journal(tmp_path) == {0: {"game": 0, "winner": None}}
    append_journal(tmp_path, {"game": 1, "winner": "defenders"})
    assert read_journal(tmp_path) == {0: {"game": 0, "winner": None}, 1: {"game": 1, "winner": "defenders"}}
    assert path.read_text().endswith('"win\n{"game": 1, "winner": "defenders"}\n')
