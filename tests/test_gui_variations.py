"""Variations and comments through the real window (issue 19): a move at an earlier position
starts a variation that is kept and shown indented; undo, redo and clicks follow the tree;
comments, promotion and deletion from the move list's menu; saved and reopened with all of it."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QInputDialog

from tests.test_gui_play import click


def click_cell(qtbot, window, row: int, col: int) -> None:
    table = window.panel.moves.table
    idx = window.panel.moves.model.index(row, col)
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=table.visualRect(idx).center())


def menu_action(window, node, text: str) -> None:
    menu = window.panel.moves.menu_for(node)
    [action] = [a for a in menu.actions() if a.text() == text]
    assert action.isEnabled(), text
    action.trigger()


def rows(window) -> list[tuple[int, str, str]]:
    """(depth, column 0, column 1) of every row of the move list as shown."""
    m = window.panel.moves.model
    from tafl_desktop.gui.move_list import DEPTH_ROLE

    return [(m.index(r, 0).data(DEPTH_ROLE), m.index(r, 0).data() or "", m.index(r, 1).data() or "")
            for r in range(m.rowCount())]


def test_variation_from_an_earlier_position_is_kept_and_followed(qtbot, make_window):
    w = make_window("brandubh")
    for a, b in (("d6", "b6"), ("c4", "c6"), ("b6", "b5")):
        click(qtbot, w, a)
        click(qtbot, w, b)
    c = w.controller
    click_cell(qtbot, w, 0, 0)  # back to the position after move 1
    assert c.session.view_ply == 1
    click(qtbot, w, "e4")
    click(qtbot, w, "e6")  # instead of c4-c6: a variation
    assert c.session.game.move_texts() == ["d6-b6", "e4-e6"] and c.session.is_live
    assert "a new variation" in w.status_text()
    assert rows(w) == [(0, "d6-b6", "c4-c6"), (1, "…", "e4-e6"), (0, "b6-b5", "")]
    assert w.panel.moves.model.index(1, 1).data(Qt.ItemDataRole.FontRole).italic()
    click(qtbot, w, "b6")
    click(qtbot, w, "c6")  # the variation goes on at its live end
    assert rows(w) == [(0, "d6-b6", "c4-c6"), (1, "…", "e4-e6"), (1, "b6-c6", ""), (0, "b6-b5", "")]
    assert "*" in w.windowTitle()
    # the main line is still there: clicking its last move shows that line again
    click_cell(qtbot, w, 3, 0)
    assert c.session.game.move_texts() == ["d6-b6", "c4-c6", "b6-b5"] and c.session.view_ply == 3
    # undo and redo follow the tree: a different move after undo is one more variation
    w.act_undo.trigger()
    assert c.session.game.move_texts() == ["d6-b6", "c4-c6"]
    click(qtbot, w, "b6")
    click(qtbot, w, "b5")  # the same move as before: nothing new
    assert c.session.tree.size() == 5
    w.act_undo.trigger()
    click(qtbot, w, "b6")
    click(qtbot, w, "a6")
    assert c.session.game.move_texts() == ["d6-b6", "c4-c6", "b6-a6"] and c.session.tree.size() == 6
    w.act_undo.trigger()
    w.act_redo.trigger()
    assert c.session.game.move_texts() == ["d6-b6", "c4-c6", "b6-a6"]
    assert rows(w)[-2:] == [(0, "b6-b5", ""), (1, "b6-a6", "")]
    # playing the next move of the line from an earlier position only steps forward
    click_cell(qtbot, w, 0, 0)
    click(qtbot, w, "c4")
    click(qtbot, w, "c6")
    assert c.session.view_ply == 2 and c.session.tree.size() == 6
    assert c.session.game.move_texts()[:2] == ["d6-b6", "c4-c6"]


def test_comment_promote_delete_save_and_reopen(qtbot, make_window, dialogs_recorder, tmp_path, monkeypatch):
    w = make_window("brandubh")
    c = w.controller
    for a, b in (("d6", "b6"), ("c4", "c6"), ("b6", "b5")):
        click(qtbot, w, a)
        click(qtbot, w, b)
    click_cell(qtbot, w, 0, 0)
    click(qtbot, w, "e4")
    click(qtbot, w, "e6")
    variation = c.session.viewed_node()
    first = variation.parent

    monkeypatch.setattr(QInputDialog, "getMultiLineText",
                        staticmethod(lambda *_a, **_k: ("The defenders open the east side.", True)))
    menu_action(w, variation, "Comment on 1... e4-e6...")  # the defenders' half of move 1
    assert variation.comment == "The defenders open the east side."
    assert rows(w)[2] == (1, "“The defenders open the east side.”", "")
    monkeypatch.setattr(QInputDialog, "getMultiLineText", staticmethod(lambda *_a, **_k: ("Main idea", True)))
    menu_action(w, first, "Comment on 1. d6-b6...")

    path = tmp_path / "study.tafl.json"
    dialogs_recorder.save_paths.append(str(path))
    qtbot.keyClick(w, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert "*" not in w.windowTitle()
    data = json.loads(path.read_text())
    assert data["moves"] == ["d6-b6", "c4-c6", "b6-b5"] and data["comments"] == {"1": "Main idea"}
    assert data["variations"] == [{"ply": 2, "moves": ["e4-e6"],
                                   "comments": {"2": "The defenders open the east side."}}]

    other = make_window("copenhagen")
    assert other.files.open_game(str(path))
    oc = other.controller
    assert oc.session.game.move_texts() == ["d6-b6", "c4-c6", "b6-b5"]
    assert rows(other) == [(0, "d6-b6", "c4-c6"), (0, "“Main idea”", ""), (1, "…", "e4-e6"),
                           (1, "“The defenders open the east side.”", ""), (0, "b6-b5", "")]
    assert "*" not in other.windowTitle()

    # promote the variation to the main line, then delete the old main line as a variation
    var = oc.session.tree.main_line()[0].children[1]
    menu_action(other, var, "Make Main Line")
    assert [oc.session.rules.move_text(n.move) for n in oc.session.tree.main_line()] == ["d6-b6", "e4-e6"]
    assert "*" in other.windowTitle()
    old = oc.session.tree.main_line()[0].children[1]
    dialogs_recorder.confirm_answer = False
    menu_action(other, old, "Delete Variation")
    assert oc.session.tree.size() == 4  # the player said no
    dialogs_recorder.confirm_answer = True
    menu_action(other, old.children[0], "Delete Variation")
    assert oc.session.tree.size() == 2
    assert rows(other) == [(0, "d6-b6", "e4-e6"), (0, "“Main idea”", ""),
                           (0, "“The defenders open the east side.”", "")]
    assert oc.session.game.move_texts() == ["d6-b6", "e4-e6"]
    assert other.files.save_game()
    assert json.loads(path.read_text())["moves"] == ["d6-b6", "e4-e6"]
    assert "variations" not in json.loads(path.read_text())


def test_play_variation_plays_a_line_from_the_position_shown(qtbot, make_window):
    """The call an analysis line uses: each move from the position shown, nothing discarded."""
    w = make_window("brandubh")
    c = w.controller
    for text in ("d6-b6", "c4-c6", "b6-b5"):
        assert c.play_move(c.session.rules.parse_move(c.session.game.position, text))
    c.session.goto(1)
    for text in ("c4-c6", "b6-a6"):  # the main line's move, then a new one
        assert c.play_variation(c.session.rules.parse_move(c.session.play_game().position, text))
    assert c.session.game.move_texts() == ["d6-b6", "c4-c6", "b6-a6"] and c.session.is_live
    assert [c.session.rules.move_text(n.move) for n in c.session.tree.main_line()] == ["d6-b6", "c4-c6", "b6-b5"]
    assert not c.play_variation(c.session.rules.parse_move(c.session.play_game().position, "a6-a1"))
    assert "not allowed" in w.status_text() and c.session.tree.size() == 4
