"""Issue 26, items 7 and 10: the Rules Lab's folders and its Dask scheduler address, as an attacker
hands them over.

The read-only commands (``lab-compare``, ``lab-game``, ``print --balance``) change no byte of a
study; only ``lab`` itself repairs a torn last line, and only by moving the torn bytes to
``games.torn``.  FIFOs, ``/dev/zero``, a claim of 10^12 games, deep JSON, a missing key, a
``chart.png`` link to a file outside the folder, and poisoned results (a negative count, an
illegal move, two different games under one number) each get one clear line, in bounded time and
memory; poisoned games are not counted.  Every command runs as a user runs it, in a subprocess,
on a copy of a study that ships with the project (``benchmarks/results/lab/brandubh_king_capture``:
4 cells of 30 Easy games, seed 1).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from timing import within

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ROOT / "benchmarks" / "results" / "lab" / "brandubh_king_capture"
#: The command line that made the shipped study (so ``lab`` continues it rather than refusing it).
LAB = ["lab", "brandubh", "--vary", "king_capture=custodial,double_weak,weak_near_throne,strong", "--level",
       "easy", "--games", "30", "--seed", "1", "--max-plies", "300", "--workers", "1"]

pytestmark = pytest.mark.skipif(os.name != "posix", reason="FIFOs, device files and links are POSIX")


def run(*argv: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tafl_desktop", *argv], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


def snapshot(folder: Path) -> dict[str, tuple[int, bytes | str]]:
    """Every entry of the folder: its kind and bytes (or link target), to prove nothing changed."""
    out = {}
    for p in sorted(folder.iterdir()):
        st = os.lstat(p)
        if stat.S_ISLNK(st.st_mode):
            out[p.name] = (st.st_mode, os.readlink(p))
        elif stat.S_ISREG(st.st_mode):
            out[p.name] = (st.st_mode, p.read_bytes())
        else:
            out[p.name] = (st.st_mode, b"")
    return out


def no_traceback(res: subprocess.CompletedProcess) -> None:
    assert "Traceback" not in res.stderr, res.stderr


def one_line(res: subprocess.CompletedProcess) -> str:
    no_traceback(res)
    assert res.returncode == 1 and len(res.stderr.strip().splitlines()) == 1, res.stderr
    return res.stderr


@pytest.fixture
def study(tmp_path) -> Path:
    folder = tmp_path / "study"
    shutil.copytree(SHIPPED, folder)
    return folder


def counts(res: subprocess.CompletedProcess) -> list[tuple[int, int]]:
    """(attackers' wins, games) of each cell from ``lab-compare --json``."""
    assert res.returncode == 0, res.stderr
    return [tuple(r["first"]) for r in json.loads(res.stdout)["rows"]]


READERS = [
    lambda f, tmp: ("lab-compare", str(f), str(f), "--json"),
    lambda f, tmp: ("lab-game", str(f), "3", "29", str(tmp / "g.tafl.json")),
    lambda f, tmp: ("print", "brandubh", "--parts", "rules", "--balance", str(f), "--out", str(tmp / "r.pdf")),
]


# ------------------------------------------------------------------------------ read-only commands
def test_a_last_game_without_its_newline_is_counted_and_no_reader_writes(study, tmp_path):
    games = study / "games.jsonl"
    games.write_bytes(games.read_bytes().rstrip(b"\n"))  # complete, just no final newline
    before = snapshot(study)
    assert counts(run(*READERS[0](study, tmp_path))) == [(8, 30), (8, 30), (2, 30), (0, 30)]
    for reader in READERS[1:]:
        res = run(*reader(study, tmp_path))
        assert res.returncode == 0, res.stderr
    assert snapshot(study) == before
    # lab-game's game 29 of cell 3 is that last line: it opened as a record
    assert json.loads((tmp_path / "g.tafl.json").read_text())["moves"] == json.loads(
        games.read_bytes().splitlines()[-1])["moves"]


def test_lines_joined_by_spaces_are_reported_and_left_alone(study, tmp_path):
    games = study / "games.jsonl"
    lines = games.read_bytes().splitlines()
    games.write_bytes(b" ".join(lines[:6]) + b"\n" + b"\n".join(lines[6:]) + b"\n")
    before = snapshot(study)
    res = run(*READERS[0](study, tmp_path))
    assert [n for _w, n in counts(res)] == [28, 28, 29, 29]  # the joined six are not counted...
    assert "1 line is not a game result" in res.stderr and "line 1" in res.stderr  # ...and said so
    assert snapshot(study) == before


def test_a_torn_last_line_is_left_by_readers_and_moved_aside_by_lab(study, tmp_path):
    games = study / "games.jsonl"
    data = games.read_bytes()
    last_start = data.rstrip(b"\n").rfind(b"\n") + 1
    torn = data[last_start:last_start + 57]
    games.write_bytes(data[:last_start] + torn)
    before = snapshot(study)
    res = run(*READERS[0](study, tmp_path))
    assert counts(res)[3] == (0, 29) and "cut off" in res.stderr
    assert snapshot(study) == before
    # lab moves the torn bytes aside (never deletes them) and plays that game again
    res = run(*LAB, "--out", str(study), "--json", timeout=300)
    assert res.returncode == 0, res.stderr
    assert "games.torn" in res.stderr
    assert (study / "games.torn").read_bytes() == torn + b"\n"
    # the file is whole again: every game before the torn one untouched, and the torn one played
    # again from its own seed (its moves are today's engine's, which may differ from the stored
    # study's older engine: compared by cell, game and seed, and as a finished game)
    def timeless(raw: bytes) -> list[dict]:
        return [{k: v for k, v in json.loads(x).items() if "seconds" not in k and k != "engine"}
                for x in raw.splitlines()]

    now, then = timeless(games.read_bytes()), timeless(data)
    assert len(now) == len(then) and now[:-1] == then[:-1]
    assert {k: now[-1][k] for k in ("cell", "game", "seed")} == {k: then[-1][k] for k in ("cell", "game", "seed")}
    assert now[-1]["moves"] and now[-1]["winner"] in ("attackers", "defenders", None) and now[-1]["reason"]


@pytest.mark.parametrize("name", ["study.json", "games.jsonl"])
def test_a_fifo_in_place_of_a_study_file_is_one_line_for_every_command(study, tmp_path, name):
    (study / name).unlink()
    os.mkfifo(study / name)
    for argv in [r(study, tmp_path) for r in READERS] + [(*LAB, "--out", str(study))]:
        t0 = time.monotonic()
        res = run(*argv, timeout=60)
        assert "pipe" in one_line(res) or "pipe" in res.stderr
        within(time.monotonic() - t0, 30, "refusing the pipe")
    assert stat.S_ISFIFO(os.lstat(study / name).st_mode)


def test_dev_zero_as_the_games_file_is_refused_not_read(study, tmp_path):
    (study / "games.jsonl").unlink()
    (study / "games.jsonl").symlink_to("/dev/zero")
    res = run(*READERS[0](study, tmp_path), timeout=60)
    assert "device" in one_line(res)


def _edit_study(study: Path, change) -> None:
    data = json.loads((study / "study.json").read_text())
    change(data)
    (study / "study.json").write_text(json.dumps(data))


@pytest.mark.parametrize("change, words, readers", [
    (lambda d: d.update(games=10**12), "games per cell", READERS),  # every reader, once
    (lambda d: d["axes"][0].update(values=list(range(10**5))), "cells", READERS[:1]),
    (lambda d: d.pop("seed"), "seed", READERS[:1]),
    (lambda d: d.update(axes="king_capture"), "axes", READERS[:1]),
    (lambda d: d.update(attackers=["easy"]), "level", READERS[:1]),
])
def test_a_study_file_that_lies_is_one_line_and_quick(study, tmp_path, change, words, readers):
    _edit_study(study, change)
    before = snapshot(study)
    t0 = time.monotonic()
    for reader in readers:
        res = run(*reader(study, tmp_path), timeout=60)
        assert words in one_line(res)
    within(time.monotonic() - t0, 60, "the readers")
    assert snapshot(study) == before


def test_a_deeply_nested_study_file_is_one_line(study, tmp_path):
    (study / "study.json").write_text("[" * 100_000 + "]" * 100_000)
    assert "nested too deeply" in one_line(run(*READERS[0](study, tmp_path)))


def test_a_chart_link_to_a_file_outside_the_folder_is_not_written_through(study, tmp_path):
    outside = tmp_path / "precious.txt"
    outside.write_text("keep me")
    (study / "chart.png").unlink()
    (study / "chart.png").symlink_to(outside)
    res = run(*LAB, "--out", str(study), timeout=300)
    assert "outside the study's folder" in one_line(res)
    assert outside.read_text() == "keep me" and (study / "chart.png").is_symlink()


# ------------------------------------------------------------------------------ poisoned results
def test_poisoned_results_are_not_counted_and_each_kind_is_said(study, tmp_path):
    games = study / "games.jsonl"
    rows = [json.loads(x) for x in games.read_text().splitlines()]
    first_of = {r["cell"]: r for r in reversed(rows) if r["game"] == 0}
    negative = dict(first_of[0], plies=-5, moves=[])
    illegal = dict(first_of[1], moves=["a1-a7", *first_of[1]["moves"][1:]])
    flipped = dict(first_of[2], winner="defenders" if first_of[2]["winner"] == "attackers" else "attackers")
    nowhere = dict(first_of[3], cell=7)
    twice = dict(first_of[3], game=0, seed=1, moves=list(first_of[3]["moves"]), winner=None, capped=True)
    keyless = {k: v for k, v in rows[-1].items() if k != "winner"}  # a missing key: not a game result
    rows = [r for r in rows if r["game"] != 0 and r is not rows[-1]] + [negative, illegal, flipped, nowhere,
                                                                         first_of[3], twice, keyless]
    games.write_text("".join(json.dumps(r) + "\n" for r in rows))
    before = snapshot(study)
    res = run(*READERS[0](study, tmp_path))
    # cells 0, 1 and 2 lost their game 0 (poisoned); cell 3 keeps its honest game 0 but not its last game
    assert [n for _w, n in counts(res)] == [29, 29, 29, 29]
    warnings = [x for x in res.stderr.splitlines() if "warning" in x]
    assert any("do not replay" in w and "3 games" in w for w in warnings), res.stderr
    assert any("no cell" in w for w in warnings) and any("different result" in w for w in warnings)
    assert any("1 line is not a game result" in w for w in warnings)
    assert len(warnings) == 2 * 4  # four kinds, said for each side of the comparison (the same folder)
    assert snapshot(study) == before


def test_the_largest_study_the_limits_allow_holds_little_before_its_first_game(tmp_path):
    # 64 cells of 100,000 games (the limits): listing 6.4 million jobs up front held about a gigabyte
    script = f"""
import resource, sys, time, tracemalloc
resource.setrlimit(resource.RLIMIT_AS, (1536 << 20, 1536 << 20))
sys.path.insert(0, {str(ROOT)!r})
from tafl_desktop.lab.store import ResultStore
from tafl_desktop.lab.study import Study
from tafl_desktop.lab.runner import pending_jobs
study = Study.create("copenhagen", ["king_speed=1,2,3,4,5,6,7,8",
                     "captureless_draw=0,10,20,30,40,50,60,70"], "beginner", "beginner", 100_000)
store = ResultStore.open({str(tmp_path / "big")!r}, study)
tracemalloc.start()
t0 = time.monotonic()
first = next(iter(pending_jobs(store)))
print(first.cell, first.game, tracemalloc.get_traced_memory()[1] // 2**20, time.monotonic() - t0)
"""
    res = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr[-2000:]
    cell, game, peak_mb, seconds = res.stdout.split()
    assert (int(cell), int(game)) == (0, 0)
    assert int(peak_mb) < 50
    within(float(seconds), 10, "reading the game")


# ------------------------------------------------------------------------------ Dask (item 10)
@pytest.mark.parametrize("address, words", [
    ("tls://127.0.0.1:1", "not supported"), ("ucx://127.0.0.1:1", "not supported"),
    ("inproc://x", "not supported"), ("tcp://127.0.0.1:99999", "not an address"),
    ("tcp://[::1", "not an address"), ("tcp://127.0.0.1:1/path", "not an address"),
    ("tcp://\u0663:1", "not an address"), ("tcp://", "not an address"), ("", "needs an address"),
])
def test_scheduler_addresses_that_cannot_work_are_refused_in_words(address, words):
    from tafl_desktop.lab.executors import scheduler_address
    from tafl_desktop.lab.study import StudyError

    with pytest.raises(StudyError, match=words) as refused:
        scheduler_address(address)
    assert "\n" not in str(refused.value) and len(str(refused.value)) < 200


@pytest.mark.parametrize("address, words", [("tls://127.0.0.1:1", "not supported"),
                                            ("tcp://127.0.0.1:99999", "not an address")])
def test_the_lab_command_refuses_such_an_address_in_one_line_at_once(tmp_path, address, words):
    t0 = time.monotonic()
    res = run("lab", "brandubh", "--vary", "king_capture=strong,custodial", "--games", "1", "--scheduler", address,
              "--out", str(tmp_path / "s"), timeout=60)
    assert words in one_line(res)
    within(time.monotonic() - t0, 20, "giving up on the scheduler")
    assert not (tmp_path / "s").exists()  # refused before the folder was made


def test_a_scheduler_that_never_answers_times_out_with_one_line(tmp_path):
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:  # accepts every connection and never says a word
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        t0 = time.monotonic()
        res = run("lab", "brandubh", "--vary", "king_capture=strong,custodial", "--games", "1", "--scheduler",
                  f"tcp://127.0.0.1:{server.getsockname()[1]}", "--out", str(tmp_path / "s"), timeout=90)
        took = time.monotonic() - t0
    finally:
        stop.set()
        thread.join(2)
        for s in held:
            s.close()
        server.close()
    assert "no Dask scheduler answered" in one_line(res)
    within(took, 40, "giving up on the silent scheduler")
