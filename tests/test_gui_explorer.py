"""The opening explorer in the real window, offscreen (issue 39): View > Explorer opens a dock
beside the board that follows the move list, lists the moves played from the position shown with
their games and a results bar, names the opening, lists the games that reached it; clicking a
move plays it, double-clicking a game opens it at the position, the filters narrow the counts,
and the lookups never hold up the board (the time from a move to the panel is measured).

The database is a file of this test (``TAFL_DESKTOP_GAMEDB``) holding real Copenhagen games,
imported in the test; the shipped games are marked as imported so that the dock opens at once
(``test_first_use_imports_the_shipped_games_with_progress``, slow, runs the real first use).
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from timing import within

from tafl_desktop.core.variants import find_variant
from tafl_desktop.gamedb.keys import Folding
from tafl_desktop.gamedb.library import SHIPPED_VERSION
from tafl_desktop.gamedb.store import Filters, GameDb
from tafl_desktop.interop.game_table import read_table

GAMES = Path(__file__).resolve().parents[1] / "resources" / "games"
#: Copenhagen, line 258 of the real games (nine moves).
LINE_258 = "h1-h3 g5-g2 h3-h2 g6-g2 k4-i4 e5-e2 d1-d2 f5-j5 f1-f2"


def _fill(path: Path, count: int) -> None:
    v = find_variant("copenhagen").with_options({"repetition": "allowed"})
    text = "\n".join((GAMES / "copenhagen.csv").read_text(encoding="utf-8").splitlines()[:count])
    with GameDb(path) as db, db.batch():
        db.con.execute("INSERT INTO meta VALUES ('shipped', ?)", (SHIPPED_VERSION,))
        for i, row in enumerate(read_table(text, v)):
            assert row.transfer is not None
            db.add_game(row.transfer.game, "real", {"line": str(i + 1), "attackers": f"A{i % 3}",
                                                    "defenders": f"D{i % 4}", "date": f"2020.01.{1 + i % 28:02}"},
                        f"copenhagen.csv:{i + 1}")


@pytest.fixture
def explorer_db(tmp_path, monkeypatch):
    path = tmp_path / "games.sqlite3"
    _fill(path, 80)
    monkeypatch.setenv("TAFL_DESKTOP_GAMEDB", str(path))
    return path


def _open_explorer(qtbot, w):
    qtbot.keyClick(w, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    dock = w.explorer
    assert dock.active and dock.isVisible() and w.act_explorer.isChecked()
    qtbot.waitUntil(lambda: dock.answer is not None, timeout=20_000)
    return dock


def _moves_shown(dock) -> list[tuple[str, int]]:
    return [(dock.moves.item(r, 0).text(), int(dock.moves.item(r, 1).text())) for r in range(dock.moves.rowCount())]


def test_the_explorer_follows_the_board_and_plays_a_clicked_move(qtbot, make_window, explorer_db):
    w = make_window("copenhagen")
    dock = _open_explorer(qtbot, w)
    look = dock.answer[0]
    assert look.games == 80 and sum(n for _m, n in _moves_shown(dock)) == 80
    assert dock.moves.cellWidget(0, 3).counts == (look.moves[0].attackers, look.moves[0].draws,
                                                  look.moves[0].defenders, look.moves[0].unfinished)
    assert dock.games.rowCount() == 8 and "80" in dock.games_title.text()

    # a click on the most played move plays it; the panel follows
    top = dock.moves.item(0, 0).text()
    before = dock.answer
    qtbot.mouseClick(dock.moves.viewport(), Qt.MouseButton.LeftButton,
                     pos=dock.moves.visualItemRect(dock.moves.item(0, 0)).center())
    assert [w.session.rules.move_text(n.move) for n in w.session.tree.main_line()] == [top]
    qtbot.waitUntil(lambda: dock.answer is not before, timeout=10_000)
    assert dock.answer[0].games == look.moves[0].games
    # back in the move list: the panel follows
    before = dock.answer
    w.session.goto(0)
    qtbot.waitUntil(lambda: dock.answer is not before, timeout=10_000)
    assert dock.answer[0].games == 80


def test_the_opening_is_named_and_filters_narrow_the_counts(qtbot, make_window, explorer_db):
    w = make_window("copenhagen")
    dock = _open_explorer(qtbot, w)
    for text in ("h1-h3", "g5-g2"):
        before = dock.answer
        w.controller.play_variation(w.session.rules.parse_move(w.session.viewed_position, text))
        qtbot.waitUntil(lambda before=before: dock.answer is not before, timeout=10_000)
    assert dock.opening.text() == "Millar Gambit"
    whole = dock.answer[0].games
    parts = []
    for i in range(1, dock.result.count()):
        before = dock.answer
        dock.result.setCurrentIndex(i)
        qtbot.waitUntil(lambda before=before: dock.answer is not before, timeout=10_000)
        parts.append(dock.answer[0].games)
    assert sum(parts) == whole > 0
    dock.result.setCurrentIndex(0)
    before = dock.answer
    dock.player.setText("A1")
    dock.player.editingFinished.emit()
    qtbot.waitUntil(lambda: dock.answer is not before, timeout=10_000)
    assert 0 < dock.answer[0].games < whole
    assert all("A1" in (g.attackers, g.defenders) for g in dock.answer[0].sample)


def test_a_game_opens_at_the_position(qtbot, make_window, explorer_db, dialogs_recorder):
    w = make_window("copenhagen")
    dock = _open_explorer(qtbot, w)
    for text in ("d1-d3", "e5-e2"):
        before = dock.answer
        w.controller.play_variation(w.session.rules.parse_move(w.session.viewed_position, text))
        qtbot.waitUntil(lambda before=before: dock.answer is not before, timeout=10_000)
    folding = Folding(w.session.rules)
    shown = folding.fold(w.session.viewed_position).key
    row = dock.answer[0].sample[0]
    dialogs_recorder.confirm_answer = True  # leave the game on screen
    where = dock.games.visualItemRect(dock.games.item(0, 0)).center()
    qtbot.mouseClick(dock.games.viewport(), Qt.MouseButton.LeftButton, pos=where)  # a double click's first press
    qtbot.mouseDClick(dock.games.viewport(), Qt.MouseButton.LeftButton, pos=where)
    assert w.session.view_ply == row.ply == 2 and len(w.session.game.plies) == row.plies
    # the game opened shows the position explored (or its mirror image: they are one position)
    assert folding.fold(w.session.viewed_position).key == shown


def test_the_panel_follows_a_move_within_a_frame(qtbot, make_window, explorer_db):
    """Issue 39: the panel updates within one frame (16 ms) of a move on the board; median of 27.
    The frame is the idle machine's bound, stretched by the machine's load now (timing.within)."""
    w = make_window("copenhagen")
    dock = _open_explorer(qtbot, w)
    line = LINE_258.split()
    dock.lookup_seconds.clear()
    took = []
    for _round in range(3):
        w.session.goto(0)
        qtbot.waitUntil(lambda: dock.answer[0].games == 80, timeout=10_000)
        for text in line:
            before = dock.answer
            move = w.session.rules.parse_move(w.session.viewed_position, text)
            started = time.perf_counter()  # the move on the board, to the panel's new counts
            assert w.controller.play_variation(move)
            qtbot.waitUntil(lambda before=before: dock.answer is not before, timeout=10_000)
            took.append(dock.answered_at - started)
    assert len(took) == 27
    median = statistics.median(took)
    print(f"explorer follows a move in {median * 1000:.1f} ms (median of {len(took)}), "
          f"lookup {statistics.median(dock.lookup_seconds) * 1000:.2f} ms")
    within(median, 0.016, "the explorer following a move (median)")  # one frame on an idle machine


def test_a_damaged_database_is_one_line_with_a_rebuild(qtbot, make_window, tmp_path, monkeypatch):
    path = tmp_path / "games.sqlite3"
    path.write_bytes(b"no database here " * 200)
    monkeypatch.setenv("TAFL_DESKTOP_GAMEDB", str(path))
    w = make_window("copenhagen")
    qtbot.keyClick(w, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    dock = w.explorer
    qtbot.waitUntil(lambda: dock.retry.isVisible(), timeout=20_000)
    assert "db rebuild" in dock.status.text() and "\n" not in dock.status.text()
    assert dock.retry.text() == "Rebuild"


@pytest.mark.slow
def test_first_use_imports_the_shipped_games_with_progress(qtbot, make_window, tmp_path, monkeypatch):
    monkeypatch.setenv("TAFL_DESKTOP_GAMEDB", str(tmp_path / "games.sqlite3"))
    w = make_window("copenhagen")
    qtbot.keyClick(w, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    dock = w.explorer
    qtbot.waitUntil(lambda: "%" in dock.status.text(), timeout=20_000)
    assert dock.cancel.isVisible()
    qtbot.waitUntil(lambda: dock.answer is not None, timeout=300_000)
    assert dock.answer[0].games == 1752


@pytest.mark.parametrize("on", [True, False])
def test_a_finished_game_goes_in_as_one_of_mine_when_the_preference_says_so(qtbot, make_window, tmp_path,
                                                                             monkeypatch, on):
    """Brandubh, the king one step from the corner a1 (a corner escape wins: the preset's rules)."""
    from dataclasses import replace

    from tafl_desktop.core.game import Side

    path = tmp_path / "games.sqlite3"
    monkeypatch.setenv("TAFL_DESKTOP_GAMEDB", str(path))
    w = make_window("brandubh", position="7/7/7/1t5/7/K6/7", to_move=Side.DEFENDERS)
    w.apply_preferences(replace(w.prefs, add_finished_games=on), save=False)
    assert w.controller.play_move(w.session.rules.parse_move(w.session.viewed_position, "a2-a1"))
    assert w.session.game.outcome is not None
    if w.explorer.adding is not None:
        w.explorer.adding.join(10)
    with GameDb(path) as db:
        assert db.count("mine") == (1 if on else 0) and db.count("real") == 0
        if on:
            rules = w.session.rules
            look = db.lookup(rules, w.session.game.start, Filters(sources=("mine",)))
            assert look.games == 1 and [m.to_json()["defenders"] for m in look.moves] == [1]


def test_import_games_from_the_dock_off_the_window_thread(qtbot, make_window, explorer_db, tmp_path,
                                                          dialogs_recorder):
    w = make_window("copenhagen")
    dock = _open_explorer(qtbot, w)
    lines = (GAMES / "copenhagen.csv").read_text(encoding="utf-8").splitlines()[100:103]
    paths = []
    for i, line in enumerate(lines):
        path = tmp_path / f"g{i}.txt"
        path.write_text(" ".join(t for t in line.rsplit(",", 3)[0].split() if t != "timeout"), encoding="utf-8")
        paths.append(str(path))
    (tmp_path / "bad.txt").write_text("d1-d3 d1-d3", encoding="utf-8")
    dialogs_recorder.open_paths = [*paths, str(tmp_path / "bad.txt")]
    qtbot.mouseClick(dock.import_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dock.import_report is not None, timeout=30_000)
    report = dock.import_report
    assert (report.added, len(report.problems)) == (3, 1) and "bad.txt" in report.problems[0]
    assert "Games added: 3;" in dock.status.text()
    before = dock.answer
    dock.source.setCurrentIndex(dock.source.findData("imported"))
    qtbot.waitUntil(lambda: dock.answer is not before, timeout=10_000)
    assert dock.answer[0].games == 3


def test_the_engine_scores_each_move_off_the_window_thread_and_keeps_the_scores(qtbot, make_window, explorer_db):
    """Issue 39: "the engine's score of the move (cached)".  The dock's column fills as the scores
    arrive from the scores' thread; each equals a search of the position after the move (made here,
    with the same fixed budget); a second window on the same database shows them without searching."""
    from tafl_desktop.gamedb.scores import BUDGET, budget_for, score_after
    from tafl_desktop.gui.explorer import SCORED

    w = make_window("copenhagen")
    dock = _open_explorer(qtbot, w)
    moves = [m for m, _n in _moves_shown(dock)][:SCORED]
    assert len(moves) >= 5
    qtbot.waitUntil(lambda: len(dock.move_scores) == len(moves), timeout=180_000)
    rules = w.session.rules
    start = w.session.viewed_position
    assert budget_for(rules) == BUDGET  # Copenhagen on the native engine
    folding = Folding(rules)
    positions = {folding.fold(rules.play(start, rules.parse_move(start, m))[0]).key for m in moves}
    assert dock.scorer.searched == len(positions)  # a move and its mirror image: one search
    for row, move in enumerate(moves):
        after = rules.play(start, rules.parse_move(start, move))[0]
        assert dock.moves.item(row, 4).text() == dock.move_scores[move].words(rules.variant, int(after.side))
        assert dock.moves.item(row, 4).text() not in ("", "…")
    top = moves[0]
    after = rules.play(start, rules.parse_move(start, top))[0]
    assert score_after(rules, after, None, BUDGET) == dock.move_scores[top]
    w.close()

    # the cache survives: a new window on the same file shows every score without a search
    w2 = make_window("copenhagen")
    dock2 = _open_explorer(qtbot, w2)
    qtbot.waitUntil(lambda: len(dock2.move_scores) == len(moves), timeout=30_000)
    assert dock2.scorer.searched == 0
    assert dock2.move_scores == dock.move_scores
    with GameDb(explorer_db) as db:
        assert db.con.execute("SELECT count(*) FROM scores WHERE budget=?", (BUDGET,)).fetchone()[0] == len(positions)


def test_a_computer_against_computer_game_goes_in_as_self_play_with_its_levels(qtbot, make_window, tmp_path,
                                                                                monkeypatch):
    """Issue 39: "Rules Lab and self-play games (by level), each a filter".  Two computer players in the
    window, the king one step from the corner a1 (Brandubh's corner escape wins): the game ends, and it
    is in the database under source selfplay with the levels as its players (the preference, on).
    The king's side is Easy, whose slips stay within a few soldiers of the best move and so never
    miss a win in one; Beginner there played a random move a quarter of the time, and lost once."""
    from tafl_desktop.core.game import Game, Side
    from tafl_desktop.gui.engines import window_engines
    from tafl_desktop.session.players import COMPUTER, PlayerSpec
    from tafl_desktop.session.source import GameSource, Origin

    path = tmp_path / "games.sqlite3"
    monkeypatch.setenv("TAFL_DESKTOP_GAMEDB", str(path))
    w = make_window("brandubh", position="7/7/7/1t5/7/K6/7", to_move=Side.DEFENDERS, engines=window_engines())
    assert w.prefs.add_lab_games
    c = w.controller
    w.load(GameSource.of_game(Game(c.session.rules, c.session.game.start), Origin.NEW,
                              (PlayerSpec(COMPUTER, "beginner"), PlayerSpec(COMPUTER, "easy"))))
    qtbot.waitUntil(lambda: w.session.game.outcome is not None, timeout=60_000)
    qtbot.waitUntil(lambda: w.explorer.adding is not None, timeout=10_000)
    w.explorer.adding.join(10)
    w.session.shutdown()
    with GameDb(path) as db:
        rows = db.con.execute("SELECT source, attackers, defenders, result FROM games").fetchall()
    assert rows == [("selfplay", "computer:beginner", "computer:easy", "defenders")]
