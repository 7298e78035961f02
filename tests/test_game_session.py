"""The game session without a window (issue 27): one ``load()`` for every way a game arrives, one
history (undo and redo walk the game tree), the clock and the record's tags belong to the game
loaded, and the session runs without Qt.  The window's own tests (``test_gui_session_defects``)
drive the same promises through menus and clicks; these pin the session's API that every view
and capability uses."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tafl_desktop.core.clock import TimeControl
from tafl_desktop.core.game import Game
from tafl_desktop.core.variants import find_variant
from tafl_desktop.session.session import GameSession
from tafl_desktop.session.source import GameSource, Origin

ROOT = Path(__file__).resolve().parent.parent
#: Three opening moves of Brandubh, legal one after another from the start.
MOVES = ["d6-b6", "c4-c6", "b6-b5"]


class FakeTime:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def _pasted(texts: list[str]) -> GameSource:
    game = Game(find_variant("brandubh").make_rules())
    for text in texts:
        game.play_text(text)
    return GameSource.of_game(game, Origin.PASTE, saved=False)


def _play(session: GameSession, text: str) -> None:
    assert session.play(session.rules.parse_move(session.game.position, text))


@pytest.mark.parametrize("origin", [Origin.PASTE, Origin.IMPORT, Origin.DROP, Origin.LAB])
def test_every_way_in_drops_the_last_game_s_clock(origin):
    t = FakeTime()
    session = GameSession(GameSource.new(find_variant("brandubh"), time_control=TimeControl.parse("60")), now=t)
    assert session.clock is not None and "time-control" in session.record_tags()
    game = Game(find_variant("brandubh").make_rules())
    session.load(GameSource.of_game(game, origin))
    assert session.clock is None
    assert "time-control" not in session.record_tags() and "time-remaining" not in session.record_tags()
    t.t += 600
    session.tick()
    assert session.game.outcome is None


def test_a_record_s_own_clock_comes_back_with_it(tmp_path):
    t = FakeTime()
    session = GameSession(GameSource.new(find_variant("brandubh"), time_control=TimeControl.parse("60")), now=t)
    _play(session, "d6-b6")
    t.t += 5
    path = tmp_path / "clocked.tafl.json"
    session.save(str(path))
    assert json.loads(path.read_text())["tags"]["time-control"] == "60"
    session.load(_pasted(MOVES))  # another game in between: no clock
    assert session.clock is None
    session.load(GameSource.from_record(path))
    assert session.clock is not None and session.clock.control.text() == "60"
    assert not session.modified and session.path == str(path)


def test_undo_and_redo_walk_the_one_tree():
    session = GameSession(GameSource.new(find_variant("brandubh")))
    for text in MOVES:
        _play(session, text)
    nodes = list(session.line_nodes())
    session.undo()
    session.undo()
    # the moves taken back stay in the tree (the one history); the game on screen is shorter
    assert session.game.move_texts() == MOVES[:1] and session.tree.size() == 3
    assert session.end_node is nodes[0] and session.can_redo
    session.redo()
    assert session.end_node is nodes[1]  # the same node again, not a copy
    session.redo()
    assert session.end_node is nodes[2] and session.game.move_texts() == MOVES and not session.can_redo
    session.undo()
    _play(session, "b6-a6")  # another move where one was taken back: nothing left to replay
    assert not session.can_redo
    assert session.game.move_texts() == [*MOVES[:2], "b6-a6"]
    assert session.tree.size() == 4  # b6-b5 is kept in the tree beside it


def test_a_loaded_game_replaces_history_tags_file_and_saved_state(tmp_path):
    session = GameSession(GameSource.new(find_variant("brandubh")))
    _play(session, "d6-b6")
    path = tmp_path / "first.tafl.json"
    session.save(str(path))
    assert not session.modified and session.path == str(path)
    session.load(_pasted(MOVES))
    assert session.game.move_texts() == MOVES and session.end_node.depth == 3
    assert session.path is None and session.modified  # a pasted list is kept nowhere yet
    session.undo()
    assert session.game.move_texts() == MOVES[:2]
    session.load(GameSource.new(find_variant("tablut")))
    assert session.variant.id == "tablut" and not session.can_undo and not session.can_redo


def test_the_session_runs_without_qt():
    code = ("import sys\n"
            "from tafl_desktop.session.session import GameSession\n"
            "from tafl_desktop.session.source import GameSource\n"
            "from tafl_desktop.core.variants import find_variant\n"
            "s = GameSession(GameSource.new(find_variant('brandubh')))\n"
            "assert s.play(s.rules.parse_move(s.game.position, 'd6-b6'))\n"
            "s.undo(); s.redo()\n"
            "print([m for m in sys.modules if m.split('.')[0] in ('PySide6', 'reportlab')])\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "[]"
