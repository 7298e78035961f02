"""The Learn menu through the real window (offscreen): a lesson and a puzzle solved by clicks on
the board, each failed once on purpose first; hints, retries and the remembered progress."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from tafl_desktop.study.puzzles import all_puzzles


def click(qtbot, study_board, name: str) -> None:
    view = study_board.view
    square = study_board.rules.geometry.parse_square(name)
    qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=view.square_center(square).toPoint())


def play(qtbot, study_board, move_text: str) -> None:
    """Click a move's points in turn (``d1-d5``, or a chain of jumps ``c5xc3xe3``)."""
    for name in move_text.replace("x", "-").split("-"):
        click(qtbot, study_board, name)


def learn_actions(window):
    window.learn_menu.aboutToShow.emit()  # the menu is filled when it opens
    out = {}
    for act in window.learn_menu.actions():
        if act.menu():
            for sub in act.menu().actions():
                out[sub.data()] = sub
        elif act.text():
            out[act.text()] = act
    return out


def test_learn_menu_lists_lessons_of_every_family(make_window):
    w = make_window("brandubh")
    titles = [a.text().replace("&", "") for a in w.menuBar().actions()]
    assert titles.index("Learn") == titles.index("Help") - 1
    acts = learn_actions(w)
    for lesson_id in ("tafl-capture", "tafl-king", "tafl-walls", "fox-geese", "asalto-halatafl", "dablot-ranks"):
        assert lesson_id in acts
    assert "&Puzzles..." in acts


def test_lesson_solved_through_the_window_after_a_wrong_move(qtbot, make_window):
    w = make_window("brandubh")
    learn_actions(w)["tafl-capture"].trigger()
    dlg = w.learn_dialogs[-1]
    qtbot.waitExposed(dlg)
    assert "Capture the piece on c5" in dlg.text.text()
    # wrong on purpose: a legal move that captures nothing, then one the rules refuse
    play(qtbot, dlg.board, "d1-d2")
    assert "captures nothing" in dlg.feedback.text() and not dlg.btn_next.isEnabled()
    play(qtbot, dlg.board, "d1-d4")
    assert "not allowed" in dlg.feedback.text() and "throne" in dlg.feedback.text()
    dlg.btn_solution.click()
    assert "d1-d5" in dlg.feedback.text() and dlg.board.view.state().suggested
    play(qtbot, dlg.board, "d1-d5")
    assert "Well done" in dlg.feedback.text() and dlg.btn_next.isEnabled()
    assert dlg.board.view.state().captured  # the taken piece is shown leaving
    dlg.btn_next.click()
    assert dlg.index == 1 and "corner" in dlg.text.text()


def test_dablot_lesson_explains_rank(qtbot, make_window):
    w = make_window("brandubh")
    learn_actions(w)["dablot-ranks"].trigger()
    dlg = w.learn_dialogs[-1]
    play(qtbot, dlg.board, "c5xc9")  # step 1: the son outranks the soldier
    assert "Well done" in dlg.feedback.text()
    dlg.btn_next.click()  # step 2: chained jumps
    play(qtbot, dlg.board, "c5xc9")
    click(qtbot, dlg.board, "c9")  # ending the chain early takes only one of the two
    assert "but not" in dlg.feedback.text()
    play(qtbot, dlg.board, "c5xc9xe9")
    assert "Well done" in dlg.feedback.text()


def _puzzle(variant: str, plies: int) -> dict:
    found = [p for p in all_puzzles() if p["variant"] == variant and p["plies"] == plies]
    if not found:
        pytest.skip(f"no shipped {variant} puzzle of {plies} plies")
    return found[0]


def test_puzzle_solved_through_the_window_after_a_wrong_move(qtbot, make_window):
    pz = _puzzle("brandubh", 3)
    w = make_window("brandubh")
    w.act_puzzles.trigger()
    dlg = w.learn_dialogs[-1]
    assert dlg.select(pz["id"])
    assert "win in 2 moves" in dlg.task.text()
    board = dlg.board
    rules, pos = board.rules, board.position
    first = pz["solution"][0]
    wrong = next(rules.move_text(m) for m in rules.legal_moves(pos) if rules.move_text(m) != first)
    play(qtbot, board, wrong)
    assert "fails" in dlg.feedback.text() or "does not force" in dlg.feedback.text()
    assert board.position == pos  # retry from the same position
    dlg.btn_hint.click()
    assert board.view.state().selected == rules.parse_move(pos, first)[0]
    dlg.btn_hint.click()
    assert board.view.state().suggested == rules.parse_move(pos, first)
    play(qtbot, board, first)
    qtbot.waitUntil(lambda: dlg.plies_left == 1 and board.interactive, timeout=5000)
    assert "answer" in dlg.feedback.text()
    winning = dlg.tree["move"]
    play(qtbot, board, winning)
    assert "Solved" in dlg.feedback.text()
    assert pz["id"] in dlg.progress.solved("brandubh")
    assert dlg.progress.streak("brandubh") == (0, 0)  # the wrong move broke the streak
    # a clean solve of another puzzle starts a streak, remembered by a new dialog
    pz1 = _puzzle("brandubh", 1)
    dlg.select(pz1["id"])
    play(qtbot, board, pz1["solution"][0])
    assert "Solved" in dlg.feedback.text()
    w.act_puzzles.trigger()
    again = w.learn_dialogs[-1]
    again.select(pz1["id"])
    assert "streak 1" in again.progress_label.text() and "solved 2 of" in again.progress_label.text()


def test_puzzle_filters(make_window):
    w = make_window("brandubh")
    w.act_puzzles.trigger()
    dlg = w.learn_dialogs[-1]
    fams = [dlg.family_box.itemData(i) for i in range(dlg.family_box.count())]
    dlg.family_box.setCurrentIndex(fams.index("hunt"))
    assert dlg.shown and all(p["variant"].startswith("fox") for p in dlg.shown)
    dlg.level_box.setCurrentIndex(1)
    assert all(p["difficulty"] == 1 for p in dlg.shown)


def test_king_capture_rules_lesson_through_the_window(qtbot, make_window):
    """Two sides take the king on the throne only under the "like a soldier" rule (source 003)."""
    w = make_window("brandubh")
    learn_actions(w)["tafl-king-capture-rules"].trigger()
    dlg = w.learn_dialogs[-1]
    assert "two sides" in dlg.text.text()
    play(qtbot, dlg.board, "f8-f6")  # one point short: the king still stands
    assert "the game goes on" in dlg.feedback.text() and not dlg.btn_next.isEnabled()
    play(qtbot, dlg.board, "f8-f5")
    assert "Well done" in dlg.feedback.text() and dlg.btn_next.isEnabled()
    dlg.btn_next.click()
    assert dlg.index == 1 and "four on the throne" in dlg.text.text()


def test_lesson_and_puzzle_windows_close_like_any_window(qtbot, make_window):
    # A lesson window once kept a flag named `done`, which hid QDialog.done(): closing the window
    # (the title bar's close button, Escape) crashed the whole program.
    w = make_window("brandubh")
    learn_actions(w)["tafl-capture"].trigger()
    lesson = w.learn_dialogs[-1]
    qtbot.waitExposed(lesson)
    lesson.close()
    assert not lesson.isVisible()
    w.act_puzzles.trigger()
    puzzles = w.learn_dialogs[-1]
    qtbot.waitExposed(puzzles)
    qtbot.keyClick(puzzles, Qt.Key.Key_Escape)
    assert not puzzles.isVisible() and w.isVisible()


def test_a_puzzles_rules_are_shown_before_its_first_move(qtbot, make_window, tmp_path):
    """Issue 'Rules and exchange fidelity III', item 8: the puzzle window names the rules a puzzle is played
    under before the first move: the preset's (every shipped puzzle), or the changed toggles spelled out,
    as the side panel does for a changed game; the Rules button opens the full sheet."""
    from tafl_desktop.gui.learn import PuzzleDialog

    pz = _puzzle("brandubh", 1)
    w = make_window("brandubh")
    w.act_puzzles.trigger()
    dlg = w.learn_dialogs[-1]
    assert dlg.select(pz["id"])
    assert dlg.rules_label.text() == "Rules: Brandubh, rules as in the preset"
    assert dlg.btn_rules.isEnabled() and not dlg.line  # nothing played yet
    changed = dict(pz, id="brandubh-9999", options={"king_capture": "weak_near_throne", "encirclement": True})
    other = PuzzleDialog([changed], w)
    qtbot.addWidget(other)
    text = other.rules_label.text()
    assert "2 rules changed" in text and "Encirclement: yes" in text
    assert "King captured by: Four on or beside the throne, else two" in text
    other.show()
    qtbot.waitExposed(other)
    shot = tmp_path / "puzzle-rules.png"
    other.grab().save(str(shot))
    assert shot.stat().st_size > 0
