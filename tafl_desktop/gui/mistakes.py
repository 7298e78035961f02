"""Learn from your mistakes: after a review, the player's own inaccuracies, mistakes and blunders,
one at a time, on a board of their own: find a better move.

Each exercise shows the position before the move the player made, says what it was and asks for a
better one.  The engine's own move is right at once; any other move is searched in the analysis
worker with the review's budget and judged as the review judges moves
(:func:`tafl_desktop.ai.mistakes.judge`): right when it gives away less than 5 points of winning
chance against the engine's move.  **Hint** marks the piece to move, **Show answer** draws the
engine's move as an arrow, and the answer is always explained in words (what the move played
allowed, what the better move does, both winning chances).  The game itself is never changed.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from tafl_desktop.core.marks import integer
from tafl_desktop.gui.screen_fit import fit_size
from tafl_desktop.gui.study_board import StudyBoard
from tafl_desktop.i18n import _, ngettext


def _prompt(cls: str) -> str:
    """The exercise's question, a whole sentence per class."""
    return {"inaccuracy": _("In the game, {move} was an inaccuracy. Find a better move."),
            "mistake": _("In the game, {move} was a mistake. Find a better move."),
            "blunder": _("In the game, {move} was a blunder. Find a better move.")}[cls]


class MistakesTrainer(QDialog):
    """The exercises of one review (see the module docstring)."""

    def __init__(self, parent: QWidget, client: Any, rules: Any, exercises: list[Any], budget: Any) -> None:
        super().__init__(parent)
        self.setObjectName("mistakesTrainer")
        self.setWindowTitle(_("Learn from your mistakes"))
        self.client, self.rules, self.exercises, self.budget = client, rules, exercises, budget
        self.index = 0
        #: Per exercise: "solved", "shown" (the answer was shown first) or absent.
        self.results: dict[int, str] = {}
        self.checking: tuple[int, ...] | None = None
        #: The sentences of the last answer explained (tests read them).
        self.explanation: list[str] = []
        self.heading = QLabel()
        font = self.heading.font()
        font.setBold(True)
        self.heading.setFont(font)
        self.prompt = QLabel()
        self.prompt.setWordWrap(True)
        self.board = StudyBoard(self)
        self.board.setMinimumSize(380, 380)
        self.board.move_picked.connect(self._tried)
        self.board.illegal_picked.connect(self._illegal)
        self.feedback = QLabel()
        self.feedback.setWordWrap(True)
        self.feedback.setTextFormat(Qt.TextFormat.RichText)
        self.feedback.setAccessibleName(_("What the engine says"))
        self.hint_button = QPushButton(_("Hint"))
        self.hint_button.setToolTip(_("Mark the piece the engine would move"))
        self.hint_button.clicked.connect(self.hint)
        self.answer_button = QPushButton(_("Show answer"))
        self.answer_button.clicked.connect(self.show_answer)
        self.next_button = QPushButton(_("Next"))
        self.next_button.clicked.connect(lambda: self.show_exercise(self.index + 1))
        close = QPushButton(_("Close"))
        close.clicked.connect(self.close)
        row = QHBoxLayout()
        for b in (self.hint_button, self.answer_button, self.next_button):
            row.addWidget(b)
        row.addStretch(1)
        row.addWidget(close)
        lay = QVBoxLayout(self)
        lay.addWidget(self.heading)
        lay.addWidget(self.prompt)
        lay.addWidget(self.board, 1)
        lay.addWidget(self.feedback)
        lay.addLayout(row)
        fit_size(self, 520, 720)
        self.show_exercise(0)

    # ------------------------------------------------------------------------------ showing
    @property
    def exercise(self) -> Any:
        return self.exercises[self.index]

    def show_exercise(self, n: int) -> None:
        """Exercise ``n`` (past the last: the summary)."""
        self._abandon_check()
        if n >= len(self.exercises):
            self._finished()
            return
        self.index = n
        ex = self.exercise
        variant = self.rules.variant
        self.heading.setText(_("Exercise {n} of {total}: move {ply}, {side} to move").format(
            n=n + 1, total=len(self.exercises), ply=_move_number(self.rules, ex), side=variant.side_names[ex.side]))
        self.prompt.setText(_prompt(ex.cls).format(move=ex.played_text))
        last = tuple(ex.moves_before[-1]) if ex.moves_before else ()
        self.board.interactive = True
        self.board.show_position(self.rules, ex.position, last)
        self.feedback.setText("")
        for b in (self.hint_button, self.answer_button):
            b.setEnabled(True)
        self.next_button.setText(_("Next") if n + 1 < len(self.exercises) else _("Finish"))

    def _finished(self) -> None:
        solved = sum(1 for r in self.results.values() if r == "solved")
        self.heading.setText(_("All exercises done"))
        self.prompt.setText(ngettext("You found a better move in {solved} of {total} position.",
                                     "You found a better move in {solved} of {total} positions.",
                                     len(self.exercises)).format(
            solved=solved, total=len(self.exercises)))
        self.board.interactive = False
        self.board.refresh()
        self.feedback.setText("")
        for b in (self.hint_button, self.answer_button, self.next_button):
            b.setEnabled(False)

    # ------------------------------------------------------------------------------ answers
    def _illegal(self, _move: tuple[int, ...], reason: str) -> None:
        self.feedback.setText(_("That move is not allowed: {why}").format(why=reason))

    def _tried(self, move: tuple[int, ...]) -> None:
        ex = self.exercise
        text = self.rules.move_text(move)
        if tuple(move) == tuple(ex.played):
            self.feedback.setText(_("{move} is the move played in the game: find a better one.").format(move=text))
            return
        if tuple(move) == tuple(ex.best):
            self._right(move, 0.0)
            return
        self.board.interactive = False
        self.feedback.setText(_("Checking {move}...").format(move=text))
        self._check(move)

    def _check(self, move: tuple[int, ...]) -> None:
        """Search the position after ``move`` in the worker, with the review's budget."""
        from tafl_desktop.core.game import Game

        ex = self.exercise
        game = Game(self.rules, ex.start)
        for m in ex.moves_before:
            game.play(tuple(m))
        self.checking = tuple(move)
        moves = [list(m) for m in ex.moves_before] + [list(move)]
        known = {str(k): v for k, v in ex.evals_before.items()}
        self.client.start(self, "review", game, 0, 600.0,
                          {"moves": moves, "budget": self.budget.to_json(), "known": known},
                          lambda _info: None, lambda result, n=self.index: self._checked(n, result))

    def preempted(self) -> None:
        """The analysis board took the worker while a move was being checked: that check will not
        be answered, so the board takes moves again and says so (it stayed at "Checking..." with
        the board locked)."""
        if self.checking is None:
            return
        self.checking = None
        self.board.interactive = True
        self.feedback.setText(_("The check was stopped: try the move again."))

    def _checked(self, n: int, result: Any) -> None:
        from tafl_desktop.ai.mistakes import judge

        move, self.checking = self.checking, None
        if n != self.index or move is None:
            return
        if getattr(result, "error", ""):
            self.board.interactive = True
            self.feedback.setText(_("The engine could not check that move: {why}").format(why=result.error))
            return
        after = result.data.get("evals", {}).get(len(self.exercise.moves_before) + 1)
        if after is None:
            self.board.interactive = True
            self.feedback.setText(_("The check was stopped: try the move again."))
            return
        ok, loss = judge(self.exercise, move, after)
        if ok:
            self._right(move, loss)
        else:
            self.board.interactive = True
            self.board.refresh()
            self.feedback.setText(ngettext(
                "{move} is not better: it gives away {loss} point of winning chance against the engine's move. "
                "Try again, or ask for a hint.",
                "{move} is not better: it gives away {loss} points of winning chance against the engine's move. "
                "Try again, or ask for a hint.", round(loss)).format(
                    move=self.rules.move_text(move), loss=integer(round(loss))))

    def _right(self, move: tuple[int, ...], loss: float) -> None:
        ex = self.exercise
        self.results.setdefault(self.index, "solved")
        text = self.rules.move_text(move)
        if tuple(move) == tuple(ex.best):
            head = _("Right: {move} is the engine's move.").format(move=text)
        else:
            head = ngettext("Right: {move} is as good as the engine's {best} (it gives away {loss} point).",
                            "Right: {move} is as good as the engine's {best} (it gives away {loss} points).",
                            round(loss)).format(move=text, best=ex.best_text, loss=integer(round(loss)))
        after, caps = self.rules.play(ex.position, move)
        self.board.interactive = False
        self.board.show_position(self.rules, after, move, tuple(caps), ex.position)
        self._explain(head)

    def hint(self) -> None:
        self.board.show_hint(piece=self.exercise.best[0])
        self.feedback.setText(_("The engine moves the marked piece."))

    def show_answer(self) -> None:
        """Draw the engine's move as an arrow and explain it."""
        self._abandon_check()
        ex = self.exercise
        self.results.setdefault(self.index, "shown")
        self.board.interactive = False
        self.board.show_position(self.rules, ex.position, tuple(ex.moves_before[-1]) if ex.moves_before else ())
        self.board.show_hint(move=ex.best)
        self._explain(_("The engine plays {move} (the arrow).").format(move=ex.best_text))

    def _explain(self, head: str) -> None:
        from tafl_desktop.ai.mistakes import explain
        from tafl_desktop.analysis.words import explain_exercise

        sentences = explain_exercise(self.rules.variant, self.exercise, explain(self.rules, self.exercise))
        self.explanation = [head, *sentences]
        self.feedback.setText("<b>" + head + "</b><br>" + "<br>".join(sentences))
        for b in (self.hint_button, self.answer_button):
            b.setEnabled(False)

    def _abandon_check(self) -> None:
        if self.checking is not None and self.client.owner is self:
            self.client.cancel()
        self.checking = None

    def closeEvent(self, event: Any) -> None:  # noqa: N802 (Qt API)
        self._abandon_check()
        super().closeEvent(event)


def _move_number(rules: Any, ex: Any) -> int:
    """The number of the exercise's move as the move list numbers it (a move is a turn of each
    side: the 6th ply of a game is part of move 3), not the ply's index."""
    from tafl_desktop.core.move_numbers import move_numbers

    if ex.start is None:
        return (ex.ply + 1) // 2
    pos, sides = ex.start, []
    for move in [*ex.moves_before, ex.played]:
        sides.append(int(rules.side_to_move(pos)))
        pos = rules.play(pos, move)[0]
    return move_numbers(sides, int(rules.side_to_move(ex.start)))[-1]
