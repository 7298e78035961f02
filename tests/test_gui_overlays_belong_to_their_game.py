"""Every mark on the board belongs to the game it was made for (issue 36, items 1 and 2).

The analysis arrows and heat map, the hint, the review's better-move arrow and the player's own
arrows and circles are made for one game on one board.  Before, the analysis dock redrew its last
report after it had been closed and another game started, so square numbers of an 11x11 board
reached a 33-point Fox board and the window died in a paint event (Segmentation fault); on a
Brandubh board the Copenhagen arrows came back as diagonals from outside the board.  Now each
mark carries the token of the game it was made for and the board refuses any other.

The tests walk every mark through every way a game arrives (each ``Origin`` of a ``GameSource``)
and a language switch, across the families (Tafl 11x11 and 7x7, the Fox games' 33 points,
Dablot), checking what the board paints, not only what it stores; and one test replays the
issue's own click path with the real analysis worker.
"""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication

from tafl_desktop.core.game import Game
from tafl_desktop.core.game_tree import GameTree
from tafl_desktop.core.record import save_game
from tafl_desktop.core.variants import find_variant
from tafl_desktop.session.players import COMPUTER, PlayerSpec
from tafl_desktop.session.source import GameSource, Origin


@pytest.fixture
def english():
    """The language is process-wide: give English back whatever a test switched to."""
    from tafl_desktop import i18n

    yield
    i18n.set_language("en", explicit=False)


class PaintRecorder:
    """Records the marks the board paints (arrows, circles, heat, the hint's arrow)."""

    def __init__(self, monkeypatch) -> None:
        from tafl_desktop.gui import board_painter

        self.marks: list[tuple[list, list, dict]] = []
        real_marks, real_heat = board_painter.paint_marks, board_painter.paint_heat
        self.heat: list[dict] = []
        self.suggested: list[tuple[int, ...]] = []
        real_suggestion = board_painter.BoardPainting._paint_suggestion

        def marks(view, p, cell, arrows, circles):
            self.marks.append((list(arrows), list(circles)))
            real_marks(view, p, cell, arrows, circles)

        def heat(view, p, tints):
            self.heat.append(dict(tints))
            real_heat(view, p, tints)

        def suggestion(view, p, cell):
            self.suggested.append(tuple(view.state().suggested))
            real_suggestion(view, p, cell)

        monkeypatch.setattr(board_painter, "paint_marks", marks)
        monkeypatch.setattr(board_painter, "paint_heat", heat)
        monkeypatch.setattr(board_painter.BoardPainting, "_paint_suggestion", suggestion)

    def paint(self, board) -> dict[str, object]:
        """Paint ``board`` once; what it drew: squares of arrows, circles, heat and the hint."""
        self.marks.clear()
        self.heat.clear()
        self.suggested.clear()
        board.grab()
        arrows = [a.squares for m in self.marks for a in m[0]]
        circles = [c.square for m in self.marks for c in m[1]]
        heat = sorted(s for h in self.heat for s in h)
        return {"arrows": arrows, "circles": circles, "heat": heat, "hint": [s for s in self.suggested if s]}


def _quiet_worker(window, monkeypatch) -> None:
    """The study worker answers when the test says (its answers are fed below), so the test is
    fast and the marks are exactly the ones given."""
    monkeypatch.setattr(window.analysis_client, "start", lambda *_a, **_k: None)


def _one_move_game(variant_id: str) -> Game:
    rules = find_variant(variant_id).make_rules()
    game = Game(rules)
    game.play(rules.legal_moves(game.position)[0])
    return game


def _mark_everything(qtbot, w) -> dict[str, object]:
    """Put every kind of mark on the window's board; returns what must not survive the game."""
    c = w.controller
    rules = c.session.rules
    # the analysis board: three lines as arrows and the heat map, as the worker reports them
    w.analysis_board.heat_box.setChecked(True)
    w.act_analysis.trigger()
    assert w.analysis_board.active
    pos = c.session.viewed_position
    moves = [m for m in rules.legal_moves(pos) if len([s for s in m if s >= 0]) >= 2][:3]
    lines = [{"move": list(m), "moves": [rules.move_text(m)], "score": 10 - i, "result_in": None, "winner": None,
              "depth": 3} for i, m in enumerate(moves)]
    targets = {str(m[-1]): 0.5 - 0.1 * i for i, m in enumerate(moves)}
    heat = {"best": 0.5, "squares": targets, "side": int(rules.side_to_move(pos)), "depth": 2}
    w.analysis_board._done(SimpleNamespace(error="", data={"lines": lines, "depth": 3, "nodes": 1000, "heat": heat}))
    # the review: the one move played was a blunder, another move was better (the green arrow)
    played = c.session.game.plies[0].move
    better = next(m for m in rules.legal_moves(c.session.game.start) if tuple(m) != tuple(played))
    mover = int(rules.side_to_move(c.session.game.start))
    evals = {0: {"score": 0, "side": mover, "depth": 1, "best_move": list(better), "best": rules.move_text(better),
                 "line": [rules.move_text(better)]},
             1: {"score": 5000, "side": 1 - mover, "depth": 1, "best_move": list(moves[0]),
                 "best": rules.move_text(moves[0]), "line": []}}
    w.review_panel.start()
    w.review_panel._done(SimpleNamespace(error="", data={"evals": evals}))
    assert w.review_panel.review["plies"][0]["class"] == "blunder"
    w.review_panel._show_better_move()
    # the hint, and a circle the player drew with the right button
    c.show_hint(tuple(moves[0]))
    square = moves[0][0]
    qtbot.mouseClick(w.board, Qt.MouseButton.RightButton, pos=w.board.square_center(square).toPoint())
    assert w.board.drawings()
    return {"token": c.token, "hint": tuple(moves[0]),
            "layers": {n: w.board.overlay(n) for n in ("analysis", "heat", "review")}}


def _arrive(w, origin: Origin, variant_id: str, tmp_path) -> None:
    """Bring a game of ``variant_id`` to the window the way ``origin`` does: through the window's
    own path where it has one (New Game, Open, Import, a dropped file, Paste, Continue your last
    game), else as that path hands it to the window's one ``load``."""
    from tafl_desktop.gui.edit_menu import paste
    from tafl_desktop.gui.interop_menu import import_game

    variant = find_variant(variant_id)
    rules = variant.make_rules()
    path = tmp_path / f"other-{variant_id}.tafl.json"
    save_game(_one_move_game(variant_id), path)
    if origin is Origin.NEW:
        w.start_game(variant, (PlayerSpec(), PlayerSpec()))
    elif origin is Origin.EDITOR:
        w.start_game(variant, start=rules.initial_position(), origin=Origin.EDITOR)
    elif origin is Origin.OPEN:
        assert w.files.open_game(str(path))
    elif origin in (Origin.IMPORT, Origin.DROP):
        assert import_game(w, str(path), origin)
    elif origin is Origin.RESTORE:
        assert w.files.offer_restore(str(path))
    elif origin is Origin.PASTE:  # a move list of the game's own rules
        assert w.session.variant.id == variant_id
        assert paste(w, rules.move_text(rules.legal_moves(rules.initial_position())[-1]))
    elif origin is Origin.LAB:
        w.load(GameSource.of_game(_one_move_game(variant_id), origin, saved=False))
    else:  # PUZZLE, LESSON: a tree from a start position
        w.load(GameSource.of_tree(GameTree(rules, rules.initial_position()), origin))
    assert w.controller.session.origin is origin


#: (origin, the game marked, the game that arrives): every origin, every family on both sides,
#: a reload of the same preset (same board, same pieces) among them.
WALK = [
    (Origin.NEW, "copenhagen", "fox_geese_13"),
    (Origin.NEW, "brandubh", "brandubh"),
    (Origin.OPEN, "fox_geese_13", "brandubh"),
    (Origin.IMPORT, "brandubh", "dablot"),
    (Origin.PASTE, "dablot", "dablot"),
    (Origin.DROP, "copenhagen", "brandubh"),
    (Origin.RESTORE, "dablot", "fox_geese_13"),
    (Origin.PUZZLE, "fox_geese_13", "copenhagen"),
    (Origin.LESSON, "copenhagen", "dablot"),
    (Origin.OPEN, "dablot", "copenhagen"),
    (Origin.EDITOR, "dablot", "dablot"),
    (Origin.LAB, "brandubh", "fox_geese_13"),
]


@pytest.mark.parametrize(("origin", "before", "after"), WALK, ids=[f"{o.value}-{a}-{b}" for o, a, b in WALK])
def test_no_mark_of_the_last_game_is_drawn_on_the_next(qtbot, make_window, monkeypatch, tmp_path, english,
                                                       origin, before, after):
    from tafl_desktop.gui.language import switch_language

    w = make_window(before)
    _quiet_worker(w, monkeypatch)
    w.load(GameSource.of_game(_one_move_game(before), Origin.PASTE))
    recorder = PaintRecorder(monkeypatch)
    old = _mark_everything(qtbot, w)
    drawn = recorder.paint(w.board)
    assert len(drawn["arrows"]) >= 3 and drawn["circles"] and drawn["heat"] and drawn["hint"], drawn
    assert set(w.board.overlay_names()) == {"analysis", "heat", "review"}

    _arrive(w, origin, after, tmp_path)
    nothing = {"arrows": [], "circles": [], "heat": [], "hint": []}
    assert w.session.variant.id == find_variant(after).id and w.controller.token != old["token"]
    assert recorder.paint(w.board) == nothing and w.board.overlay_names() == [] and w.board.drawings() == []

    # late answers made for the last game: the hint asked before, the layers as they were
    w.controller.show_hint(old["hint"], old["token"])
    for name, layer in old["layers"].items():
        assert w.board.set_overlay(name, layer) is False
    assert recorder.paint(w.board) == nothing

    # a language switch redraws the study texts: nothing of the last game comes back
    switch_language(w, "ru")
    assert recorder.paint(w.board) == nothing and w.board.overlay_names() == []
    w.analysis_board.close()  # the dock's X, then a switch back
    switch_language(w, "en")
    assert recorder.paint(w.board) == nothing and w.board.overlay_names() == []
    # the board still takes marks made for its own game
    square = next(iter(w.session.rules.pieces(w.session.viewed_position)))
    qtbot.mouseClick(w.board, Qt.MouseButton.RightButton, pos=w.board.square_center(square).toPoint())
    assert recorder.paint(w.board)["circles"] == [square]


def test_a_layer_for_another_board_is_refused(qtbot, make_window):
    """The view itself refuses a layer made for another token, or naming a square it has not."""
    from tafl_desktop.gui.board_overlays import Arrow, BoardToken, Overlay

    w = make_window("brandubh")
    token = w.board.token()
    assert token is not None and token == w.controller.token
    assert w.board.set_overlay("analysis", Overlay(token, arrows=(Arrow((0, 3)),)))
    assert not w.board.set_overlay("analysis", Overlay(BoardToken.new(token.geometry), arrows=(Arrow((0, 3)),)))
    assert w.board.overlay("analysis") is None  # the refused layer also took the old one away
    assert not w.board.set_overlay("analysis", Overlay(token, arrows=(Arrow((3, 120)),)))  # 120: an 11x11 square
    assert w.board.overlay_names() == []


def _accept_preferences_in(code: str) -> None:
    """Answer the Preferences dialog: the language ``code``, then OK."""
    from tafl_desktop.gui.preferences import PreferencesDialog

    dlg = QApplication.activeModalWidget()
    assert isinstance(dlg, PreferencesDialog)
    dlg.language.setCurrentIndex(dlg.language.findData(code))
    dlg.accept()


@pytest.mark.parametrize("language_first", [False, True], ids=["start-then-switch", "switch-then-start"])
def test_the_issue_click_path_no_longer_crashes(qtbot, make_window, english, language_first):
    """Issue 36, item 1, step by step with the real analysis worker: New Game Copenhagen, Game >
    Analysis Board, wait for the arrows, close the dock with its X, New Game Fox and Geese (13)
    with the fox played by the computer, View > Preferences > Language: another > OK.  (The
    variant: the language switched before the Fox game starts.)  Before, the process died with
    "Fatal Python error: Segmentation fault" in ``BoardView.event``."""
    w = make_window("copenhagen")
    w.start_game(find_variant("copenhagen"))
    w.act_analysis.trigger()
    qtbot.waitUntil(lambda: w.board.overlay("analysis") is not None, timeout=60_000)
    assert w.analysis_board.isVisible()
    w.analysis_board.close()  # the dock's X
    qtbot.waitUntil(lambda: not w.act_analysis.isChecked())
    fox = find_variant("fox_geese_13")
    assert fox.side_names[1] == "Fox"

    def switch() -> None:
        QTimer.singleShot(0, lambda: _accept_preferences_in("de"))
        w.act_prefs.trigger()
        assert w.prefs.language == "de"

    if language_first:
        switch()
    w.start_game(fox, (PlayerSpec(), PlayerSpec(COMPUTER, "easy")))
    if not language_first:
        switch()
    w.repaint()  # the paint that used to crash
    qtbot.wait(50)
    assert w.board.painted and w.board.overlay_names() == []
    assert w.analysis_board.report is None and not w.analysis_board.active
    g = w.session.variant.geometry
    assert g.size == 33 and all(0 <= s < g.size for s in w.board.state().pieces)
    w.apply_preferences(replace(w.prefs, language="en"))


def test_an_analysis_line_goes_with_its_game(qtbot, make_window, monkeypatch):
    """The scratch board of an analysis line belongs to the game analysed: another game loaded
    closes it, and its line never reaches the new game (its position is a node of the old tree)."""
    w = make_window("brandubh")
    _quiet_worker(w, monkeypatch)
    game = _one_move_game("brandubh")
    w.load(GameSource.of_game(game, Origin.PASTE))
    w.session.first()  # the game goes on from here: a line may become a variation
    _mark_everything(qtbot, w)
    w.analysis_board.open_line(0, 0)
    scratch = w.analysis_board.line_board
    assert scratch.isVisible() and scratch.add_button.isEnabled()
    w.start_game(find_variant("copenhagen"))
    assert not scratch.isVisible() and not scratch.add_button.isEnabled()
    scratch.add_variation()  # as a late click would
    c = w.controller
    assert c.session.variant.id == "copenhagen" and not c.session.tree.root.children and c.session.view_ply == 0


PAINT_FAILS = """
from PySide6.QtWidgets import QApplication
app = QApplication([])
from tafl_desktop.core.variants import find_variant
from tafl_desktop.gui.board_view import BoardState, BoardView
variant = find_variant("brandubh")
rules = variant.make_rules()
board = BoardView()
board.resize(300, 300)
board.set_state(BoardState(geometry=variant.geometry, pieces=rules.pieces(rules.initial_position())))
def fails(_painter):
    raise IndexError("square 120 of a 7x7 board")
board.paint_board = fails
board.show()
app.processEvents()  # the window's own paint, into its backing store: the error is printed
try:
    board.grab()  # and the next paint after it
except IndexError as exc:
    print("reported:", exc)
print("still running")
"""


def test_a_failing_paint_is_an_error_not_a_crash():
    """What turned the stale arrows into a segmentation fault: an error while painting left the
    painter open, and Qt's backing store then crashed the process.  The painter is now always
    ended, so such an error is reported like any other (the window's error dialog)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONFAULTHANDLER": "1"}
    here = Path(__file__).resolve().parents[1]  # this checkout's code ("-c" puts the folder first)
    done = subprocess.run([sys.executable, "-c", PAINT_FAILS], env=env, cwd=here, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "reported:" in done.stdout and "square 120 of a 7x7 board" in done.stdout and "still running" in done.stdout
    assert "square 120 of a 7x7 board" in done.stderr  # the first paint's error, printed as Qt does
    assert "Segmentation fault" not in done.stderr and "active painter" not in done.stderr


def test_a_puzzle_board_drops_the_marks_of_the_last_puzzle(qtbot):
    """The puzzle and lesson boards: marks drawn on one problem are gone on the next, even when
    the next starts from the same pieces (before, only a change of the pieces cleared them); a
    move within the same problem keeps the rule of the main board (another position, no marks)."""
    from tafl_desktop.gui.study_board import StudyBoard

    board = StudyBoard()
    qtbot.addWidget(board)
    board.resize(400, 400)
    board.show()
    qtbot.waitExposed(board)
    variant = find_variant("brandubh")
    first = variant.make_rules()
    start = first.initial_position()
    board.show_position(first, start)
    square = next(iter(first.pieces(start)))
    qtbot.mouseClick(board.view, Qt.MouseButton.RightButton, pos=board.view.square_center(square).toPoint())
    assert board.view.drawings()
    board.show_position(first, start)  # the same problem again (Try again): the marks stay
    assert board.view.drawings()
    board.show_position(variant.make_rules(), start)  # the next problem, from the same pieces
    assert board.view.drawings() == [] and board.view.token() == board.token
