"""Five languages as a player meets them: the CLI's ``--lang`` and ``TAFL_LANG``, the printed
rule sheet, and the window switching language from Preferences without losing the game (issue 18).
Contracts that must not move with the language: JSON keys and values, move notation, preset ids."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    full_env = {**os.environ, **(env or {})}
    return subprocess.run([sys.executable, "-m", "tafl_desktop", *args], capture_output=True, text=True,
                          env=full_env, timeout=120)


@pytest.fixture
def english_afterwards():
    yield
    from tafl_desktop import i18n

    i18n.set_language("en")


def test_rules_in_russian_and_german_from_lang_and_environment():
    ru = cli("rules", "copenhagen", "--lang", "ru")
    assert ru.returncode == 0, ru.stderr
    assert ru.stdout.startswith("Копенгагенский хнефатафл\n")
    assert "Центральная клетка f6 — трон" in ru.stdout  # square names stay as they are
    de = cli("rules", "fox_geese_13", env={"TAFL_LANG": "de"})
    assert de.returncode == 0, de.stderr
    assert "Fuchs und Gänse (13 Gänse)" in de.stdout and "Unten stehen 13 Gänse, der Fuchs auf d4." in de.stdout
    before = cli("--lang", "fr", "rules", "brandubh")  # before the command works too
    assert "Le plateau a 7 × 7 cases." in before.stdout


def test_errors_follow_the_language_and_contracts_do_not():
    bad = cli("rules", "brandubh", "--set", "king_armed=maybe", "--lang", "da")
    assert bad.returncode == 1
    assert "er ikke tilladt" in bad.stderr and "king_armed" in bad.stderr  # the key itself is never translated
    en = cli("play", "brandubh", "--moves", "d6-b6 d5-d6", "--json", "--lang", "en")
    ru = cli("play", "brandubh", "--moves", "d6-b6 d5-d6", "--json", "--lang", "ru")
    assert en.returncode == ru.returncode == 0
    assert json.loads(ru.stdout) == json.loads(en.stdout)  # keys, side keys, notation: all unchanged
    ids = cli("variants", "--lang", "ru").stdout.split()
    assert "copenhagen" in ids and "fox_geese_13" in ids


def test_every_sub_command_accepts_lang():
    from tafl_desktop.cli import _command_names, build_parser

    parser = build_parser()
    for name in _command_names(parser):
        sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction").choices[name]
        assert any("--lang" in a.option_strings for a in sub._actions), name
    assert cli("print", "--help").stdout.count("--lang") >= 1


def test_printed_rule_sheet_in_russian(tmp_path):
    """The sheet is in Russian, with DejaVu Sans embedded for the Cyrillic letters."""
    from pypdf import PdfReader

    out = tmp_path / "ru.pdf"
    done = cli("print", "brandubh", "--parts", "rules,board", "--out", str(out), "--lang", "ru")
    assert done.returncode == 0, done.stderr
    reader = PdfReader(str(out))
    text = "\n".join(page.extract_text() for page in reader.pages)
    assert "Как играть: Брандуб" in text
    assert "Печатать в масштабе 100 %" in text
    fonts = {str(f) for page in reader.pages for f in (page["/Resources"].get("/Font") or {}).values()}
    assert fonts  # fonts are embedded resources
    assert "How to play" not in text


def test_window_switches_language_and_keeps_the_game(qtbot, make_window, english_afterwards):
    from tafl_desktop.gui.language import switch_language

    w = make_window("brandubh")
    g = w.session.variant.geometry
    assert w.controller.play_move((g.parse_square("d6"), g.parse_square("b6")))
    moves_before = w.session.game.move_texts()
    assert moves_before == ["d6-b6"]
    titles = [a.text() for a in w.menuBar().actions()]
    assert (w.file_menu.title(), w.game_menu.title()) == ("&File", "&Game")
    switch_language(w, "de")
    assert (w.file_menu.title(), w.game_menu.title()) == ("&Datei", "&Partie")
    assert not set(titles) & {a.text() for a in w.menuBar().actions()}  # every menu title changed
    assert w.act_undo.toolTip() == "Den letzten Zug zurücknehmen (Strg+Z)"
    assert w.session.game.move_texts() == moves_before  # the game is untouched
    assert "Brandubh" in w.windowTitle()
    switch_language(w, "ru")
    assert (w.file_menu.title(), w.game_menu.title()) == ("&Файл", "&Игра")
    switch_language(w, "en")
    assert [a.text() for a in w.menuBar().actions()] == titles


def test_preferences_choose_the_language(qtbot, make_window, english_afterwards):
    from dataclasses import replace

    from tafl_desktop.gui.preferences import load_preferences

    w = make_window("fox_geese_13")
    w.apply_preferences(replace(w.prefs, language="fr"))
    assert w.menuBar().actions()[0].text() == "&Fichier"
    assert load_preferences().language == "fr"
    assert "Oies" in w.panel.players.text()  # the side panel speaks of the sides in French
