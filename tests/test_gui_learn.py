"""The Learn menu through the real window (offscreen): a lesson and a puzzle solved by clicks on
the board, each failed once on purpose first; hints, retries and the remembered progress."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from timing import within

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
    from tafl_desktop.core.variants import presets

    family = {vid: v.family for vid, v in presets().items()}
    assert dlg.shown and all(family[p["variant"]] == "hunt" for p in dlg.shown)
    assert {"fox_geese_13", "asalto", "halatafl", "fox_hounds"} <= {p["variant"] for p in dlg.shown}
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


# ------------------------------------------------------------------- puzzles as a trainer (issue 29)
def _open_puzzles(w):
    w.act_puzzles.trigger()
    return w.learn_dialogs[-1]


def test_a_newcomer_starts_with_the_easiest_puzzle_and_the_rating_follows(qtbot, make_window):
    w = make_window("brandubh")
    dlg = _open_puzzles(w)
    first = dlg.puzzle
    assert first["plies"] == 1 and first["difficulty"] == 1
    assert dlg.rating_label.text() == "Your puzzle rating: 1500?"
    play(qtbot, dlg.board, first["solution"][0])
    assert "Solved" in dlg.feedback.text()
    after = dlg.progress.player_rating()
    assert after.rating > 1500 and "(+" in dlg.rating_label.text()
    dlg.btn_next.click()  # the next puzzle is the unattempted one nearest the new rating
    nxt = dlg.puzzle
    assert nxt["id"] != first["id"] and nxt["id"] not in dlg.progress.attempted()
    # a wrong first move is a lost attempt: the rating drops at once, and only once
    rules, pos = dlg.board.rules, dlg.board.position
    wrong = next(rules.move_text(m) for m in rules.legal_moves(pos) if rules.move_text(m) != nxt["solution"][0])
    play(qtbot, dlg.board, wrong)
    dropped = dlg.progress.player_rating().rating
    assert dropped < after.rating and "(−" in dlg.rating_label.text()
    play(qtbot, dlg.board, wrong)
    assert dlg.progress.player_rating().rating == dropped
    dlg.btn_prev.click()
    assert dlg.puzzle["id"] == first["id"]


def test_theme_filter(make_window):
    w = make_window("brandubh")
    dlg = _open_puzzles(w)
    themes = [dlg.theme_box.itemData(i) for i in range(dlg.theme_box.count())]
    assert themes[0] == "" and {"escape", "capture_king", "double_threat", "long"} <= set(themes)
    dlg.theme_box.setCurrentIndex(themes.index("double_threat"))
    assert dlg.shown and all("double_threat" in p["themes"] for p in dlg.shown)
    assert "Double threat" in dlg.theme_box.currentText()
    assert "Double threat" in dlg.heading.toolTip()


def test_show_solution_plays_the_line_on_the_board(qtbot, make_window, monkeypatch):
    from tafl_desktop.gui import learn

    monkeypatch.setattr(learn, "SOLUTION_STEP_MS", 30)
    pz = _puzzle("brandubh", 5)
    w = make_window("brandubh")
    dlg = _open_puzzles(w)
    dlg.select(pz["id"])
    dlg.solution_timer.setInterval(30)
    start = dlg.board.position
    dlg.btn_solution.click()
    assert not dlg.board.interactive and dlg.board.position == start  # nothing printed, nothing jumped
    qtbot.waitUntil(lambda: len(dlg.line) == 1, timeout=5000)
    assert dlg.board.view.state().last_move  # the first move lands on the board by itself
    qtbot.waitUntil(lambda: dlg.solved, timeout=10000)
    assert dlg.line == pz["solution"]
    assert dlg.board.rules.outcome(dlg.board.position).reason == pz["goal"]
    assert "Solution:" in dlg.feedback.text() and dlg.progress.player_rating().rating < 1500


def test_puzzles_from_my_games_through_the_window(qtbot, make_window, tmp_path, monkeypatch):
    from tafl_desktop.study import my_games
    from tests.test_study_puzzle_training import _missed_win_game

    out = tmp_path / "my_games.json"
    monkeypatch.setattr(my_games, "default_path", lambda: out)
    _pz, _game, path = _missed_win_game(tmp_path)
    w = make_window("brandubh")
    w.learn_menu.aboutToShow.emit()
    assert w.act_mine_games.text() == "Puzzles from &My Games..."
    from tafl_desktop.gui.learn import mine_my_games

    dlg = mine_my_games(w, [str(path)])
    qtbot.waitUntil(lambda: dlg.btn_puzzles.isEnabled(), timeout=60000)
    assert "1 puzzle found, 1 new in your set." in dlg.status.text()
    dlg.btn_puzzles.click()
    puzzles = w.learn_dialogs[-1]
    assert puzzles.puzzle["id"].startswith("my_games-")
    fams = [puzzles.family_box.itemData(i) for i in range(puzzles.family_box.count())]
    assert "my_games" in fams


def test_closing_puzzles_from_my_games_never_waits_and_keeps_what_it_found(qtbot, make_window, tmp_path,
                                                                           monkeypatch):
    """Closing the dialog while it searches returns at once (it used to wait up to 10 s for the
    proof under way); the search then stops, and the puzzle it had found is still in the set."""
    import threading
    import time

    from tafl_desktop.gui.learn import mine_my_games
    from tafl_desktop.study import my_games
    from tafl_desktop.study.puzzles import PuzzleSet
    from tests.test_study_puzzle_training import _missed_win_game

    out = tmp_path / "my_games.json"
    monkeypatch.setattr(my_games, "default_path", lambda: out)
    _pz, _game, path = _missed_win_game(tmp_path)
    real = my_games.mine_game
    searching = threading.Event()
    asked_to_stop: list[bool] = []

    def slow_mine(game, source="", *, should_stop=None, progress=None, **kw):
        found = real(game, source)  # the game's real puzzle
        searching.set()
        t0 = time.monotonic()
        while not should_stop() and time.monotonic() - t0 < 30:
            time.sleep(0.01)
        asked_to_stop.append(should_stop())
        time.sleep(1.0)  # a proof that runs on for a second after the request to stop
        return found

    monkeypatch.setattr(my_games, "mine_game", slow_mine)
    w = make_window("brandubh")
    dlg = mine_my_games(w, [str(path)])
    qtbot.waitUntil(searching.is_set, timeout=60000)
    thread = dlg.thread_
    t0 = time.monotonic()
    dlg.close()
    within(time.monotonic() - t0, 0.5, "closing the dialog")
    assert not dlg.isVisible()
    qtbot.waitUntil(thread.isFinished, timeout=30000)
    assert asked_to_stop == [True]
    assert len(PuzzleSet.load(out).puzzles) == 1


def test_my_games_are_chosen_through_the_windows_file_dialog(qtbot, make_window, tmp_path, monkeypatch,
                                                             dialogs_recorder):
    """"Choose games..." asks through the window's file dialog (its filter in the reader's words)
    for several games at once; a broken one is named in the status line, the other still mined."""
    from tafl_desktop.gui.learn import mine_my_games
    from tafl_desktop.study import my_games
    from tests.test_study_puzzle_training import _missed_win_game

    out = tmp_path / "my_games.json"
    monkeypatch.setattr(my_games, "default_path", lambda: out)
    _pz, _game, path = _missed_win_game(tmp_path)
    broken = tmp_path / "broken.tafl.json"
    broken.write_text("{not json", encoding="utf-8")
    w = make_window("brandubh")
    dlg = mine_my_games(w)
    dialogs_recorder.open_paths = [str(broken), str(path)]
    qtbot.mouseClick(dlg.btn_choose, Qt.MouseButton.LeftButton)
    assert dialogs_recorder.open_paths == []  # both were picked in one dialog
    qtbot.waitUntil(lambda: dlg.btn_choose.isEnabled() and dlg.thread_ is not None and dlg.thread_.isFinished(),
                    timeout=60000)
    lines = dlg.status.text().split("\n")
    assert lines[0] == "1 puzzle found, 1 new in your set." and len(lines) == 2 and "broken.tafl.json" in lines[1]
    dlg.close()


def test_an_opentafl_puzzle_file_is_read_off_the_windows_thread(qtbot, make_window, tmp_path, monkeypatch):
    """Learn > Open an OpenTafl Puzzle reads a large file as File > Import does: in a thread (it was
    read on the window's thread), and the puzzle opens as before."""
    import threading

    from tafl_desktop.gui import background_read
    from tafl_desktop.gui.learn import open_puzzle_file
    from tafl_desktop.gui.record_puzzle import RecordPuzzleDialog
    from tafl_desktop.study import record_puzzles
    from tests.test_study_puzzle_training import _otg_puzzle

    _pz, path = _otg_puzzle(tmp_path, mode="strict")
    monkeypatch.setattr(background_read, "SMALL_BYTES", 0)  # this small file stands in for a large one
    real = record_puzzles.read_record_puzzle
    readers: list[threading.Thread] = []

    def read(p):
        readers.append(threading.current_thread())
        return real(p)

    monkeypatch.setattr(record_puzzles, "read_record_puzzle", read)
    w = make_window("brandubh")
    dlg = open_puzzle_file(w, str(path))
    assert isinstance(dlg, RecordPuzzleDialog) and dlg.isVisible()
    assert readers and all(t is not threading.main_thread() for t in readers)


def test_an_opentafl_puzzle_opens_from_import_and_is_solved(qtbot, make_window, tmp_path, dialogs_recorder):
    from tafl_desktop.gui.interop_menu import import_game
    from tafl_desktop.gui.record_puzzle import RecordPuzzleDialog
    from tests.test_study_puzzle_training import _otg_puzzle

    pz, path = _otg_puzzle(tmp_path, mode="strict")
    w = make_window("brandubh")
    before = w.session.game
    assert import_game(w, str(path))
    dlg = w.learn_dialogs[-1]
    assert isinstance(dlg, RecordPuzzleDialog) and w.session.game is before  # the game is untouched
    assert "take the king in two" in dlg.intro.text() and "strict" in dlg.heading.text()
    rules, start = dlg.puzzle.rules, dlg.board.position
    wrong = next(rules.move_text(m) for m in rules.legal_moves(start) if rules.move_text(m) != pz["solution"][0])
    play(qtbot, dlg.board, wrong)
    assert "not in this puzzle" in dlg.feedback.text() and dlg.board.position == start
    dlg.btn_hint.click()
    assert "double threat" in dlg.feedback.text()
    dlg.btn_hint.click()
    assert dlg.board.view.state().suggested == rules.parse_move(start, pz["solution"][0])
    play(qtbot, dlg.board, pz["solution"][0])
    assert "in the author's line" in dlg.feedback.text() and "one way out" not in dlg.comment.text()
    qtbot.waitUntil(lambda: dlg.board.interactive, timeout=5000)
    play(qtbot, dlg.board, pz["solution"][2])
    assert "Solved!" in dlg.feedback.text()
    dlg.btn_back.click()
    assert not dlg.over and dlg.board.interactive
    dialogs_recorder.confirm_answer = False  # "open it as a game" instead
    assert import_game(w, str(path)) and w.session.game is not before
    assert [w.session.rules.move_text(p.move) for p in w.session.game.plies] == pz["solution"]


def test_a_loose_opentafl_puzzle_allows_other_moves(qtbot, make_window, tmp_path, dialogs_recorder):
    from tafl_desktop.gui.record_puzzle import open_record_puzzle
    from tests.test_study_puzzle_training import _otg_puzzle

    pz, path = _otg_puzzle(tmp_path, mode="loose")
    w = make_window("brandubh")
    dlg = open_record_puzzle(w, str(path))
    rules, start = dlg.puzzle.rules, dlg.board.position
    wrong = next(m for m in rules.legal_moves(start) if rules.move_text(m) != pz["solution"][0]
                 and rules.outcome(rules.play(start, m)[0]) is None)
    play(qtbot, dlg.board, rules.move_text(wrong))
    assert "not among the author's lines" in dlg.feedback.text() and dlg.board.position != start
    dlg.btn_back.click()
    assert dlg.board.position == start
    dlg.btn_solution.click()
    qtbot.waitUntil(lambda: dlg.over, timeout=10000)
    assert "Solved!" in dlg.feedback.text()
    bad = tmp_path / "bad.otg"
    bad.write_bytes(b"\x00garbage")
    assert open_record_puzzle(w, str(bad)) is None
    assert dialogs_recorder.errors and "\n" not in dialogs_recorder.errors[-1][1]
    # the Learn menu opens one too, through the file dialog
    w.learn_menu.aboutToShow.emit()
    dialogs_recorder.open_paths.append(str(path))
    w.act_open_puzzle_file.trigger()
    assert w.learn_dialogs[-1].puzzle.mode == "loose"


def test_lesson_progress_is_kept_and_leads_to_the_next_lesson(qtbot, make_window):
    w = make_window("brandubh")
    acts = learn_actions(w)
    acts["tafl-capture"].trigger()
    dlg = w.learn_dialogs[-1]
    play(qtbot, dlg.board, "d1-d5")
    assert "Well done" in dlg.feedback.text() and "(1 done)" in dlg.heading.text()
    dlg.close()
    acts = learn_actions(w)
    assert "1 of" in acts["tafl-capture"].text() and not acts["tafl-capture"].isChecked()
    cont = next(a for a in w.learn_menu.actions() if a.objectName() == "learn-continue")
    assert "Continue:" in cont.text()
    cont.trigger()
    again = w.learn_dialogs[-1]
    assert again.lesson.id == "tafl-capture" and again.index == 1  # where it was left
    lesson = again.lesson
    while again.index + 1 < len(lesson.steps) or not again.step_done:
        if not again.step_done:
            again.show_solution()
            play(qtbot, again.board, again.step.solution)
            assert again.step_done, again.feedback.text()
        if again.index + 1 < len(lesson.steps):
            again.btn_next.click()
    assert again.btn_next.text() == "&Next lesson"
    again.btn_next.click()
    assert again.lesson.id != "tafl-capture" and again.index == 0
    assert learn_actions(w)["tafl-capture"].isChecked()


def test_dablot_lesson_boards_show_ranks(make_window):
    w = make_window("brandubh")
    learn_actions(w)["dablot-ranks"].trigger()
    dlg = w.learn_dialogs[-1]
    ranks = dlg.board.view.state().ranks
    assert ranks and ranks["s"] == 1 and ranks["k"] > ranks["p"] > ranks["s"]


def test_puzzle_windows_of_every_kind_close_like_any_window(qtbot, make_window, tmp_path):
    """A flag named like a QDialog method (done) crashed the program on closing; every study window
    closes cleanly, mid-line too."""
    from tafl_desktop.gui.record_puzzle import open_record_puzzle
    from tests.test_study_puzzle_training import _otg_puzzle

    pz, path = _otg_puzzle(tmp_path, mode="loose")
    w = make_window("brandubh")
    dlg = open_record_puzzle(w, str(path))
    play(qtbot, dlg.board, pz["solution"][0])
    dlg.close()
    qtbot.keyClick(dlg, Qt.Key.Key_Escape)
    assert not dlg.isVisible() and w.isVisible()


def test_a_damaged_puzzle_set_of_my_own_is_named_and_never_overwritten(qtbot, make_window, tmp_path, monkeypatch):
    from tafl_desktop.gui.learn import mine_my_games
    from tafl_desktop.study import my_games
    from tests.test_study_puzzle_training import _missed_win_game

    out = tmp_path / "my_games.json"
    out.write_bytes(b"{damaged")
    monkeypatch.setattr(my_games, "default_path", lambda: out)
    w = make_window("brandubh")
    dlg = _open_puzzles(w)
    assert dlg.shown and "Your puzzles are left out" in w.statusBar().currentMessage()
    _pz, _game, path = _missed_win_game(tmp_path)
    miner = mine_my_games(w, [str(path)])
    qtbot.waitUntil(lambda: miner.btn_choose.isEnabled(), timeout=60000)
    assert "Cannot write" in miner.status.text() and out.read_bytes() == b"{damaged"


def test_puzzles_from_a_reviewed_game_through_the_window(qtbot, make_window, tmp_path, monkeypatch):
    """A game where the defenders missed a forced win: the review marks the miss, and "Puzzles from
    this review" proves the engine's better move and adds the position to the player's set."""
    from tafl_desktop.ai.review import Budget
    from tafl_desktop.study import my_games
    from tafl_desktop.study.puzzles import PuzzleSet, check_puzzle
    from tests.test_study_puzzle_training import _missed_win_game

    out = tmp_path / "my_games.json"
    monkeypatch.setattr(my_games, "default_path", lambda: out)
    pz, game, _path = _missed_win_game(tmp_path)
    w = make_window("brandubh", size=(1000, 760))
    from tafl_desktop.session.source import GameSource, Origin

    w.load(GameSource.of_game(game, Origin.OPEN))
    w.refresh()
    panel = w.review_panel
    panel.start(Budget(depth=pz["plies"]))
    qtbot.waitUntil(lambda: not panel.running, timeout=120_000)
    missed = [ex for ex in panel.exercises() if ex.ply == 1]
    assert missed and missed[0].best_text == pz["solution"][0], [(e.ply, e.best_text) for e in panel.exercises()]
    assert panel.puzzles_button.isVisible()
    qtbot.mouseClick(panel.puzzles_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.puzzle_thread is None, timeout=60_000)
    assert "1 puzzle from this review, 1 new in your set" in w.statusBar().currentMessage()
    made = PuzzleSet.load(out).puzzles
    assert len(made) == 1 and made[0]["position"] == pz["position"] and made[0]["solution"][0] == pz["solution"][0]
    assert check_puzzle(made[0]) is None
    qtbot.mouseClick(panel.puzzles_button, Qt.MouseButton.LeftButton)  # again: nothing new, nothing lost
    qtbot.waitUntil(lambda: panel.puzzle_thread is None, timeout=60_000)
    assert "0 new in your set" in w.statusBar().currentMessage() and len(PuzzleSet.load(out).puzzles) == 1


# ------------------------------------------------------------------- the first puzzle (issue 36, item 3)
@pytest.mark.parametrize("playing", ["copenhagen", "fox_geese_13", "dablot"])
def test_the_first_puzzle_comes_from_the_game_being_played_and_next_stays_in_it(qtbot, make_window, playing):
    """A newcomer playing Copenhagen used to get a 19x19 Alea Evangelii puzzle, and Next went on to
    Dablot: now Learn > Puzzles opens on the game being played, its filter says so, and Next
    stays in it until the player changes the filter."""
    w = make_window(playing)
    dlg = _open_puzzles(w)
    assert dlg.family_box.currentData() == "variant:" + playing
    assert dlg.family_box.currentText().strip() == w.session.variant.title
    assert dlg.shown and {p["variant"] for p in dlg.shown} == {playing}
    seen = [dlg.puzzle]
    for _ in range(4):
        dlg.btn_next.click()
        seen.append(dlg.puzzle)
    assert {p["variant"] for p in seen} == {playing} and len({p["id"] for p in seen}) > 1
    assert dlg.board.rules.variant.id == playing
    # the player widens the filter: the whole family, then every puzzle
    family = w.session.variant.family
    dlg.family_box.setCurrentIndex(dlg.family_box.findData(family))
    assert len({p["variant"] for p in dlg.shown}) > 1
    dlg.family_box.setCurrentIndex(0)
    assert {w.session.variant.family, "hunt", "dablot"} <= {dlg.families[p["variant"]] for p in dlg.shown}


def test_without_puzzles_for_the_game_a_newcomer_starts_on_brandubh(qtbot, make_window, monkeypatch):
    """A game with no puzzles of its own (here: its set left out): the first puzzles are Brandubh's,
    the small board a newcomer learns on."""
    from tafl_desktop.gui import learn
    from tafl_desktop.study import puzzles as puzzle_sets

    real = puzzle_sets.all_puzzles
    monkeypatch.setattr(puzzle_sets, "all_puzzles", lambda: [p for p in real() if p["variant"] != "tablut"])
    w = make_window("tablut")
    dlg = learn.open_puzzles(w)
    assert dlg.family_box.currentData() == "variant:brandubh"
    assert {p["variant"] for p in dlg.shown} == {"brandubh"} and dlg.puzzle["difficulty"] == 1
