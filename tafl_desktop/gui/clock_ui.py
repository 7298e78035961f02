"""The clocks in the window: two readings beside the board, the flag fall, pause, the computer's
think budget, and the clocks' place in the saved record.

The rules of time live in :mod:`tafl_desktop.core.clock` (pure, tested with a fake time source);
this module only drives a :class:`~tafl_desktop.core.clock.GameClock` from the controller's
signals and a 100 ms timer.  Record tags follow OpenTafl's names: ``time-control`` ("600 30/3 5i")
and ``time-remaining`` (our clock state, milliseconds).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QWidget

from tafl_desktop.core.clock import GameClock, TimeControl, format_ms
from tafl_desktop.core.game import Outcome, Side
from tafl_desktop.gui.texts import tr
from tafl_desktop.i18n import _, ngettext

TICK_MS = 100
TAG_CONTROL = "time-control"
TAG_REMAINING = "time-remaining"


class ClockPanel(QFrame):
    """Both sides' clocks, the running one highlighted; hidden in an untimed game."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        tr(self, "setAccessibleName", "Clocks")
        grid = QGridLayout(self)
        grid.setContentsMargins(8, 4, 8, 4)
        grid.setHorizontalSpacing(10)
        self.names = (QLabel(), QLabel())
        self.times = (QLabel(), QLabel())
        self.notes = (QLabel(), QLabel())
        for i in (0, 1):
            font = self.times[i].font()
            font.setPointSizeF(font.pointSizeF() * 1.6)
            font.setBold(True)
            font.setStyleHint(font.StyleHint.Monospace)
            font.setFamily("monospace")
            self.times[i].setFont(font)
            self.times[i].setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            grid.addWidget(self.names[i], i, 0)
            grid.addWidget(self.notes[i], i, 1)
            grid.addWidget(self.times[i], i, 2)
        grid.setColumnStretch(1, 1)

    def show_clock(self, clock: GameClock | None, sides: tuple[str, str], paused: bool) -> None:
        self.setVisible(clock is not None)
        if clock is None:
            return
        flag = clock.flagged()
        for i in (0, 1):
            ms, periods, overtime = clock.shown(i)
            self.names[i].setText(sides[i])
            self.times[i].setText(format_ms(ms))
            note = ""
            if overtime:
                note = ngettext("overtime: last period", "overtime: {n} periods", periods).format(n=periods)
            elif clock.control.overtimes:
                note = ngettext("then {n} period of {s}", "then {n} periods of {s}", periods).format(
                    n=periods, s=format_ms(clock.control.overtime_ms))
            if flag == i:
                note = _("time is up")
            elif paused and clock.running is None and flag is None:
                note = note or _("paused")
            self.notes[i].setText(note)
            running = clock.running == i
            self.times[i].setStyleSheet("QLabel { background: #1f5fbf; color: white; border-radius: 4px; "
                                        "padding: 0 4px; }" if running else
                                        ("QLabel { color: #b3261e; }" if flag == i else ""))
            tr(self.times[i], "setAccessibleName", "{side}'s clock", side=sides[i])


class ClockDriver:
    """Runs the window's clock from the controller's signals: starts the side to move, presses
    the clock after each move, stops it on pause and at the end, ends the game on a flag fall."""

    def __init__(self, window, now: Callable[[], float] = time.monotonic) -> None:
        self.window = window
        self.now = now
        self.clock: GameClock | None = None
        self._plies = 0
        self._paused = False
        self.panel = ClockPanel()
        layout = window.panel.layout()
        layout.insertWidget(2, self.panel)  # under the turn badge
        self.panel.hide()
        self.timer = QTimer(window)
        self.timer.setInterval(TICK_MS)
        self.timer.timeout.connect(self.tick)
        c = window.controller
        c.moved.connect(self._moved)
        c.changed.connect(self.sync)
        c.think_limit = self.think_limit
        window.game_starting.connect(self.set_up)
        window.tag_providers.append(self.tags)
        window.pause_reasons.append(lambda: self.clock is not None)

    # ------------------------------------------------------------------------------ set-up
    def set_up(self) -> None:
        """A new game (with ``window.time_control``) or an opened one (clock from its tags)."""
        w = self.window
        self.clock = None
        if w.time_control is not None:
            self.clock = GameClock(w.time_control, self.now)
        elif w.loaded_tags.get(TAG_CONTROL):
            try:
                control = TimeControl.parse(w.loaded_tags[TAG_CONTROL])
                remaining = w.loaded_tags.get(TAG_REMAINING)
                self.clock = GameClock.restore(control, remaining, self.now) if remaining else \
                    GameClock(control, self.now)
            except ValueError as exc:
                self.clock = None
                text = _("The saved clocks could not be read ({problem}): this game goes on without "
                         "clocks.").format(problem=exc)
                QTimer.singleShot(0, lambda: w._show_message(text))  # after the "Opened ..." line
        self._plies = -1  # set on the first sync, once the game is in the controller

    def tags(self) -> dict[str, str]:
        if self.clock is None:
            return {}
        return {TAG_CONTROL: self.clock.control.text(), TAG_REMAINING: self.clock.state_text()}

    # ------------------------------------------------------------------------------ running
    def _moved(self, _move) -> None:
        c = self.window.controller
        game = c.game
        n = len(game.plies)
        if self.clock is None or n <= self._plies or self._plies < 0:
            return  # undo, redo and opening move the history, not the clock
        mover = int(c.rules.side_to_move(game.position_at(n - 1)))
        self.clock.pressed(mover, int(c.rules.side_to_move(game.position)))
        self._plies = n

    def sync(self) -> None:
        """Run the side to move's clock while the game goes on; stop it when paused or over."""
        c = self.window.controller
        if self._plies < 0:
            self._plies = len(c.game.plies)
        else:
            self._plies = min(self._plies, len(c.game.plies))
        clock = self.clock
        if clock is None:
            self.timer.stop()
            self.panel.hide()
            return
        if c.paused != self._paused and c.game.outcome is None:
            self._paused = c.paused
            self.window._show_message(_("Paused: the clocks are stopped. Press Pause (Ctrl+Space) to go on.")
                                      if c.paused else _("The clocks run again."))
        if c.game.outcome is not None or c.paused:
            clock.pause()
            self.timer.stop()
        else:
            side = int(c.rules.side_to_move(c.game.position))
            if clock.running != side:
                clock.start(side)
            if not self.timer.isActive():
                self.timer.start()
        self.panel.show_clock(clock, c.sides, c.paused)

    def tick(self) -> None:
        c = self.window.controller
        clock = self.clock
        if clock is None:
            return
        flag = clock.flagged()
        if flag is not None and c.game.outcome is None:
            self.timer.stop()
            c.finish_game(Outcome(Side(1 - flag), "time"))
        self.panel.show_clock(clock, c.sides, c.paused)

    def think_limit(self, side: int, level: str) -> float | None:
        """The computer's think time under this clock (None: no clock, the level decides)."""
        if self.clock is None:
            return None
        from tafl_desktop.ai.levels import get_level

        return self.clock.think_budget(side, get_level(level).time)


def install(window) -> None:
    """Add the clocks to the side panel and keep them running with the game."""
    window.clock_driver = ClockDriver(window)
