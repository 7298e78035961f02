"""The analysis board: the engine's best lines for the position shown, updated as it thinks.

A dock under the board lists the best N lines (1..5, the player's choice), each with its score in
words and numbers ("Defenders win in 3 moves", "+1.4 attackers"), its depth, and its moves as
buttons; the search's depth and speed head the list.  The search runs continuously in the analysis
worker process (:mod:`tafl_desktop.gui.analysis_client`) and restarts whenever the position shown
changes (a move, undo, navigation in the move list), so it follows the move list.

Clicking a move of a line plays the line up to that move: at the live end of the game as moves of
the game, at an earlier position as a variation (``GameController.play_variation``), so the rest of
the game is kept.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QDockWidget,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from tafl_desktop.gui.texts import tr
from tafl_desktop.i18n import _

MAX_LINES = 5
#: Moves of a line shown as buttons.
SHOWN_MOVES = 8
#: The lines are redrawn at most this often (ms): a new depth may finish many times a second.
UPDATE_MS = 150
#: A continuous analysis' budget (s): it stops by itself after this, or at a proven result.
CONTINUOUS = 3600.0


class AnalysisBoard(QDockWidget):
    """The Analysis dock; ``set_active(True)`` starts the continuous search."""

    def __init__(self, window: Any, client: Any) -> None:
        super().__init__(window)
        tr(self, "setWindowTitle", "Analysis")
        self.setObjectName("analysisDock")
        self.window_ = window
        self.controller = window.controller
        self.client = client
        self.active = False
        self._key: Any = None
        self._lines: list[dict[str, Any]] = []
        #: The last report shown: {"lines", "depth", "nodes", "seconds", "nps"} (tests read it).
        self.report: dict[str, Any] | None = None

        body = QWidget(self)
        top = QHBoxLayout()
        top.addWidget(tr(QLabel(), "setText", "Lines:"))
        self.lines_box = QSpinBox()
        self.lines_box.setRange(1, MAX_LINES)
        self.lines_box.setValue(3)
        tr(self.lines_box, "setToolTip", "How many of the best lines to show (1 to 5)")
        tr(self.lines_box, "setAccessibleName", "Number of lines")
        self.lines_box.valueChanged.connect(lambda _n: self._restart())
        top.addWidget(self.lines_box)
        top.addSpacing(12)
        self.status = QLabel()
        tr(self.status, "setAccessibleName", "Search depth and speed")
        top.addWidget(self.status, 1)

        grid = QGridLayout()
        grid.setHorizontalSpacing(8)
        grid.setVerticalSpacing(2)
        self.score_labels: list[QLabel] = []
        self.move_buttons: list[list[QToolButton]] = []
        for i in range(MAX_LINES):
            score = QLabel()
            score.setMinimumWidth(200)
            font = score.font()
            font.setBold(True)
            score.setFont(font)
            grid.addWidget(score, i, 0)
            row = QHBoxLayout()
            row.setSpacing(0)
            buttons = []
            for k in range(SHOWN_MOVES):
                b = QToolButton()
                b.setAutoRaise(True)
                b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
                b.clicked.connect(lambda _c=False, i=i, k=k: self.play_line(i, k))
                row.addWidget(b)
                buttons.append(b)
            row.addStretch(1)
            grid.addLayout(row, i, 1)
            self.score_labels.append(score)
            self.move_buttons.append(buttons)
        grid.setColumnStretch(1, 1)
        layout = QVBoxLayout(body)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.addLayout(top)
        layout.addLayout(grid)
        layout.addStretch(1)
        self.setWidget(body)
        self._pending: dict[str, Any] | None = None
        self._finished = False
        self._flush = QTimer(self)
        self._flush.setSingleShot(True)
        self._flush.timeout.connect(self._show_pending)
        self._show_lines([])
        self.controller.changed.connect(self._position_changed)

    # ------------------------------------------------------------------------------ running
    def set_active(self, on: bool) -> None:
        """Start (or stop) analysing the position shown."""
        self.active = bool(on)
        self.setVisible(self.active)
        if self.active:
            self._restart()
        else:
            if self.client.owner is self:
                self.client.cancel()
            self._key = None

    def preempted(self) -> None:
        """Another analysis request (a review) took the worker: analysis mode ends."""
        self._key = None
        action = getattr(self.window_, "act_analysis", None)
        if action is not None and action.isChecked():
            action.setChecked(False)  # toggles set_active(False)
        else:
            self.set_active(False)

    def _position_key(self) -> Any:
        c = self.controller
        return (id(c.game), c.view_ply, len(c.game.plies), c.rules.position_key(c.viewed_position),
                self.lines_box.value())

    def _position_changed(self) -> None:
        if self.active and self._position_key() != self._key:
            self._restart()

    def _restart(self) -> None:
        if not self.active:
            return
        c = self.controller
        self._key = self._position_key()
        self._pending, self.report = None, None
        self._flush.stop()
        self._show_lines([])
        pos = c.viewed_position
        if c.rules.outcome(pos) is not None:
            if self.client.owner is self:
                self.client.cancel()
            tr(self.status, "setText", "The game is over in this position: nothing to analyse.")
            return
        tr(self.status, "setText", "Thinking...")
        self.client.start(self, "analyse", c.game, c.view_ply, CONTINUOUS, {"lines": self.lines_box.value()},
                          self._info, self._done)

    def _info(self, info: dict[str, Any]) -> None:
        if "lines" not in info:
            return
        # shallow depths finish many times a second: show the latest at most every UPDATE_MS
        self._pending = info
        if not self._flush.isActive():
            self._flush.start(0 if self.report is None else UPDATE_MS)

    def _show_pending(self) -> None:
        if self._pending is not None and self.active:
            self._show_report(self._pending)
        self._pending = None

    def _done(self, result: Any) -> None:
        if getattr(result, "error", ""):
            from tafl_desktop.gui.computer import first_line

            tr(self.status, "setText", "The analysis stopped: {why}", why=first_line(result.error))
            return
        if result.data.get("lines") is not None:
            self._flush.stop()
            self._pending = None
            self._show_report(result.data, finished=True)

    # ------------------------------------------------------------------------------ display
    def _show_report(self, report: dict[str, Any], finished: bool = False) -> None:
        from tafl_desktop.core.marks import integer

        self.report, self._finished = report, finished
        speed = integer(report.get("nps", 0))
        text = _("Depth {depth}, {speed} positions per second").format(depth=report.get("depth", 0), speed=speed)
        if finished:
            text = _("{figures}: finished").format(figures=text)
        self.status.setText(text)
        self._show_lines(report.get("lines", []))

    def redisplay(self) -> None:
        """Show the last lines again, in the language now in use."""
        if self.report is not None:
            self._show_report(self.report, self._finished)

    def _show_lines(self, lines: list[dict[str, Any]]) -> None:
        from tafl_desktop.analysis_words import line_words

        self._lines = lines
        c = self.controller
        variant = c.variant
        to_move = int(c.rules.side_to_move(c.viewed_position))
        for i in range(MAX_LINES):
            line = lines[i] if i < len(lines) else None
            label = self.score_labels[i]
            if line is None:
                label.setText("")
                label.setVisible(i < self.lines_box.value())
                for b in self.move_buttons[i]:
                    b.hide()
                continue
            words = line_words(variant, line["score"], line["result_in"], line["winner"], to_move)
            tr(label, "setText", "{score}, depth {depth}", score=words, depth=line["depth"])
            tr(label, "setToolTip", "Score {score} from the view of the side to move", score=line["score"])
            label.show()
            for k, b in enumerate(self.move_buttons[i]):
                if k < len(line["moves"]):
                    b.setText(line["moves"][k])
                    tr(b, "setToolTip", "Play this line up to {move}", move=line["moves"][k])
                    b.show()
                else:
                    b.hide()

    # ------------------------------------------------------------------------------ playing
    def play_line(self, i: int, k: int) -> None:
        """Play moves 0..k of line ``i`` from the position shown: at the live end of the game as
        moves of the game, earlier as a variation (the controller keeps the rest of the game)."""
        if i >= len(self._lines):
            return
        c = self.controller
        rules = c.rules
        pos = c.viewed_position
        moves = []
        try:
            for t in self._lines[i]["moves"][: k + 1]:
                m = rules.parse_move(pos, t)
                moves.append(m)
                pos, _caps = rules.play(pos, m)
        except ValueError:
            return  # the line belongs to a position no longer shown
        if c.is_live and not all(p.is_human for p in c.players):
            moves = moves[:1]  # a computer side answers the first move itself
        for m in moves:
            if not c.play_variation(m):
                break
