"""The window's client of the analysis requests (analysis, review) in a worker process of their own.

Why a process of its own: the game's computer player and the Hint/evaluation analyst keep theirs,
so studying never delays (or is delayed by) them.  One request at a time: the analysis board and
the review share this client, and a new request abandons the one running (the review keeps what it
has so far and resumes from it).

The event loop only ever does a non-blocking ``poll`` of the pipe from a QTimer, so the window
never waits for the search.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QElapsedTimer, QObject, QTimer

#: How often the pipe is polled while a request is out (ms).
POLL_MS = 15


class AnalysisClient(QObject):
    """A lazily started :class:`~tafl_desktop.ai.worker.AIWorker` for analysis requests."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._worker: Any = None
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self._poll)
        self._on_info: Callable[[dict[str, Any]], None] | None = None
        self._on_done: Callable[[Any], None] | None = None
        self._last_info: Any = None
        #: Who asked (an object), so a panel can tell whether the running request is its own.
        self.owner: Any = None

    @property
    def worker(self) -> Any:
        if self._worker is None:
            from tafl_desktop.ai.worker import AIWorker

            self._worker = AIWorker(start_now=True)
        return self._worker

    @property
    def busy(self) -> bool:
        return self._on_done is not None

    def start(self, owner: Any, mode: str, game: Any, ply: int, budget: float, extra: dict[str, Any],
              on_info: Callable[[dict[str, Any]], None], on_done: Callable[[Any], None]) -> None:
        """Ask for ``mode`` ("analyse" or "review") on ``game``'s position after ``ply`` plies (the
        review: its start, with the moves in ``extra``); ``budget`` is the request's whole time.
        A request of another owner is abandoned, and that owner told (its ``preempted()``)."""
        previous = self.owner if self.busy else None
        self.cancel()
        if previous is not None and previous is not owner and hasattr(previous, "preempted"):
            previous.preempted()
        rules = game.rules
        pos = game.position_at(ply)
        keys = [rules.position_key(game.position_at(i)) for i in range(ply + 1)]
        self.owner, self._on_info, self._on_done, self._last_info = owner, on_info, on_done, None
        try:
            self.worker.start(rules.variant.to_data(), pos, int(rules.side_to_move(pos)), keys, mode=mode,
                              time_limit=budget, extra=extra)
        except Exception as exc:  # noqa: BLE001 - no process could be started: say so, never crash the slot
            self.owner, self._on_info, self._on_done = None, None, None
            on_done(_Failed(f"the analysis process could not start ({exc})"))
            return
        self._timer.start()

    def _poll(self) -> None:
        if self._worker is None or self._on_done is None:
            self._timer.stop()
            return
        try:
            result = self._worker.poll()
        except Exception as exc:  # noqa: BLE001 - a broken pipe must not reach the event loop
            result = _Failed(f"the analysis process failed ({exc})")
        info = self._worker.info
        if info is not None and info is not self._last_info:
            self._last_info = info
            if self._on_info is not None:
                self._on_info(info)
        if result is None:
            if not self._worker.busy:
                self._on_done = self._on_info = None
                self._timer.stop()
            return
        done, self._on_done, self._on_info = self._on_done, None, None
        self._timer.stop()
        done(result)

    def cancel(self) -> None:
        """Abandon the running request (its answer is never delivered)."""
        self._on_done = self._on_info = None
        self.owner = None
        self._timer.stop()
        if self._worker is not None:
            self._worker.cancel()

    def shutdown(self) -> None:
        self.cancel()
        if self._worker is not None:
            self._worker.shutdown()
            self._worker = None


class _Failed:
    def __init__(self, error: str) -> None:
        self.error = error
        self.data: dict[str, Any] = {}


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
