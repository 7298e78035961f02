"""The shortcut column's key names in the reader's language (issue 36 item 8: "Home/End translated
as Qt does for German").

Key names come from Qt's own catalogue (qtbase_<lang>.qm, loaded by i18n.install_qt_translator
at start and on every language switch), the same for every language: German reads Pos1/Ende and
Links, French Début/Fin.  Qt's Russian catalogue translates the arrows (Влево) but leaves Home,
End and PgUp as they are printed on Russian keyboards; that is kept, not overridden.
"""

from __future__ import annotations

import pytest

from tafl_desktop import i18n
from tafl_desktop.gui.accessibility import shortcut_rows
from tafl_desktop.gui.language import switch_language


def keys(window) -> str:
    return " | ".join(k for _title, rows in shortcut_rows(window) for _name, k in rows)


@pytest.fixture
def window(make_window):
    w = make_window("brandubh")
    yield w
    switch_language(w, "en")


def test_key_names_follow_qt_s_catalogue_in_each_language(window):
    english = keys(window)
    assert "Home" in english and "End" in english and "Left" in english
    assert switch_language(window, "de") == "de"
    german = keys(window)
    assert "Pos1" in german and "Ende" in german and "Links" in german and "Home" not in german
    assert switch_language(window, "fr") == "fr"
    assert "Début" in keys(window) and "Fin" in keys(window)
    assert switch_language(window, "ru") == "ru"
    russian = keys(window)
    # Qt's Russian catalogue is loaded: it names the arrows ...
    assert "Влево" in russian and "Left" not in russian
    # ... and keeps Home and End, as Russian keyboards print them
    assert "Home" in russian and "End" in russian
    assert i18n.current_language() == "ru"


@pytest.mark.parametrize(("lang", "heading", "arrows"), [
    ("ru", "На доске", "Стрелки"), ("de", "Auf dem Brett", "Pfeiltasten"), ("fr", "Sur le plateau", "Flèches"),
    ("da", "På brættet", "Piletaster")])
def test_the_board_s_own_keys_are_in_the_reader_s_language(window, lang, heading, arrows):
    """Help > Keyboard Shortcuts (F1): the board's own keys were left in English (their texts
    never reached the catalogue)."""
    from tafl_desktop.gui.accessibility import shortcuts_html

    switch_language(window, lang)
    html = shortcuts_html(window)
    assert heading in html and arrows in html
    for english in ("On the board", "Arrow keys", "show the board cursor", "put the picked piece back"):
        assert english not in html
