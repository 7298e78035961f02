"""The position editor and copy/paste through the real window (issue 19, "Position editor"): set up
Tafl, Fox and Dablot positions by clicking, refusals with the rules' reason, the position text in
and out, play from here, save as a record; Ctrl+C / Ctrl+Shift+C / Ctrl+V."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from tafl_desktop.core.game import Side
from tafl_desktop.core.position_setup import SetupError, position_from_pieces, position_from_text
from tafl_desktop.core.record import load_game
from tafl_desktop.core.variants import find_variant


def open_editor(qtbot, window):
    qtbot.keyClick(window, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    editor = window.position_editor
    assert editor is not None and editor.isVisible()
    qtbot.waitExposed(editor)
    return editor


def put(qtbot, editor, kind: str, square: str) -> None:
    editor.tool_buttons[kind].click()
    board = editor.board
    s = editor.variant.geometry.parse_square(square)
    qtbot.mouseClick(board, Qt.MouseButton.LeftButton, pos=board.square_center(s).toPoint())


def test_tafl_setup_refuses_a_second_king_and_plays_from_here(qtbot, make_window):
    w = make_window("brandubh")
    e = open_editor(qtbot, w)
    assert e.text.text() == w.session.rules.position_text(w.session.game.start)
    before = dict(e.pieces)
    put(qtbot, e, "K", "b2")
    assert e.pieces == before  # refused, with the rules' own reason
    rules = w.session.rules
    with pytest.raises(SetupError) as why:
        position_from_pieces(rules, {**before, rules.variant.geometry.parse_square("b2"): "K"}, Side.ATTACKERS)
    assert "two kings" in str(why.value) and e.status.text() == f"Not placed: {why.value}."
    [clear] = [b for b in e.findChildren(type(e.play_button)) if b.text() == "Clear Board"]
    clear.click()
    assert e.pieces == {} and "Not playable yet: position has no king (K)" in e.status.text()
    assert not e.play_button.isEnabled() and not e.save_button.isEnabled()
    put(qtbot, e, "t", "b2")  # unfinished set-ups may grow
    put(qtbot, e, "T", "c3")
    put(qtbot, e, "K", "e5")
    put(qtbot, e, "t", "b2")  # the same piece again takes it off
    put(qtbot, e, "t", "e6")
    e.side_box.setCurrentIndex(1)
    assert e.play_button.isEnabled() and e.text.text() == "/7/4t2/4K2/7/2T4/7/7/"
    e.play_button.click()
    c = w.controller
    assert not e.isVisible() and c.session.game.plies == []
    assert c.session.rules.position_text(c.session.game.start) == "/7/4t2/4K2/7/2T4/7/7/"
    assert c.session.rules.side_to_move(c.session.game.start) == Side.DEFENDERS
    assert w.board.state().pieces[c.session.variant.geometry.parse_square("e5")] == "K"


def test_position_text_in_and_out(qtbot, make_window):
    w = make_window("brandubh")
    e = open_editor(qtbot, w)
    e.text.setText("/3t3/3t3/")
    qtbot.keyClick(e.text, Qt.Key.Key_Return)
    assert e.status.text() == "Not applied: position has 2 rows, the board has 7."
    assert e.pieces == w.session.rules.pieces(w.session.game.start)
    e.text.setText("/7/7/7/3K3/7/t6/7/ defenders")
    qtbot.keyClick(e.text, Qt.Key.Key_Return)
    assert e.side == Side.DEFENDERS and sorted(e.pieces.values()) == ["K", "t"]
    assert e.text.text() == "/7/7/7/3K3/7/t6/7/"


def test_a_piece_where_the_rules_forbid_it_is_refused(qtbot, make_window):
    """Issue 16: no attacker may stand on the throne (Copenhagen rules, §4 of tafl-rules.md).  The
    editor asks the rules; until they forbid it this check has nothing to refuse."""
    rules = find_variant("copenhagen").make_rules()
    try:
        position_from_text(rules, "/11/11/11/11/11/5t5/11/11/11/11/K10/", Side.ATTACKERS)
    except SetupError as exc:
        reason = str(exc)
    else:
        pytest.skip("these rules do not yet refuse a position with an attacker on the throne")
    w = make_window("copenhagen")
    e = open_editor(qtbot, w)
    e.text.setText("/11/11/11/11/11/11/11/11/11/11/K10/")
    e.apply_text()
    put(qtbot, e, "t", "f6")
    assert "f6" not in [rules.variant.geometry.name(s) for s in e.pieces]
    assert e.status.text() == f"Not placed: {reason}."


def test_fox_setup_saved_as_a_record(qtbot, make_window, dialogs_recorder, tmp_path):
    w = make_window("fox_geese_13")
    e = open_editor(qtbot, w)
    [clear] = [b for b in e.findChildren(type(e.play_button)) if b.text() == "Clear Board"]
    clear.click()
    assert "the position has no hunter" in e.status.text()
    for goose in ("c1", "d1", "e1", "d2"):
        put(qtbot, e, "f", goose)
    put(qtbot, e, "h", "d4")
    e.side_box.setCurrentIndex(1)
    assert e.text.text() == "hunters=d4 flock=c1,d1,e1,d2"
    path = tmp_path / "fox.tafl.json"
    dialogs_recorder.save_paths.append(str(path))
    e.save_button.click()
    game = load_game(path)
    assert game.rules.position_text(game.start) == "hunters=d4 flock=c1,d1,e1,d2"
    assert game.rules.variant.side_key(game.rules.side_to_move(game.start)) == "fox"
    assert "Saved fox.tafl.json" in e.status.text()


def test_dablot_ranks_marked_soldiers_and_a_second_leader(qtbot, make_window):
    w = make_window("dablot_mini")
    e = open_editor(qtbot, w)
    rules = w.session.rules
    south_leader = [rules.variant.geometry.name(s) for s, k in e.pieces.items() if k == "k"]
    assert south_leader  # the start position has one South leader
    empty = next(rules.variant.geometry.name(s) for s in range(rules.variant.geometry.size) if s not in e.pieces)
    put(qtbot, e, "k", empty)
    assert e.status.text() == "Not placed: the south army has 2 leaders."
    put(qtbot, e, "r", empty)  # a soldier marked by a retreat
    put(qtbot, e, "P", south_leader[0])  # the North's son replaces the South's leader
    assert f"r{empty}" in e.text.text() and f"p{south_leader[0]}" in e.text.text().split("north=")[1]
    assert e.tool_buttons["P"].text() == f"{rules.variant.sides[1]}: leader's son"
    assert e.play_button.isEnabled()


def test_copy_and_paste_positions_and_move_lists(qtbot, make_window, dialogs_recorder):
    w = make_window("brandubh")
    c = w.controller
    for text in ("d6-b6", "c4-c6", "b6-b5"):
        assert c.play_move(c.session.rules.parse_move(c.session.game.position, text))
    qtbot.keyClick(w, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    copied = QGuiApplication.clipboard().text()
    assert copied == f"{c.session.rules.position_text(c.session.game.position)} defenders"
    qtbot.keyClick(w, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert QGuiApplication.clipboard().text() == "1. d6-b6 c4-c6 2. b6-b5"

    other = make_window("brandubh")
    qtbot.keyClick(other, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)  # the move list
    assert other.session.game.move_texts() == ["d6-b6", "c4-c6", "b6-b5"] and "*" in other.windowTitle()
    QGuiApplication.clipboard().setText(copied)
    third = make_window("brandubh")
    qtbot.keyClick(third, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)  # the position: the editor
    e = third.position_editor
    assert e is not None and e.isVisible() and e.side == Side.DEFENDERS
    assert e.pieces == c.session.rules.pieces(c.session.game.position)
    e.play_button.click()
    assert (third.session.rules.position_key(third.session.game.start)
            == c.session.rules.position_key(c.session.game.position))

    for bad, words in (("hello world", "\"hello world\" is not a move list of Brandubh: move 1 (hello)"),
                       ("/3t3/3t3/", "\"/3t3/3t3/\" is not a position of Brandubh: position has 2 rows"),
                       ("  ", "The clipboard holds no text to paste.")):
        QGuiApplication.clipboard().setText(bad)
        before = third.session.game
        qtbot.keyClick(third, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
        title, text = dialogs_recorder.errors.pop()
        assert title == "Cannot paste" and text.startswith(words) and "\n" not in text
        assert third.session.game is before


def test_play_from_here_against_the_computer(qtbot, make_window):
    """The editor's players: the computer side answers from the set-up position at once."""
    from tafl_desktop.session.engine import EngineHub, IdleEngine
    from tafl_desktop.session.players import COMPUTER

    class FirstMove(IdleEngine):  # a stand-in for the worker: plays the first legal move
        def start(self, request):
            request.on_move(request.game.legal_moves()[0])

    w = make_window("fox_geese_13", engines=EngineHub(computer=FirstMove))
    e = open_editor(qtbot, w)
    e.side_box.setCurrentIndex(1)  # the fox to move, played by the computer
    fox = e.choosers[1]
    fox.kind.setCurrentIndex(fox.kind.findData(COMPUTER))
    e.play_button.click()
    c = w.controller
    assert not c.session.specs[1].is_human
    qtbot.waitUntil(lambda: len(c.session.game.plies) == 1)
    assert c.session.rules.side_to_move(c.session.game.start) == Side.DEFENDERS and c.session.human_to_move()


def test_analyse_hands_the_set_up_position_to_the_analysis_board(qtbot, make_window):
    from PySide6.QtGui import QAction

    from tafl_desktop.gui import position_editor

    w = make_window("brandubh")
    w.act_analysis = None  # a window without an analysis board
    e = open_editor(qtbot, w)
    assert not e.analyse_button.isEnabled()
    e.close()
    shown = []
    w.act_analysis = QAction("Analysis Board", w)  # the analysis board's action, without its worker
    w.act_analysis.setCheckable(True)
    w.act_analysis.toggled.connect(lambda on: shown.append((on, w.session.rules.position_text(
        w.session.game.start))))
    e = open_editor(qtbot, w)
    e.text.setText("/7/7/7/3K3/7/t6/7/")
    e.apply_text()
    assert e.analyse_button.isEnabled()
    e.analyse_button.click()
    assert shown == [(True, "/7/7/7/3K3/7/t6/7/")] and not e.isVisible()
    assert position_editor._analyser is None
