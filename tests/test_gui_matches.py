"""The Matches window (issue 45): a match set up, run in the background, watched, cancelled,
resumed from its folder and its games opened, the way a player does it, through the real window.

The match is tiny (Brandubh, our native search at a few hundred nodes a move) so that it takes
seconds; its games run in worker processes, as in any match the window plays.
"""

from __future__ import annotations

import json

import pytest


@pytest.fixture
def matches(make_window, qtbot, tmp_path, monkeypatch):
    from tafl_desktop.gui import matches as mod

    monkeypatch.setattr(mod, "matches_folder", lambda: tmp_path / "matches")
    window = make_window("brandubh")
    window.act_matches.trigger()
    dlg = next(w for w in window.findChildren(mod.MatchesDialog))
    qtbot.waitExposed(dlg)
    yield window, dlg
    dlg.cancel()
    if dlg.thread_ is not None:
        dlg.thread_.wait()


@pytest.fixture
def english_afterwards():
    yield
    from tafl_desktop import i18n

    i18n.set_language("en", explicit=True)


def _tiny(dlg, folder, games: int) -> None:
    dlg.variant.setCurrentIndex(dlg.variant.findData("brandubh"))
    dlg.players[0].setCurrentIndex(dlg.players[0].findData("native"))
    dlg.players[1].setCurrentIndex(dlg.players[1].findData("python"))
    dlg.budget.setCurrentIndex(dlg.budget.findData("nodes"))
    dlg.nodes.setValue(300)
    dlg.games.setValue(games)
    dlg.concurrency.setValue(1)
    dlg.out.setText(str(folder))


def _journal(folder) -> list[dict]:
    path = folder / "results.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def test_a_tiny_match_runs_in_the_background_and_its_games_open(matches, qtbot, tmp_path, english_afterwards):
    window, dlg = matches
    folder = tmp_path / "m1"
    _tiny(dlg, folder, 2)
    assert dlg.start()
    # the window keeps answering while the games are played in another process
    assert dlg.cancel_button.isEnabled() and not dlg.start_button.isEnabled()
    qtbot.waitUntil(lambda: dlg.thread_ is None, timeout=120_000)
    assert "over" in dlg.status.text()
    entries = _journal(folder)
    assert sorted(e["game"] for e in entries) == [0, 1]
    wins = sum(1 for e in entries if e["winner"] == e["first_side"])
    draws = sum(1 for e in entries if e["winner"] is None)
    total = [dlg.table.item(2, c).text() for c in range(3)]
    assert total == [str(wins), str(draws), str(2 - wins - draws)]
    assert dlg.progress.value() == 2 and dlg.games_table.rowCount() == 2
    # each colour's row holds one game (game 1: player 1 attacks; game 2: it defends)
    for r in (0, 1):
        assert sum(int(dlg.table.item(r, c).text()) for c in range(3)) == 1
    assert dlg.elo.text().startswith("Elo difference:")
    # a finished game opens in the main window with its moves
    dlg.games_table.selectRow(1)
    assert dlg.open_button.isEnabled()
    assert dlg.open_game(1)
    second = next(e for e in entries if e["game"] == 1)
    assert window.session.game.move_texts() == second["moves"]
    # the table follows a language switch
    from tafl_desktop.gui.language import switch_language

    switch_language(window, "de")
    assert dlg.table.horizontalHeaderItem(0).text() == "Siege"
    assert dlg.table.verticalHeaderItem(0).text() == "Angreifer"
    assert dlg.elo.text().startswith("Elo-Differenz:")
    assert dlg.games_table.rowCount() == 2


def test_a_cancelled_match_resumes_from_its_folder_without_counting_a_game_twice(matches, qtbot, tmp_path):
    window, dlg = matches
    folder = tmp_path / "m2"
    _tiny(dlg, folder, 4)
    assert dlg.start()
    qtbot.waitUntil(lambda: len(_journal(folder)) >= 1, timeout=120_000)
    dlg.cancel()
    qtbot.waitUntil(lambda: dlg.thread_ is None, timeout=30_000)
    assert "Cancelled" in dlg.status.text()
    kept = len(_journal(folder))
    assert 1 <= kept < 4, "the cancel ended the match before its last game"
    assert dlg.start_button.isEnabled()
    # resume from the folder, as after a kill: the window reads the match's own settings
    assert dlg.resume(str(folder))
    qtbot.waitUntil(lambda: dlg.thread_ is None, timeout=120_000)
    games = sorted(e["game"] for e in _journal(folder))
    assert games == [0, 1, 2, 3]
    assert dlg.games_table.rowCount() == 4 and dlg.progress.value() == 4
    total = sum(int(dlg.table.item(2, c).text()) for c in range(3))
    assert total == 4


def test_a_match_that_cannot_run_says_why_in_one_line(matches, qtbot, tmp_path, dialogs_recorder):
    window, dlg = matches
    _tiny(dlg, tmp_path / "m3", 2)
    dlg.budget.setCurrentIndex(dlg.budget.findData("own"))  # our engine needs a budget
    assert not dlg.start()
    assert dlg.thread_ is None
    assert "budget" in dlg.status.text() and "\n" not in dlg.status.text()
    assert dialogs_recorder.errors and dialogs_recorder.errors[-1][1] == dlg.status.text()


def test_a_hosted_engine_that_cannot_start_is_refused_in_one_line(matches, tmp_path, dialogs_recorder):
    window, dlg = matches
    _tiny(dlg, tmp_path / "m4", 2)
    dlg.players[1].setCurrentIndex(dlg.players[1].findData("engine"))
    assert dlg.commands[1].isVisible() and not dlg.commands[0].isVisible()
    dlg.commands[1].setText("/nonexistent/engine --fast")
    assert not dlg.start()
    title, text = dialogs_recorder.errors[-1]
    assert "/nonexistent/engine" in text and "\n" not in text


def test_closing_the_window_mid_match_ends_its_processes_and_keeps_the_games(matches, qtbot, tmp_path):
    import multiprocessing as mp

    window, dlg = matches
    folder = tmp_path / "m5"
    _tiny(dlg, folder, 6)
    assert dlg.start()
    qtbot.waitUntil(lambda: len(_journal(folder)) >= 1, timeout=120_000)
    dlg.close()
    assert dlg.thread_ is None or dlg.thread_.isFinished()
    qtbot.waitUntil(lambda: not mp.active_children(), timeout=10_000)
    kept = _journal(folder)
    assert 1 <= len(kept) < 6
    assert all((folder / "games" / f"game-{e['game'] + 1:04d}.tafl.json").exists() for e in kept)


def test_a_folder_holding_another_match_is_refused_not_overwritten(matches, qtbot, tmp_path, dialogs_recorder):
    window, dlg = matches
    folder = tmp_path / "m6"
    _tiny(dlg, folder, 2)
    assert dlg.start()
    qtbot.waitUntil(lambda: dlg.thread_ is None, timeout=120_000)
    before = (folder / "match.json").read_bytes(), (folder / "results.jsonl").read_bytes()
    dlg.seed.setValue(2)  # another match in the same folder
    assert not dlg.start()
    assert "holds another match" in dialogs_recorder.errors[-1][1]
    assert ((folder / "match.json").read_bytes(), (folder / "results.jsonl").read_bytes()) == before
