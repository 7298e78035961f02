"""Issue 37, item 7: a number out of range is called out of range, with the range and the value given.

The real command line in a subprocess: ``--time 1e-9``, ``--time 1e30`` and ``--square-mm 1e9``
are numbers (argparse used to call them "not a number"); the error names the range.  A square of
80.0001 mm (the largest is 80) is said as 80.0001 mm, not "80 mm", in English and German.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tafl_desktop", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120)


@pytest.mark.parametrize("args, said", [
    (["analyse", "copenhagen", "--time", "1e-9"], "argument --time: '1e-9' is out of range: use 0.001 to 3,600"),
    (["analyse", "copenhagen", "--time", "1e30"], "argument --time: '1e30' is out of range: use 0.001 to 3,600"),
    (["review", "game.tafl.json", "--time", "1e30"], "argument --time: '1e30' is out of range: use 0.001 to 600"),
    (["print", "copenhagen", "--square-mm", "1e9", "--out", "x.pdf"],
     "argument --square-mm: '1e9' is out of range: use 0 to 1,000"),
    (["print", "copenhagen", "--square-mm", "1e400", "--out", "x.pdf"],
     "argument --square-mm: '1e400' is out of range: use 0 to 1,000"),
    (["print", "copenhagen", "--square-mm", "80.0001", "--out", "x.pdf"],
     "a square of 80.0001 mm is too large: use at most 80 mm"),
    (["print", "copenhagen", "--square-mm", "80.0001", "--format", "svg", "--out", "x.svg"],
     "the square size of 80.0001 mm is out of range: use 8 to 80 mm"),
    (["print", "copenhagen", "--draught-mm", "100.004", "--out", "x.pdf"],
     "a draught of 100.004 mm is out of range: use 15 to 60 mm"),
    (["--lang", "de", "print", "copenhagen", "--square-mm", "80.0001", "--out", "x.pdf"], "80,0001 mm"),
])
def test_numbers_out_of_range_say_the_range_and_the_value_given(tmp_path, args, said):
    done = run(*args, cwd=tmp_path)
    assert done.returncode != 0 and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and said in lines[0], done.stderr
    assert "not a number" not in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "x.pdf").exists() and not (tmp_path / "x.svg").exists()


def test_a_number_with_an_exponent_in_range_is_taken(tmp_path):
    done = run("analyse", "brandubh", "--time", "5e-2", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert '"lines"' in done.stdout
