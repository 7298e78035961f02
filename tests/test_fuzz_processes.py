"""Issue 26's fuzz run of the surfaces that talk to other processes or read folders (see
``tests/fuzz_processes.py``): host lines fed to real ``tafl-desktop engine`` processes, turns of a
scripted hostile engine through the host, Rules Lab study folders and puzzle files.  At least 5,000
inputs, none of which may give a traceback, a hang over 10 s, more than 500 MB of memory (the
fuzzer's own or an engine's), a changed file no one asked to write, a host call that waits, or a
process left running.  The default suite runs 1,000; the 5,000 and the long tail (50,000 inputs)
are marked slow::

    QT_QPA_PLATFORM=offscreen .venv/bin/python -m pytest -m slow -s tests/test_fuzz_processes.py
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from timing import within

ROOT = Path(__file__).resolve().parents[1]
FUZZER = ROOT / "tests" / "fuzz_hostile.py"
MAX_RSS_MB = 500
HANG_SECONDS = 10

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="process groups and leftovers are read from /proc")


def run(count: int, seed: int, timeout: float) -> dict:
    done = subprocess.run([sys.executable, str(FUZZER), "--plugin", "fuzz_processes", "--count", str(count),
                           "--seed", str(seed)], capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    assert done.stdout.strip(), f"the fuzzer itself failed:\n{done.stderr[-3000:]}"
    report = json.loads(done.stdout.strip().splitlines()[-1])
    print(f"\nprocess fuzz seed {seed}: {report['inputs']} inputs {report['by_category']}, outcomes "
          f"{report['outcomes']}, slowest input {report['slowest_input_seconds']} s, peak {report['peak_rss_mb']} MB "
          f"(children {report['children_peak_rss_mb']} MB), {report['seconds']} s in all")
    return report


def check(report: dict, count: int) -> None:
    from fuzz_processes import WEIGHTS

    assert report["failures"] == [], json.dumps(report["failures"], indent=1)
    assert report["inputs"] >= count
    rounds = count // sum(WEIGHTS.values())
    for category, weight in WEIGHTS.items():
        assert report["by_category"].get(category, 0) >= rounds * weight, category
    outcomes = report["outcomes"]
    # the generators must reach past the first refusal: games opened, moves accepted, engines that left
    assert outcomes.get("loaded", 0) > count // 50, "almost every folder and file rejected: the generators drifted"
    assert outcomes.get("engine moves accepted", 0) > rounds // 4
    assert outcomes.get("engine sessions ended cleanly", 0) >= 1
    within(report["slowest_input_seconds"], HANG_SECONDS, "the slowest input")
    assert report["peak_rss_mb"] < MAX_RSS_MB and report["children_peak_rss_mb"] < MAX_RSS_MB


def test_a_thousand_hostile_protocol_lines_folders_and_puzzles_end_cleanly():
    """The default suite's run (a minute of the suite's ten on two cores: the brief's budget); the
    issue's 5,000 and the long tail are marked slow (``pytest -m slow`` on this file)."""
    count = 1_000
    check(run(count, seed=26, timeout=900), count)


@pytest.mark.slow
def test_five_thousand_hostile_protocol_lines_folders_and_puzzles_end_cleanly():
    count = 5_000
    check(run(count, seed=26, timeout=900), count)


@pytest.mark.slow
def test_the_long_tail_of_protocol_lines_folders_and_puzzles():
    count = 50_000
    check(run(count, seed=2026, timeout=7200), count)
