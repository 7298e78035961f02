"""File > Import Game / Export Game, and game files dropped on the window.

Formats come from :mod:`tafl_desktop.interop.formats` (OpenTafl ``.otg``, hnefatafl.org ``.pgn``,
plain move lists ``.txt``, PlayTaflOnline or our own ``.json``).  A file that cannot be read
shows one sentence in a dialog and leaves the current game as it was; an export names every
rule the format cannot hold.  An imported game is loaded like any other (``window.load``): it
keeps its own tags (saved with it, and written back by an export), gets no clock but its own,
and its players are people.  ``install(window)`` is listed in ``GUI_CAPABILITIES``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QInputDialog

from tafl_desktop.core.marks import N_
from tafl_desktop.core.move_numbers import moves_played
from tafl_desktop.gui import dialogs
from tafl_desktop.gui.texts import tr
from tafl_desktop.i18n import _, ngettext
from tafl_desktop.session.source import GameSource, Origin

if TYPE_CHECKING:
    from tafl_desktop.gui.main_window import MainWindow

IMPORT_FILTER = ";;".join([N_("Game records (*.otg *.pgn *.txt *.json)"), N_("OpenTafl games (*.otg)"),
                          N_("PGN-like games (*.pgn)"), N_("Move lists (*.txt)"),
                          N_("PlayTaflOnline or Tafl Desktop games (*.json)"), dialogs.ALL_FILES])
EXPORT_FILTERS = {"otg": N_("OpenTafl game (*.otg)"), "pgn": N_("PGN-like game, hnefatafl.org (*.pgn)"),
                  "moves": N_("Plain move list (*.txt)"), "json": N_("Tafl Desktop game (*.tafl.json)")}
SUFFIX = {"otg": ".otg", "pgn": ".pgn", "moves": ".txt", "json": ".tafl.json"}


def _ask_variant(window: MainWindow):
    """The variant of a plain move list: asked, the current game's offered first."""
    from tafl_desktop.core.variants import presets

    tafl = [v for v in presets().values() if v.traits.opentafl]
    current = window.session.variant
    names = [v.name for v in tafl]
    first = names.index(current.name) if current.name in names else 0
    name, ok = QInputDialog.getItem(window, _("Variant of the move list"),
                                    _("A move list does not name its game. Which one is it?"), names, first, False)
    if not ok:
        return None
    return tafl[names.index(name)]


def import_game(window: MainWindow, path: str | None = None, origin: Origin = Origin.IMPORT) -> bool:
    """Read a game in a foreign format into the window; the current game stays if it fails.
    The file is read in a thread with a progress dialog (``gui.background_read``): a large or
    hostile file never freezes the window, and Cancel leaves everything as it was."""
    from tafl_desktop.core.progress import Cancelled
    from tafl_desktop.core.quoting import shown
    from tafl_desktop.gui.background_read import is_reading, read_in_background
    from tafl_desktop.interop.formats import format_of, read_game
    from tafl_desktop.interop.transfer import InteropError, OtherRulesError

    if is_reading(window):
        return False
    if path is None:
        path = dialogs.ask_open_path(window, _("Import a game"), IMPORT_FILTER, window.files.last_dir())
        if not path:
            return False
    if not window.files.may_discard():
        return False
    name = shown(Path(path).name)
    try:
        variant = None
        if format_of(path) == "moves":
            variant = _ask_variant(window)
            if variant is None:
                return False
        try:
            transfer = read_in_background(window, _("Importing {name}...").format(name=name),
                                          lambda: read_game(path, variant=variant), path)
        except OtherRulesError as exc:
            if variant is None:  # the record states its own rules: nothing to choose here
                raise
            # played under other rules: offer the first that replays it (a named reading first)
            if not dialogs.confirm(window, _("Played under other rules"),
                                   _("{problem}\n\nImport it under the first of those rules? The current game is "
                                     "unchanged.").format(problem=exc), _("Import under those rules")):
                return False
            other = exc.fits[0].variant(exc.variant)  # a named preset itself, or the toggles changed
            transfer = read_in_background(window, _("Importing {name}...").format(name=name),
                                          lambda: read_game(path, variant=other), path)
    except Cancelled:
        window.show_message(_("Import cancelled: the current game is unchanged."))
        return False
    except InteropError as exc:
        dialogs.show_error(window, _("Cannot import the game"),
                           _("{problem}\n\nThe current game is unchanged.").format(problem=exc))
        return False
    except Exception as exc:  # noqa: BLE001 - a player must never see a traceback
        dialogs.show_error(window, _("Cannot import the game"),
                           _("{name}: unexpected problem ({problem}).\n\nThe current game is unchanged.")
                           .format(name=name, problem=dialogs.describe_problem(exc)))
        return False
    if _opened_as_puzzle(window, path, transfer):
        return True
    game = transfer.game
    transfer.tree = transfer.to_tree()
    window.imported = transfer
    n = moves_played(game)
    text = ngettext("Imported {name}: {n} move of {variant}.", "Imported {name}: {n} moves of {variant}.", n).format(
        name=name, n=n, variant=game.rules.variant.title)
    if transfer.comments:
        text += " " + ngettext("It has {n} comment.", "It has {n} comments.", len(transfer.comments)).format(
            n=len(transfer.comments))
    for w in transfer.warnings:
        text += " " + w + "."
    window.load(GameSource.of_tree(transfer.tree, origin, tags=transfer.tags), text)
    return True


def _opened_as_puzzle(window: MainWindow, path: str, transfer: Any) -> bool:
    """An OpenTafl record whose puzzle-mode tag makes it a puzzle is offered as one (as OpenTafl
    asks); solved in the puzzle window, it leaves the current game as it was."""
    from tafl_desktop.study.record_puzzles import is_puzzle_tags

    if not is_puzzle_tags(transfer.tags) or not dialogs.confirm(
            window, _("An OpenTafl puzzle"), _("{name} is a puzzle. Solve it as a puzzle, or cancel to open it as "
                                               "a game.").format(name=Path(path).name), _("Solve the puzzle")):
        return False
    from tafl_desktop.gui.record_puzzle import open_record_puzzle

    return open_record_puzzle(window, path) is not None


def export_game(window: MainWindow, path: str | None = None, fmt: str | None = None) -> bool:
    """Write the current game in a foreign format; warnings name what the format cannot hold."""
    from tafl_desktop.core.quoting import shown
    from tafl_desktop.interop.formats import format_of, write_game
    from tafl_desktop.interop.transfer import GameTransfer, InteropError

    c = window.session
    if path is None:
        chosen = fmt or "otg"
        import os

        suggested = os.path.join(window.files.last_dir(), f"{c.variant.id}{SUFFIX[chosen]}")
        filters = ";;".join([EXPORT_FILTERS[chosen]] + [f for k, f in EXPORT_FILTERS.items() if k != chosen])
        path = dialogs.ask_save_path(window, _("Export the game"), filters, suggested)
        if not path:
            return False
        try:
            format_of(path)
        except InteropError:
            path += SUFFIX[chosen]
    session = window.session
    # an imported game's own tags; else the players as OpenTafl's record names them (our
    # player1/player2 tags mean nothing there)
    tags = dict(session.tags) if session.origin in (Origin.IMPORT, Origin.DROP) else {
        "attackers": c.specs[0].label(), "defenders": c.specs[1].label()}
    transfer = GameTransfer.from_tree(c.tree, tags)
    try:
        warnings = write_game(transfer, path, fmt or format_of(path))
    except InteropError as exc:
        dialogs.show_error(window, _("Cannot export the game"), str(exc))
        return False
    name = shown(Path(path).name)
    if warnings:
        dialogs.show_info(window, _("Exported with warnings"),
                          _("{name} was written, but:\n\n{lines}").format(name=name, lines="\n".join(
                              f"- {w}" for w in warnings)))
    window.show_message(_("Exported {name}.").format(name=name))
    return True


def open_dropped(window: MainWindow, path: str) -> bool:
    """A file dropped on the window: our own games open, the others are imported."""
    if path.lower().endswith(".tafl.json"):
        return window.files.open_game(path)
    return import_game(window, path, Origin.DROP)


class _DropFilter(QObject):
    """Accepts game files dragged onto the window and opens the first one dropped."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
        kind = event.type()
        if kind in (QEvent.Type.DragEnter, QEvent.Type.DragMove):
            if event.mimeData().hasUrls() and any(u.isLocalFile() for u in event.mimeData().urls()):
                event.acceptProposedAction()
                return True
        elif kind == QEvent.Type.Drop:
            files = [u.toLocalFile() for u in event.mimeData().urls() if u.isLocalFile()]
            if files:
                event.acceptProposedAction()
                open_dropped(self.window, files[0])
                return True
        return False


def install(window: MainWindow) -> None:
    """Add Import/Export to the File menu and accept dropped files."""
    window.imported = None
    window.act_import = tr(QAction(window), "setText", "&Import Game...")
    tr(window.act_import, "setToolTip", "Open a game from OpenTafl (.otg), hnefatafl.org (.pgn), a move list (.txt) "
                                   "or PlayTaflOnline (.json)")
    window.act_import.triggered.connect(lambda: import_game(window))
    window.act_export = tr(QAction(window), "setText", "&Export Game...")
    tr(window.act_export, "setToolTip", "Write this game for OpenTafl (.otg), hnefatafl.org (.pgn) or as a move list")
    window.act_export.triggered.connect(lambda: export_game(window))
    menu = window.file_menu
    anchor = window.act_open_variant
    menu.insertActions(anchor, [window.act_import, window.act_export])
    menu.insertSeparator(anchor)
    window.setAcceptDrops(True)
    window.installEventFilter(_DropFilter(window))  # parented to the window, which keeps it
