"""A scratch board: an analysis line played out on a board of its own, never in the game.

At the live end of a game a move played is a move of the game, so an analysis line clicked there
cannot become a variation; before this board it was played into the game itself.  Here it gets a
:class:`~tafl_desktop.session.session.GameSession` of its own, holding the game so far and the
line, where the player steps back and forth and tries other moves; the window's game is untouched.
"""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from tafl_desktop.core.game import Game, Move, Position
from tafl_desktop.gui.study_board import StudyBoard
from tafl_desktop.i18n import _
from tafl_desktop.session.session import GameSession
from tafl_desktop.session.source import GameSource, Origin


class ScratchBoard(QDialog):
    """The game up to ``base`` (a Game) with ``moves`` played on from there, on its own board."""

    def __init__(self, base: Game[Position], moves: list[Move], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(_("Analysis line: {game}").format(game=base.rules.variant.title))
        self.base_plies = len(base.plies)
        self.session = GameSession(GameSource.of_game(base, Origin.SCRATCH))
        for move in moves:
            if not self.session.play_at_end(move):
                break
        self.heading = QLabel()
        self.heading.setWordWrap(True)
        self.board = StudyBoard(self)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.back_button = QPushButton(_("Back"))
        self.forward_button = QPushButton(_("Forward"))
        close = QPushButton(_("Close"))
        self.back_button.clicked.connect(self.session.back)
        self.forward_button.clicked.connect(self.session.forward)
        close.clicked.connect(self.reject)
        row = QHBoxLayout()
        row.addWidget(self.back_button)
        row.addWidget(self.forward_button)
        row.addStretch(1)
        row.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.board, 1)
        layout.addWidget(self.status)
        layout.addLayout(row)
        self.board.move_picked.connect(self._move_picked)
        self.board.illegal_picked.connect(self._illegal)
        self.session.changed.connect(self.refresh)
        self.session.message.connect(self.status.setText)
        self.resize(560, 640)
        self.refresh()

    def _move_picked(self, move: tuple[int, ...]) -> None:
        self.session.play(tuple(move))

    def _illegal(self, move: tuple[int, ...], why: str) -> None:
        self.status.setText(_("{move} is not allowed: {reason}.").format(
            move=self.session.rules.move_text(move), reason=why))

    def refresh(self) -> None:
        """Show the position the session shows, with the last move and what it took."""
        s = self.session
        node = s.viewed_node()
        rules = s.rules
        if node.ply is not None and node.parent is not None:
            self.board.show_position(rules, s.viewed_position, node.ply.move, node.ply.captures,
                                     s.tree.position(node.parent))
        else:
            self.board.show_position(rules, s.viewed_position)
        self.board.interactive = rules.outcome(s.viewed_position) is None and s.play_game().outcome is None
        self.board.refresh()
        line = s.game
        moves = " ".join(self.shown_moves()) or "-"
        side = s.sides[int(s.side_to_move())]
        where = _("The line from the start: {moves}") if not self.base_plies else \
            _("The line after move {n}: {moves}")
        self.heading.setText(where.format(n=self.base_plies, moves=moves) + "\n" +
                             _("{side} to move.").format(side=side))
        self.back_button.setEnabled(s.view_ply > 0)
        self.forward_button.setEnabled(s.view_ply < len(line.plies))

    def shown_moves(self) -> list[str]:
        """The line's moves up to the position shown (tests read it)."""
        s = self.session
        return s.game.move_texts()[self.base_plies:s.view_ply]


def open_scratch_board(parent: QWidget, base: Game[Position], moves: list[Move]) -> ScratchBoard:
    """Show a (non-modal) scratch board for ``moves`` played on from ``base``."""
    board = ScratchBoard(base, moves, parent)
    board.show()
    return board
