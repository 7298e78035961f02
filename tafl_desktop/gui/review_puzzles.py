"""Review Game > **Puzzles from this review**: the reviewed game's missed wins become puzzles.

Every inaccuracy, mistake or blunder of the review shown names the engine's better move; where
that move is the only first move of a forced win within three moves of the player
(:func:`tafl_desktop.study.my_games.puzzle_from_mistake` proves it exhaustively), the position
before the move played becomes a puzzle in the player's own set, listed under "My games" in the
Puzzles window.  The proofs run off the window's thread; the window says how many were made.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QThread, Signal

from tafl_desktop.i18n import _, ngettext


class ReviewPuzzleThread(QThread):
    """Proves each exercise's better move; ``finished_proving(puzzles, problem)`` at the end (a
    problem is one sentence, empty when there was none)."""

    finished_proving = Signal(list, str)

    def __init__(self, game: Any, exercises: list[Any]) -> None:
        super().__init__()
        self.game = game
        self.plies = [(ex.ply, tuple(ex.best)) for ex in exercises]
        #: Set by the window when it closes: the thread ends after the proof under way.
        self.stop = False

    def run(self) -> None:
        from tafl_desktop.study.my_games import puzzle_from_mistake
        from tafl_desktop.study.puzzles import PuzzleError

        found: list[dict[str, Any]] = []
        problem = ""
        try:
            for ply, best in self.plies:
                if self.stop:
                    break
                puzzle = puzzle_from_mistake(self.game, ply, best, source=_("reviewed game"))
                if puzzle is not None:
                    found.append(puzzle)
        except PuzzleError as exc:
            problem = str(exc)
        except Exception as exc:  # noqa: BLE001 - a player must never see a traceback
            problem = str(exc)
        self.finished_proving.emit(found, problem)


def make_review_puzzles(panel: Any, out: Path | None = None) -> ReviewPuzzleThread | None:
    """Start proving the missed moves of ``panel``'s review (a :class:`ReviewPanel`); the result is
    added to the player's set (``out``, default the app's "My games" file) and told in the status
    bar.  Returns the running thread (None when the review has no missed move)."""
    from tafl_desktop.core.game import Game

    exercises = panel.exercises()
    bar = panel.window_.statusBar()
    if not exercises:
        bar.showMessage(_("No inaccuracy, mistake or blunder to learn from."), 5000)
        return None
    game = Game(panel._rules, panel._start)
    for move in panel._moves:
        game.play(tuple(move))
    thread = ReviewPuzzleThread(game, exercises)
    panel.puzzles_button.setEnabled(False)
    bar.showMessage(ngettext("Proving the better move of {n} missed move...",
                             "Proving the better moves of {n} missed moves...", len(exercises)).format(
                                 n=len(exercises)))

    def done(found: list, problem: str) -> None:
        from tafl_desktop.study.my_games import add_to_set, default_path
        from tafl_desktop.study.puzzles import PuzzleError

        panel.puzzles_button.setEnabled(True)
        if problem:
            bar.showMessage(_("No puzzle made: {problem}").format(problem=problem), 10000)
            return
        if not found:
            bar.showMessage(_("None of the better moves starts a forced win within three moves: no puzzle made."),
                            10000)
            return
        target = out or default_path()
        try:
            added = add_to_set(found, target)
        except (PuzzleError, OSError) as exc:
            bar.showMessage(_("Cannot write {path}: {problem}").format(path=target, problem=exc), 10000)
            return
        bar.showMessage(ngettext("{n} puzzle from this review, {added} new in your set (Puzzles, \"My games\").",
                                 "{n} puzzles from this review, {added} new in your set (Puzzles, \"My games\").",
                                 len(found)).format(n=len(found), added=added), 10000)

    def ended() -> None:
        # ``finished`` comes just before the thread's end: wait for it, then let it go
        thread.wait()
        panel.puzzle_thread = None

    thread.finished_proving.connect(done)
    thread.finished.connect(ended)
    panel.puzzle_thread = thread
    thread.start()
    return thread


def stop_review_puzzles(panel: Any) -> None:
    """End the proofs of ``panel`` (the window closes): the one under way is bounded by its budget."""
    thread = getattr(panel, "puzzle_thread", None)
    if thread is not None and thread.isRunning():
        thread.stop = True
        thread.wait(30_000)
