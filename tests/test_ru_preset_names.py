"""Russian preset names follow one script rule (issue 36 item 8): every preset's name in New Game
is written in Cyrillic, as Брандуб, Таблут and Халатафл always were; Alea Evangelii, Dablot
Prejjesne and Mini-Dablot were left in Latin letters (resources/translations/GLOSSARY.md now
gives their Russian forms)."""

from __future__ import annotations

import re

import pytest

from tafl_desktop import i18n


@pytest.fixture
def russian():
    i18n.set_language("ru")
    yield
    i18n.set_language("en")


def test_every_preset_name_in_new_game_is_cyrillic(russian, qtbot, gui_settings, dialogs_recorder):
    from tafl_desktop.core.variants import find_variant
    from tafl_desktop.gui.new_game_dialog import NewGameDialog

    dlg = NewGameDialog(find_variant("dablot"))
    qtbot.addWidget(dlg)
    dlg.show()
    tree = dlg.tree
    names = [tree.topLevelItem(i).child(k).text(0) for i in range(tree.topLevelItemCount())
             for k in range(tree.topLevelItem(i).childCount())]
    assert len(names) > 20
    # a board size ("11x11", "7×7") and a century in Roman numerals ("XIX века") are not words;
    # everything else is Cyrillic
    # a web site's name stays as it is written (hnefatafl.org)
    bare = [re.sub(r"\b[IVXLC]+\b", "", re.sub(r"\d+\s*[x×]\s*\d+", "", n.replace("hnefatafl.org", "")))
            for n in names]
    latin = [n for n, b in zip(names, bare, strict=True) if re.search(r"[A-Za-z]", b)]
    assert latin == []
    for name in ("Алеа Евангелии", "Даблот Прейесне", "Мини-Даблот"):
        assert any(n.startswith(name) for n in names), name
    dlg.grab().save("/tmp/h36c-newgame-ru.png")
