"""The window's files, in one place: open, save, save as, the recent list, opening a variant file,
the question before a game with unsaved moves is replaced, the autosave's failures, and offering
back after a crash (or a close mid-game) the game the autosave kept.

The window makes one :class:`GameFiles` (``window.files``) and binds its menu entries to it;
capabilities that open or replace a game ask it too (``window.files.may_discard()``,
``window.files.last_dir()``).  Every game it reads arrives through the window's one ``load``;
writing the autosave itself is the headless :class:`~tafl_desktop.session.autosave.Autosave`.

Every file problem becomes a message box: a bad file never changes the game on screen and never
shows a traceback, and nothing the player had is overwritten.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tafl_desktop.core.move_numbers import moves_played
from tafl_desktop.core.quoting import os_reason, shown
from tafl_desktop.gui import dialogs
from tafl_desktop.gui.preferences import add_recent_file, recent_files, remove_recent_file
from tafl_desktop.gui.texts import tr
from tafl_desktop.i18n import _, ngettext
from tafl_desktop.session.autosave import CLOSED_NORMALLY, CLOSED_TAG
from tafl_desktop.session.players import HUMANS
from tafl_desktop.session.source import GAME_SUFFIX, GameSource, Origin

if TYPE_CHECKING:
    from tafl_desktop.gui.main_window import MainWindow


class GameFiles:
    """The file handling of one window (see the module's docstring)."""

    def __init__(self, window: MainWindow) -> None:
        self.window = window
        self._autosave_failure_told = False  # the dialog about a failing autosave is shown once
        window.autosave.on_problem = self._autosave_failed

    # ------------------------------------------------------------------------------- where
    @property
    def file_path(self) -> str | None:
        """The file the game is saved in (None: not saved anywhere yet)."""
        return self.window.session.path

    def last_dir(self) -> str:
        """The folder a file dialog opens in: the game's own, else the last one used."""
        if self.file_path:
            return str(Path(self.file_path).parent)
        files = recent_files() if self.window.persist else []
        return str(Path(files[0]).parent) if files else str(Path.home())

    # ------------------------------------------------------------------------------- recent files
    def remember_recent(self, path: str) -> None:
        if self.window.persist:
            add_recent_file(str(Path(path).resolve()))

    def fill_recent_menu(self) -> None:
        """File > Open Recent, filled each time it opens."""
        menu = self.window.recent_menu
        menu.clear()
        files = recent_files() if self.window.persist else []
        if not files:
            a = tr(menu.addAction(""), "setText", "No recent games")
            a.setEnabled(False)
            return
        for i, f in enumerate(files, 1):
            a = menu.addAction(f"&{i} {Path(f).name}")
            a.setToolTip(f)
            a.triggered.connect(lambda _checked=False, f=f: self.open_recent(f))

    def open_recent(self, path: str) -> None:
        if not Path(path).is_file():
            dialogs.show_error(self.window, _("Cannot open the game"),
                               _("{path} is no longer there.").format(path=shown(path)))
            remove_recent_file(path)
            return
        self.open_game(path)

    # ------------------------------------------------------------------------------- replacing the game
    def may_discard(self) -> bool:
        """May the game on screen be replaced?  Asks when it holds moves that are not saved, finished
        or not."""
        w, s = self.window, self.window.session
        if not s.modified or not s.tree.root.children:
            return True
        if s.game.outcome is not None:  # a finished game is worth keeping too: to replay, review, mine
            return dialogs.confirm(w, _("Leave the finished game?"), _(
                "The finished game is not saved: saved, it can be replayed, reviewed and mined for puzzles. "
                "Leave it without saving?"), _("Leave it"))
        return dialogs.confirm(w, _("Start a new game?"), _("The current game has moves that are not saved. "
                                                            "Leave it and start a new one?"), _("Leave it"))

    # ------------------------------------------------------------------------------- open and save
    def open_game(self, path: str | None = None, remember: bool = True) -> bool:
        """Open a saved game; a file that cannot be read leaves the current game as it was.
        ``remember`` False keeps the file out of the recent list (the autosave)."""
        w = self.window
        if path is None:
            path = dialogs.ask_open_path(w, _("Open a game"), dialogs.GAME_FILTER, self.last_dir())
            if not path:
                return False
        if not self.may_discard():
            return False
        from tafl_desktop.core.progress import Cancelled
        from tafl_desktop.core.record import RecordError
        from tafl_desktop.gui.background_read import read_in_background

        try:  # in a thread, with progress and Cancel: a game of 20,000 moves replays for seconds
            source = read_in_background(w, _("Opening {name}...").format(name=shown(Path(path).name)),
                                        lambda: GameSource.from_record(path, Origin.OPEN), path)
        except Cancelled:
            w.show_message(_("Opening cancelled: the current game is unchanged."))
            return False
        except RecordError as exc:
            return self._refused(_("Cannot open the game"), path, exc, expected=True)
        except Exception as exc:  # noqa: BLE001 - a player must never see a traceback
            return self._refused(_("Cannot open the game"), path, exc, expected=False)
        n = moves_played(source.tree.main_game())
        w.load(source, ngettext("Opened {file}: {n} move of {game}.", "Opened {file}: {n} moves of {game}.",
                                n).format(file=shown(Path(path).name), n=n, game=source.tree.rules.variant.title),
               remember=remember)
        return True

    def _refused(self, title: str, path: str, exc: Exception, expected: bool) -> bool:
        """A file that could not be opened: its reader's sentence (``expected``: the reader's own
        error) or, for anything else, the file's name and the cause, in one dialog; the game the
        player had is kept.  Returns False for the caller to return."""
        if expected:
            text = _("{error}\n\nThe current game is unchanged.").format(error=exc)
        else:
            text = _("{name}: unexpected problem ({cause}).\n\nThe current game is unchanged.").format(
                name=shown(Path(path).name), cause=dialogs.describe_problem(exc))
        dialogs.show_error(self.window, title, text)
        return False

    def save_game(self) -> bool:
        if not self.file_path:
            return self.save_game_as()
        return self.save_game_to(self.file_path)

    def save_game_as(self) -> bool:
        suggested = os.path.join(self.last_dir(), f"{self.window.session.variant.id}{GAME_SUFFIX}")
        path = dialogs.ask_save_path(self.window, _("Save the game"), dialogs.GAME_FILTER, suggested)
        if not path:
            return False
        if not path.endswith(".json"):
            path += GAME_SUFFIX
        return self.save_game_to(path)

    def save_game_to(self, path: str) -> bool:
        """Write the game to ``path``; a dialog says why when it cannot be written."""
        from tafl_desktop.core.record import RecordError

        w = self.window
        try:
            w.session.save(path)
        except OSError as exc:
            dialogs.show_error(w, _("Cannot save the game"), _("{where}: {problem}").format(
                where=shown(path), problem=os_reason(exc)))
            return False
        except RecordError as exc:  # past the limits a record keeps: the file is left as it was
            dialogs.show_error(w, _("Cannot save the game"), str(exc))
            return False
        self.remember_recent(path)
        w.show_message(_("Saved {name}.").format(name=shown(Path(path).name)))
        return True

    def open_variant(self, path: str | None = None) -> bool:
        """Start a game with the rules of a variant file (made with "Save as variant...")."""
        w = self.window
        if path is None:
            path = dialogs.ask_open_path(w, _("Open a variant"), dialogs.VARIANT_FILTER, self.last_dir())
            if not path:
                return False
        if not self.may_discard():
            return False
        from tafl_desktop.core.variants import VariantError, load_variant

        try:
            variant = load_variant(path)
        except VariantError as exc:
            return self._refused(_("Cannot open the variant"), path, exc, expected=True)
        except Exception as exc:  # noqa: BLE001 - a player must never see a traceback
            return self._refused(_("Cannot open the variant"), path, exc, expected=False)
        w.start_game(variant, HUMANS)
        w.show_message(_("Playing {game} from {file}.").format(game=variant.title, file=shown(Path(path).name)))
        return True

    # ------------------------------------------------------------------------------- the autosave
    def _autosave_failed(self, reason: str, closing: bool) -> None:
        """The autosave cannot write its file: said every time in the status bar, once in a dialog."""
        w = self.window
        w.show_message(_("Autosave failed: {reason}").format(reason=reason))
        if not self._autosave_failure_told and not closing:
            self._autosave_failure_told = True
            dialogs.show_error(w, _("The game cannot be autosaved"), _(
                "Tafl Desktop keeps your game in {path} after every move, so that a crash loses "
                "nothing, but it cannot write there: {reason}.\n\nYou can go on playing; use "
                "File > Save Game to keep this game. This message is not shown again until you "
                "restart.").format(path=shown(w.autosave.path or "", 200), reason=reason))

    # ------------------------------------------------------------------------------- restoring
    def _read_unfinished(self, path: str) -> GameSource:
        """The game in an autosave file, read without freezing the window (restored, not opened: it
        lives in no file of the player's, and is not saved anywhere yet)."""
        from tafl_desktop.gui.background_read import read_in_background

        return read_in_background(self.window, _("Reading the unfinished game..."), lambda: GameSource.from_record(
            path, Origin.RESTORE, keep_path=False, saved=False), path)

    def offer_unfinished(self, found: list) -> tuple[Any, bool]:
        """Offer back the games windows that are gone left unfinished (``found``: their
        :class:`~tafl_desktop.core.autosave_slots.Orphan` slots, newest first).  One game is asked
        about as before; several are listed, newest first, with their moves and dates.  A file that
        cannot be read is named in one line and kept; a game the player declines is removed (as a
        new game always replaced it); games not chosen from a list stay for the next start.
        Returns (the orphan whose slot the window takes, or None; whether its game was restored)."""
        from tafl_desktop.core.progress import Cancelled

        window = self.window
        readable: list[tuple[Any, GameSource]] = []
        unreadable: list[str] = []
        for orphan in found:
            try:
                readable.append((orphan, self._read_unfinished(str(orphan.path))))
            except Cancelled:
                continue  # kept as it is: the next start offers it again
            except Exception as exc:  # noqa: BLE001 - a player must never see a traceback
                reason = shown(str(exc) if isinstance(exc, ValueError) else dialogs.describe_problem(exc), 200)
                name = orphan.path.name
                # a record's own error already starts with the file's name
                unreadable.append(reason if reason.startswith(name) else _("{file}: {reason}").format(
                    file=name, reason=reason))
        if unreadable:
            dialogs.show_error(window, _("Cannot restore the unfinished game"), _(
                "These autosave files cannot be read; they are kept, unchanged, in {folder}:\n{files}").format(
                folder=shown(str(found[0].path.parent), 200), files="\n".join(unreadable)))
        if not readable:
            return None, False
        if len(readable) == 1:
            only = readable[0][0]
            title, question, yes = unfinished_question(readable[0][1], only.modified)
            picked: int | None = 0 if dialogs.confirm(window, title, question, yes) else None
        else:
            labels = [unfinished_label(source, orphan.modified) for orphan, source in readable]
            picked = dialogs.choose(window, _("Continue an unfinished game?"), ngettext(
                "{n} games were not finished when Tafl Desktop last ran (newest first). Continue one? The others "
                "are kept for the next start; Cancel starts a new game and discards them.",
                "{n} games were not finished when Tafl Desktop last ran (newest first). Continue one? The others "
                "are kept for the next start; Cancel starts a new game and discards them.", len(readable)).format(
                n=len(readable)), labels, _("Continue"))
        if picked is None:
            # a new game takes the newest slot: its file stays until the new game's first move replaces
            # it (a kill before then offers it again); the other games the player declined go now
            for orphan, _source in readable[1:]:
                try:
                    os.remove(orphan.path)
                except OSError:
                    pass
            return readable[0][0], False
        orphan, source = readable[picked]
        window.load(source, _("Your unfinished game from last time is back. Ctrl+N starts a new one."))
        return orphan, True

    def offer_restore(self, autosave: str) -> bool:
        """Ask whether to go on with the game in the autosave file ``autosave`` (see
        :func:`unfinished_question`).  True if the game was restored."""
        from tafl_desktop.core.progress import Cancelled
        from tafl_desktop.core.record import RecordError

        window = self.window
        try:
            source = self._read_unfinished(autosave)
        except Cancelled:
            return False
        except RecordError as exc:
            dialogs.show_error(window, _("Cannot restore the unfinished game"),
                               _("{error}\n\nA new game starts instead.").format(error=exc))
            return False
        except Exception as exc:  # noqa: BLE001 - a player must never see a traceback
            dialogs.show_error(window, _("Cannot restore the unfinished game"),
                               _("{file}: unexpected problem ({error}).\n\nA new game starts instead.").format(
                                   file=Path(autosave).name, error=dialogs.describe_problem(exc)))
            return False
        title, question, yes = unfinished_question(source)
        if not dialogs.confirm(window, title, question, yes):
            return False
        window.load(source, _("Your unfinished game from last time is back. Ctrl+N starts a new one."))
        return True


def _saved_when(modified: float) -> str:
    """When an autosave was written, in the reader's locale (the list and the question say it)."""
    from PySide6.QtCore import QDateTime, QLocale

    return QLocale().toString(QDateTime.fromSecsSinceEpoch(int(modified)), QLocale.FormatType.ShortFormat)


def unfinished_question(source: GameSource, modified: float | None = None) -> tuple[str, str, str]:
    """(title, question, yes) for one unfinished game, with the date it was saved when known.  The
    words say what happened: a record tagged ``exit = "normal"`` was kept by a normal close of the
    window; any other ended without one (a crash, a kill, a power cut)."""
    game = source.tree.main_game()
    n = moves_played(game)
    side = game.rules.variant.side_names[int(game.rules.side_to_move(game.position))]
    closed_normally = source.tags.get(CLOSED_TAG) == CLOSED_NORMALLY
    if closed_normally:  # the player closed the window mid-game: no crash to speak of
        question = ngettext(
            "Your game of {variant} ({n} move, {side} to move) was not finished when you closed Tafl Desktop "
            "last time.\n\nContinue it? (Cancel starts a new game.)",
            "Your game of {variant} ({n} moves, {side} to move) was not finished when you closed Tafl Desktop "
            "last time.\n\nContinue it? (Cancel starts a new game.)", n)
        title, yes = _("Continue your last game?"), _("Continue")
    else:
        question = ngettext(
            "Tafl Desktop was not closed properly last time. Your game of {variant} ({n} move, {side} to move) "
            "was saved.\n\nRestore it? (Cancel starts a new game.)",
            "Tafl Desktop was not closed properly last time. Your game of {variant} ({n} moves, {side} to move) "
            "was saved.\n\nRestore it? (Cancel starts a new game.)", n)
        title, yes = _("Restore the unfinished game?"), _("Restore")
    text = question.format(variant=game.rules.variant.title, n=n, side=side)
    if modified is not None:
        text += "\n\n" + _("Saved {date}.").format(date=_saved_when(modified))
    return title, text, yes


def unfinished_label(source: GameSource, modified: float) -> str:
    """One line of the list of unfinished games: its game, moves, side to move and date."""
    game = source.tree.main_game()
    n = moves_played(game)
    side = game.rules.variant.side_names[int(game.rules.side_to_move(game.position))]
    return ngettext("{variant}: {n} move, {side} to move ({date})",
                    "{variant}: {n} moves, {side} to move ({date})", n).format(
        variant=game.rules.variant.title, n=n, side=side, date=_saved_when(modified))
