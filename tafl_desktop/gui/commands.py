"""Undo/redo of moves through QUndoStack: one command per ply, mirroring the core Game's own
undo/redo so the stack, the game history and the move list can never disagree."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QUndoCommand

if TYPE_CHECKING:
    from tafl_desktop.gui.controller import GameController


class MoveCommand(QUndoCommand):
    """A ply that has been played.  Created *after* ``game.play`` (or when a record is opened), so
    the first ``redo()`` that QUndoStack.push makes is skipped."""

    def __init__(self, controller: GameController, move: tuple[int, ...], text: str) -> None:
        super().__init__(text)
        self._controller = controller
        self._move = move
        self._pushed = False

    @property
    def move(self) -> tuple[int, ...]:
        return self._move

    def redo(self) -> None:
        if not self._pushed:
            self._pushed = True
            return
        game = self._controller.game
        if game.redo_stack and game.redo_stack[-1].move == self._move:
            game.redo()
        else:
            game.play(self._move)
        self._controller.history_changed(self._move)

    def undo(self) -> None:
        self._controller.game.undo()
        self._controller.history_changed(())
