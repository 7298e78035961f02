"""Play without sight (issue 40) through the real window, offscreen: moves typed in the move field
(Ctrl+L) in every way the notation allows, refused moves answered with the engine's reason, one
announcement per move of either side (the computer's too) within 100 ms, the end said assertively,
and the query and jump keys on the board.  Announcements are read from the window's own record
(``window.blind_play.announcer.log``) and its spoken line; the AT-SPI side is in
``test_atspi_board.py``."""

from __future__ import annotations

import time

from PySide6.QtCore import Qt

from tafl_desktop.core.game import Game, Side
from tafl_desktop.session.players import COMPUTER, PlayerSpec
from tafl_desktop.session.readout import status_text
from tafl_desktop.session.source import GameSource, Origin


def sq(window, name: str) -> int:
    return window.session.variant.geometry.parse_square(name)


def type_move(qtbot, window, text: str) -> None:
    """Ctrl+L, the text, Enter: as a player types it."""
    qtbot.keyClick(window, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)
    field = window.blind_play.field
    assert field.hasFocus()
    qtbot.keyClicks(field, text)
    qtbot.keyClick(field, Qt.Key.Key_Return)


def said(window, kind: str | None = None) -> list:
    return [s for s in window.blind_play.announcer.log if kind is None or s.kind == kind]


def test_typed_moves_in_every_form(qtbot, make_window):
    """Brandubh's start (attackers d1 d2 d6 d7 a4 b4 f4 g4; defenders c4 d5 e4 d3, king d4)."""
    w = make_window("brandubh")
    c = w.controller
    type_move(qtbot, w, "d6b6")  # squares run together
    assert c.session.game.move_texts() == ["d6-b6"]
    qtbot.waitUntil(lambda: len(said(w, "move")) == 1, timeout=1000)
    type_move(qtbot, w, "c5")  # c4-c5 and d5-c5 both end there: the field asks for the whole move
    assert len(c.session.game.plies) == 1
    assert "several moves end on c5 (c4-c5, d5-c5)" in w.blind_play.line.text()
    assert w.blind_play.field.text() == "c5"  # the text stays to be corrected
    w.blind_play.field.clear()
    type_move(qtbot, w, "d5-c5")
    assert c.session.game.move_texts() == ["d6-b6", "d5-c5"]
    # a destination alone that one attacker reaches: c6 (from b6; the c-file and rank 6 hold no other)
    type_move(qtbot, w, "c6")
    assert c.session.game.move_texts()[-1] == "b6-c6"
    # refused: d1-d3 jumps over d2 (the engine's own reason is said, nothing is played)
    before = c.session.game.move_texts()
    type_move(qtbot, w, "d5d3")
    assert c.session.game.move_texts() == before
    reason = c.session.rules.explain_illegal(c.session.game.position, (sq(w, "d5"), sq(w, "d3")))
    assert reason and reason in w.blind_play.line.text()
    assert said(w)[-1].kind == "refused"
    # not a move at all: one clear line, no traceback
    w.blind_play.field.clear()
    type_move(qtbot, w, "zz9")
    assert "zz9" in w.blind_play.line.text() and said(w)[-1].kind == "refused"
    w.blind_play.field.clear()
    type_move(qtbot, w, "d1-d9")
    assert "off this 7x7 board" in w.blind_play.line.text()


def test_fox_jump_chain_typed(qtbot, make_window):
    """The fox (hunters) on c3 jumps the geese on c4 and c6 in one move: c3xc5xc7 (the Fox games'
    chained capture, ``shared/reference/hunt-games.md``), typed as its squares run together."""
    w = make_window("fox_geese_13", "hunters=c3 flock=c4,c6,a3,b3,e3,f3,g3,c1,d1,e1,d2,e2", Side.DEFENDERS)
    c = w.controller
    assert c.session.side_to_move() == Side.DEFENDERS
    type_move(qtbot, w, "c3c5c7")
    assert c.session.game.move_texts() == ["c3xc5xc7"]
    assert sorted(c.session.rules.geometry.name(s) for s in c.session.game.plies[0].captures) == ["c4", "c6"]


def test_dablot_move_typed_by_destination(qtbot, make_window):
    w = make_window("dablot")
    c = w.controller
    only = [m for m in c.session.game.legal_moves() if m[-1] == sq(w, "b7")]
    assert len(only) == 1  # b5's two-point step is the only move ending on b7
    type_move(qtbot, w, "b7")
    assert c.session.game.plies[-1].move == only[0]


def test_one_announcement_per_move_against_the_computer(qtbot, make_window):
    """A game against the computer played by typed moves only: every move of either side is said
    exactly once, within 100 ms of being played, with its move text; none duplicated."""
    from tafl_desktop.gui.engines import window_engines

    w = make_window("brandubh", engines=window_engines())
    c = w.controller
    w.load(GameSource.of_game(Game(c.session.rules), Origin.NEW, (PlayerSpec(), PlayerSpec(COMPUTER, "easy"))))
    played_at: list[tuple[float, str]] = []
    c.session.played.connect(lambda ply: played_at.append((time.monotonic(), c.session.rules.move_text(ply.move))))
    for _ in range(3):
        if c.session.game.outcome is not None:
            break
        n = len(c.session.game.plies)
        mine = c.session.game.legal_moves()[n % len(c.session.game.legal_moves())]
        type_move(qtbot, w, c.session.rules.move_text(mine).replace("-", ""))
        qtbot.waitUntil(lambda n=n: len(c.session.game.plies) >= n + 2 or c.session.game.outcome is not None,
                        timeout=60_000)
        qtbot.waitUntil(lambda: len(said(w, "move")) + len(said(w, "end")) == len(c.session.game.plies), timeout=1000)
    moves = said(w, "move") + said(w, "end")
    assert len(moves) == len(played_at) == len(c.session.game.plies) >= 2
    for (at, text), spoken in zip(played_at, sorted(moves, key=lambda s: s.at), strict=True):
        assert text in spoken.text
        assert abs(spoken.at - at) < 0.1, f"{text} said {spoken.at - at:.3f} s after it was played"
    assert len({s.text for s in moves}) == len(moves) or len(set(played_at)) < len(played_at)
    c.session.shutdown()


def test_the_winning_move_is_said_once_assertively(qtbot, make_window):
    """The king reaches the edge (escape = edge): one announcement, assertive, with the result."""
    w = make_window("brandubh", "/7/7/1t5/3K3/7/5t1/7/", Side.DEFENDERS, escape="edge")
    type_move(qtbot, w, "d4d7")
    assert w.session.game.outcome is not None
    qtbot.waitUntil(lambda: bool(said(w, "end")), timeout=1000)
    qtbot.wait(50)
    ends = said(w, "end")
    assert len(ends) == 1 and not said(w, "move")
    assert ends[0].assertive and "d4-d7" in ends[0].text and "Defenders win" in ends[0].text


def test_query_and_jump_keys_on_the_board(qtbot, make_window):
    w = make_window("brandubh")
    board = w.board
    board.setFocus()
    last = w.blind_play.line.text

    qtbot.keyClick(board, Qt.Key.Key_L)
    assert last() == "No move has been played yet."
    qtbot.keyClick(board, Qt.Key.Key_T)
    assert last() == status_text(w.session) and "Attackers" in last()
    qtbot.keyClick(board, Qt.Key.Key_C)
    assert last() == "This game has no clock."
    qtbot.keyClick(board, Qt.Key.Key_P)
    assert last().startswith("Attackers: 8 pieces:") and "a4" in last() and "g4" in last()
    qtbot.keyClick(board, Qt.Key.Key_P, Qt.KeyboardModifier.ShiftModifier)
    assert last().startswith("Defenders: 5 pieces:") and "king d4" in last()
    # N: the next attacker in reading order (rank 7 first, as the board is drawn)
    qtbot.keyClick(board, Qt.Key.Key_N)
    assert board.cursor_square() == sq(w, "d7") and last().startswith("d7: ")
    qtbot.keyClick(board, Qt.Key.Key_N)
    assert board.cursor_square() == sq(w, "d6")
    qtbot.keyClick(board, Qt.Key.Key_N, Qt.KeyboardModifier.ShiftModifier)
    assert board.cursor_square() == sq(w, "d7")
    qtbot.keyClick(board, Qt.Key.Key_O)  # the other side's first piece after d7: d5
    assert board.cursor_square() == sq(w, "d5")
    qtbot.keyClick(board, Qt.Key.Key_N)  # back to the attackers, after d5 in reading order: a4
    assert board.cursor_square() == sq(w, "a4")
    qtbot.keyClick(board, Qt.Key.Key_M)
    moves = [w.session.rules.move_text(m) for m in w.controller.legal_moves() if m[0] == sq(w, "a4")]
    assert moves and last() == f"a4: {len(moves)} legal moves: {', '.join(moves)}."
    qtbot.keyClick(board, Qt.Key.Key_R)
    assert last() == ("Rank of a4: a4 attacker, b4 attacker, c4 defender, d4 king, e4 defender, f4 attacker, "
                      "g4 attacker.")
    qtbot.keyClick(board, Qt.Key.Key_R, Qt.KeyboardModifier.ShiftModifier)  # F is Flip Board
    assert last() == "File of a4: a4 attacker."
    qtbot.keyClick(board, Qt.Key.Key_K)
    assert last().startswith("No threat")
    # Enter picks the piece under the cursor, the arrows move the cursor (each square said), Enter drops
    qtbot.keyClick(board, Qt.Key.Key_Return)
    assert board.state().selected == sq(w, "a4")
    qtbot.keyClick(board, Qt.Key.Key_Up)
    assert last().startswith("a5: ")
    qtbot.keyClick(board, Qt.Key.Key_Return)
    assert w.session.game.move_texts() == ["a4-a5"]
    qtbot.waitUntil(lambda: bool(said(w, "move")), timeout=1000)
    qtbot.keyClick(board, Qt.Key.Key_L)
    assert "a4-a5" in last()
    # the same queries typed in the move field
    type_move(qtbot, w, "t")
    assert "Defenders" in last()


def test_board_table_mirrors_the_board_and_plays_by_keyboard(qtbot, make_window):
    """View > Board as Table (Ctrl+Shift+B): a cell per square, named as the board names it; the
    current cell is the board's cursor both ways; Enter on cells picks up and puts down."""
    w = make_window("brandubh")
    qtbot.keyClick(w, Qt.Key.Key_B, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    table = w.board_table
    qtbot.waitUntil(table.isVisible, timeout=1000)
    qtbot.waitUntil(table.hasFocus, timeout=1000)  # the shortcut takes the player into the table
    assert (table.rowCount(), table.columnCount()) == (7, 7)
    name = table.item(3, 3).data(Qt.ItemDataRole.AccessibleTextRole)
    assert name == "d4: king on the throne" and table.item(3, 3).text() == "K"
    assert table.item(0, 0).data(Qt.ItemDataRole.AccessibleTextRole) == "a7: corner"
    assert [table.verticalHeaderItem(r).text() for r in range(7)] == list("7654321")
    assert [table.horizontalHeaderItem(c).text() for c in range(7)] == list("abcdefg")
    table.setCurrentCell(1, 3)  # d6
    assert w.board.cursor_square() == sq(w, "d6")
    assert w.blind_play.line.text() == "d6: attacker"
    qtbot.keyClick(table, Qt.Key.Key_Return)
    assert w.board.state().selected == sq(w, "d6")
    qtbot.keyClick(table, Qt.Key.Key_Left)
    qtbot.keyClick(table, Qt.Key.Key_Left)
    assert w.board.cursor_square() == sq(w, "b6")
    qtbot.keyClick(table, Qt.Key.Key_Space)
    assert w.session.game.move_texts() == ["d6-b6"]
    assert table.item(1, 1).data(Qt.ItemDataRole.AccessibleTextRole) == "b6: attacker"
    assert table.item(1, 3).data(Qt.ItemDataRole.AccessibleTextRole) == "d6: empty"
    w.board.set_cursor_square(sq(w, "g1"))  # the board's cursor moves the table's cell too
    assert (table.currentRow(), table.currentColumn()) == (6, 6)


def test_a_whole_game_against_the_computer_by_typed_moves(qtbot, make_window):
    """To the end: the attackers (typed) leave the king's ways open, the computer's king escapes to
    the edge (escape = edge); two moves, two announcements, the last one assertive with the result."""
    from tafl_desktop.gui.engines import window_engines

    w = make_window("brandubh", "/7/7/1t5/3K3/7/5t1/7/", Side.ATTACKERS, escape="edge", engines=window_engines())
    c = w.controller
    start = c.session.game.position
    w.load(GameSource.of_game(Game(c.session.rules, start), Origin.NEW, (PlayerSpec(), PlayerSpec(COMPUTER, "easy"))))
    played_at: list[float] = []
    c.session.played.connect(lambda _ply: played_at.append(time.monotonic()))
    type_move(qtbot, w, "b5b6")
    qtbot.waitUntil(lambda: c.session.game.outcome is not None, timeout=60_000)
    qtbot.wait(50)
    log = said(w)
    assert [s.kind for s in log] == ["move", "end"]
    # the move, then the king's call for the position it leaves (four open ways: Tuichi)
    assert log[0].text == ("The attackers played b5-b6. Tuichi: The king has 4 open paths to escape "
                           "(d1, a4, g4, d7): they cannot all be blocked in one move.")
    assert not log[0].assertive
    reply = c.session.rules.move_text(c.session.game.plies[1].move)
    assert reply in log[1].text and "Defenders win" in log[1].text and log[1].assertive
    assert all(abs(s.at - at) < 0.1 for s, at in zip(log, played_at, strict=True))
    assert w.blind_play.line.text() == log[1].text
    type_move(qtbot, w, "b6b7")  # the game is over: said, nothing played
    assert len(c.session.game.plies) == 2 and said(w)[-1].kind == "refused"
    c.session.shutdown()


def test_clock_warnings_and_the_flag_are_announced(qtbot, make_window):
    """A running clock is said once under a minute, 30 s and 10 s; the flag's result assertively."""
    from tafl_desktop.core.clock import TimeControl
    from tafl_desktop.core.variants import find_variant
    from tafl_desktop.session.players import HUMANS

    class FakeTime:
        t = 500.0

        def __call__(self) -> float:
            return self.t

    w = make_window("brandubh")
    now = FakeTime()
    w.clock_driver.now = now
    w.start_game(find_variant("brandubh"), HUMANS, time_control=TimeControl.parse("90"))
    qtbot.wait(600)  # the clock's own timer beats: nothing to say at 1:30
    assert not said(w, "clock")
    now.t += 35  # 55 s left: under a minute, said once however often the timer beats
    qtbot.waitUntil(lambda: bool(said(w, "clock")), timeout=2000)
    qtbot.wait(600)
    assert [s.text for s in said(w, "clock")] == ["Attackers: 55 seconds left on the clock."]
    now.t += 50  # 5 s left: past 30 s and 10 s at once, one announcement
    qtbot.waitUntil(lambda: len(said(w, "clock")) == 2, timeout=2000)
    assert said(w, "clock")[-1].text == "Attackers: 5 seconds left on the clock."
    now.t += 10  # the flag falls: the result, assertively
    qtbot.waitUntil(lambda: bool(said(w, "end")), timeout=2000)
    end = said(w, "end")
    assert len(end) == 1 and end[0].assertive
    assert end[0].text == "Defenders win: the attackers ran out of time."
