"""The computer player and the analyst, as the window sees them: Qt-side clients of the AI process.

The search runs in a separate process (:class:`tafl_desktop.ai.worker.AIWorker`), never in the
GUI's own: a pure-Python search in a thread would hold the GIL and freeze the window.  Here a
QTimer polls the worker's pipe every few milliseconds, so the event loop only ever does a
non-blocking ``poll`` and the board stays responsive while the computer thinks.

* :class:`WorkerEngine` plays moves for a computer side (the session's ``Engine``, ``session.engine``).
* :class:`Analyst` answers the player's "Hint" and feeds the evaluation bar.  It has its own
  process, so a hint never disturbs (or waits for) the computer opponent's search.

Both start their process lazily, on the first request, so the window opens as fast without them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from tafl_desktop.core.game import Game
from tafl_desktop.i18n import _
from tafl_desktop.session.engine import TurnFailure, TurnRequest

Move = tuple[int, ...]
#: How often the pipe is polled while a request is out (ms).  Each poll costs microseconds.
POLL_MS = 15


def request_of(game: Game) -> tuple[dict[str, Any], Any, int, list[Any]]:
    """What the worker needs to know about ``game``: the variant as data (toggles included), the
    live position (a picklable object, so counters such as moves-since-capture travel with it), the
    side to move and the keys of every position so far (for the repetition rule)."""
    rules = game.rules
    keys = [rules.position_key(game.position_at(i)) for i in range(len(game.plies) + 1)]
    return rules.variant.to_data(), game.position, int(rules.side_to_move(game.position)), keys


class _WorkerClient(QObject):
    """A lazily started AIWorker polled by a QTimer; one request at a time."""

    #: Latest progress of the current request: {"depth", "score", "defenders_score", "pv", ...}.
    progress = Signal(object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._worker: Any = None
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self._poll)
        self._on_result: Callable[[Any], None] | None = None
        self._last_info: Any = None

    @property
    def worker(self) -> Any:
        if self._worker is None:
            from tafl_desktop.ai.worker import AIWorker

            self._worker = AIWorker(start_now=True)
        return self._worker

    @property
    def busy(self) -> bool:
        return self._on_result is not None

    def _submit(self, game: Game, on_result: Callable[[Any], None], **kwargs: Any) -> None:
        variant, pos, side, keys = request_of(game)
        self._on_result = on_result
        self._last_info = None
        self.worker.start(variant, pos, side, keys, **kwargs)
        self._timer.start()

    def _poll(self) -> None:
        if self._worker is None or self._on_result is None:
            self._timer.stop()
            return
        try:
            result = self._worker.poll()
        except Exception as exc:  # noqa: BLE001 - a broken pipe must not reach the event loop
            result = _failure(_("the computer player failed ({error})").format(error=exc))
        info = self._worker.info
        if info is not None and info is not self._last_info:
            self._last_info = info
            self.progress.emit(info)
        if result is None:
            if not self._worker.busy:  # the request was dropped (cancelled elsewhere)
                self._on_result = None
                self._timer.stop()
            return
        callback, self._on_result = self._on_result, None
        self._timer.stop()
        callback(result)

    def cancel(self) -> None:
        """Abandon the current request; its answer is never delivered."""
        self._on_result = None
        self._timer.stop()
        if self._worker is not None:
            self._worker.cancel()

    def move_now(self) -> None:
        """Stop thinking: the best move found so far arrives at the next polls."""
        if self._worker is not None and self._on_result is not None:
            self._worker.move_now()

    def shutdown(self) -> None:
        """Stop the process (window closing); a later request starts a new one."""
        self.cancel()
        if self._worker is not None:
            self._worker.shutdown()
            self._worker = None


class _Failure:
    """Stands in for an AIResult when the client itself failed."""

    def __init__(self, error: str) -> None:
        self.error = error
        self.move = None


def _failure(text: str) -> _Failure:
    return _Failure(text)


def first_line(text: str) -> str:
    """A worker error's first line (its traceback stays in the worker's stderr, not in a dialog)."""
    return (text or "").strip().splitlines()[0] if (text or "").strip() else _("unknown problem")


class WorkerEngine(_WorkerClient):
    """A computer opponent: the :class:`~tafl_desktop.session.engine.Engine` of our levels."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._report: Callable[[Any], None] | None = None
        self.progress.connect(lambda info: self._report(info) if self._report is not None else None)

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
        self._report = request.on_progress
        self._submit(request.game, done, level=request.level, mode="move", time_limit=limits.hard, **extra)

    def finish(self, game: Game) -> None:
        """Our search keeps nothing of a finished game."""

    def end_game(self) -> None:
        """The search process serves the next game too."""


class Analyst(_WorkerClient):
    """Hints and evaluations for the player, in a process of its own."""

    #: Think time of a hint (s): long enough to be worth following, short enough to wait for.
    HINT_TIME = 2.0
    #: Think time of an evaluation-bar update (s).
    EVAL_TIME = 0.6

    def hint(self, game: Game, on_result: Callable[[Any], None]) -> None:
        self._submit(game, on_result, mode="hint", time_limit=self.HINT_TIME)

    def evaluate(self, game: Game, on_result: Callable[[Any], None]) -> None:
        self._submit(game, on_result, mode="eval", time_limit=self.EVAL_TIME)
