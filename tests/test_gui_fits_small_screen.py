"""Every top-level window and dialog fits a 1366 x 768 screen, in every language (issue 36, item 4).

The Rules Lab once opened 900 x 900 plus its title bar: on a 1366 x 768 or 1400 x 900 screen its
bottom buttons were out of reach.  Each window is opened the way the menus open it, in each of
the five languages, and both the size it opens at and the smallest size its layout allows
(``minimumSizeHint``; a window cannot be made smaller than that) must fit the screen's usable
height: 768 pixels less a desktop panel and a title bar (:data:`SMALL_SCREEN`).
"""

from __future__ import annotations

import pytest

from tafl_desktop.gui.screen_fit import SMALL_SCREEN


def _windows(window, qtbot):
    """(name, widget) for every top-level window and dialog the menus open, each shown."""
    from PySide6.QtWidgets import QApplication

    from tafl_desktop.core.game import Game
    from tafl_desktop.gui.engine_rules import EngineRulesDialog
    from tafl_desktop.gui.learn import open_lesson, open_puzzles
    from tafl_desktop.gui.main_window import MainWindow
    from tafl_desktop.gui.matches import MatchesDialog
    from tafl_desktop.gui.my_games_dialog import MyGamesDialog
    from tafl_desktop.gui.new_game_dialog import NewGameDialog
    from tafl_desktop.gui.position_editor import open_editor
    from tafl_desktop.gui.preferences import Preferences, PreferencesDialog
    from tafl_desktop.gui.print_dialog import PrintSetDialog
    from tafl_desktop.gui.review_dialog import ReviewDialog
    from tafl_desktop.gui.rules_lab import RulesLabDialog
    from tafl_desktop.gui.rules_viewer import RulesViewer
    from tafl_desktop.study.lessons import load_lessons

    variant = window.session.variant
    first = MainWindow(Game(variant.make_rules()), prefs=Preferences(animation=False), persist=False)
    qtbot.addWidget(first)
    yield "main window at its first start", first
    ng = NewGameDialog(variant, window.session.specs, window)
    yield "new game", ng
    ng.close()
    lab = RulesLabDialog.open_for(window, variant)
    yield "rules lab", lab
    lab.close()
    matches = MatchesDialog.open_for(window)
    yield "matches", matches
    matches.close()
    pd = PrintSetDialog(variant, window, persist=False)
    yield "print", pd
    pd.done(0)
    yield "preferences", PreferencesDialog(window.prefs, window)
    yield "rules", RulesViewer(variant, window)
    yield "lesson", open_lesson(window, load_lessons()[0])
    yield "puzzles", open_puzzles(window)
    yield "my games", MyGamesDialog(window, [])
    yield "position editor", open_editor(window)
    yield "review", ReviewDialog(window, window.session.rules, "native")
    yield "engine rules", EngineRulesDialog("engine", _found(), window)
    QApplication.processEvents()


def _found():
    from tafl_desktop.core.variants import find_variant
    from tafl_desktop.gui.engine_rules import engine_rules

    # rules an external engine cannot be told: the dialog lists them
    return engine_rules(find_variant("copenhagen", {"king_capture": "custodial", "shield_wall": False}))


@pytest.mark.parametrize("lang", ["en", "da", "de", "fr", "ru"])
def test_every_window_fits_a_1366_by_768_screen(make_window, qtbot, lang) -> None:
    from PySide6.QtWidgets import QApplication

    from tafl_desktop.gui.language import switch_language

    window = make_window("copenhagen")
    switch_language(window, lang)
    too_big = []
    for name, w in _windows(window, qtbot):
        if not w.isVisible():
            w.show()
        QApplication.processEvents()
        size, least = w.size(), w.minimumSizeHint()
        for what, s in (("opens at", size), ("cannot shrink below", least)):
            if s.width() > SMALL_SCREEN.width() or s.height() > SMALL_SCREEN.height():
                too_big.append(f"{name} {what} {s.width()}x{s.height()}")
        if w is not window:
            w.close()
    switch_language(window, "en")
    assert not too_big, f"{lang}: {too_big} (the usable screen is {SMALL_SCREEN.width()}x{SMALL_SCREEN.height()})"
