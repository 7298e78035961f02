"""The analysis board: the engine's best lines for the position shown, updated as it thinks.

A dock under the board lists the best N lines (1..5, the player's choice), each with its score in
words and numbers ("Defenders win in 3 moves", "+1.4 attackers"), its depth, and its moves as
buttons; a counter of the depth searched and the positions seen heads the list and moves while
the engine thinks.  The lines are drawn on the board as arrows, the best one the strongest.  With
**Heat map** on, every square the side to move can reach is tinted by the value of the best move
that ends there (:mod:`tafl_desktop.ai.heatmap` says exactly what is computed), in the review's
colours, with a legend.  The search runs continuously in the analysis worker process
(:mod:`tafl_desktop.gui.analysis_client`) and restarts whenever the position shown changes (a
move, undo, navigation in the move list), so it follows the move list.

Clicking a move of a line never changes the game: it opens the line on a scratch board of its own
(:class:`~tafl_desktop.gui.line_board.LineBoard`), from where it can be added as a variation where
the game already goes on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QCheckBox,
    QDockWidget,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from tafl_desktop.gui.board_overlays import LINE_COLOUR, Arrow, Overlay
from tafl_desktop.gui.line_board import ROW_MOVES
from tafl_desktop.gui.texts import tr
from tafl_desktop.i18n import _, ngettext

if TYPE_CHECKING:
    from tafl_desktop.gui.analysis_client import AnalysisClient
    from tafl_desktop.gui.main_window import MainWindow

MAX_LINES = 5
#: Moves of a line shown as buttons when its score is an evaluation (its later moves are the
#: search's guesses, and a long tail of them only crowds the dock).  A proven line is shown to its
#: end, the win itself, however long: a line cut before the winning move does not show the win.
SHOWN_MOVES = 8
# Move buttons in a row (ROW_MOVES, kept with the scratch board, which wraps its lines alike):
# a longer proven line wraps onto further rows of this many.
#: The lines are redrawn at most this often (ms): a new depth may finish many times a second.
UPDATE_MS = 150
#: A continuous analysis' budget (s): it stops by itself after this, or at a proven result.
CONTINUOUS = 3600.0
#: The heat map's colours by how far a square's best move falls short of the best move, in
#: winning-chance points (the review's classes): best, good, inaccuracy, mistake, blunder.
HEAT_STEPS = ((2.0, "#1a9641"), (5.0, "#a6d96a"), (10.0, "#ffd92f"), (15.0, "#fd8d3c"), (float("inf"), "#d7191c"))
HEAT_ALPHA = 0.55
#: Arrow weights of the lines, best first.
LINE_WEIGHTS = (1.0, 0.55, 0.35, 0.22, 0.12)


def heat_colour(loss: float) -> str:
    """The heat-map colour of a square whose best move loses ``loss`` points against the best."""
    return next(colour for bound, colour in HEAT_STEPS if loss < bound)


def _count_form(n: int) -> int:
    """The number that chooses the noun's form after :func:`_count` of ``n``: ``n`` itself when
    it is written out, else 5 (a plural in every language: "12,3k" is read "12.3 thousand", and
    Russian puts the genitive plural after тысяч/миллионов, the form of 5)."""
    return n if n < 1_000 else 5


def _count(n: int) -> str:
    """A node count as read at a glance, in the reader's numbers: 950, 12.3k, 4.56M ("4,56M")."""
    from tafl_desktop.core.marks import decimal

    if n >= 1_000_000:
        return f"{decimal(n / 1_000_000, 2)}M"
    if n >= 10_000:
        return f"{decimal(n / 1000, 0)}k"
    if n >= 1_000:
        return f"{decimal(n / 1000, 1)}k"
    return str(n)


class AnalysisBoard(QDockWidget):
    """The Analysis dock; ``set_active(True)`` starts the continuous search."""

    def __init__(self, window: MainWindow, client: AnalysisClient) -> None:
        super().__init__(window)
        tr(self, "setWindowTitle", "Analysis")
        self.setObjectName("analysisDock")
        self.window_ = window
        self.session = window.session
        #: The board (its token: the arrows and heat map drawn belong to the game on it).
        self.controller = window.controller
        self.client = client
        self.active = False
        self._key: Any = None
        #: The game and board the search was started for: its arrows and heat map carry it, so the
        #: board refuses them once another game is on screen.
        self._token: Any = None
        self._lines: list[dict[str, Any]] = []
        self._line_board: Any = None
        #: The last report shown: {"lines", "depth", "nodes", "seconds", "nps", ...} (tests read it).
        self.report: dict[str, Any] | None = None
        #: The heat map shown (the worker's dict), None when off or not ready.
        self.heat: dict[str, Any] | None = None
        #: The running counters last shown: {"nodes", "depth", "seconds", "nps"}.
        self.live: dict[str, Any] = {}

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
        self.heat_box = tr(QCheckBox(), "setText", "Heat map")
        tr(self.heat_box, "setToolTip", "Tint every square the side to move can reach by the best move that ends "
           "there, after the best reply")
        self.heat_box.toggled.connect(lambda _on: self._restart())
        top.addWidget(self.heat_box)
        top.addSpacing(12)
        self.status = QLabel()
        tr(self.status, "setAccessibleName", "Search depth and positions")
        top.addWidget(self.status, 1)

        self.legend = QLabel()
        self.legend.setTextFormat(Qt.TextFormat.RichText)
        self.legend.setWordWrap(True)
        self.legend.hide()

        grid = QGridLayout()
        grid.setHorizontalSpacing(8)
        grid.setVerticalSpacing(2)
        self.score_labels: list[QLabel] = []
        #: Each line's move buttons, in order (more are made when a proven line is longer).
        self.move_buttons: list[list[QToolButton]] = []
        self._move_rows: list[QGridLayout] = []
        for i in range(MAX_LINES):
            score = QLabel()
            score.setMinimumWidth(200)
            font = score.font()
            font.setBold(True)
            score.setFont(font)
            grid.addWidget(score, i, 0, Qt.AlignmentFlag.AlignTop)
            rows = QGridLayout()
            rows.setHorizontalSpacing(0)
            rows.setVerticalSpacing(0)
            rows.setColumnStretch(ROW_MOVES, 1)
            grid.addLayout(rows, i, 1)
            self.score_labels.append(score)
            self.move_buttons.append([])
            self._move_rows.append(rows)
            for _k in range(SHOWN_MOVES):
                self._add_button(i)
        grid.setColumnStretch(1, 1)
        layout = QVBoxLayout(body)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.addLayout(top)
        layout.addWidget(self.legend)
        layout.addLayout(grid)
        layout.addStretch(1)
        self.setWidget(body)
        self._pending: dict[str, Any] | None = None
        self._finished = False
        self._flush = QTimer(self)
        self._flush.setSingleShot(True)
        self._flush.timeout.connect(self._show_pending)
        self._show_lines([])
        window.events.changed.connect(self._position_changed)

    def _add_button(self, i: int) -> QToolButton:
        """One more move button for line ``i``, placed after its last (a new row every
        :data:`ROW_MOVES`)."""
        k = len(self.move_buttons[i])
        b = QToolButton()
        b.setAutoRaise(True)
        b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        b.clicked.connect(lambda _c=False, i=i, k=k: self.open_line(i, k))
        self._move_rows[i].addWidget(b, k // ROW_MOVES, k % ROW_MOVES)
        self.move_buttons[i].append(b)
        return b

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
            self._forget()

    def _forget(self) -> None:
        """The dock closed: its report belongs to the position it was made for and is dropped
        with its marks, so nothing redraws it later (a language switch, another game)."""
        self._key = self._token = None
        self._flush.stop()
        self._pending, self.report, self.heat, self.live = None, None, None, {}
        self._show_lines([])  # also takes the arrows off the board
        self._clear_marks()
        self.status.clear()
        self.legend.hide()

    def preempted(self) -> None:
        """Another analysis request (a review) took the worker: analysis mode ends."""
        self._key = None
        action = getattr(self.window_, "act_analysis", None)
        if action is not None and action.isChecked():
            action.setChecked(False)  # toggles set_active(False)
        else:
            self.set_active(False)

    def _position_key(self) -> Any:
        c = self.session
        return (id(c.game), c.view_ply, len(c.game.plies), c.rules.position_key(c.viewed_position),
                self.lines_box.value(), self.heat_box.isChecked())

    def _position_changed(self) -> None:
        if self.active and self._position_key() != self._key:
            self._restart()

    def _restart(self) -> None:
        if not self.active:
            return
        c = self.session
        self._key = self._position_key()
        self._token = self.controller.token
        self._pending, self.report, self.heat, self.live = None, None, None, {}
        self._flush.stop()
        self._clear_marks()
        self._show_lines([])
        self.legend.setVisible(self.heat_box.isChecked())
        tr(self.legend, "setText", "Heat map: waiting for the search...")
        pos = c.viewed_position
        if c.rules.outcome(pos) is not None:
            if self.client.owner is self:
                self.client.cancel()
            tr(self.status, "setText", "The game is over in this position: nothing to analyse.")
            self.legend.hide()
            return
        tr(self.status, "setText", "Thinking...")
        self.client.start(self, "analyse", c.game, c.view_ply, CONTINUOUS,
                          {"lines": self.lines_box.value(), "heat": self.heat_box.isChecked()},
                          self._info, self._done)

    def _info(self, info: dict[str, Any]) -> None:
        # shallow depths finish many times a second: show the latest at most every UPDATE_MS
        self._pending = info
        if not self._flush.isActive():
            self._flush.start(0 if self.report is None else UPDATE_MS)

    def _show_pending(self) -> None:
        if self._pending is not None and self._current():
            self._show_state(self._pending)
        self._pending = None

    def _done(self, result: Any) -> None:
        if not self._current():
            return  # an answer for a search this dock no longer shows
        if getattr(result, "error", ""):
            from tafl_desktop.gui.computer import first_line

            tr(self.status, "setText", "The analysis stopped: {why}", why=first_line(result.error))
            return
        if result.data.get("lines") is not None:
            self._flush.stop()
            self._pending = None
            self._show_state(result.data, finished=True)

    # ------------------------------------------------------------------------------ display
    def _show_state(self, state: dict[str, Any], finished: bool = False) -> None:
        self._finished = finished
        if state.get("heat") is not None and self.heat is None and self.heat_box.isChecked():
            self._show_heat(state["heat"])
        elif state.get("heat_done") and self.heat is None and self.heat_box.isChecked():
            done, total = state["heat_done"]
            self.legend.setText(ngettext("Heat map: {done} of {total} move searched...",
                                         "Heat map: {done} of {total} moves searched...",
                                         total).format(done=done, total=total))
        if state.get("lines"):
            redraw = (self.report is None or state["depth"] != self.report.get("depth")
                      or state["lines"] != self.report.get("lines"))
            self.report = state  # the last answer also says why the search ended ("stopped")
            if redraw:
                self._show_lines(state["lines"])
        live = state.get("live") or {}
        if live:
            self.live = live
        self._show_status(finished)

    def _show_status(self, finished: bool) -> None:
        live = self.live
        done = int(self.report.get("depth", 0)) if self.report else 0
        nodes = int(live.get("nodes", self.report.get("nodes", 0) if self.report else 0))
        nps = live.get("nps", self.report.get("nps", 0) if self.report else 0)
        speed = _count(int(nps or 0))
        if finished and self.report is not None and self.report.get("stopped") == "proven":
            # every line is a proven result a deeper search cannot change (ai.search.settled):
            # the search ends short of the depth asked, and says why
            text = ngettext("Proven at depth {depth}, so no deeper search can change this line.",
                            "Proven at depth {depth}, so no deeper search can change these lines.",
                            len(self.report.get("lines") or ())).format(depth=done) + " " + ngettext(
                "{nodes} position, {speed} per second", "{nodes} positions, {speed} per second",
                _count_form(nodes)).format(nodes=_count(nodes), speed=speed)
        elif finished:
            text = ngettext("Depth {depth} finished: {nodes} position, {speed} per second",
                            "Depth {depth} finished: {nodes} positions, {speed} per second", _count_form(nodes)).format(
                depth=done, nodes=_count(nodes), speed=speed)
        elif done:
            text = ngettext("Depth {depth}, searching {next}: {nodes} position, {speed} per second",
                            "Depth {depth}, searching {next}: {nodes} positions, {speed} per second",
                            _count_form(nodes)).format(
                depth=done, next=max(done + 1, int(live.get("depth", 0))), nodes=_count(nodes), speed=speed)
        elif nodes:
            text = ngettext("Searching depth {next}: {nodes} position, {speed} per second",
                            "Searching depth {next}: {nodes} positions, {speed} per second", _count_form(nodes)).format(
                next=max(1, int(live.get("depth", 1))), nodes=_count(nodes), speed=speed)
        else:
            return
        self.status.setText(text)

    def _current(self) -> bool:
        """Is the dock open on the game its search was made for?"""
        return self.active and self._token is not None and self._token == self.controller.token

    def redisplay(self) -> None:
        """Show the last lines and the search's state again, in the language now in use; nothing
        once the dock is closed or another game is on screen (its lines were of another board)."""
        if self.report is not None and self._current():
            self._show_lines(self.report["lines"])
            self._show_status(self._finished)

    def _show_lines(self, lines: list[dict[str, Any]]) -> None:
        from tafl_desktop.analysis.words import line_words

        self._lines = lines
        c = self.session
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
            shown = len(line["moves"]) if line["result_in"] is not None else min(len(line["moves"]), SHOWN_MOVES)
            while len(self.move_buttons[i]) < shown:
                self._add_button(i)
            for k, b in enumerate(self.move_buttons[i]):
                if k < shown:
                    b.setText(line["moves"][k])
                    tr(b, "setToolTip", "Open this line up to {move} on a board of its own", move=line["moves"][k])
                    b.show()
                else:
                    b.hide()
        self._show_arrows()

    def _show_arrows(self) -> None:
        """The lines' first moves as arrows on the board, the best the strongest."""
        arrows = tuple(Arrow(tuple(line["move"]), LINE_COLOUR, LINE_WEIGHTS[min(i, len(LINE_WEIGHTS) - 1)])
                       for i, line in enumerate(self._lines) if line.get("move"))
        layer = Overlay(self._token, arrows=arrows) if arrows else None
        if layer != self.window_.board.overlay("analysis"):  # unchanged lines: no repaint
            self.window_.board.set_overlay("analysis", layer)

    def _show_heat(self, heat: dict[str, Any]) -> None:
        self.heat = heat
        best = float(heat["best"])
        tints = {int(sq): (heat_colour(100.0 * (best - float(v))), HEAT_ALPHA) for sq, v in heat["squares"].items()}
        self.window_.board.set_overlay("heat", Overlay(self._token, heat=tints))
        names = (_("best"), _("good"), "?!", "?", "??")
        boxes = "".join(f"<span style='background:{colour}'>&nbsp;&nbsp;&nbsp;</span>&nbsp;{name}&nbsp;&nbsp;"
                        for (_bound, colour), name in zip(HEAT_STEPS, names, strict=True))
        side = self.session.variant.side_names[int(heat["side"])]
        self.legend.setText(_("Heat map, {side} to move: each square they can reach, by the best move that ends "
                              "there after the best reply (depth {depth}); a square's colour is how much winning "
                              "chance that move gives away against the best: {legend}").format(
                                  side=side, depth=heat["depth"], legend=boxes))
        self.legend.show()

    def _clear_marks(self) -> None:
        board = getattr(self.window_, "board", None)
        if board is not None:
            board.set_overlay("analysis", None)
            board.set_overlay("heat", None)

    # ------------------------------------------------------------------------------ lines
    def open_line(self, i: int, k: int) -> None:
        """Open line ``i`` up to its move ``k`` on the scratch board (the game is not changed)."""
        if i >= len(self._lines):
            return
        from tafl_desktop.analysis.words import line_words
        from tafl_desktop.gui.line_board import LineBoard

        c = self.session
        pos = c.viewed_position
        line = self._lines[i]
        keys = [c.rules.position_key(c.game.position_at(n)) for n in range(c.view_ply + 1)]
        if self._line_board is None:
            self._line_board = LineBoard(self.window_)
        words = line_words(c.variant, line["score"], line["result_in"], line["winner"],
                           int(c.rules.side_to_move(pos)))
        heading = _("Line {n}: {score} (depth {depth})").format(n=i + 1, score=words, depth=line["depth"])
        self._line_board.open_line(c.rules, pos, keys, list(line["moves"]), k, heading)

    @property
    def line_board(self) -> Any:
        """The scratch board (None until a line was opened)."""
        return self._line_board
