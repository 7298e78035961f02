"""The Analysis board in the real window (offscreen) on the native engine: on a Copenhagen middle
game from the real games it reaches depths the Python search never did in seconds, with three
lines, and says so in the window.  ``TAFL_SHOTS=DIR`` keeps a screenshot for a person to look at."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from tafl_desktop.ai.engine import native_search_available
from tafl_desktop.core.game import Game
from tafl_desktop.session.source import GameSource, Origin

pytestmark = pytest.mark.skipif(not native_search_available(), reason="the native engine is not built")

#: The first 24 plies of a real Copenhagen game (shared/reference/games/copenhagen.csv, line 7).
MIDDLE_GAME = ("h1-h3 f4-i4 g1-i1 g5-g3 h3-i3 f5-i5 d1-d3 g3-g2 f2-c2 g2-i2 j6-j2 f6-f3 k4-k3 g6-g1 b6-b3 "
               "h6-j6 k8-i8 f3-h3 h11-h9 h3-h8 k7-j7 g7-g10 h9-h10 h8-h9")


def test_native_analysis_board_goes_deep_on_a_copenhagen_middle_game(qtbot, make_window):
    w = make_window("copenhagen", size=(1200, 800))
    c = w.controller
    game = Game(c.session.rules)
    for m in MIDDLE_GAME.split():
        game.play_text(m)
    w.load(GameSource.of_game(game, Origin.NEW))
    board = w.analysis_board
    qtbot.keyClick(w, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: board.report is not None and board.report["depth"] >= 6
                    and len(board.report["lines"]) == 3 and board.move_buttons[2][0].isVisible(), timeout=60_000)
    legal = {c.session.rules.move_text(m) for m in c.session.rules.legal_moves(c.session.viewed_position)}
    assert all(line["moves"][0] in legal for line in board.report["lines"])
    shots = os.environ.get("TAFL_SHOTS")
    if shots:
        Path(shots).mkdir(parents=True, exist_ok=True)
        w.grab().save(str(Path(shots) / "analysis_native_copenhagen.png"))
