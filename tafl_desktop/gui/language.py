"""The window's language: chosen at start-up, switched from Preferences without losing the game.

Start-up order (first that applies): ``--lang``, ``$TAFL_LANG``, the language saved in
Preferences, the system locale (see :func:`tafl_desktop.i18n.set_language`).

Switching while a game is on: the texts already on screen were translated when they were set, so
:func:`retranslate` walks the window's actions, menus, widgets and their tool tips, finds the
English source of each text through the catalogue of the language being left, and sets the new
language's text.  Texts built from a template (status line, side panel, move list) are rebuilt by
the window's own ``refresh``.  This covers the texts a capability module added to the window too,
without it having to know about languages; a capability with texts of its own making connects to
the window's ``language_changed`` signal.
"""

from __future__ import annotations

import gettext

from PySide6.QtCore import QSettings
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractButton,
    QComboBox,
    QDockWidget,
    QGroupBox,
    QLabel,
    QMenu,
    QTabWidget,
    QWidget,
)

from tafl_desktop import i18n

LANGUAGE_KEY = "preferences/language"


def saved_language() -> str:
    """The language chosen in Preferences ("" = follow the system)."""
    value = str(QSettings().value(LANGUAGE_KEY, "") or "")
    return value if value in i18n.LANGUAGES else ""


def save_language(code: str) -> None:
    s = QSettings()
    s.setValue(LANGUAGE_KEY, code if code in i18n.LANGUAGES else "")
    s.sync()


def startup_language(app) -> str:
    """Apply the saved preference unless ``--lang`` or ``$TAFL_LANG`` chose already; install Qt's
    own catalogue for the standard buttons.  Returns the language in use."""
    import os

    if not i18n.chosen_explicitly() and not os.environ.get("TAFL_LANG"):
        saved = saved_language()
        if saved:
            i18n.set_language(saved, explicit=False)
    i18n.install_qt_translator(app)
    return i18n.current_language()


def _reverse_catalogue(code: str) -> dict[str, str]:
    """Displayed text in language ``code`` -> its English source, for every singular message."""
    if code == "en":
        # the English sources themselves: any shipped catalogue lists them
        cat = i18n.load_catalogue("da")
        return {k: k for k in _singulars(cat)}
    cat = i18n.load_catalogue(code)
    return {v: k for k, v in _singulars(cat).items() if v}


def _singulars(cat: gettext.NullTranslations) -> dict[str, str]:
    table = getattr(cat, "_catalog", {})
    return {k: v for k, v in table.items() if isinstance(k, str) and k and "\x04" not in k}


def _swap(text: str, back: dict[str, str]) -> str | None:
    source = back.get(text)
    return i18n._(source) if source is not None else None


def retranslate(window: QWidget, old_code: str) -> int:
    """Put every static text of ``window`` into the current language; returns how many changed."""
    back = _reverse_catalogue(old_code)
    changed = 0

    def apply(getter, setter) -> None:
        nonlocal changed
        text = getter()
        if text:
            new = _swap(text, back)
            if new is not None and new != text:
                setter(new)
                changed += 1

    for a in window.findChildren(QAction):
        apply(a.text, a.setText)
        apply(a.toolTip, a.setToolTip)
        apply(a.statusTip, a.setStatusTip)
        apply(a.iconText, a.setIconText)
    for m in window.findChildren(QMenu):
        apply(m.title, m.setTitle)
    widgets = [window, *window.findChildren(QWidget)]
    for w in widgets:
        apply(w.toolTip, w.setToolTip)
        apply(w.windowTitle, w.setWindowTitle)
        apply(w.accessibleName, w.setAccessibleName)
        if isinstance(w, (QLabel, QAbstractButton)):
            apply(w.text, w.setText)
        elif isinstance(w, (QGroupBox, QDockWidget)):
            if isinstance(w, QGroupBox):
                apply(w.title, w.setTitle)
        if isinstance(w, QComboBox):
            for i in range(w.count()):
                apply(lambda i=i, w=w: w.itemText(i), lambda t, i=i, w=w: w.setItemText(i, t))
        if isinstance(w, QTabWidget):
            for i in range(w.count()):
                apply(lambda i=i, w=w: w.tabText(i), lambda t, i=i, w=w: w.setTabText(i, t))
    return changed


def switch_language(window, code: str) -> str:
    """Use ``code`` ("" = the system's) from now on, in the open window too; the game, its
    moves and the players stay as they are.  Returns the language now in use."""
    from PySide6.QtWidgets import QApplication

    old = i18n.current_language()
    new = i18n.set_language(code or None, explicit=bool(code))
    app = QApplication.instance()
    if app is not None:
        i18n.install_qt_translator(app)
    if new != old:
        retranslate(window, old)
        if hasattr(window, "refresh"):
            window.refresh()
    return new
