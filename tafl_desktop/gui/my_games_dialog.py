"""Learn > Puzzles from My Games: the player's own game files mined for puzzles off the window's
thread (:func:`tafl_desktop.study.my_games.mine_game`), with progress and Cancel; what is found
goes into the player's puzzle set, which the Puzzles window shows under "My games".

Closing the dialog never waits for the search: the thread is asked to stop, ends after the position
it is on, and itself adds what it found to the set, so nothing found is lost even when the dialog is
gone by then.  Running threads are held here (not by the dialog) until they end, and the
application waits for them when it quits."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QThread, Signal
from PySide6.QtWidgets import QDialog, QHBoxLayout, QLabel, QProgressBar, QPushButton, QVBoxLayout

from tafl_desktop.i18n import _, ngettext

#: Mining threads still running, held here so that a closed (and deleted) dialog never destroys
#: one that runs; each leaves when it ends.
_RUNNING: set[MineThread] = set()
#: Whether the application's quit waits for :data:`_RUNNING` yet (connected once).
_QUIT_HOOKED = False


def _wait_for_mining() -> None:
    """At quit: stop every mining thread and wait for it (the proof it is on is capped)."""
    for thread in list(_RUNNING):
        thread.stop = True
        thread.wait()


class MineThread(QThread):
    """Mines the files one after the other; ``progressed(file index, done, total)``, then adds
    what it found to the set at ``out`` and says ``finished_mining(puzzles, problems, added)``
    (a problem is one line naming the file)."""

    progressed = Signal(int, int, int)
    finished_mining = Signal(list, list, int)

    def __init__(self, paths: list[str], out: Path | None = None) -> None:
        super().__init__()
        self.paths = paths
        self.out = out
        self.stop = False

    def start_held(self) -> None:
        """Start, held by this module until the thread ends (see :data:`_RUNNING`)."""
        global _QUIT_HOOKED
        app = QCoreApplication.instance()
        if app is not None and not _QUIT_HOOKED:
            app.aboutToQuit.connect(_wait_for_mining)
            _QUIT_HOOKED = True
        _RUNNING.add(self)
        self.finished.connect(lambda: _RUNNING.discard(self))
        self.start()

    def run(self) -> None:
        from tafl_desktop.interop.formats import read_game
        from tafl_desktop.interop.transfer import InteropError
        from tafl_desktop.study.my_games import add_to_set, default_path, mine_game
        from tafl_desktop.study.puzzles import PuzzleError

        found: list[dict[str, Any]] = []
        problems: list[str] = []
        for i, path in enumerate(self.paths):
            if self.stop:
                break
            name = Path(path).name
            try:
                game = read_game(path).game
                found += mine_game(game, name, should_stop=lambda: self.stop,
                                   progress=lambda done, total, i=i: self.progressed.emit(i, done, total))  # type: ignore[misc]
            except (InteropError, PuzzleError) as exc:
                problems.append(str(exc))
            except Exception as exc:  # noqa: BLE001 - a player must never see a traceback
                problems.append(f"{name}: {exc}")
        out = self.out or default_path()
        try:
            added = add_to_set(found, out)
        except (PuzzleError, OSError) as exc:
            problems.append(_("Cannot write {path}: {problem}").format(path=out, problem=exc))
            added = 0
        self.finished_mining.emit(found, problems, added)


class MyGamesDialog(QDialog):
    """Choose games, watch them mined, see how many puzzles they gave."""

    def __init__(self, window: Any, paths: list[str] | None = None, out: Path | None = None,
                 open_puzzles: Callable[[Any], Any] | None = None) -> None:
        super().__init__(window)
        self.window_ = window
        #: Opens the puzzle window (passed in by the Learn menu, which this dialog must not import).
        self.opener = open_puzzles
        self.out = out
        self.setWindowTitle(_("Puzzles from My Games"))
        self.resize(520, 220)
        self.text = QLabel(_("Every position of your games is searched for a forced win that only one move "
                             "starts; each one found becomes a puzzle in your set (Puzzles, \"My games\")."))
        self.text.setWordWrap(True)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.bar = QProgressBar()
        self.btn_choose = QPushButton(_("&Choose games..."))
        self.btn_cancel = QPushButton(_("&Cancel"))
        self.btn_puzzles = QPushButton(_("Open &Puzzles"))
        self.btn_cancel.setEnabled(False)
        self.btn_puzzles.setEnabled(False)
        row = QHBoxLayout()
        for b in (self.btn_choose, self.btn_cancel, self.btn_puzzles):
            row.addWidget(b)
        lay = QVBoxLayout(self)
        for w in (self.text, self.bar, self.status):
            lay.addWidget(w)
        lay.addLayout(row)
        self.btn_choose.clicked.connect(self.choose)
        self.btn_cancel.clicked.connect(self.cancel)
        self.btn_puzzles.clicked.connect(self.open_puzzles)
        self.thread_: MineThread | None = None
        self.found: list[dict[str, Any]] = []
        if paths:
            self.start(paths)

    def choose(self) -> None:
        """Pick the games: every record the window can import (Game > Import's filter, translated)."""
        from tafl_desktop.gui import dialogs
        from tafl_desktop.gui.interop_menu import IMPORT_FILTER

        paths = dialogs.ask_open_paths(self, _("Your games"), IMPORT_FILTER, self.window_.files.last_dir())
        if paths:
            self.start(paths)

    def start(self, paths: list[str]) -> None:
        self.paths = list(paths)
        self.btn_choose.setEnabled(False)
        self.btn_cancel.setEnabled(True)
        self.bar.setRange(0, 0)
        self.status.setText(ngettext("Searching {n} game...", "Searching {n} games...", len(paths)).format(
            n=len(paths)))
        self.thread_ = MineThread(self.paths, self.out)
        self.thread_.progressed.connect(self.on_progress)
        self.thread_.finished_mining.connect(self.on_done)
        self.thread_.start_held()

    def on_progress(self, index: int, done: int, total: int) -> None:
        self.bar.setRange(0, max(1, total))
        self.bar.setValue(done)
        self.status.setText(_("Game {i} of {n} ({name}): position {done} of {total}").format(
            i=index + 1, n=len(self.paths), name=Path(self.paths[index]).name, done=done, total=total))

    def cancel(self) -> None:
        if self.thread_ is not None:
            self.thread_.stop = True
            self.status.setText(_("Stopping; the puzzles found so far are kept..."))

    def on_done(self, found: list, problems: list, added: int) -> None:
        self.btn_cancel.setEnabled(False)
        self.btn_choose.setEnabled(True)
        self.bar.setRange(0, 1)
        self.bar.setValue(1)
        self.found = found
        text = ngettext("{n} puzzle found, {added} new in your set.", "{n} puzzles found, {added} new in your set.",
                        len(found)).format(n=len(found), added=added)
        if problems:
            text += "\n" + "\n".join(problems)
        self.status.setText(text)
        self.btn_puzzles.setEnabled(added > 0 or bool(found))

    def open_puzzles(self) -> None:
        """Open the puzzles (``open_puzzles``: the Learn menu's own opener, given by it) at the first found."""
        dlg = self.opener(self.window_) if self.opener is not None else None
        if dlg is not None and self.found:
            dlg.select(self.found[0]["id"])

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        # never waits (it once waited up to 10 s): the thread stops after the position it is on
        # and adds what it found to the set itself
        if self.thread_ is not None and self.thread_.isRunning():
            self.thread_.stop = True
        super().closeEvent(event)
