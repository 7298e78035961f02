"""The window's one client of a search process: a lazily started
:class:`~tafl_desktop.ai.worker.AIWorker` and the one QTimer that polls it.

Why one class: the computer opponent, the hints and evaluation bar, and the analysis board with
the review each talk to a worker process of their own (so that none waits for another), and each
used to carry its own copy of the poll loop.  Here is the only one: a request at a time, its
progress reports delivered as they change (the ``progress`` signal and the request's
``on_info``), its answer once (``on_done``), a broken pipe turned into an answer with an
``error`` rather than an exception in the event loop.  The event loop only ever does a
non-blocking ``poll`` of the pipe, every :data:`POLL_MS` milliseconds while a request is out, so
the board stays responsive while the search thinks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from tafl_desktop.core.game import Game
from tafl_desktop.i18n import _

#: How often the pipe is polled while a request is out (ms).  Each poll costs microseconds.
POLL_MS = 15


def request_of(game: Game, ply: int | None = None) -> tuple[dict[str, Any], Any, int, list[Any]]:
    """What the worker needs to know about ``game`` after ``ply`` plies (None: its live position):
    the variant as data (toggles included), the position (a picklable object, so counters such
    as moves-since-capture travel with it), the side to move and the keys of every position so far
    (for the repetition rule)."""
    rules = game.rules
    end = len(game.plies) if ply is None else ply
    pos = game.position if ply is None else game.position_at(ply)
    keys = [rules.position_key(game.position_at(i)) for i in range(end + 1)]
    return rules.variant.to_data(), pos, int(rules.side_to_move(pos)), keys


class Failure:
    """Stands in for an AIResult when the client itself failed (the pipe broke, no process)."""

    def __init__(self, error: str) -> None:
        self.error = error
        self.move = None
        self.data: dict[str, Any] = {}


class WorkerClient(QObject):
    """A lazily started AIWorker polled by one QTimer; one request at a time."""

    #: Latest progress of the current request: {"depth", "score", "defenders_score", "pv", ...}.
    progress = Signal(object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._worker: Any = None
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self._poll)
        self._on_done: Callable[[Any], None] | None = None
        self._on_info: Callable[[Any], None] | None = None
        self._last_info: Any = None

    @property
    def worker(self) -> Any:
        if self._worker is None:
            from tafl_desktop.ai.worker import AIWorker

            self._worker = AIWorker(start_now=True)
        return self._worker

    @property
    def busy(self) -> bool:
        return self._on_done is not None

    def failure_text(self, error: Exception) -> str:
        """The clause an answer carries when polling the process raised ``error``."""
        return _("the computer player failed ({error})").format(error=error)

    def submit(self, request: tuple[dict[str, Any], Any, int, list[Any]], on_done: Callable[[Any], None],
               on_info: Callable[[Any], None] | None = None, **kwargs: Any) -> None:
        """Send ``request`` (:func:`request_of`) with the worker's options (``mode``, ``level``,
        ``time_limit``, ``extra``); a request still out is replaced.  Raises what starting the
        process raises (nothing is then pending)."""
        variant, pos, side, keys = request
        self._on_done, self._on_info, self._last_info = on_done, on_info, None
        try:
            self.worker.start(variant, pos, side, keys, **kwargs)
        except Exception:
            self._on_done = self._on_info = None
            raise
        self._timer.start()

    def _poll(self) -> None:
        worker = self._worker
        if worker is None or self._on_done is None:
            self._timer.stop()
            return
        try:
            result = worker.poll()
        except Exception as exc:  # noqa: BLE001 - a broken pipe must not reach the event loop
            result = Failure(self.failure_text(exc))
        info = worker.info
        if info is not None and info is not self._last_info:
            self._last_info = info
            self.progress.emit(info)
            if self._on_info is not None:
                self._on_info(info)
        if result is None:
            if not worker.busy:  # the request was dropped (cancelled elsewhere)
                self._on_done = self._on_info = None
                self._timer.stop()
            return
        on_done, self._on_done, self._on_info = self._on_done, None, None
        self._timer.stop()
        if on_done is not None:  # None: a progress report's receiver abandoned the request
            on_done(result)

    def cancel(self) -> None:
        """Abandon the current request; its answer is never delivered."""
        self._on_done = self._on_info = None
        self._timer.stop()
        if self._worker is not None:
            self._worker.cancel()

    def move_now(self) -> None:
        """Stop thinking: the best move found so far arrives at the next polls."""
        if self._worker is not None and self._on_done is not None:
            self._worker.move_now()

    def shutdown(self) -> None:
        """Stop the process (window closing); a later request starts a new one."""
        self.cancel()
        if self._worker is not None:
            self._worker.shutdown()
            self._worker = None
