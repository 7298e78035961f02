"""``benchmarks/endgames.py tally`` (issue 44 item 1): the won-endgame suite's runs added up per
position, so that a run's swing of three or four positions is read against every run kept.

Driven as a user runs it: the script in a subprocess on result files written to disk."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "endgames.py"


def _result(path: Path, games: list[tuple[str, str, str, str | None]]) -> Path:
    rows = [{"game": g, "source": s, "ahead": ahead, "winner": winner, "reason": "x", "plies": 50}
            for g, s, ahead, winner in games]
    path.write_text(json.dumps({"converted": 0, "games": rows}), encoding="utf-8")
    return path


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), "tally", *args], capture_output=True, text=True,
                          cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, timeout=120)


def test_tally_counts_each_position_over_every_run(tmp_path):
    one = _result(tmp_path / "one.json", [
        ("copenhagen", "line 42", "attackers", "attackers"),
        ("copenhagen", "line 48", "attackers", None),
        ("dablot_mini", "seed 6", "defenders", "attackers"),   # the side behind won: not converted
    ])
    two = _result(tmp_path / "two.json", [
        ("copenhagen", "line 42", "attackers", None),
        ("copenhagen", "line 48", "attackers", "attackers"),
        ("dablot_mini", "seed 6", "defenders", "defenders"),
    ])
    three = _result(tmp_path / "three.json", [("copenhagen", "line 42", "attackers", "attackers")])
    done = _run(str(one), str(two), str(three), "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    rows = {(r["game"], r["source"]): (r["won"], r["played"]) for r in out["positions"]}
    assert rows == {("copenhagen", "line 42"): (2, 3), ("copenhagen", "line 48"): (1, 2),
                    ("dablot_mini", "seed 6"): (1, 2)}
    assert out["expected"] == {"copenhagen": round(2 / 3 + 1 / 2, 2), "dablot_mini": 0.5}
    assert out["expected_all"] == round(2 / 3 + 1 / 2 + 1 / 2, 2)
    assert out["files"] == 3
    text = _run(str(one), str(two)).stdout
    assert "expected per run: all 1.5 of 3 (over 2 files)" in text


def test_tally_refuses_a_file_that_is_not_a_result_in_one_line(tmp_path):
    good = _result(tmp_path / "good.json", [("tablut", "seed 1", "attackers", "attackers")])
    cases = {
        "garbage.json": b"\x00\xff not json",
        "list.json": b"[1, 2, 3]",
        "no_games.json": b'{"converted": 3}',
        "row_missing.json": b'{"games": [{"game": "tablut"}]}',
    }
    for name, data in cases.items():
        bad = tmp_path / name
        bad.write_bytes(data)
        done = _run(str(good), str(bad))
        assert done.returncode == 2, name
        assert "Traceback" not in done.stderr, name
        assert f"{bad}: not an endgames.py result" in done.stderr, name
    missing = _run(str(tmp_path / "absent.json"))
    assert missing.returncode == 2 and "Traceback" not in missing.stderr
    assert "not an endgames.py result" in missing.stderr


def test_the_kept_runs_tally_and_name_the_suite_positions():
    """The results kept in the repository tally without a refusal, and every position they name
    is one of the suite's (the sources did not drift from the suite file)."""
    files = sorted((ROOT / "benchmarks" / "results").glob("endgames_*.json"))
    assert files
    done = _run(*map(str, files), "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    suite = {(e["game"], e["source"]) for e in json.loads((ROOT / "benchmarks" / "endgame_suite.json").read_text())}
    named = {(r["game"], r["source"]) for r in out["positions"]}
    assert named <= suite
    assert all(0 <= r["won"] <= r["played"] for r in out["positions"])
