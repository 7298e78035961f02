"""New Game's line on how long each chosen computer level thinks on this computer.

The figures come from :mod:`tafl_desktop.ai.think_time`: cached, or measured once while the
dialog is open, in a process of its own at a lower priority (so the window stays responsive, with
the Python search too), watched by a background thread.  Closing the dialog ends a measurement
within a poll; a stopped one is not kept, and is measured again the next time.
"""

from __future__ import annotations

import os
import threading
from typing import Any

from PySide6.QtCore import QStandardPaths, QTimer
from PySide6.QtWidgets import QLabel, QWidget

from tafl_desktop.ai import think_time
from tafl_desktop.core.marks import decimal
from tafl_desktop.i18n import _

#: How often the label looks for a finished measurement (ms).
POLL_MS = 200


def default_folder() -> str:
    """The app's data folder as Qt names it (a test's folder under the test organisation)."""
    return QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)


class ThinkTimeLabel(QLabel):
    """Says, per chosen level, how long it thinks a move here; measures what is not cached yet."""

    def __init__(self, folder: str | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWordWrap(True)
        self.folder = folder or default_folder()
        #: (cache key, level name, level label) of each computer side, in side order, duplicates removed.
        self._wanted: list[tuple[str, str, str]] = []
        self._known: dict[str, float] = {}
        #: Keys whose measurement failed (said once, not retried while the dialog is open).
        self._failed: set[str] = set()
        self._queue: list[tuple[str, Any, str]] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self._render)
        self.setVisible(False)
        stop = self._stop
        self.destroyed.connect(lambda *_args: stop.set())  # a dialog dropped unclosed stops measuring too

    def show_levels(self, variant: Any | None, levels: list[tuple[str, str]]) -> None:
        """Show the figures of ``levels`` ((name, label) pairs) in ``variant``; None or no
        levels hides the line."""
        seen: set[str] = set()
        self._wanted = []
        for name, label in levels:
            if variant is not None and name not in seen:
                seen.add(name)
                self._wanted.append((think_time.cache_key(variant, name), name, label))
        for key, name, _label in self._wanted:
            v = variant
            assert v is not None  # _wanted holds levels of a variant only
            with self._lock:
                if key in self._known or key in self._failed or any(k == key for k, _v, _n in self._queue):
                    continue
            seconds = think_time.cached(self.folder, v, name)
            with self._lock:
                if seconds is not None:
                    self._known[key] = seconds
                else:
                    self._queue.append((key, v, name))
        self._start()
        self._render()

    def stop(self) -> None:
        """Stop measuring (the dialog closes)."""
        self._stop.set()
        self._timer.stop()

    def measuring(self) -> bool:
        """Is a measurement running or waiting?"""
        with self._lock:
            return bool(self._queue) or (self._thread is not None and self._thread.is_alive())

    def figure(self, variant: Any, level: str) -> float | None:
        """The seconds known for ``level`` in ``variant`` (None: not measured yet)."""
        with self._lock:
            return self._known.get(think_time.cache_key(variant, level))

    # ------------------------------------------------------------------------------ internals
    def _start(self) -> None:
        with self._lock:
            if not self._queue or self._stop.is_set() or (self._thread is not None and self._thread.is_alive()):
                return
            self._thread = threading.Thread(target=self._run, name="tafl-think-times", daemon=True)
            self._thread.start()
        self._timer.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                if not self._queue:
                    return
                key, variant, level = self._queue[0]
            try:
                seconds = think_time.cached(self.folder, variant, level)
                if seconds is None:
                    seconds = self._measure_apart(variant, level)
            except Exception:  # a figure is a courtesy: never an error for the player
                seconds = None
            with self._lock:
                if self._queue and self._queue[0][0] == key:
                    self._queue.pop(0)
                if seconds is not None:
                    self._known[key] = seconds
                elif not self._stop.is_set():
                    self._failed.add(key)

    def _measure_apart(self, variant: Any, level: str) -> float | None:
        """Measure in a process of its own (the Python search, which the Fox games and Dablot
        use, would hold this process's interpreter lock for seconds); closing the dialog ends it."""
        import multiprocessing as mp

        proc = mp.get_context("spawn").Process(target=_measure_child, args=(self.folder, variant.to_data(), level),
                                               name="tafl-think-time", daemon=True)
        proc.start()
        while proc.is_alive():
            if self._stop.wait(0.1):
                proc.terminate()
                proc.join(5)
                return None
        return think_time.cached(self.folder, variant, level)

    def _render(self) -> None:
        # Whether the measuring is over is read before the figures: read after, a thread that
        # finished in between would stop the poll with the old "measuring..." line left showing.
        finished = not self.measuring()
        lines = []
        for key, _name, label in self._wanted:
            with self._lock:
                seconds = self._known.get(key)
                failed = key in self._failed
            if failed:
                lines.append(_("{level}: its think time could not be measured on this computer").format(
                    level=_(label)))
            elif seconds is None:
                lines.append(_("{level}: measuring how long it thinks on this computer...").format(level=_(label)))
            elif seconds < 0.1:
                lines.append(_("{level}: under a tenth of a second a move on this computer").format(level=_(label)))
            else:
                lines.append(_("{level}: about {seconds} s a move on this computer").format(
                    level=_(label), seconds=decimal(seconds, 1)))
        self.setText("\n".join(lines))
        self.setToolTip(_("Measured once on this computer: the level's first move in this game. Without a clock "
                          "a level searches the same number of positions on any computer, so it plays the same; "
                          "a slower computer only takes longer.") if lines else "")
        self.setVisible(bool(lines))
        if finished:
            self._timer.stop()


def _measure_child(folder: str, variant_data: dict[str, Any], level: str) -> None:
    """Process entry point: measure ``level`` in the variant and keep the figure in the cache."""
    if hasattr(os, "nice"):
        try:
            os.nice(5)  # the window keeps the upper hand, as the computer player's worker does
        except OSError:
            pass
    from tafl_desktop.core.variants import variant_from_data

    think_time.measured(folder, variant_from_data(variant_data), level)
