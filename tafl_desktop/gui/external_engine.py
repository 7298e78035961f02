"""External engines as players in the window: the Qt side of :mod:`tafl_desktop.interop.host` (the
OpenTafl Engine Protocol) and :mod:`tafl_desktop.interop.htp_host` (hnefatafl.org's Hnefatafl Text
Protocol, on the engine's stdin or in its ``--host`` mode, where it connects to us on 127.0.0.1).

Everything about the engine's process lives headless in ``interop.host`` and
``interop.engine_process`` (its own process group; writer, reader and exit-watcher threads;
closing that never waits); here a QTimer polls it every few milliseconds, each poll bounded in
lines and time, so the window never waits on an engine.  Our rules referee every move: an illegal
move, a crash (noticed by the process's exit) or silence past the engine's clock (without a game
clock, a minute per move) ends the game (a forfeit ``TurnFailure``) with a sentence naming the engine and
what went wrong, and the failed engine's processes are ended at once.  A new game, and quitting,
end every engine of the old one (``shutdown``).

The engines a player has added are remembered in QSettings (``engines/commands``), an HTP engine's
command with its hosting mode in front (``htp:``, ``htp-host:``, ``htp-host@PORT:``).  An HTP engine
cannot take back a move or be told a game's rules: after an undo a fresh one is told every move
again, and only hnefatafl.org's Copenhagen is offered to it (``gui.engine_rules``); its resignation
ends the game as one (a ``TurnFailure`` of kind ``resigned``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QSettings, QTimer
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from tafl_desktop.core.marks import N_
from tafl_desktop.gui.form_labels import name_fields
from tafl_desktop.gui.texts import add_item, tr
from tafl_desktop.i18n import _
from tafl_desktop.session.engine import TurnFailure, TurnRequest
from tafl_desktop.session.players import engine_name

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


#: The protocols an engine may speak: (the prefix of its remembered command, what the player reads).
PROTOCOLS = (("", N_("OpenTafl Engine Protocol")),
             ("htp", N_("Hnefatafl Text Protocol, on its standard input")),
             ("htp-host", N_("Hnefatafl Text Protocol, connecting to this computer (--host)")))


def engine_label(command: str) -> str:
    """An engine's name in the list; an HTP engine's with the protocol, so both hostings can be told apart."""
    from tafl_desktop.interop.htp_host import htp_player

    htp = htp_player(command)
    if htp is None:
        return engine_name(command)
    if not htp[1]:
        return _("{name} (HTP)").format(name=engine_name(command))
    return _("{name} (HTP, --host)").format(name=engine_name(command))  # its port: the tooltip's command


class AddEngineDialog(QDialog):
    """An engine's command line and the protocol it speaks; for an HTP engine in its ``--host`` mode
    the port it connects to (on 127.0.0.1 only).  :meth:`command` is the text remembered."""

    def __init__(self, parent: QWidget | None = None) -> None:
        from tafl_desktop.interop.htp_host import HTP_PORT

        super().__init__(parent)
        tr(self, "setWindowTitle", "Add an engine")
        self.protocol = QComboBox()
        for value, label in PROTOCOLS:
            add_item(self.protocol, label, value)
        self.line = QLineEdit()
        self.line.setMinimumWidth(420)
        self.port = QSpinBox()
        self.port.setRange(1024, 65535)
        self.port.setValue(HTP_PORT)
        self.note = QLabel()
        self.note.setWordWrap(True)
        form = QFormLayout()
        form.addRow(tr(QLabel(), "setText", "Protocol:"), self.protocol)
        form.addRow(tr(QLabel(), "setText", "Command line:"), self.line)
        form.addRow(tr(QLabel(), "setText", "Port:"), self.port)
        form.addRow(self.note)
        name_fields(form)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addLayout(form)
        lay.addWidget(buttons)
        self.protocol.currentIndexChanged.connect(self._sync)
        self._sync()

    def _sync(self) -> None:
        kind = self.protocol.currentData()
        self.port.setEnabled(kind == "htp-host")
        if kind == "":
            self.line.setPlaceholderText("tafl-desktop engine --level hard")
            self.note.setText(_("The engine is told the rules of each game and our rules referee its moves."))
        elif kind == "htp":
            self.line.setPlaceholderText("tafl-desktop htp --level hard")
            self.note.setText(_("hnefatafl.org's protocol tells an engine no rules: it plays Copenhagen "
                                "(hnefatafl.org) only. hnefatafl.org's own engine plays its AiBasic this way."))
        else:
            self.line.setPlaceholderText("hnefatafl-text-protocol --host 127.0.0.1 --ai monte-carlo --seconds 5")
            self.note.setText(_("The engine is started with this command and connects to this computer "
                                "(127.0.0.1, never the network) at the port; hnefatafl.org's engine connects to "
                                "port 49152 and takes its AI's settings this way."))

    def command(self) -> str:
        """The command as remembered: plain, ``htp:COMMAND``, ``htp-host:COMMAND`` or ``htp-host@PORT:COMMAND``."""
        from tafl_desktop.interop.htp_host import HTP_PORT

        line = self.line.text().strip()
        kind = self.protocol.currentData()
        if not line or not kind:
            return line
        if kind == "htp-host" and self.port.value() != HTP_PORT:
            kind = f"htp-host@{self.port.value()}"
        return f"{kind}:{line}"


class EnginePicker(QWidget):
    """The remembered engines in a list, and a button to add one by its command line."""

    def __init__(self, current: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.combo = QComboBox()
        tr(self.combo, "setToolTip", "An engine speaking the OpenTafl Engine Protocol or hnefatafl.org's Hnefatafl "
           "Text Protocol, started with this command")
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
            self.combo.addItem(engine_label(c), c)
            self.combo.setItemData(self.combo.count() - 1, c, 3)  # tooltip: the whole command
        if current:
            self.combo.setCurrentIndex(max(0, self.combo.findData(current)))

    def add_command(self, command: str) -> None:
        command = command.strip()
        if command:
            remember_engine(command)
            self._fill(command)

    def ask_command(self) -> None:
        dialog = AddEngineDialog(self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.add_command(dialog.command())

    def command(self) -> str:
        return str(self.combo.currentData() or "")


class ExternalEngines(QObject):
    """The :class:`~tafl_desktop.session.engine.Engine` of external players: one process per side and command."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._hosted: dict[tuple[int, str], Any] = {}
        #: (engine, on_move, on_failure, the game to ask about once an HTP engine has connected)
        self._pending: tuple[Any, Callable[[Any], None], Callable[[TurnFailure], None], Any] | None = None
        self._game: Any = None
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self._poll)

    def start(self, request: TurnRequest) -> None:
        """Ask the engine of the side to move (started now if it is not running) for its move, told
        the request's clocks; an engine that breaks the game answers with a forfeit."""
        from tafl_desktop.interop.host import EngineFailure, HostedEngine
        from tafl_desktop.interop.htp_host import HtpHostedEngine, htp_player

        game, level, on_move, on_error = request.game, request.level, request.on_move, request.on_failure
        self.cancel()
        if game is not self._game:  # another game: the last game's engines leave
            self._close_all()
            self._game = game
        side = int(game.rules.side_to_move(game.position))
        key = (side, level)
        htp = htp_player(level)
        try:
            hosted: Any = self._hosted.get(key)  # an OpenTafl or an HTP engine
            # an HTP engine cannot take a move back: after an undo a fresh one is told the game
            if hosted is None or hosted.dead or (htp is not None and not hosted.follows(game)):
                if hosted is not None:
                    hosted.close()  # a failed engine is ended before another takes its place
                    del self._hosted[key]
                if htp is None:
                    hosted = HostedEngine(level, engine_name(level))
                else:
                    hosted = HtpHostedEngine(htp[0], engine_name(level), host_mode=htp[1] > 0,
                                             port=htp[1])
                self._hosted[key] = hosted
            shared = request.clock
            if htp is not None:
                hosted.move_seconds = _htp_move_seconds(shared, side)
                if not hosted.connected:  # --host mode: asked once it has connected (see _poll)
                    self._pending = (hosted, on_move, on_error, game)
                    self._timer.start()
                    return
                hosted.request_move(game)
            elif shared is not None:
                hosted.request_move(game, *shared)
            else:
                hosted.request_move(game)  # no clock: a minute per move (interop.host)
        except EngineFailure as exc:
            failure = TurnFailure(str(exc), "forfeit")
            QTimer.singleShot(0, lambda: on_error(failure))
            return
        self._pending = (hosted, on_move, on_error, None)
        self._timer.start()

    def _poll(self) -> None:
        from tafl_desktop.interop.host import EngineEvent, EngineFailure

        if self._pending is None:
            self._timer.stop()
            return
        hosted, on_move, on_error, waiting = self._pending
        event = hosted.poll()
        if event is None and waiting is not None and hosted.connected:
            try:  # an HTP engine in --host mode has connected: now it is asked for its move
                hosted.request_move(waiting)
                self._pending = (hosted, on_move, on_error, None)
            except EngineFailure as exc:
                event = EngineEvent("failed", text=str(exc))
        if event is None:
            return
        self._pending = None
        self._timer.stop()
        if event.kind == "move":
            on_move(event.move)
        else:
            on_error(TurnFailure(event.text, "resigned" if event.kind == "resigned" else "forfeit"))

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

    def end_game(self) -> None:
        """A new game: the last game's engines leave (their processes are ended, never waited for)."""
        self.shutdown()

    def shutdown(self) -> None:
        """End every engine (a new game or the window closing)."""
        self.cancel()
        self._close_all()
        self._game = None


def _htp_move_seconds(shared: Any, side: int) -> float:
    """The time an HTP engine's move may take: its clock (with the periods after the current one)
    when the game has one, else the host's minute; the protocol cannot tell the engine either."""
    from tafl_desktop.interop import htp_host
    from tafl_desktop.interop.host import GRACE

    if shared is None:
        return htp_host.MOVE_SECONDS
    clock_ms, (period_s, *periods), in_overtime = shared
    later = max(0, periods[side] - (1 if in_overtime[side] else 0))
    return clock_ms[side] / 1000.0 + later * period_s + GRACE
