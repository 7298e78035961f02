"""An OpenTafl puzzle file solved on the board (:mod:`tafl_desktop.study.record_puzzles`).

The player plays the side to move at the puzzle's start; the computer answers with the record's
main continuation.  A move in the record is accepted and its comment shown; a move outside it is
refused in a strict puzzle, and in a loose one played with a note that it leaves the author's
lines (take it back, or try again).  Hint shows the position's ``(Hint: ...)``, then the
record's move as an arrow; Show solution plays the author's main line on the board.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QDialog, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from tafl_desktop.gui.screen_fit import fit_size
from tafl_desktop.i18n import _

REPLY_DELAY_MS = 350
SOLUTION_STEP_MS = 700


class RecordPuzzleDialog(QDialog):
    """One OpenTafl puzzle: introduction, board, the author's comments, hints and solution."""

    def __init__(self, puzzle: Any, parent: QWidget | None = None) -> None:
        from tafl_desktop.gui.study_board import StudyBoard
        from tafl_desktop.gui.study_widgets import _set_feedback, _wrap_label, puzzle_rules_text

        super().__init__(parent)
        self._feedback = _set_feedback
        self.puzzle = puzzle
        self.setWindowTitle(_("Puzzle: {name}").format(name=puzzle.name))
        fit_size(self, 640, 800)
        self.heading = QLabel()
        self.heading.setStyleSheet("font-size: 15px; font-weight: bold;")
        mode = _("strict: only the record's moves") if puzzle.mode == "strict" else _(
            "loose: any move, the record's lines are the author's")
        self.heading.setText(_("OpenTafl puzzle · {variant} · {mode}").format(variant=puzzle.variant.title, mode=mode))
        self.rules_label = _wrap_label(puzzle_rules_text(puzzle.variant))
        self.intro = _wrap_label(puzzle.introduction())
        self.task = _wrap_label()
        self.board = StudyBoard(self)
        self.comment = _wrap_label()
        self.feedback = _wrap_label()
        self.btn_hint = QPushButton(_("&Hint"))
        self.btn_back = QPushButton(_("Take &back"))
        self.btn_retry = QPushButton(_("&Try again"))
        self.btn_solution = QPushButton(_("Show &solution"))
        row = QHBoxLayout()
        for b in (self.btn_hint, self.btn_back, self.btn_retry, self.btn_solution):
            row.addWidget(b)
        lay = QVBoxLayout(self)
        for w in (self.heading, self.rules_label, self.intro, self.task):
            lay.addWidget(w)
        lay.addWidget(self.board, 1)
        lay.addWidget(self.comment)
        lay.addWidget(self.feedback)
        lay.addLayout(row)
        self.btn_hint.clicked.connect(self.hint)
        self.btn_back.clicked.connect(self.take_back)
        self.btn_retry.clicked.connect(self.restart)
        self.btn_solution.clicked.connect(self.show_solution)
        self.board.move_picked.connect(self.on_move)
        self.board.illegal_picked.connect(self.on_illegal)
        self.reply_timer = QTimer(self)
        self.reply_timer.setSingleShot(True)
        self.reply_timer.timeout.connect(self.computer_reply)
        self.solution_timer = QTimer(self)
        self.solution_timer.setInterval(SOLUTION_STEP_MS)
        self.solution_timer.timeout.connect(self.solution_step)
        self.restart()

    # ------------------------------------------------------------------------------ state
    def restart(self) -> None:
        """Back to the puzzle's start."""
        self.reply_timer.stop()
        self.solution_timer.stop()
        self.node = self.puzzle.start  # a node of the record, or None once off its lines
        self.stack: list[tuple[Any, Any]] = []  # (node, position) before each of the player's moves
        self.position = self.puzzle.position(self.node)
        self.hint_level = 0
        self.over = False
        self.board.interactive = True
        self.board.show_position(self.puzzle.rules, self.position)
        side = self.puzzle.variant.side_names[int(self.puzzle.solver)]
        self.task.setText(_("{side} to move. Find the author's line.").format(side=side))
        self.comment.setText(self.puzzle.comment(self.node) if self.node is not self.puzzle.tree.root else "")
        self._feedback(self.feedback, "", None)

    def _show(self, before: Any, move: Any, after: Any, caps: Any) -> None:
        self.position = after
        self.board.show_position(self.puzzle.rules, after, move, caps, before)

    def on_move(self, move: tuple) -> None:
        if self.over or self.reply_timer.isActive() or self.solution_timer.isActive():
            return
        rules = self.puzzle.rules
        text = rules.move_text(move)
        nxt = self.puzzle.child(self.node, move) if self.node is not None else None
        if nxt is None and self.puzzle.mode == "strict":
            self._feedback(self.feedback, _("{move} is not in this puzzle: a strict puzzle accepts only the moves "
                                            "of its record.").format(move=text), False)
            self.board.refresh()
            return
        before = self.position
        self.stack.append((self.node, before))
        after, caps = rules.play(before, move)
        self._show(before, move, after, caps)
        self.hint_level = 0
        if nxt is None:
            self.node = None
            self.comment.setText("")
            self._feedback(self.feedback, _("{move} is not among the author's lines. Take it back or try again.")
                           .format(move=text), False)
            self.board.interactive = not rules.outcome(after)
            return
        self.node = nxt
        self.comment.setText(self.puzzle.comment(nxt))
        if self._ended():
            return
        self._feedback(self.feedback, _("{move} is in the author's line.").format(move=text), True)
        if self.puzzle.reply(nxt) is not None:
            self.board.interactive = False
            self.reply_timer.start(REPLY_DELAY_MS)

    def _ended(self) -> bool:
        """At the end of a line of the record: solved when the game is won there."""
        rules = self.puzzle.rules
        out = rules.outcome(self.position)
        if self.node is not None and self.node.children and out is None:
            return False
        self.over = True
        self.board.interactive = False
        if out is not None and out.winner == self.puzzle.solver:
            self._feedback(self.feedback, _("Solved! {result}").format(result=out.describe(self.puzzle.variant)), True)
        elif out is not None:
            self._feedback(self.feedback, out.describe(self.puzzle.variant), False)
        else:
            self._feedback(self.feedback, _("The end of the author's line."), True)
        return True

    def computer_reply(self) -> None:
        reply = self.puzzle.reply(self.node) if self.node is not None else None
        if reply is None:
            return
        before = self.position
        after, caps = self.puzzle.rules.play(before, reply.move)
        self.node = reply
        self._show(before, reply.move, after, caps)
        self.comment.setText(self.puzzle.comment(reply))
        self.board.interactive = True
        if not self._ended():
            self._feedback(self.feedback, _("{side} answer {reply}.").format(
                side=self.puzzle.variant.side_names[int(self.puzzle.solver.other)],
                reply=self.puzzle.rules.move_text(reply.move)), None)

    def on_illegal(self, move: tuple, why: str) -> None:
        self._feedback(self.feedback, _("{move} is not allowed: {why}.").format(
            move=self.puzzle.rules.move_text(move), why=_(why)), False)

    def take_back(self) -> None:
        """Undo the player's last move (and the answer to it)."""
        self.reply_timer.stop()
        self.solution_timer.stop()
        if not self.stack:
            return
        self.node, self.position = self.stack.pop()
        self.over = False
        self.board.interactive = True
        self.board.show_position(self.puzzle.rules, self.position)
        self.comment.setText(self.puzzle.comment(self.node) if self.node is not None else "")
        self._feedback(self.feedback, "", None)

    def hint(self) -> None:
        """The author's hint for this position, then the record's move as an arrow."""
        if self.over or self.node is None or not self.node.children:
            return
        hints = self.puzzle.hints(self.node)
        self.hint_level += 1
        if self.hint_level == 1 and hints:
            self._feedback(self.feedback, _("Hint: {hint}").format(hint=hints[0]), None)
            return
        move = self.node.children[0].move
        self.board.show_hint(move[0], move)
        self._feedback(self.feedback, _("Hint: play {move}.").format(move=self.puzzle.rules.move_text(move)), None)

    def show_solution(self) -> None:
        """Play the author's main line on the board from the puzzle's start, one move at a time."""
        self.restart()
        self.board.interactive = False
        self._feedback(self.feedback, _("The solution, played on the board:"), None)
        self.solution_timer.start()

    def solution_step(self) -> None:
        nxt = self.puzzle.reply(self.node) if self.node is not None else None
        if nxt is None:
            self.solution_timer.stop()
            self._ended()
            return
        before = self.position
        after, caps = self.puzzle.rules.play(before, nxt.move)
        self.node = nxt
        self._show(before, nxt.move, after, caps)
        self.comment.setText(self.puzzle.comment(nxt))
        path = self.puzzle.tree.path(nxt)[self.puzzle.start.depth:]
        line = " ".join(self.puzzle.rules.move_text(n.move) for n in path)
        self._feedback(self.feedback, _("The solution, played on the board: {line}").format(line=line), None)


def open_record_puzzle(window: Any, path: str) -> RecordPuzzleDialog | None:
    """Open an OpenTafl puzzle file in its own window; a file that cannot be one is one line."""
    from tafl_desktop.core.progress import Cancelled
    from tafl_desktop.core.quoting import shown
    from tafl_desktop.gui import dialogs
    from tafl_desktop.gui.background_read import read_in_background
    from tafl_desktop.study.puzzles import PuzzleError
    from tafl_desktop.study.record_puzzles import read_record_puzzle

    try:  # read as File > Import reads: in a thread, with progress and Cancel for a large file
        puzzle = read_in_background(window, _("Opening {name}...").format(name=shown(Path(path).name)),
                                    lambda: read_record_puzzle(path), path)
    except Cancelled:
        return None
    except PuzzleError as exc:
        dialogs.show_error(window, _("Cannot open the puzzle"), str(exc))
        return None
    dlg = RecordPuzzleDialog(puzzle, window)
    if not hasattr(window, "learn_dialogs"):
        window.learn_dialogs = []
    window.learn_dialogs.append(dlg)
    dlg.show()
    return dlg
