"""Issue 17's fuzz suite: at least 10,000 generated hostile inputs per run (positions, variant
files, game records, special files; see ``tests/fuzz_hostile.py``), none of which may give a
traceback, a hang over 10 s, more than 500 MB of memory or a changed game.

The fuzzer runs in a child process, so the peak memory it reports is its own (not pytest's or
Qt's).  The default run takes about 15 s of CPU; the long tail (100,000 inputs, more variant files
and records, about six minutes) is marked slow::

    QT_QPA_PLATFORM=offscreen .venv/bin/python -m pytest -m slow -s tests/test_fuzz_hostile_inputs.py
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from timing import within

ROOT = Path(__file__).resolve().parents[1]
FUZZER = ROOT / "tests" / "fuzz_hostile.py"
MAX_RSS_MB = 500
HANG_SECONDS = 10

pytestmark = pytest.mark.skipif(os.name != "posix", reason="FIFOs, sockets, devices and SIGALRM are POSIX")


def run_fuzzer(count: int, seed: int, position_share: float, timeout: float) -> dict:
    done = subprocess.run([sys.executable, str(FUZZER), "--count", str(count), "--seed", str(seed),
                           "--position-share", str(position_share)],
                          capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    assert done.stdout.strip(), f"the fuzzer itself failed:\n{done.stderr[-3000:]}"
    report = json.loads(done.stdout.strip().splitlines()[-1])
    print(f"\nfuzz seed {seed}: {report['inputs']} inputs {report['by_category']}, outcomes {report['outcomes']}, "
          f"slowest input {report['slowest_input_seconds']} s, peak {report['peak_rss_mb']} MB, "
          f"{report['seconds']} s in all")
    return report


def check(report: dict, count: int) -> None:
    assert report["failures"] == [], json.dumps(report["failures"], indent=1)
    assert report["inputs"] >= count
    for category in ("positions", "variants", "records", "special files"):
        assert report["by_category"].get(category, 0) > 0, category
    assert report["outcomes"].get("loaded", 0) > 0, "every input rejected: the generator has drifted off the format"
    within(report["slowest_input_seconds"], HANG_SECONDS, "the slowest input")
    assert report["peak_rss_mb"] < MAX_RSS_MB


def test_ten_thousand_hostile_inputs_end_cleanly():
    count = 10_000
    check(run_fuzzer(count, seed=17, position_share=0.7, timeout=600), count)


@pytest.mark.slow
def test_the_long_tail_of_hostile_inputs():
    count = 100_000
    check(run_fuzzer(count, seed=1, position_share=0.5, timeout=3600), count)
