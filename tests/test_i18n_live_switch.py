"""Switching the language in Preferences rebuilds every open text from its source (issue 28).

The window is set up as a player would have it: a game with moves, the analysis board's lines,
a finished review (graph and table), an open lesson and an open puzzle.  Switching to German must
change the texts, and switching back must give every text exactly as it was: a text translated
once and looked up in reverse would come back as another English text with the same German
translation ("Back" and "Previous" are both "Zurück"), a text built once would stay German.
"""

from __future__ import annotations

from tests.gui_texts import visible_texts

SHORT_GAME = "d2-c2 e4-e2 d6-e6 d3-g3"


def _setup(qtbot, make_window):
    from tafl_desktop.core.game import Game
    from tafl_desktop.gui.learn import LessonDialog, PuzzleDialog
    from tafl_desktop.session.source import GameSource, Origin
    from tafl_desktop.study.lessons import load_lessons
    from tafl_desktop.study.puzzles import all_puzzles

    w = make_window("brandubh", size=(1280, 800))
    c = w.controller
    game = Game(c.session.rules)
    for m in SHORT_GAME.split():
        game.play_text(m)
    w.load(GameSource.of_game(game, Origin.OPEN))
    w.session.back()  # the status bar says which move is shown
    w.refresh()
    # a review, finished: the graph and the table of classes
    panel = w.review_panel
    w.act_review.trigger()
    panel.dialog.accept()  # Review Game first asks how hard to search
    qtbot.waitUntil(lambda: panel.review is not None and not panel.running, timeout=120_000)
    # the analysis board's lines, then stopped so that they stay as they are
    board = w.analysis_board
    w.act_analysis.trigger()
    qtbot.waitUntil(lambda: board.report is not None and bool(board.report.get("lines")), timeout=60_000)
    w.act_analysis.trigger()
    qtbot.wait(200)
    lesson = LessonDialog(next(x for x in load_lessons() if x.id == "tafl-king"), w)
    lesson.show()
    puzzle = PuzzleDialog([p for p in all_puzzles() if p["variant"] == "brandubh"][:3], w)
    puzzle.show()
    w.refresh()
    return w, (lesson, puzzle)


def _texts(w) -> list[tuple[str, str]]:
    return [(where, text) for where, text in visible_texts(w) if "status bar" not in where or text]


def test_switching_to_german_and_back_gives_every_english_text_back(qtbot, make_window):
    from tafl_desktop.gui.language import switch_language

    w, dialogs = _setup(qtbot, make_window)
    english = _texts(w)
    assert len(english) > 300
    switch_language(w, "en_XA")  # the pseudo-locale: every text rebuilt, none left in English
    from tests.pseudo_text import leaks

    leaked = [(where, t, found) for where, t in _texts(w) if (found := leaks(t))]
    assert leaked == [], "\n".join(f"{where}: {t!r} ({found})" for where, t, found in leaked[:40])
    switch_language(w, "de")
    german = _texts(w)
    still = set(english) & set(german)
    assert len(still) < len(english) // 2, sorted(still)[:20]
    for text in ("&Datei", "Zurück"):
        assert any(text in t for _w, t in german), text
    switch_language(w, "en")
    back = _texts(w)
    differences = [(a, b) for a, b in zip(english, back, strict=False) if a != b]
    assert len(back) == len(english) and differences == [], "\n".join(
        f"{a[0]}: {a[1]!r} -> {b[1]!r}" for a, b in differences[:40])
    for d in dialogs:
        d.close()
