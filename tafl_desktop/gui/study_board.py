"""A board for lessons and puzzles: its own position, the clicks and drags of the main board, and
the move the player picks, handed to whoever judges it (the lesson checker or the puzzle)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QVBoxLayout, QWidget

from tafl_desktop.gui.board_overlays import BoardToken
from tafl_desktop.gui.board_view import BoardState, BoardView

#: Separator of an ambush's single jumps in a Dablot move: not picked by clicking here.
SEP = -1


class StudyBoard(QWidget):
    """A :class:`BoardView` over a position with the click logic of the main board: pick a piece,
    see its targets, click (or drag to) a target; chained jumps one leg at a time, a second click
    on the last point ends the chain early.  ``move_picked`` carries a legal move;
    ``illegal_picked`` a move the rules refuse and the engine's reason."""

    move_picked = Signal(tuple)
    illegal_picked = Signal(tuple, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view = BoardView(self)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.view)
        self.rules: Any = None
        self.position: Any = None
        self.path: tuple[int, ...] = ()
        self.interactive = True
        self.last_move: tuple[int, ...] = ()
        self.captured: dict[int, str] = {}
        self.highlight: int | None = None
        self.arrow: tuple[int, ...] = ()
        #: The problem shown (a new one for each rules object shown: a puzzle, a lesson step): the
        #: player's own marks and any layer made for the last one are dropped by the view.
        self.token: BoardToken | None = None
        self._keep_pick = False
        self.view.square_pressed.connect(self.press)
        self.view.drop_requested.connect(self.drop)
        self.view.cancel_requested.connect(self.cancel)

    # ------------------------------------------------------------------------------ showing
    def show_position(self, rules: Any, position: Any, last_move: tuple[int, ...] = (),
                      captures: tuple[int, ...] = (), before: Any = None) -> None:
        if rules is not self.rules or self.token is None:  # another problem (a step, a puzzle): its own marks
            self.token = BoardToken.new(rules.geometry)
        self.rules, self.position = rules, position
        self.path = ()
        self.last_move = tuple(s for s in last_move if s != SEP)
        old = rules.pieces(before) if before is not None else {}
        self.captured = {s: old[s] for s in captures if s in old}
        self.highlight = None
        self.arrow = ()
        self.refresh()

    def refresh(self) -> None:
        if self.rules is None:
            return
        from tafl_desktop.gui.piece_labels import piece_letters, piece_ranks

        sel = self.path[0] if self.path else self.highlight
        variant = getattr(self.rules, "variant", None)
        self.view.set_state(BoardState(
            geometry=self.rules.geometry, pieces=self.rules.pieces(self.position), selected=sel,
            path=self.path, targets=frozenset(self._next_points()) if self.path else frozenset(),
            last_move=self.last_move, captured=self.captured, interactive=self.interactive,
            suggested=self.arrow, letters=piece_letters(variant) if variant is not None else {},
            ranks=piece_ranks(self.rules),  # Dablot's pieces carry their rank, as on the main board
            token=self.token))

    def show_hint(self, piece: int | None = None, move: tuple[int, ...] = ()) -> None:
        """Mark a piece (the first hint) or draw a move as an arrow (the second)."""
        self.highlight = piece
        self.arrow = tuple(s for s in move if s != SEP)
        self.refresh()

    # ------------------------------------------------------------------------------ picking
    def _legal(self) -> list[tuple[int, ...]]:
        return [m for m in self.rules.legal_moves(self.position) if SEP not in m]

    def _next_points(self) -> set[int]:
        n = len(self.path)
        return {m[n] for m in self._legal() if len(m) > n and m[:n] == self.path}

    def square_center(self, square: int):
        return self.view.square_center(square)

    def press(self, square: int) -> None:
        if self.rules is None or not self.interactive:
            return
        legal = self._legal()
        self._keep_pick = False
        if not self.path:
            if any(m[0] == square for m in legal):
                # a hinted piece is drawn as picked already: the view would take this click for
                # "pick it again to drop it" and cancel on release; keep the pick this once
                self._keep_pick = square == self.highlight
                self.path = (square,)
                self.highlight = None
                self.refresh()
            return
        if len(self.path) > 1 and square == self.path[-1] and self.path in legal:
            self._pick(self.path)
            return
        longer = self.path + (square,)
        if square in self._next_points():
            if any(len(m) > len(longer) and m[:len(longer)] == longer for m in legal):
                self.path = longer  # a chain that may go on: one more click on it ends it here
                self.refresh()
            else:
                self._pick(longer)
            return
        if square == self.path[0]:
            return
        if len(self.path) == 1 and any(m[0] == square for m in legal):
            self.path = (square,)
            self.refresh()
            return
        attempt = (self.path[0], square) if len(self.path) == 1 else longer
        self.path = ()
        self.refresh()
        self.illegal_picked.emit(attempt, self.rules.explain_illegal(self.position, attempt))

    def drop(self, origin: int, target: int) -> None:
        if self.path[:1] != (origin,):
            self.path = ()
            self.press(origin)
        if self.path == (origin,):
            self.press(target)

    def cancel(self) -> None:
        if self._keep_pick:
            self._keep_pick = False
            return
        if self.path:
            self.path = ()
            self.refresh()

    def _pick(self, move: tuple[int, ...]) -> None:
        self.path = ()
        self.move_picked.emit(move)
