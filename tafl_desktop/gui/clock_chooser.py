"""The Clock row of the New Game dialog: no clock, a ready-made time control, or one's own
(main minutes, increment seconds, overtime periods), as a :class:`~tafl_desktop.core.clock.TimeControl`."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QSpinBox, QVBoxLayout, QWidget

from tafl_desktop.core.clock import PRESETS, TimeControl
from tafl_desktop.gui.texts import add_item, tr
from tafl_desktop.i18n import _

CUSTOM = "custom"


def _spin(lo: int, hi: int, value: int, suffix: str, name: str) -> QSpinBox:
    box = QSpinBox()
    box.setRange(lo, hi)
    box.setValue(value)
    box.setSuffix(suffix)
    box.setAccessibleName(name)
    return box


class ClockChooser(QWidget):
    """Pick the time control of a new game; :meth:`control` is None for an untimed game."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.combo = QComboBox()
        tr(self.combo, "setAccessibleName", "Clock")
        tr(self.combo, "setAccessibleDescription", "How much time each side has: no clock, a usual time control or "
                                                   "your own")
        add_item(self.combo, "No clock", "")
        for label, text in PRESETS:
            add_item(self.combo, label, text)
        add_item(self.combo, "Your own...", CUSTOM)
        self.main = _spin(0, 600, 10, _(" min"), _("Main time in minutes"))
        self.increment = _spin(0, 300, 0, _(" s a move"), _("Increment in seconds"))
        self.period = _spin(0, 600, 30, _(" s"), _("Length of an overtime period in seconds"))
        self.periods = _spin(0, 20, 0, _(" periods"), _("Number of overtime periods"))
        tr(self.main, "setAccessibleDescription", "Minutes each side has for its moves before any overtime")
        tr(self.increment, "setAccessibleDescription", "Seconds added to a side's clock after each of its moves")
        tr(self.period, "setAccessibleDescription", "Seconds in each overtime period: a move made within it keeps the "
                                                    "period")
        tr(self.periods, "setAccessibleDescription", "How many overtime periods a side has once its main time runs out")
        self.custom = QWidget()
        row = QHBoxLayout(self.custom)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.main)
        row.addWidget(QLabel("+"))
        row.addWidget(self.increment)
        row.addWidget(tr(QLabel(), "setText", "then"))
        row.addWidget(self.periods)
        row.addWidget(QLabel("x"))
        row.addWidget(self.period)
        tr(self.custom, "setToolTip", "Main time, an increment added after each move, then overtime periods: a move "
                                 "made within a period keeps it; a period that runs out is used up.")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.combo)
        lay.addWidget(self.custom)
        self.custom.hide()
        self.combo.currentIndexChanged.connect(lambda _i: self.custom.setVisible(self.combo.currentData() == CUSTOM))

    def set_control(self, control: TimeControl | None) -> None:
        """Show ``control`` (a preset when it is one, else its numbers under "Your own")."""
        if control is None:
            self.combo.setCurrentIndex(0)
            return
        i = self.combo.findData(control.text())
        if i >= 0:
            self.combo.setCurrentIndex(i)
            return
        self.combo.setCurrentIndex(self.combo.findData(CUSTOM))
        self.main.setValue(control.main_ms // 60_000)
        self.increment.setValue(control.increment_ms // 1000)
        self.periods.setValue(control.overtimes)
        self.period.setValue(control.overtime_ms // 1000 or 30)

    def control(self) -> TimeControl | None:
        """The chosen time control; None for no clock (or own numbers that make no clock)."""
        data = self.combo.currentData()
        if not data:
            return None
        if data != CUSTOM:
            return TimeControl.parse(data)
        periods = self.periods.value()
        try:
            return TimeControl(self.main.value() * 60_000, self.increment.value() * 1000,
                               self.period.value() * 1000 if periods else 0, periods)
        except ValueError:
            return None
