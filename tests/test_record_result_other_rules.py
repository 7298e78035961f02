"""A record whose stated result the rules chosen cannot give (issue 42, item 5, results): the
refusal names both results and offers the rules under which the result holds, on the command line
(``convert``) and in the window's Import.

The record is a real Copenhagen game (resources/games/copenhagen.csv, line 221, result ``Black``:
the attackers won): its 67th move g4-g3xg2 leaves the defenders without a legal move.  Under the
preset a side without a move loses (Copenhagen Hnefatafl rules, tafl-rules.md: "if a player cannot
move, he loses the game"); under the toggle no_moves = draw the same move ends the game in a draw,
which contradicts the record's result."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

GAMES = Path(__file__).resolve().parents[1] / "resources" / "games" / "copenhagen.csv"
CLI = [sys.executable, "-m", "tafl_desktop"]


def _line_221() -> tuple[str, str]:
    moves, _n1, _n2, result = GAMES.read_text().splitlines()[220].rsplit(",", 3)
    return moves, result


def _pgn(tmp_path: Path) -> Path:
    """The game as a PGN record written by the app under no_moves = draw, with the result the
    real record states (Black: the attackers won, OpenTafl's 1)."""
    moves, result = _line_221()
    assert result == "Black"
    text = tmp_path / "cph-221.txt"
    text.write_text(moves + "\n")
    pgn = tmp_path / "cph-221-draw.pgn"
    res = subprocess.run([*CLI, "convert", str(text), str(pgn), "--from-format", "moves", "--variant", "copenhagen",
                          "--set", "no_moves=draw"], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    pgn.write_text('[Result "1"]\n' + pgn.read_text())
    return pgn


def test_convert_names_the_result_that_differs_and_the_rules_that_give_it(tmp_path):
    pgn = _pgn(tmp_path)
    out = tmp_path / "out.tafl.json"
    out.write_text("kept")
    res = subprocess.run([*CLI, "convert", str(pgn), str(out)], capture_output=True, text=True, timeout=120)
    assert res.returncode != 0 and res.stdout == "" and "Traceback" not in res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "the record gives a win for the attackers, but under these rules the game ends at move 67 (Draw" in lines[0]
    assert "It replays under other rules: no legal move: that side loses" in lines[0]
    assert out.read_text() == "kept"


def test_the_same_game_under_the_preset_imports_with_its_result(tmp_path):
    """No result refused where the rules agree: the preset gives the attackers the win."""
    from tafl_desktop.core.game import Side
    from tafl_desktop.core.variants import find_variant
    from tafl_desktop.interop.game_table import read_line

    moves, result = _line_221()
    t = read_line(f"{moves},0,0,{result}", find_variant("copenhagen"), 221)
    assert t is not None and t.game.outcome is not None and t.game.outcome.winner == Side.ATTACKERS


def test_the_window_names_the_result_that_differs(qtbot, make_window, dialogs_recorder, tmp_path):
    """The record states its own rules (a Rules tag), so the window names the difference and the
    rules that give the result in its one refusal, and the current game is kept."""
    pgn = _pgn(tmp_path)
    w = make_window("copenhagen")
    before = w.session.game
    dialogs_recorder.open_paths.append(str(pgn))
    w.act_import.trigger()
    qtbot.waitUntil(lambda: bool(dialogs_recorder.errors), timeout=20000)
    text = str(dialogs_recorder.errors[-1])
    assert "the record gives a win for the attackers" in text and "no legal move: that side loses" in text
    assert w.session.game is before


def _edited_json(tmp_path: Path) -> Path:
    """Our own record of the game under no_moves = draw (result draw), its result edited to the
    attackers' win the real record states."""
    import json

    moves, _result = _line_221()
    text = tmp_path / "cph-221.txt"
    text.write_text(moves + "\n")
    saved = tmp_path / "cph-221.tafl.json"
    res = subprocess.run([*CLI, "convert", str(text), str(saved), "--from-format", "moves", "--variant", "copenhagen",
                          "--set", "no_moves=draw"], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    data = json.loads(saved.read_text())
    assert (data["result"], data["reason"]) == ("draw", "no_moves")
    data["result"] = "attackers"
    saved.write_text(json.dumps(data))
    return saved


def test_our_own_record_with_a_result_its_moves_do_not_give_is_refused(tmp_path):
    saved = _edited_json(tmp_path)
    out = tmp_path / "out.pgn"
    res = subprocess.run([*CLI, "convert", str(saved), str(out)], capture_output=True, text=True, timeout=120)
    assert res.returncode != 0 and not out.exists() and "Traceback" not in res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "the record gives a win for the attackers, but under these rules the game ends at move 67 (Draw" in lines[0]


def test_the_window_refuses_our_record_with_a_result_its_moves_do_not_give(qtbot, make_window, dialogs_recorder,
                                                                         tmp_path):
    saved = _edited_json(tmp_path)
    w = make_window("copenhagen")
    before = w.session.game
    dialogs_recorder.open_paths.append(str(saved))
    w.act_import.trigger()
    qtbot.waitUntil(lambda: bool(dialogs_recorder.errors), timeout=20000)
    assert "the record gives a win for the attackers" in str(dialogs_recorder.errors[-1])
    assert w.session.game is before
