"""The window's language: chosen at start-up, switched from Preferences without losing the game.

Start-up order (first that applies): ``--lang``, ``$TAFL_LANG``, the language saved in
Preferences, the system locale (see :func:`tafl_desktop.i18n.set_language`).

Switching while a game is on: every static text was set with :func:`tafl_desktop.gui.texts.tr`,
which keeps its English source on the widget, so :func:`retranslate` rebuilds each one from its
source in the new language, in the window and in every open dialog; nothing is looked up from
the text on screen.  Texts built from the game (status line, side panel, move list, analysis
lines, the review's graph and table, an open lesson or puzzle) are rebuilt by the window's own
``refresh`` and by the ``retranslate(window)`` hook a capability module may define.
"""

from __future__ import annotations

import importlib

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import (
    QWidget,
)

from tafl_desktop import i18n
from tafl_desktop.gui import texts

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


def retranslate(window: QWidget) -> int:
    """Rebuild every remembered text of ``window``, its dialogs and the other open windows from
    its English source (:mod:`tafl_desktop.gui.texts`); returns how many texts were set."""
    from PySide6.QtCore import QLocale
    from PySide6.QtWidgets import QAbstractSpinBox, QApplication

    roots = [window]
    app = QApplication.instance()
    if app is not None:
        roots += [w for w in QApplication.topLevelWidgets() if w is not window]
    for root in roots:  # numbers in the new language's way ("29,0 mm")
        for box in root.findChildren(QAbstractSpinBox):
            box.setLocale(QLocale())
    return texts.retranslate_all(roots)


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
        retranslate(window)
        from tafl_desktop.gui.capabilities import GUI_CAPABILITIES

        for module_name in GUI_CAPABILITIES:
            hook = getattr(importlib.import_module(module_name), "retranslate", None)
            if hook is not None:
                hook(window)
        window.forget_message()  # a passing message was said in the old language: show the state instead
        if hasattr(window, "refresh"):
            window.refresh()
    return new
