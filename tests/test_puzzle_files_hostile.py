"""Issue 26, item 9: puzzle files handed to ``puzzles check --file`` are read like every other file.

A FIFO, a device or a huge file is refused before it is read (``core.safe_files.read_limited``),
JSON nested 100,000 deep and a solution tree nested 900 deep each give one line, never a
traceback or a hang.  The real CLI runs in a subprocess, as a user runs it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tafl_desktop.study.puzzles import PuzzleSet, puzzles_dir

pytestmark = pytest.mark.skipif(os.name != "posix", reason="FIFOs and device files are POSIX")


def check(path, timeout: float = 30) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tafl_desktop", "puzzles", "check", "--file", str(path)],
                          capture_output=True, text=True, timeout=timeout)


def one_line(res: subprocess.CompletedProcess) -> str:
    assert res.returncode == 1, res.stderr
    assert "Traceback" not in res.stderr and len(res.stderr.strip().splitlines()) == 1, res.stderr
    return res.stderr


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "set.json"
    os.mkfifo(fifo)
    assert "pipe" in one_line(check(fifo, timeout=20))


def test_devices_and_huge_files_are_refused(tmp_path):
    assert "device" in one_line(check("/dev/zero"))
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as fh:
        fh.truncate(3 << 30)  # sparse: 3 GB claimed, nothing on disk
    assert "bytes" in one_line(check(huge))


@pytest.mark.parametrize("bracket", ["[", '{"a":'])
def test_json_nested_deep_is_one_line(tmp_path, bracket):
    path = tmp_path / "deep.json"
    close = "]" if bracket == "[" else "}"
    path.write_text(bracket * 100_000 + "1" + close * 100_000)
    assert "nested too deeply" in one_line(check(path))


def test_a_solution_tree_nested_deep_is_reported_not_a_traceback(tmp_path):
    data = dict(PuzzleSet.load(puzzles_dir() / "brandubh.json").puzzles[0])
    data.pop("tree", None)
    depth = 300  # three JSON levels each: within what json reads, far past any puzzle's 99 plies
    deep_tree = '["d1-d2",[[["a1-a2"],' * depth + '"d2-d3"' + "]]]" * depth
    puzzle = json.dumps(data)[:-1] + ', "tree": ' + deep_tree + "}"
    path = tmp_path / "deep-tree.json"
    path.write_text('{"format": 1, "variant": "brandubh", "puzzles": [' + puzzle + "]}")
    res = check(path, timeout=120)
    assert res.returncode == 1 and "Traceback" not in res.stderr, res.stderr
    assert "malformed" in res.stderr and "0 of 1 puzzles verified" in res.stdout
