"""External engines as players in the window: the Qt side of :mod:`tafl_desktop.interop.host`.

Everything about the engine's process lives headless in ``interop.host`` and
``interop.engine_process`` (its own process group; writer, reader and exit-watcher threads;
closing that never waits); here a QTimer polls it every few milliseconds, each poll bounded in
lines and time, so the window never waits on an engine.  Our rules referee every move: an illegal
move, a crash (noticed by the process's exit) or silence past the engine's clock (without a game
clock, a minute per move) ends the game (``EngineForfeit``) with a sentence naming the engine and
what went wrong, and the failed engine's processes are ended at once.  A new game, and quitting,
end every engine of the old one (``shutdown``).

The engines a player has added are remembered in QSettings (``engines/commands``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QSettings, QTimer
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QInputDialog, QPushButton, QWidget

from tafl_desktop.gui.texts import tr
from tafl_desktop.i18n import _
from tafl_desktop.session.players import EngineForfeit, engine_name, register_external

ENGINES_KEY = "engines/commands"
MAX_ENGINES = 12
POLL_MS = 15


def known_engines() -> list[str]:
    """Engine command lines the player has added, most recent first."""
    raw = QSettings().value(ENGINES_KEY, [])
    items = [raw] if isinstance(raw, str) else raw if isinstance(raw, list) else []
    return [str(x) for x in items if str(x).strip()]


def remember_engine(command: str) -> None:
    commands = [command] + [c for c in known_engines() if c != command]
    QSettings().setValue(ENGINES_KEY, commands[:MAX_ENGINES])


class EnginePicker(QWidget):
    """The remembered engines in a list, and a button to add one by its command line."""

    def __init__(self, current: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.combo = QComboBox()
        tr(self.combo, "setToolTip", "An engine speaking the OpenTafl Engine Protocol, started with this command")
        self.add_button = tr(QPushButton(), "setText", "Add engine...")
        self.add_button.clicked.connect(self.ask_command)
        tr(self.add_button, "setAccessibleDescription", "Type the command that starts an engine speaking the OpenTafl "
                                                        "Engine Protocol")
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.combo, 1)
        row.addWidget(self.add_button)
        self._fill(current)

    def _fill(self, current: str) -> None:
        self.combo.clear()
        commands = known_engines()
        if current and current not in commands:
            commands.insert(0, current)
        for c in commands:
            self.combo.addItem(engine_name(c), c)
            self.combo.setItemData(self.combo.count() - 1, c, 3)  # tooltip: the whole command
        if current:
            self.combo.setCurrentIndex(max(0, self.combo.findData(current)))

    def add_command(self, command: str) -> None:
        command = command.strip()
        if command:
            remember_engine(command)
            self._fill(command)

    def ask_command(self) -> None:
        command, ok = QInputDialog.getText(self, _("Add an engine"), _(
            "Command line of an engine that speaks the OpenTafl Engine Protocol\n"
            "(for example: tafl-desktop engine --level hard):"))
        if ok:
            self.add_command(command)

    def command(self) -> str:
        return str(self.combo.currentData() or "")


class ExternalEngines(QObject):
    """The controller's ``ComputerEngine`` for external players: one process per side and command."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._hosted: dict[tuple[int, str], Any] = {}
        self._pending: tuple[Any, Callable, Callable | None] | None = None
        self._game: Any = None
        #: The game's clock for the engines, when the window has one (see ``interop_menu``):
        #: ``() -> ((att ms, def ms), (period s, att periods, def periods), (att in overtime, def ...))``.
        self.clock_source: Callable[[], Any] | None = None
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self._poll)

    def start(self, game: Any, level: str, on_move: Callable[[tuple[int, ...]], None],
              on_error: Callable[[str], None] | None = None) -> None:
        from tafl_desktop.interop.host import EngineFailure, HostedEngine

        self.cancel()
        if game is not self._game:  # another game: the last game's engines leave
            self._close_all()
            self._game = game
        side = int(game.rules.side_to_move(game.position))
        key = (side, level)
        try:
            hosted = self._hosted.get(key)
            if hosted is None or hosted.dead:
                if hosted is not None:
                    hosted.close()  # a failed engine is ended before another takes its place
                hosted = HostedEngine(level, engine_name(level))
                self._hosted[key] = hosted
            shared = self.clock_source() if self.clock_source is not None else None
            if shared is not None:
                hosted.request_move(game, *shared)
            else:
                hosted.request_move(game)  # no clock: a minute per move (interop.host)
        except EngineFailure as exc:
            if on_error is not None:
                text = EngineForfeit(str(exc))
                QTimer.singleShot(0, lambda: on_error(text))
            return
        self._pending = (hosted, on_move, on_error)
        self._timer.start()

    def _poll(self) -> None:
        if self._pending is None:
            self._timer.stop()
            return
        hosted, on_move, on_error = self._pending
        event = hosted.poll()
        if event is None:
            return
        self._pending = None
        self._timer.stop()
        if event.kind == "move":
            on_move(event.move)
        elif on_error is not None:
            on_error(EngineForfeit(event.text))

    def cancel(self) -> None:
        if self._pending is not None:
            self._pending[0].cancel()
        self._pending = None
        self._timer.stop()

    def finish(self, game: Any) -> None:
        """Tell every engine of this game how it ended (``finish``), as OpenTafl does."""
        if game is self._game:
            for hosted in self._hosted.values():
                if not hosted.dead:
                    hosted.finish(game)

    def move_now(self) -> None:
        """The protocol has no "move now": the engine answers within its clock."""

    def processes(self) -> list[Any]:
        """The engine processes of the current game (``interop.engine_process.EngineProcess``)."""
        return [hosted.process for hosted in self._hosted.values()]

    def _close_all(self) -> None:
        for hosted in self._hosted.values():
            hosted.close()  # never waits: each engine's group is ended by its own closer thread
        self._hosted.clear()

    def shutdown(self) -> None:
        """End every engine (a new game or the window closing)."""
        self.cancel()
        self._close_all()
        self._game = None


def register() -> None:
    """Let the controller host external engines."""
    register_external(ExternalEngines)
