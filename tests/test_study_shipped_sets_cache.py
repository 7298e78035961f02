"""The shipped puzzle sets are parsed once per process (``_SHIPPED`` in ``study/puzzles.py``):
25 MB of JSON that the Learn window, the CLI's list and the picker each read anew.  What must hold:
a caller that changes what it got changes nothing for the next caller, and a set rewritten on
disk (``puzzles generate``) is read again."""

from __future__ import annotations

import json
import os
import shutil

from tafl_desktop.study import puzzles
from tafl_desktop.study.puzzles import PuzzleSet, all_puzzles, shipped_sets


def _folder(tmp_path, monkeypatch):
    folder = tmp_path / "puzzles"
    folder.mkdir()
    shutil.copy(puzzles.puzzles_dir() / "brandubh.json", folder / "brandubh.json")
    monkeypatch.setattr(puzzles, "puzzles_dir", lambda: folder)
    return folder


def test_a_callers_changes_stay_its_own(tmp_path, monkeypatch):
    _folder(tmp_path, monkeypatch)
    first = all_puzzles()
    count, first_id = len(first), first[0]["id"]
    first[0]["id"] = "changed"
    first[0]["themes"] = ["none"]
    first.clear()
    shipped_sets()[0].scanned["games"] = "changed"
    again = all_puzzles()
    assert len(again) == count and again[0]["id"] == first_id and again[0]["themes"] != ["none"]
    assert shipped_sets()[0].scanned["games"] != "changed"


def test_the_sets_are_parsed_once_and_again_when_the_file_changes(tmp_path, monkeypatch):
    folder = _folder(tmp_path, monkeypatch)
    loads = []
    real = PuzzleSet.load
    monkeypatch.setattr(PuzzleSet, "load", classmethod(lambda cls, p: loads.append(p) or real(p)))
    count = len(all_puzzles())
    all_puzzles()
    assert len(loads) == 1
    path = folder / "brandubh.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["puzzles"] = data["puzzles"][:3]
    stamp = path.stat().st_mtime_ns
    path.write_text(json.dumps(data), encoding="utf-8")
    os.utime(path, ns=(stamp + 1_000_000_000, stamp + 1_000_000_000))
    assert len(all_puzzles()) == 3 < count and len(loads) == 2


def test_a_set_damaged_after_its_first_reading_is_refused(tmp_path, monkeypatch):
    from tafl_desktop.study.puzzles import PuzzleError

    folder = _folder(tmp_path, monkeypatch)
    assert all_puzzles()
    (folder / "brandubh.json").write_text("{not json", encoding="utf-8")
    try:
        all_puzzles()
    except PuzzleError as exc:
        assert "brandubh.json" in str(exc)
    else:
        raise AssertionError("a damaged set was served from memory")
