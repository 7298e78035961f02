"""The Edit menu: copy and paste positions and move lists as text, and the move list's own
actions on the move shown (comment, promote, delete).

Copy (Ctrl+C) puts the position shown on the clipboard in the notation ``--position`` reads,
followed by the side to move; Copy Moves (Ctrl+Shift+C) the line on screen as numbered moves.
Paste (Ctrl+V) reads either back: a position opens the position editor on it, a move list is
replayed from the game's start position as a new game, loaded like any other (so it gets no clock
but its own, and the players of the game it replaces).  Move lists are read by the one reader
the Import of move-list files uses too (:mod:`tafl_desktop.core.move_list_text`).  Text that is
neither gets one line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QGuiApplication, QKeySequence

from tafl_desktop.core.marks import N_
from tafl_desktop.core.move_numbers import moves_played
from tafl_desktop.gui.texts import tr
from tafl_desktop.i18n import _, ngettext
from tafl_desktop.session.source import GameSource, Origin

if TYPE_CHECKING:
    from tafl_desktop.gui.main_window import MainWindow

#: How much of bad pasted text an error message quotes.
QUOTE_CHARS = 40


def _quote(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= QUOTE_CHARS else flat[:QUOTE_CHARS - 1] + "…"


def copy_position(window: MainWindow) -> str:
    from tafl_desktop.core.position_setup import position_with_side

    c = window.session
    text = position_with_side(c.rules, c.viewed_position)
    QGuiApplication.clipboard().setText(text)
    window.show_message(_("Copied the position: {text}").format(text=text))
    return text


def copy_moves(window: MainWindow) -> str:
    from tafl_desktop.core.move_list_text import line_text

    c = window.session
    text = line_text(c.game)
    QGuiApplication.clipboard().setText(text)
    n = moves_played(c.game)
    window.show_message(ngettext("Copied {n} move.", "Copied {n} moves.", n).format(n=n))
    return text


def paste(window: MainWindow, text: str | None = None) -> bool:
    """Paste ``text`` (by default the clipboard's): a position opens the editor, a move list
    starts a new game of the current rules from the game's start.  False, with one line saying
    why, for anything else; the game on screen is then unchanged."""
    from tafl_desktop.core.game import IllegalMove
    from tafl_desktop.core.move_list_text import replay
    from tafl_desktop.core.position_setup import SetupError, position_from_text, split_side
    from tafl_desktop.gui import dialogs

    if text is None:
        text = QGuiApplication.clipboard().text()
    c = window.session
    title = _("Cannot paste")
    if not text.strip():
        dialogs.show_error(window, title, _("The clipboard holds no text to paste."))
        return False
    if "/" in text or "=" in text:
        body, side = split_side(c.variant, text)
        try:
            pos = position_from_text(c.rules, body, side if side is not None else c.variant.first_side)
        except SetupError as exc:
            dialogs.show_error(window, title, _("\"{text}\" is not a position of {game}: {reason}.").format(
                text=_quote(text), game=c.variant.title, reason=exc))
            return False
        from tafl_desktop.gui.position_editor import open_editor

        open_editor(window, c.variant, dict(c.rules.pieces(pos)), c.rules.side_to_move(pos))
        window.show_message(_("Pasted a position: set it up further, then play, analyse or save it."))
        return True
    try:
        game = replay(c.rules, c.game.start, text)
    except IllegalMove as exc:
        dialogs.show_error(window, title, _("\"{text}\" is not a move list of {game}: {reason}.").format(
            text=_quote(text), game=c.variant.title, reason=exc))
        return False
    if not window.files.may_discard():
        return False
    # pasted moves are not saved anywhere yet
    n = moves_played(game)
    window.load(GameSource.of_game(game, Origin.PASTE, c.specs, saved=False),
                ngettext("Pasted {n} move of {game}.", "Pasted {n} moves of {game}.", n).format(
                    n=n, game=c.variant.title))
    return True


def _viewed(window: MainWindow):
    return window.session.viewed_node()


def install(window: MainWindow) -> None:
    """An Edit menu between File and Game."""
    from tafl_desktop.gui.move_list import confirm_delete, edit_comment

    c = window.session
    menu = tr(window.menuBar().addMenu(""), "setTitle", "&Edit")
    window.menuBar().insertMenu(window.game_menu.menuAction(), menu)
    window.edit_menu = menu
    window.act_copy_position = window.add_action(
        N_("&Copy Position"), lambda: copy_position(window), QKeySequence.StandardKey.Copy,
        N_("Copy the position shown as text, with the side to move (Ctrl+C)"))
    window.act_copy_moves = window.add_action(
        N_("Copy &Moves"), lambda: copy_moves(window), "Ctrl+Shift+C",
        N_("Copy the moves of the line shown as numbered text (Ctrl+Shift+C)"))
    window.act_paste = window.add_action(
        N_("&Paste"), lambda: paste(window), QKeySequence.StandardKey.Paste,
        N_("Paste a position (opens the editor) or a move list (a new game) (Ctrl+V)"))
    window.act_comment = window.add_action(
        N_("C&omment on Move..."), lambda: edit_comment(window, c, _viewed(window)), "Ctrl+;",
        N_("Write a comment on the move shown"))
    window.act_promote = window.add_action(
        N_("P&romote Variation"), lambda: c.promote(_viewed(window)), None,
        N_("Move the variation shown up one level"))
    window.act_make_main = window.add_action(
        N_("Make Main &Line"), lambda: c.promote(_viewed(window), to_main=True), None,
        N_("Make the line shown the main line"))
    window.act_delete_variation = window.add_action(
        N_("&Delete Variation"), lambda: confirm_delete(window, c, c.tree.variation_start(_viewed(window))), None,
        N_("Delete the variation shown"))
    menu.addActions([window.act_copy_position, window.act_copy_moves, window.act_paste])
    menu.addSeparator()
    menu.addActions([window.act_comment, window.act_promote, window.act_make_main, window.act_delete_variation])

    def sync() -> None:
        in_variation = c.tree.variation_start(_viewed(window)) is not None
        for a in (window.act_promote, window.act_make_main, window.act_delete_variation):
            a.setEnabled(in_variation)

    menu.aboutToShow.connect(sync)
