"""A scratch board for an analysis line: the line played out on a board of its own, never on the
game's.

Clicking a move of a line on the analysis board opens this window at that move.  The arrows step
through the line; any move may be tried on the board (it only changes this board); "Back to the
line" restores it.  Where the game already goes on from the analysed position (the line is an
alternative to a move played), **Add as a variation** puts the line into the game's tree beside
that move; at the live end of the game a line would become the game's own moves, so it stays here.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from tafl_desktop.gui.study_board import StudyBoard
from tafl_desktop.i18n import _

#: Move buttons in a row, here and in the analysis board: a longer proven line wraps onto further
#: rows of this many.
ROW_MOVES = 8


class LineBoard(QDialog):
    """The scratch board (one per analysis board, reused for each line opened)."""

    def __init__(self, window: Any) -> None:
        super().__init__(window)
        self.setObjectName("lineBoard")
        self.setWindowTitle(_("Analysis line"))
        #: The game the line goes into, and the board's gestures that play it there.
        self.session = window.session
        self.controller = window.controller
        self.rules: Any = None
        self.origin: Any = None
        self.origin_keys: list[Any] = []
        self.moves: list[tuple[int, ...]] = []
        self.texts: list[str] = []
        self.shown = 0
        #: Moves tried on this board away from the line (they never reach the game).
        self.tried: list[tuple[int, ...]] = []
        #: The game of the line's position (its node is of that game's tree): another game loaded
        #: closes this board, so a line is never added to a game it was not made for.
        self.origin_node: Any = None
        window.events.loaded.connect(self._game_replaced)
        self.board = StudyBoard(self)
        self.board.setMinimumSize(360, 360)
        self.board.move_picked.connect(self._tried)
        self.heading = QLabel()
        self.heading.setWordWrap(True)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.moves_box = QWidget()
        self.move_buttons: list[QToolButton] = []
        nav = QHBoxLayout()
        self.back_button = QPushButton("\u25c0")
        self.back_button.setToolTip(_("One move back along the line"))
        self.back_button.setAccessibleName(_("Back"))
        self.back_button.clicked.connect(lambda: self.show_move(self.shown - 1))
        self.forward_button = QPushButton("\u25b6")
        self.forward_button.setToolTip(_("One move on along the line"))
        self.forward_button.setAccessibleName(_("Forward"))
        self.forward_button.clicked.connect(lambda: self.show_move(self.shown + 1))
        self.reset_button = QPushButton(_("Back to the line"))
        self.reset_button.clicked.connect(lambda: self.show_move(self.shown))
        self.add_button = QPushButton(_("Add as a variation"))
        self.add_button.clicked.connect(self.add_variation)
        close = QPushButton(_("Close"))
        close.clicked.connect(self.close)
        for w in (self.back_button, self.forward_button, self.reset_button):
            nav.addWidget(w)
        nav.addStretch(1)
        nav.addWidget(self.add_button)
        nav.addWidget(close)
        lay = QVBoxLayout(self)
        lay.addWidget(self.heading)
        lay.addWidget(self.board, 1)
        self.moves_slot = QVBoxLayout()
        self.moves_slot.setContentsMargins(0, 0, 0, 0)
        self.moves_slot.addWidget(self.moves_box)
        lay.addLayout(self.moves_slot)
        lay.addWidget(self.note)
        lay.addLayout(nav)

    # ------------------------------------------------------------------------------ opening
    def open_line(self, rules: Any, origin: Any, origin_keys: list[Any], texts: list[str], upto: int,
                  heading: str) -> None:
        """Show the line ``texts`` (move texts from ``origin``) played up to move ``upto`` (0-based)."""
        moves, pos = [], origin
        for t in texts:
            try:
                m = rules.parse_move(pos, t)
            except ValueError:
                break
            moves.append(tuple(m))
            pos, _caps = rules.play(pos, m)
        self.rules, self.origin, self.origin_keys = rules, origin, list(origin_keys)
        self.moves, self.texts = moves, texts[:len(moves)]
        self.heading.setText(heading)
        self.moves_slot.removeWidget(self.moves_box)
        self.moves_box.deleteLater()
        self.moves_box = QWidget()
        # a proven line is shown whole, however long: it wraps onto rows as the analysis board's does
        row = QGridLayout(self.moves_box)
        row.setContentsMargins(0, 0, 0, 0)
        row.setHorizontalSpacing(0)
        row.setVerticalSpacing(0)
        row.setColumnStretch(ROW_MOVES, 1)
        self.move_buttons = []
        for k, t in enumerate(self.texts):
            b = QToolButton()
            b.setText(t)
            b.setAutoRaise(True)
            b.setCheckable(True)
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            b.clicked.connect(lambda _c=False, k=k: self.show_move(k + 1))
            row.addWidget(b, k // ROW_MOVES, k % ROW_MOVES)
            self.move_buttons.append(b)
        self.moves_slot.addWidget(self.moves_box)
        c = self.session
        self.origin_node = c.viewed_node()
        self.add_button.setEnabled(bool(c.viewed_node().children))
        self.add_button.setToolTip(
            _("Put this line into the game beside the move played here") if self.add_button.isEnabled() else
            _("At the end of the game a line would become the game's own moves: it stays on this board"))
        self.show_move(min(len(self.moves), upto + 1))
        self.show()
        self.raise_()

    def show_move(self, n: int) -> None:
        """The line after its first ``n`` moves (clamped to the line)."""
        if self.rules is None:
            return
        n = max(0, min(len(self.moves), n))
        self.shown, self.tried = n, []
        pos, before, caps = self.origin, None, ()
        for m in self.moves[:n]:
            before = pos
            pos, caps = self.rules.play(pos, m)
        self.board.show_position(self.rules, pos, self.moves[n - 1] if n else (), tuple(caps), before)
        for k, b in enumerate(self.move_buttons):
            b.setChecked(k == n - 1)
        self.back_button.setEnabled(n > 0)
        self.forward_button.setEnabled(n < len(self.moves))
        self.reset_button.setEnabled(False)
        self.note.setText(_("Try any move on this board: the game is not changed."))

    def position(self) -> Any:
        """The position on this board now."""
        return self.board.position

    def _tried(self, move: tuple[int, ...]) -> None:
        before = self.board.position
        pos, caps = self.rules.play(before, move)
        self.tried.append(tuple(move))
        self.board.show_position(self.rules, pos, move, tuple(caps), before)
        self.reset_button.setEnabled(True)
        self.note.setText(_("{move} tried on this board; the game is not changed.").format(
            move=self.rules.move_text(move)))

    def _game_replaced(self, _source: Any) -> None:
        """Another game arrived: the line belongs to the last one, and goes with it."""
        self.origin_node = None
        self.add_button.setEnabled(False)
        self.close()

    # ------------------------------------------------------------------------------ into the game
    def add_variation(self) -> None:
        """Put the line, up to the move shown, into the game as a variation of the position it
        was analysed in (only where the game goes on from there)."""
        c = self.session
        if self.origin_node is None or not self.origin_node.children or not self.moves:
            return
        if c.viewed_node() is not self.origin_node:
            c.show_node(self.origin_node)
        for m in self.moves[:max(1, self.shown)]:
            if not self.controller.play_variation(m):
                break
        self.close()
