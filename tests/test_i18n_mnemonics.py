"""Menu accelerators never collide (issue 28): within the menu bar, and within each menu and
submenu, no two entries share a mnemonic letter (the letter after "&"), in every language.
Alt+letter then reaches one entry, never the first of two."""

from __future__ import annotations

import re

import pytest

LANGUAGES = ("en", "da", "de", "fr", "ru")


def mnemonic(text: str) -> str | None:
    m = re.search(r"&([^&\s])", text.replace("&&", ""))
    return m.group(1).lower() if m else None


def collisions(titles: list[str]) -> list[str]:
    seen: dict[str, str] = {}
    out = []
    for t in titles:
        key = mnemonic(t)
        if key is None:
            continue
        if key in seen:
            out.append(f"{seen[key]!r} and {t!r} share Alt+{key.upper()}")
        else:
            seen[key] = t
    return out


def menu_problems(window) -> list[str]:
    bar = window.menuBar()
    problems = [f"menu bar: {p}" for p in collisions([a.text() for a in bar.actions()])]

    def walk(menu, path: str) -> None:
        for sub in (a.menu() for a in menu.actions() if a.menu() is not None):
            walk(sub, f"{path} > {sub.title()}")
        texts = [a.text() for a in menu.actions() if not a.isSeparator() and a.isVisible()]
        problems.extend(f"{path}: {p}" for p in collisions(texts))

    for a in bar.actions():
        if a.menu() is not None:
            a.menu().aboutToShow.emit()  # menus filled when opened (Open Recent, Learn)
            walk(a.menu(), a.menu().title())
    return problems


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_two_menu_entries_share_an_accelerator(make_window, lang):
    from tafl_desktop import i18n

    try:
        i18n.set_language(lang)
        w = make_window("dablot")  # the Dablot game adds Show Ranks and the Action Points entries
        problems = menu_problems(w)
        w.panel.moves.menu_for(w.session.viewed_node())  # the move list's menu, too
        menu = w.panel.moves.menu_for(w.session.viewed_node())
        problems += [f"move list menu: {p}" for p in collisions([a.text() for a in menu.actions()])]
    finally:
        i18n.set_language("en")
    assert problems == [], "\n".join(problems)


def test_the_rule_catches_a_collision():
    assert collisions(["&Undo Move", "Set &Up Position..."]) == [
        "'&Undo Move' and 'Set &Up Position...' share Alt+U"]
    assert collisions(["&File", "&Game", "Save && &Quit"]) == []
