"""View > Full Screen (F11) and Help > Keyboard Shortcuts.

The shortcuts list is read from the window's own menus at the moment it is opened, so it can
never disagree with the keys that work: every action that has a shortcut is listed under its menu,
followed by the board's own keys.  (The colour-blind-safe board theme is in ``gui.themes``.)
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QWidget

from tafl_desktop.core.marks import N_
from tafl_desktop.gui import dialogs
from tafl_desktop.gui.blind_play import PLAYING_WITHOUT_SIGHT, QUERY_KEYS
from tafl_desktop.i18n import _

if TYPE_CHECKING:
    from tafl_desktop.gui.main_window import MainWindow

#: The window property remembering whether it was maximised before going full screen.
_WAS_MAXIMISED = "taflWasMaximised"

#: Keys the board handles itself (not menu actions).
BOARD_KEYS: tuple[tuple[str, str], ...] = (
    (N_("Enter / Space"), N_("show the board cursor; pick up the piece under it, then drop it on a target")),
    (N_("Arrow keys"), N_("move the board cursor while it is shown; otherwise step through the moves")),
    (N_("Esc"), N_("put the picked piece back; press again to hide the cursor")),
)


def _label(text: str) -> str:
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&").rstrip(".").rstrip("\u2026")


def shortcut_rows(window: MainWindow) -> list[tuple[str, list[tuple[str, str]]]]:
    """(menu title, [(action, keys)]) for every menu action with a shortcut, in menu order."""
    out = []
    for menu in (window.file_menu, window.game_menu, window.view_menu, window.help_menu):
        rows = []
        for a in menu.actions():
            keys = [k.toString(QKeySequence.SequenceFormat.NativeText) for k in a.shortcuts() if not k.isEmpty()]
            if a.isSeparator() or not keys:
                continue
            rows.append((_label(a.text()), ", ".join(keys)))
        if rows:
            out.append((_label(menu.title()), rows))
    return out


def shortcuts_html(window: MainWindow) -> str:
    title = _("Keyboard shortcuts")
    parts = [f"<h3>{escape(title)}</h3>"]
    for title, rows in shortcut_rows(window):
        parts.append(f"<h4>{escape(title)}</h4><table cellspacing='4'>")
        parts += [f"<tr><td><b>{escape(keys)}</b></td><td>{escape(name)}</td></tr>" for name, keys in rows]
        parts.append("</table>")
    # (the catalogue tool reads no call inside an f-string: each text is translated first)
    on_board = _("On the board")
    parts.append(f"<h4>{escape(on_board)}</h4><table cellspacing='4'>")
    parts += [f"<tr><td><b>{escape(_(k))}</b></td><td>{escape(_(v))}</td></tr>" for k, v in BOARD_KEYS]
    parts.append("</table>")
    parts.append(f"<h4>{escape(_(PLAYING_WITHOUT_SIGHT))}</h4><table cellspacing='4'>")
    parts += [f"<tr><td><b>{escape(_(k))}</b></td><td>{escape(_(v))}</td></tr>" for k, v in QUERY_KEYS]
    parts.append("</table>")
    return "".join(parts)


def toggle_full_screen(window: QWidget, on: bool) -> None:
    """Fill the screen with the window (F11), or go back to how it was (maximised or not, as
    the window's own ``windowState`` remembered it before going full screen)."""
    if on:
        window.setProperty(_WAS_MAXIMISED, window.isMaximized())
        window.showFullScreen()
    elif window.property(_WAS_MAXIMISED):
        window.showMaximized()
    else:
        window.showNormal()


def install(window: MainWindow) -> None:
    """View > Full Screen (F11) and Help > Keyboard Shortcuts (F1)."""
    full = window.add_action(N_("Full &Screen"), lambda on: toggle_full_screen(window, bool(on)),
                          QKeySequence(Qt.Key.Key_F11), N_("Fill the screen with the board (F11)"), checkable=True)
    window.view_menu.insertAction(window.act_prefs, full)
    window.act_full_screen = full
    keys = window.add_action(N_("Keyboard &Shortcuts..."), lambda: dialogs.show_html(
        window, _("Keyboard shortcuts"), shortcuts_html(window)), QKeySequence(Qt.Key.Key_F1),
        N_("Every key that does something, from the menus (F1)"))
    window.help_menu.insertAction(window.act_announce_help, keys)
    window.act_shortcuts = keys
