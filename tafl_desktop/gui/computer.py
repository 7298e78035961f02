"""The computer player and the analyst, as the window sees them: Qt-side clients of the AI process.

The search runs in a separate process (:class:`tafl_desktop.ai.worker.AIWorker`), never in the
GUI's own: a pure-Python search in a thread would hold the GIL and freeze the window.  Both are
:class:`~tafl_desktop.gui.worker_client.WorkerClient` s (the window's one client of a search process:
one QTimer polls its pipe, so the event loop only ever does a non-blocking ``poll``).

* :class:`WorkerEngine` plays moves for a computer side (the session's ``Engine``, ``session.engine``).
* :class:`Analyst` answers the player's "Hint" and feeds the evaluation bar.  It has its own
  process, so a hint never disturbs (or waits for) the computer opponent's search.

Both start their process lazily, on the first request, so the window opens as fast without them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tafl_desktop.core.game import Game
from tafl_desktop.gui.worker_client import WorkerClient, request_of
from tafl_desktop.i18n import _
from tafl_desktop.session.engine import TurnFailure, TurnRequest

Move = tuple[int, ...]


def first_line(text: str) -> str:
    """A worker error's first line (its traceback stays in the worker's stderr, not in a dialog)."""
    return (text or "").strip().splitlines()[0] if (text or "").strip() else _("unknown problem")


class WorkerEngine(WorkerClient):
    """A computer opponent: the :class:`~tafl_desktop.session.engine.Engine` of our levels."""

    def start(self, request: TurnRequest) -> None:
        """Search the request's live position at its level; later answer through its ``on_move``
        (or ``on_failure``) on the GUI thread.  Its hard limit (seconds) replaces the level's think
        time when a clock is shorter (the soft one: the clock's share for this move, stretched at
        critical moments up to the hard one).  A request still running is abandoned."""

        def done(result: Any) -> None:
            if result.error or result.move is None:
                request.on_failure(TurnFailure(first_line(result.error) if result.error
                                               else _("the computer found no move")))
                return
            request.on_move(tuple(result.move))

        limits = request.limits
        extra = {"extra": {"soft": limits.soft}} if limits.soft is not None and limits.hard is not None else {}
        self.submit(request_of(request.game), done, request.on_progress, level=request.level, mode="move",
                    time_limit=limits.hard, **extra)

    def finish(self, game: Game) -> None:
        """Our search keeps nothing of a finished game."""

    def end_game(self) -> None:
        """The search process serves the next game too."""


class Analyst(WorkerClient):
    """Hints and evaluations for the player, in a process of its own."""

    #: Think time of a hint (s): long enough to be worth following, short enough to wait for.
    HINT_TIME = 2.0
    #: Think time of an evaluation-bar update (s).
    EVAL_TIME = 0.6

    def hint(self, game: Game, on_result: Callable[[Any], None]) -> None:
        self.submit(request_of(game), on_result, mode="hint", time_limit=self.HINT_TIME)

    def evaluate(self, game: Game, on_result: Callable[[Any], None]) -> None:
        self.submit(request_of(game), on_result, mode="eval", time_limit=self.EVAL_TIME)
