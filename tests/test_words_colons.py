"""Colons in the words a reader sees (issue 37, item 10): the status line says whose turn it is
and what to do without two colons in a row ("Trait : Attaquants : cliquez…"), and German starts a
whole sentence after a colon with a capital letter (Duden, rule 80: "Folgt nach dem Doppelpunkt
ein vollständiger Satz, so schreibt man das erste Wort groß")."""

from __future__ import annotations

import pytest

from tafl_desktop import i18n


@pytest.fixture
def language():
    yield
    i18n.set_language("en")


@pytest.mark.parametrize(("lang", "start"), [
    ("en", "Attackers to move: click a piece"),
    ("da", "I trækket: Angribere. Klik på en brik"),
    ("de", "Angreifer am Zug: Klicken Sie eine Figur an"),
    ("fr", "Trait\u00a0: Attaquants. Cliquez sur une pièce"),
    ("ru", "Очередь: Нападающие. Щёлкните по фигуре"),
])
def test_the_status_line_has_one_colon_in_every_language(qtbot, make_window, language, lang, start):
    """The real window's status bar at the start of a game: the turn ("Trait : Attaquants") and
    the hint ("cliquez sur une pièce…") are two sentences, never "Trait : Attaquants : cliquez"."""
    i18n.set_language(lang)
    w = make_window("brandubh")
    w.refresh()
    text = w.status_text()
    assert text.startswith(start), text
    assert text.count(":") == 1, text
    w.grab().save(f"/tmp/h37w2-status-{lang}.png")
