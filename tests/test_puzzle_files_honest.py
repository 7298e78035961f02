"""Issue 37, item 6: puzzle files that lie about themselves are refused in one line.

The real CLI in a subprocess: a set whose ``variant`` disagrees with its puzzles, an id repeated
1,000 times (it used to be checked 1,000 times, 21 s), a 20 MB file (read whole before), an id
with a terminal escape sequence (echoed raw) are each refused with one ``tafl-desktop:`` line; a
failed verification carries the prefix too; ``puzzles mine`` into another variant's set adds
nothing and leaves the file as it was (it used to re-stamp it).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tafl_desktop.study.puzzles import PuzzleError, puzzles_dir

ROOT = Path(__file__).resolve().parents[1]


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tafl_desktop", *args], capture_output=True, text=True,
                          timeout=120, cwd=cwd)


def brandubh_set() -> dict:
    return json.loads((puzzles_dir() / "brandubh.json").read_text(encoding="utf-8"))


def write_set(path: Path, data: dict) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def one_line(res: subprocess.CompletedProcess) -> str:
    assert res.returncode == 1, (res.returncode, res.stdout, res.stderr)
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tafl-desktop: ") and "Traceback" not in res.stderr, res.stderr
    return lines[0]


def test_a_set_whose_variant_disagrees_with_its_puzzles_is_refused(tmp_path):
    data = brandubh_set()
    data["variant"] = "copenhagen"
    line = one_line(cli("puzzles", "check", "--file", str(write_set(tmp_path / "s.json", data)), cwd=tmp_path))
    assert "puzzle 1 is a puzzle of brandubh, but the set is of copenhagen" in line


def test_an_id_repeated_a_thousand_times_is_refused_at_once(tmp_path):
    data = brandubh_set()
    data["puzzles"] = [data["puzzles"][0]] * 1000
    line = one_line(cli("puzzles", "check", "--file", str(write_set(tmp_path / "s.json", data)), cwd=tmp_path))
    assert f"puzzle 2 repeats the id {data['puzzles'][0]['id']} of an earlier puzzle" in line


def test_a_twenty_megabyte_set_is_refused_before_it_is_read(tmp_path):
    big = tmp_path / "big.json"
    with open(big, "wb") as fh:
        fh.truncate(20 * 1024 * 1024)  # sparse: 20 MB claimed
    line = one_line(cli("puzzles", "check", "--file", str(big), cwd=tmp_path))
    assert "bytes" in line


def test_an_id_with_an_escape_sequence_is_refused_and_shown_escaped(tmp_path):
    data = brandubh_set()
    data["puzzles"] = [dict(data["puzzles"][0], id="\x1b[2J\x1b[31mgotcha")]
    res = cli("puzzles", "check", "--file", str(write_set(tmp_path / "s.json", data)), cwd=tmp_path)
    line = one_line(res)
    assert "\x1b" not in res.stderr + res.stdout
    assert "puzzle 1 has an id with control characters" in line and "\\x1b[2J" in line


def test_a_failed_verification_is_said_with_the_prefix(tmp_path):
    data = brandubh_set()
    bad = dict(data["puzzles"][0])
    bad.pop("tree", None)
    bad["solution"] = ["a1-a1"]
    data["puzzles"] = [bad]
    res = cli("puzzles", "check", "--file", str(write_set(tmp_path / "s.json", data)), cwd=tmp_path)
    assert res.returncode == 1
    failures = res.stderr.strip().splitlines()
    assert len(failures) == 1 and failures[0].startswith(f"tafl-desktop: {bad['id']}: "), res.stderr
    assert "0 of 1 puzzle verified" in res.stdout


def test_mining_into_another_variants_set_adds_nothing_and_leaves_it_alone(tmp_path):
    from tafl_desktop.core.game import Game
    from tafl_desktop.core.record import save_game
    from tafl_desktop.core.variants import find_variant

    game = Game(find_variant("copenhagen").make_rules())
    for text in ["d1-d4", "g5-g3"]:
        game.play_text(text)
    save_game(game, tmp_path / "g.tafl.json")
    target = write_set(tmp_path / "brandubh.json", brandubh_set())
    before, stamp = target.read_bytes(), target.stat().st_mtime_ns
    res = cli("puzzles", "mine", str(tmp_path / "g.tafl.json"), "--out", str(target), cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "added 0 new puzzles" in res.stdout
    assert target.read_bytes() == before and target.stat().st_mtime_ns == stamp


def test_puzzles_of_another_variant_are_not_added_to_a_presets_set(tmp_path):
    from tafl_desktop.study.my_games import add_to_set

    target = write_set(tmp_path / "brandubh.json", brandubh_set())
    before = target.read_bytes()
    stranger = dict(brandubh_set()["puzzles"][0], id="mine-1", variant="copenhagen")
    with pytest.raises(PuzzleError, match="is a set of brandubh puzzles: puzzles of copenhagen cannot be added"):
        add_to_set([stranger], target)
    assert target.read_bytes() == before
