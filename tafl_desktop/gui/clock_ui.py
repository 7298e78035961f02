"""The clocks in the window: two readings beside the board, the flag fall, pause, the computer's
think budget, and the clocks' place in the saved record.

The rules of time live in :mod:`tafl_desktop.core.clock` (pure, tested with a fake time source)
and the game's :class:`~tafl_desktop.core.clock.GameClock` belongs to the game session, which sets
it up for every game loaded (a new clock, the record's own, or none), presses it after each move
and writes it into the record (OpenTafl's tags ``time-control``, "600 30/3 5i", and
``time-remaining``).  This module only shows it and runs a 100 ms timer while it runs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QWidget

from tafl_desktop.core.clock import GameClock, format_ms
from tafl_desktop.gui.texts import tr
from tafl_desktop.i18n import _, ngettext
from tafl_desktop.session.session import TAG_CONTROL, TAG_REMAINING

if TYPE_CHECKING:
    from tafl_desktop.gui.main_window import MainWindow

TICK_MS = 100
__all__ = ["ClockDriver", "ClockPanel", "TAG_CONTROL", "TAG_REMAINING", "install"]


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
    """The clock as the window shows it.  The clock itself belongs to the game session (it is
    set up by ``load``, pressed by each new move and paused with the game); this view runs a
    timer while a clock runs, so a fallen flag is seen, and shows both readings."""

    def __init__(self, window: MainWindow) -> None:
        self.window = window
        self.session = window.session
        self._paused = False
        self.panel = ClockPanel()
        layout = window.panel.layout()
        layout.insertWidget(2, self.panel)  # under the turn badge
        self.panel.hide()
        self.timer = QTimer(window)
        self.timer.setInterval(TICK_MS)
        self.timer.timeout.connect(self.tick)
        window.events.changed.connect(self.sync)

    @property
    def clock(self) -> GameClock | None:
        """The game's clock (None in an untimed game)."""
        return self.session.clock

    @property
    def now(self) -> Callable[[], float]:
        """The clocks' time source (the session's; tests hand in a fake one)."""
        return self.session.now

    @now.setter
    def now(self, source: Callable[[], float]) -> None:
        self.session.now = source

    # ------------------------------------------------------------------------------ running
    def sync(self) -> None:
        """Keep the timer running while a clock runs; say so when Pause stops the clocks."""
        s = self.session
        clock = s.clock
        if clock is None:
            self.timer.stop()
            self.panel.hide()
            return
        over = s.game.outcome is not None
        if s.paused != self._paused and not over:
            self._paused = s.paused
            self.window.show_message(_("Paused: the clocks are stopped. Press Pause (Ctrl+Space) to go on.")
                                     if s.paused else _("The clocks run again."))
        if clock.running is None:
            self.timer.stop()
        elif not self.timer.isActive():
            self.timer.start()
        self.panel.show_clock(clock, s.sides, s.paused)

    def tick(self) -> None:
        """The timer's beat: the session looks at the flags, the panel shows the readings."""
        clock = self.session.clock
        if clock is None:
            return
        self.session.tick()
        if self.session.game.outcome is not None:
            self.timer.stop()
        self.panel.show_clock(clock, self.session.sides, self.session.paused)


def install(window: MainWindow) -> None:
    """Add the clocks to the side panel and keep them running with the game."""
    window.clock_driver = ClockDriver(window)
