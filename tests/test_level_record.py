"""The player's record against each computer level (issue 45): kept in the app's data folder,
shown in New Game beside the level's measured rating; a finished game against the computer counts
once, not again on undo, redo or reopening the game.  Driven through the real window."""

from __future__ import annotations

import json

import pytest


@pytest.fixture
def record(monkeypatch, tmp_path):
    from tafl_desktop.gui import level_record

    path = tmp_path / "data" / "level_record.json"
    monkeypatch.setattr(level_record, "record_path", lambda: path)
    return path


def _app_window(make_window):
    """A Brandubh window with the application's back-ends (the real computer player)."""
    from tafl_desktop.gui.engines import window_engines

    return make_window("brandubh", engines=window_engines())


def _against_beginner(window):
    """A new Brandubh game: the player attacks, Beginner defends."""
    from tafl_desktop.core.variants import find_variant
    from tafl_desktop.session.players import COMPUTER, PlayerSpec
    from tafl_desktop.session.source import GameSource

    window.session.load(GameSource.new(find_variant("brandubh"), (PlayerSpec(), PlayerSpec(COMPUTER, "beginner"))))


def _play_a_move(window, qtbot):
    """The player's move, and Beginner's answer."""
    c = window.controller
    before = len(c.session.game.plies)
    assert c.play_move(next(iter(c.session.rules.legal_moves(c.session.game.position))))
    qtbot.waitUntil(lambda: len(c.session.game.plies) == before + 2, timeout=30_000)


def _resign(window):
    from tafl_desktop.core.game import Outcome, Side

    window.session.finish(Outcome(Side.DEFENDERS, "resigned"))  # the player (attackers) resigns


def _counts(path):
    return json.loads(path.read_text())["records"]["brandubh"]["beginner"]


def test_a_finished_game_counts_once_through_undo_redo_and_reopening(make_window, record, tmp_path, qtbot):
    window = _app_window(make_window)
    _against_beginner(window)
    _play_a_move(window, qtbot)
    _resign(window)
    assert _counts(record) == {"wins": 0, "draws": 0, "losses": 1}
    # take back (reopens the resigned game) and end it again: still one game
    window.act_undo.trigger()
    assert window.session.game.outcome is None
    _resign(window)
    assert _counts(record) == {"wins": 0, "draws": 0, "losses": 1}
    # saved and reopened, taken back and ended again: still one game
    saved = tmp_path / "g.tafl.json"
    window.session.save(str(saved))
    assert window.files.open_game(str(saved))
    window.act_undo.trigger()
    _resign(window)
    assert _counts(record) == {"wins": 0, "draws": 0, "losses": 1}
    # a new game is a new game
    _against_beginner(window)
    _resign(window)
    assert _counts(record) == {"wins": 0, "draws": 0, "losses": 2}


def test_a_game_between_two_people_is_not_counted(make_window, record):
    window = _app_window(make_window)
    _resign(window)
    assert not record.exists()


def test_new_game_shows_the_levels_ratings_and_the_players_record(make_window, record, qtbot):
    from tafl_desktop.ai.level_ratings import ratings_for
    from tafl_desktop.core.variants import find_variant
    from tafl_desktop.gui.new_game_dialog import NewGameDialog
    from tafl_desktop.session.players import COMPUTER, PlayerSpec

    window = _app_window(make_window)
    _against_beginner(window)
    _resign(window)
    brandubh = find_variant("brandubh")
    ratings = ratings_for(brandubh)
    assert ratings["beginner"] == 1000 and set(ratings) == {"beginner", "easy", "medium", "hard", "expert"}
    dlg = NewGameDialog(brandubh, (PlayerSpec(), PlayerSpec(COMPUTER, "beginner")), window, computer=True)
    qtbot.addWidget(dlg)
    dlg.show()
    combo = dlg.choosers[1].level
    texts = [combo.itemText(i) for i in range(combo.count())]
    assert texts[0] == "1 - Beginner (Elo 1000)"
    assert texts[4] == f"5 - Expert (Elo {ratings['expert']})"
    assert dlg.level_record.isVisible()
    assert dlg.level_record.text() == "Your record against Beginner in Brandubh: wins 0, draws 0, losses 1."
    # two people: no record line; the Fox games were not measured: no ratings shown
    dlg.choosers[1].kind.setCurrentIndex(0)
    assert not dlg.level_record.isVisible()
    fox = NewGameDialog(find_variant("fox_geese_13"), (PlayerSpec(), PlayerSpec(COMPUTER, "easy")), window,
                        computer=True)
    qtbot.addWidget(fox)
    assert fox.choosers[1].level.itemText(1) == "2 - Easy"


def test_an_unreadable_record_is_kept_aside_not_overwritten(tmp_path):
    from tafl_desktop.core.level_record import add_result, load

    path = tmp_path / "level_record.json"
    path.write_text("{not json")
    add_result(path, "brandubh", "easy", "wins")
    assert (tmp_path / "level_record.json.unreadable").read_text() == "{not json"
    assert load(path)["records"] == {"brandubh": {"easy": {"wins": 1, "draws": 0, "losses": 0}}}
