"""The window's client of the analysis requests (analysis, review) in a worker process of their own.

Why a process of its own: the game's computer player and the Hint/evaluation analyst keep theirs,
so studying never delays (or is delayed by) them.  One request at a time: the analysis board and
the review share this client, and a new request abandons the one running (the review keeps what it
has so far and resumes from it).

The event loop only ever does a non-blocking ``poll`` of the pipe from the one QTimer of its
:class:`~tafl_desktop.gui.worker_client.WorkerClient`, so the window never waits for the search.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from PySide6.QtCore import QElapsedTimer, QObject, QTimer

from tafl_desktop.gui.worker_client import Failure, WorkerClient, request_of


class AnalysisOwner(Protocol):
    """Who may ask for an analysis or a review: told when another owner's request takes the
    worker and its own request will not be answered."""

    def preempted(self) -> None: ...


class AnalysisClient(WorkerClient):
    """The analysis requests' :class:`~tafl_desktop.gui.worker_client.WorkerClient`: one request at
    a time, and who asked it."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        #: Who asked (an object), so a panel can tell whether the running request is its own.
        self.owner: AnalysisOwner | None = None

    def failure_text(self, error: Exception) -> str:
        return f"the analysis process failed ({error})"

    def start(self, owner: AnalysisOwner, mode: str, game: Any, ply: int, budget: float, extra: dict[str, Any],
              on_info: Callable[[dict[str, Any]], None], on_done: Callable[[Any], None]) -> None:
        """Ask for ``mode`` ("analyse" or "review") on ``game``'s position after ``ply`` plies (the
        review: its start, with the moves in ``extra``); ``budget`` is the request's whole time.
        A request of another owner is abandoned, and that owner told (its ``preempted()``)."""
        previous = self.owner if self.busy else None
        self.cancel()
        if previous is not None and previous is not owner:
            previous.preempted()
        self.owner = owner
        try:
            self.submit(request_of(game, ply), on_done, on_info, mode=mode, time_limit=budget, extra=extra)
        except Exception as exc:  # noqa: BLE001 - no process could be started: say so, never crash the slot
            self.owner = None
            on_done(Failure(f"the analysis process could not start ({exc})"))

    def cancel(self) -> None:
        """Abandon the running request (its answer is never delivered)."""
        super().cancel()
        self.owner = None


class LoopGapProbe(QObject):
    """Measures the event loop's stalls: a timer due every ``interval_ms`` notes how late each tick
    came.  ``max_gap_ms`` is the longest time between two ticks seen since ``start`` (on a busy
    shared machine the system may hold the process that long), ``median_gap_ms`` the usual one."""

    def __init__(self, interval_ms: int = 5, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._timer = QTimer(self)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self._tick)
        self._clock = QElapsedTimer()
        self.max_gap_ms = 0.0
        self.ticks = 0
        self.gaps: list[float] = []

    @property
    def median_gap_ms(self) -> float:
        import statistics

        return statistics.median(self.gaps) if self.gaps else 0.0

    def start(self) -> None:
        self.max_gap_ms, self.ticks, self.gaps = 0.0, 0, []
        self._clock.start()
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()

    def _tick(self) -> None:
        gap = self._clock.nsecsElapsed() / 1e6
        self._clock.restart()
        self.ticks += 1
        self.gaps.append(gap)
        self.max_gap_ms = max(self.max_gap_ms, gap)
