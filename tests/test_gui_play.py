"""Playing through the real window: clicks, drags, the keyboard, undo/redo, navigation, toggles
that change play, announcements and the end of a game.  Headless (offscreen), dialogs recorded."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt

from tafl_desktop.core.game import Side
from tafl_desktop.session.readout import announcements, lost_counts, move_rows


def sq(window, name: str) -> int:
    return window.session.variant.geometry.parse_square(name)


def click(qtbot, window, name: str, button=Qt.MouseButton.LeftButton) -> None:
    board = window.board
    qtbot.mouseClick(board, button, pos=board.square_center(sq(window, name)).toPoint())


def drag(qtbot, window, frm: str, to: str) -> None:
    board = window.board
    a = board.square_center(sq(window, frm)).toPoint()
    b = board.square_center(sq(window, to)).toPoint()
    qtbot.mousePress(board, Qt.MouseButton.LeftButton, pos=a)
    for k in range(1, 6):
        qtbot.mouseMove(board, pos=a + (b - a) * (k / 5))
    qtbot.mouseRelease(board, Qt.MouseButton.LeftButton, pos=b)


def test_click_shows_targets_and_moves(qtbot, make_window):
    w = make_window("brandubh")
    click(qtbot, w, "d6")
    state = w.board.state()
    assert state.selected == sq(w, "d6")
    assert sq(w, "c6") in state.targets and sq(w, "a6") in state.targets
    assert "picked" in w.status_text()
    click(qtbot, w, "b6")
    assert w.session.game.move_texts() == ["d6-b6"]
    assert w.board.state().last_move == (sq(w, "d6"), sq(w, "b6"))
    assert "The attackers played d6-b6" in w.status_text()
    assert w.panel.turn_text.text() == "Defenders to move"
    assert w.panel.moves.model.rowCount() == 1


def test_illegal_click_says_why_and_changes_nothing(qtbot, make_window):
    w = make_window("brandubh")
    click(qtbot, w, "d6")
    click(qtbot, w, "e5")  # diagonal
    assert w.session.game.plies == []
    assert "not allowed" in w.status_text() and "straight lines" in w.status_text()
    assert w.board.state().selected is None
    click(qtbot, w, "d5")  # the defenders' piece, on the attackers' turn
    assert "not yours" in w.status_text()
    click(qtbot, w, "a1")  # an empty corner
    assert "empty" in w.status_text()
    click(qtbot, w, "d6")
    click(qtbot, w, "d5")  # occupied
    assert "occupied" in w.status_text()
    assert w.session.game.plies == []


def test_drag_and_drop_moves_and_right_click_cancels(qtbot, make_window):
    w = make_window("brandubh")
    drag(qtbot, w, "d6", "b6")
    assert w.session.game.move_texts() == ["d6-b6"]
    click(qtbot, w, "c4")
    assert w.board.state().selected == sq(w, "c4")
    click(qtbot, w, "c4", Qt.MouseButton.RightButton)
    assert w.board.state().selected is None
    drag(qtbot, w, "c4", "b5")  # diagonal drop: nothing happens but a reason
    assert len(w.session.game.plies) == 1
    assert "not allowed" in w.status_text()


def test_second_click_on_picked_piece_puts_it_back(qtbot, make_window):
    w = make_window("brandubh")
    click(qtbot, w, "d6")
    click(qtbot, w, "d6")
    assert w.board.state().selected is None


def test_undo_redo_with_shortcuts_and_stack(qtbot, make_window):
    w = make_window("brandubh")
    for a, b in (("d6", "b6"), ("c4", "c6")):
        click(qtbot, w, a)
        click(qtbot, w, b)
    game = w.session.game
    assert game.move_texts() == ["d6-b6", "c4-c6"]
    assert w.session.can_undo and len(w.session.line_nodes()) == 2
    qtbot.keyClick(w, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert game.move_texts() == ["d6-b6"]
    assert w.panel.turn_text.text() == "Defenders to move"
    assert w.act_redo.isEnabled()
    qtbot.keyClick(w, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    assert game.move_texts() == ["d6-b6", "c4-c6"]
    w.act_undo.trigger()
    w.act_undo.trigger()
    assert game.plies == [] and not w.act_undo.isEnabled()
    w.act_redo.trigger()
    assert game.move_texts() == ["d6-b6"]
    # a new move after undo drops the redo tail (the one history is the session's tree)
    click(qtbot, w, "e4")
    click(qtbot, w, "e6")
    assert game.move_texts() == ["d6-b6", "e4-e6"]
    assert not w.session.can_redo and not w.act_redo.isEnabled()


def test_navigation_keys_and_move_list(qtbot, make_window):
    w = make_window("brandubh")
    for a, b in (("d6", "b6"), ("c4", "c6"), ("b6", "b5")):
        click(qtbot, w, a)
        click(qtbot, w, b)
    c = w.controller
    start = c.session.game.position_at(0)
    qtbot.keyClick(w.board, Qt.Key.Key_Home)
    assert c.session.view_ply == 0
    assert w.board.state().pieces == c.session.rules.pieces(start)
    qtbot.keyClick(w.board, Qt.Key.Key_Right)
    assert c.session.view_ply == 1
    assert "After 1. d6-b6 (move 1 of 2)" in w.panel.turn_text.text()  # 3 plies: moves 1 and 2
    click(qtbot, w, "d5")  # an earlier position: the piece is picked (a move here starts a variation)
    assert w.board.state().selected == sq(w, "d5") and len(c.session.game.plies) == 3
    click(qtbot, w, "d5", Qt.MouseButton.RightButton)
    assert w.board.state().selected is None and "Press End" in w.status_text()
    qtbot.keyClick(w.board, Qt.Key.Key_End)
    assert c.session.view_ply == 3
    qtbot.keyClick(w.board, Qt.Key.Key_Left)
    assert c.session.view_ply == 2
    table = w.panel.moves.table
    idx = w.panel.moves.model.index(0, 1)
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=table.visualRect(idx).center())
    assert c.session.view_ply == 2 and w.board.state().last_move == (sq(w, "c4"), sq(w, "c6"))
    idx = w.panel.moves.model.index(0, 0)
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=table.visualRect(idx).center())
    assert c.session.view_ply == 1
    w.panel.moves.buttons["last"].click()
    assert c.session.view_ply == 3 and c.session.is_live


def test_keyboard_play_with_cursor(qtbot, make_window):
    w = make_window("brandubh")
    board = w.board
    board.setFocus()
    qtbot.keyClick(board, Qt.Key.Key_Return)  # show the cursor (starts in the centre, d4)
    assert board.cursor_square() == sq(w, "d4")
    qtbot.keyClick(board, Qt.Key.Key_Up)
    qtbot.keyClick(board, Qt.Key.Key_Up)
    assert board.cursor_square() == sq(w, "d6")
    assert w.session.view_ply == 0  # arrows moved the cursor, not the move list
    qtbot.keyClick(board, Qt.Key.Key_Return)
    assert board.state().selected == sq(w, "d6")
    qtbot.keyClick(board, Qt.Key.Key_Left)
    qtbot.keyClick(board, Qt.Key.Key_Left)
    qtbot.keyClick(board, Qt.Key.Key_Enter)
    assert w.session.game.move_texts() == ["d6-b6"]
    qtbot.keyClick(board, Qt.Key.Key_Escape)  # hide the cursor: arrows step through moves again
    assert board.cursor_square() is None
    qtbot.keyClick(board, Qt.Key.Key_Left)
    assert w.session.view_ply == 0


def test_flip_keeps_clicks_on_the_right_squares(qtbot, make_window):
    w = make_window("brandubh")
    before = w.board.square_center(sq(w, "d7"))
    qtbot.keyClick(w.board, Qt.Key.Key_F)
    assert w.board.flipped()
    after = w.board.square_center(sq(w, "d7"))
    assert after.y() > before.y()
    click(qtbot, w, "d6")
    click(qtbot, w, "b6")
    assert w.session.game.move_texts() == ["d6-b6"]


def test_escape_edge_toggle_lets_the_king_win_on_the_rim(qtbot, make_window, dialogs_recorder):
    position = "/7/7/1t5/3K3/7/5t1/7/"
    corner = make_window("brandubh", position, Side.DEFENDERS)
    click(qtbot, corner, "d4")
    click(qtbot, corner, "d7")
    assert corner.session.game.outcome is None  # escape to the corner only: the edge is no goal

    w = make_window("brandubh", position, Side.DEFENDERS, escape="edge")
    click(qtbot, w, "d4")
    assert sq(w, "d7") in w.board.state().targets
    click(qtbot, w, "d7")
    out = w.session.game.outcome
    assert out is not None and out.winner == Side.DEFENDERS and out.reason == "king_escaped"
    qtbot.waitUntil(lambda: bool(dialogs_recorder.game_over))
    headline, detail = dialogs_recorder.game_over[-1]
    assert headline == "Defenders win" and "king escaped" in detail
    assert "Defenders win" in w.panel.turn_text.text()
    # the finished board stays reviewable, but no more moves are taken
    click(qtbot, w, "c5")
    assert "start a new one" in w.status_text()
    qtbot.keyClick(w.board, Qt.Key.Key_Left)
    assert w.session.view_ply == 0 and w.board.state().pieces[sq(w, "d4")] == "K"


def test_announcements_raichi_tuichi_and_watch_your_king(qtbot, make_window):
    # one open path: Raichi
    w = make_window("brandubh", "/7/7/7/1t1K1t1/7/7/3t3/", Side.ATTACKERS, escape="edge")
    titles = [a.title for a in announcements(w.session, w.controller.announce)]
    assert "Raichi" in titles
    assert w.panel.announcement.isVisibleTo(w) and "Raichi" in w.panel.announcement.text()
    assert w.board.state().routes == {sq(w, "d7")}
    # two or more: Tuichi
    w2 = make_window("brandubh", "/7/7/7/3K3/7/2ttt2/7/", Side.ATTACKERS, escape="edge")
    assert [a.title for a in announcements(w2.session, w2.controller.announce)] == ["Tuichi"]
    # the king can be taken next move (custodial king capture)
    w3 = make_window("brandubh", "/7/7/3t3/7/3K3/7/1t1t3/", Side.ATTACKERS, king_capture="custodial")
    assert "Watch your king" in [a.title for a in announcements(w3.session, w3.controller.announce)]
    assert w3.board.state().threatened == {sq(w3, "d3")}
    # switched off in the preferences: nothing is announced
    w3.act_announce.trigger()
    assert not w3.prefs.announcements and announcements(w3.session, w3.controller.announce) == []
    assert not w3.panel.announcement.isVisibleTo(w3)


def test_captures_are_marked_and_counted(qtbot, make_window):
    w = make_window("brandubh", "/7/7/1tT1t2/7/7/3K3/7/", Side.ATTACKERS)
    click(qtbot, w, "e5")
    click(qtbot, w, "d5")
    c = w.controller
    assert c.session.game.plies[-1].captures == (sq(w, "c5"),)
    assert w.board.state().captured == {sq(w, "c5"): "T"}
    assert lost_counts(c.session) == (0, 1)
    assert w.panel.lost_text[1].text() == "1"
    assert "xc5" in move_rows(c.session)[-1]


def test_screen_positions_scale_with_the_window(qtbot, make_window):
    w = make_window("copenhagen", size=(1200, 800))
    small = w.board.square_rect(0).width()
    w.resize(800, 600)
    qtbot.waitUntil(lambda: w.board.square_rect(0).width() < small)
    w.resize(1600, 1000)
    qtbot.waitUntil(lambda: w.board.square_rect(0).width() > small)


def test_fox_game_jump_chain_is_picked_point_by_point(qtbot, make_window):
    w = make_window("fox_geese_13", size=(900, 700))
    c = w.controller
    rules = c.session.rules
    # play until the fox has a capture, then make it with clicks
    for _ in range(40):
        defending = c.session.side_to_move() == Side.DEFENDERS
        jumps = [m for m in c.session.game.legal_moves() if rules.is_jump(m)] if defending else []
        if jumps:
            move = jumps[0]
            for point in move:
                qtbot.mouseClick(w.board, Qt.MouseButton.LeftButton,
                                 pos=w.board.square_center(point).toPoint() + QPoint(0, 0))
            if c.session.game.plies[-1].move != move:  # the chain could go on: click the landing point again
                qtbot.mouseClick(w.board, Qt.MouseButton.LeftButton, pos=w.board.square_center(move[-1]).toPoint())
            assert c.session.game.plies[-1].move == move and c.session.game.plies[-1].captures
            return
        moves = c.session.game.legal_moves()
        if not moves:
            break
        c.play_move(moves[len(c.session.game.plies) * 7 % len(moves)])
    raise AssertionError("no fox jump came up")


def test_action_points_share_a_cell_and_end_turn_button(qtbot, make_window):
    """Dablot with action points: a side makes several plies in a turn; they share one move-list cell
    and the panel offers "End turn" while actions are left."""
    w = make_window("dablot_mini", action_points=True)
    c = w.controller
    first = [m for m in c.session.game.legal_moves() if m][0]
    assert c.play_move(first)
    assert c.session.side_to_move() == Side.ATTACKERS  # still the same side's turn
    assert w.panel.end_turn.isVisibleTo(w)
    w.panel.end_turn.click()
    assert c.session.side_to_move() == Side.DEFENDERS and c.session.game.plies[-1].move == ()
    model = w.panel.moves.model
    assert model.rowCount() == 1
    assert model.plies_at(model.index(0, 0)) == [1, 2]
    assert model.data(model.index(0, 0)).endswith("end")
    second = [m for m in c.session.game.legal_moves() if m][0]
    assert c.play_move(second)
    assert model.plies_at(model.index(0, 1)) == [3]


def test_moves_animate_when_switched_on(qtbot, make_window):
    from dataclasses import replace

    w = make_window("brandubh")
    w.apply_preferences(replace(w.prefs, animation=True))
    click(qtbot, w, "d6")
    click(qtbot, w, "b6")
    assert w.board.animating()
    qtbot.waitUntil(lambda: not w.board.animating(), timeout=20_000)  # a wait, not a bound (issue 37)
    w.act_undo.trigger()  # undo and redo animate too, and never leave the board mid-way
    qtbot.waitUntil(lambda: not w.board.animating(), timeout=20_000)
    assert w.board.state().pieces == w.session.rules.pieces(w.session.game.start)
