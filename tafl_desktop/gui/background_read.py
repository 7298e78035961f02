"""Reading a game file without freezing the window: the read runs in a thread, a progress dialog
with Cancel appears once it takes longer than a moment, and the caller gets the result (or the
reader's exception) as if it had read the file itself.

A game of 20,000 moves replays for seconds (every move goes through the rules), and a hostile
file may be 8 MB (``core.record_limits``).  The readers report the moves replayed through
:mod:`tafl_desktop.core.progress`; Cancel makes the reader stop with
:class:`~tafl_desktop.core.progress.Cancelled` within a few hundred moves, and nothing it built
is kept.  While the thread reads, the window goes on painting, its clocks run and its timers
fire; the dialog is window-modal, so no second file can be opened meanwhile.

Threads, not processes: a read builds a game tree of linked nodes, which would have to be
pickled back from a process; the pure-Python reader gives the window its turn every few
milliseconds (the interpreter's switch interval).

While the thread reads, Python's cyclic garbage collector is paused (:func:`_collector_held`):
a collection runs in whichever thread happens to allocate, and a cycle holding a Qt object (a
closed dialog, a pixmap) freed in the reading thread while the window's thread paints crashed a
test run (a bus error inside the collector).  Garbage is collected in the window's thread before
the read starts and the collector resumes when it ends.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from PySide6.QtCore import QEventLoop, QObject, Qt, Signal
from PySide6.QtWidgets import QProgressDialog, QWidget

from tafl_desktop.core import progress
from tafl_desktop.i18n import _, ngettext

T = TypeVar("T")
#: Milliseconds a read runs before its progress dialog appears (a small file never shows one).
SHOW_AFTER_MS = 400
#: A file this small (about 1,000 moves) is read at once: it takes less than a quarter of a second,
#: and reading it where it is asked for keeps the order of events as it was (a file opened at
#: start-up is open before the first event runs).
SMALL_BYTES = 16 * 1024


class _Signals(QObject):
    """Carries the thread's news to the window's thread (queued across threads by Qt)."""

    progressed = Signal(int, int)
    ended = Signal()


class BackgroundRead:
    """One read in a thread; :meth:`wait` runs the window's events until it ends."""

    def __init__(self, work: Callable[[], Any]) -> None:
        self._work = work
        self._cancel = threading.Event()
        self.result: Any = None
        self.error: BaseException | None = None
        self.done = threading.Event()
        self.signals = _Signals()
        self._thread = threading.Thread(target=self._run, name="tafl-read", daemon=True)

    def _run(self) -> None:
        reporter = progress.Reporter(lambda d, t: self.signals.progressed.emit(d, t), self._cancel.is_set)
        try:
            with progress.reporting(reporter):
                self.result = self._work()
        except BaseException as exc:  # noqa: BLE001 - handed to the window's thread, which decides
            self.error = exc
        finally:
            self.done.set()
            self.signals.ended.emit()

    def cancel(self) -> None:
        self._cancel.set()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def start(self) -> None:
        self._thread.start()


def read_in_background(parent: QWidget, label: str, work: Callable[[], T], path: str | None = None) -> T:
    """Run ``work`` (a reader) in a thread while the window goes on; return its result or raise
    its exception (:class:`~tafl_desktop.core.progress.Cancelled` when the player cancelled).
    ``path``, the file read, lets a small file be read at once (:data:`SMALL_BYTES`)."""
    if path is not None and _small(path):
        return work()
    job = BackgroundRead(work)
    loop = QEventLoop()
    dialog = QProgressDialog(label, _("Cancel"), 0, 0, parent)
    dialog.setWindowTitle(_("Reading a game"))
    dialog.setWindowModality(Qt.WindowModality.WindowModal)
    dialog.setMinimumDuration(SHOW_AFTER_MS)
    dialog.setAutoClose(False)
    dialog.setAutoReset(False)
    dialog.canceled.connect(job.cancel)

    closed: list[bool] = []

    def progressed(done: int, total: int) -> None:
        if closed:  # news posted by the thread just before it ended, delivered after the dialog went
            return
        if total > 0:
            dialog.setMaximum(total)
            dialog.setLabelText(ngettext("{label}\n{done} of {total} move", "{label}\n{done} of {total} moves",
                                         total).format(label=label, done=done, total=total))
        dialog.setValue(min(done, total) if total > 0 else 0)

    job.signals.progressed.connect(progressed)
    job.signals.ended.connect(loop.quit)
    parent.setProperty("reading", True)
    with _collector_held():
        try:
            job.start()
            dialog.setValue(0)  # starts the dialog's clock: it shows itself after SHOW_AFTER_MS
            if not job.done.is_set():
                loop.exec()
            job.done.wait()
            cancelled = job.cancelled  # before the dialog closes: closing it says "canceled" too
        finally:
            closed.append(True)
            parent.setProperty("reading", False)
            dialog.close()
            dialog.deleteLater()
    if cancelled and not isinstance(job.error, progress.Cancelled):
        raise progress.Cancelled()  # pressed after the last move was read: the result is not kept either
    if job.error is not None:
        raise job.error
    return job.result


@contextmanager
def _collector_held() -> Iterator[None]:
    """Collect garbage here, in the window's thread, and pause the cyclic collector until the
    block ends, so that no collection runs in the reading thread (see the module docstring)."""
    was_enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _small(path: str) -> bool:
    import os
    import stat

    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return True  # the reader itself says why it cannot read it
    return not stat.S_ISREG(st.st_mode) or st.st_size <= SMALL_BYTES


def is_reading(widget: QWidget) -> bool:
    """True while ``widget`` waits for a background read (a second one is refused)."""
    return bool(widget.property("reading"))
