"""A record played under other rules (issue 42, item 5): the refusal names the rule that differs
and offers the rules that replay it, on the command line (``convert``) and in the window's Import.

The record is the first ten moves of a real Brandubh game (resources/games/brandubh.csv, line 27).
Its ninth move c6-d6 takes e6, and the record says nothing more is taken, while the king stands on
d5, beside the throne: under the preset (king_capture = double_weak, two attackers take him off the
throne, source 003) the same move takes him too, so the game is over there and the king's tenth move
d5-d3 comes after its end.  (A record may leave out the king's capture, as the shipped tables do; a
move after it cannot be left out.)  tafl-rules.md 2.2 names the rules it was
played under: hnefatafl-rs's Brandubh (``StrongByThrone``, encirclement) and Ludii's Brandub take
the king by four on the throne, three and the throne beside it, two elsewhere
(king_capture = weak_near_throne)."""

from __future__ import annotations

import subprocess
import sys

from tafl_desktop.core.game import Game
from tafl_desktop.core.record import load_game
from tafl_desktop.core.variants import find_variant

RECORD = "d2-e2 d5-e5 d6-c6 d4-d6 f4-f6 e5-e6 e2-d2xd3 d6-d5 c6-d6xe6 d5-d3\n"
CLI = [sys.executable, "-m", "tafl_desktop"]


def _convert(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, "convert", *args], capture_output=True, text=True, timeout=120)


def test_the_preset_takes_the_king_where_the_record_does_not():
    """The rule difference itself, on the rules objects: under the preset the ninth move takes the
    king with e6; under weak_near_throne only e6 goes."""
    for options, taken in (({}, {"d5", "e6"}), ({"king_capture": "weak_near_throne"}, {"e6"})):
        v = find_variant("brandubh").with_options(options)
        game = Game(v.make_rules())
        for text in RECORD.split()[:8]:
            game.play_text(text.split("x")[0])
        ply = game.play_text("c6-d6")
        assert {v.geometry.name(s) for s in ply.captures} == taken


def test_convert_names_the_rule_that_differs_and_the_rules_that_replay_it(tmp_path):
    record = tmp_path / "brandubh-27.txt"
    record.write_text(RECORD)
    out = tmp_path / "out.tafl.json"
    out.write_text("kept")
    res = _convert(str(record), str(out), "--from-format", "moves", "--variant", "brandubh")
    assert res.returncode != 0 and res.stdout == ""
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in res.stderr
    line = lines[0]
    assert "move 10 (d5-d3) comes after the end of the game (Attackers win: the king was captured)" in line
    assert "Federation Brandubh (king captured by: four on or beside the throne, else two" in line
    assert "hnefatafl-rs" in line
    # the named rules are a shipped preset: the offer names it (tests/test_brandubh_federation.py)
    assert line.endswith("use --variant brandubh_federation.")
    assert out.read_text() == "kept"  # nothing the user had is overwritten
    res = _convert(str(record), str(out), "--from-format", "moves", "--variant", "brandubh_federation")
    assert res.returncode == 0, res.stderr
    game = load_game(out)
    assert game.move_texts() == [t.split("x")[0] for t in RECORD.split()]
    options = game.rules.variant.options
    assert (options["king_capture"], options["encirclement"]) == ("weak_near_throne", True)
    # the toggles alone still read it (the second offer's rule among them)
    res = _convert(str(record), str(out), "--from-format", "moves", "--variant", "brandubh",
                   "--set", "king_capture=weak_near_throne", "--set", "encirclement=true")
    assert res.returncode == 0, res.stderr


def test_a_record_no_rule_change_explains_is_refused_as_before(tmp_path):
    record = tmp_path / "bad.txt"
    record.write_text("d2-e2 d5-e5xe4\n")  # e5 takes nothing under any rules: the king cannot be taken so
    res = _convert(str(record), str(tmp_path / "o.tafl.json"), "--from-format", "moves", "--variant", "brandubh")
    assert res.returncode != 0 and "captures e4 in the record" in res.stderr
    assert "other rules" not in res.stderr and len(res.stderr.strip().splitlines()) == 1


def test_the_window_offers_the_rules_that_replay_an_imported_record(qtbot, make_window, dialogs_recorder,
                                                                   tmp_path, monkeypatch):
    from PySide6.QtWidgets import QInputDialog

    from tafl_desktop.gui import dialogs

    record = tmp_path / "brandubh-27.txt"
    record.write_text(RECORD)
    monkeypatch.setattr(QInputDialog, "getItem", staticmethod(lambda _p, _t, _l, names, *_a: ("Brandubh", True)))
    asked: list[str] = []

    def answer(_parent, _title, text, _yes="Yes"):
        asked.append(text)
        return dialogs_recorder.confirm_answer

    monkeypatch.setattr(dialogs, "confirm", answer)
    w = make_window("brandubh")
    before = w.session.game
    dialogs_recorder.confirm_answer = False
    dialogs_recorder.open_paths.append(str(record))
    w.act_import.trigger()
    assert asked and "Federation Brandubh" in asked[-1] and "king captured by" in asked[-1]
    assert w.session.game is before and not dialogs_recorder.errors  # declined: nothing changed

    dialogs_recorder.confirm_answer = True
    dialogs_recorder.open_paths.append(str(record))
    w.act_import.trigger()
    c = w.controller
    assert c.session.game.move_texts() == [t.split("x")[0] for t in RECORD.split()]
    variant = c.session.variant
    assert variant.id == "brandubh_federation" and variant.changed_options() == {}  # the preset itself
