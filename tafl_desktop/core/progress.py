"""Progress and cancel for long reads (a game of 20,000 moves replays for seconds), without a
callback threaded through every reader's signature.

A reader calls :func:`moves` as it replays (``moves(done, total)``); that costs almost nothing
when nobody listens.  Whoever runs the read in the background (the window's loader) installs a
:class:`Reporter` for its own thread with :func:`reporting`; the reporter passes the figures on
at most every few hundredths of a second, and raises :class:`Cancelled` out of the reader once
the player pressed Cancel, so a cancelled read stops within one move and changes nothing.

Pure Python (a context variable): each thread, and each reader in it, sees its own reporter.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar


class Cancelled(Exception):
    """The read was cancelled by the player; nothing it built is kept."""


class Reporter:
    """Receives a read's progress: ``callback(done, total)`` (``total`` 0 when unknown) at most
    every ``interval`` seconds; ``cancelled()`` True stops the read with :class:`Cancelled`."""

    def __init__(self, callback: Callable[[int, int], None], cancelled: Callable[[], bool] = lambda: False,
                 interval: float = 0.05) -> None:
        self.callback = callback
        self.cancelled = cancelled
        self.interval = interval
        self._last = 0.0

    def report(self, done: int, total: int) -> None:
        if self.cancelled():
            raise Cancelled()
        now = time.monotonic()
        if now - self._last >= self.interval:
            self._last = now
            self.callback(done, total)


_current: ContextVar[Reporter | None] = ContextVar("tafl_desktop_progress", default=None)


def moves(done: int, total: int = 0) -> None:
    """``done`` of ``total`` moves replayed so far (raises Cancelled when the reader was cancelled)."""
    reporter = _current.get()
    if reporter is not None:
        reporter.report(done, total)


@contextmanager
def reporting(reporter: Reporter) -> Iterator[Reporter]:
    """Let the reads inside this block report to ``reporter``."""
    token = _current.set(reporter)
    try:
        yield reporter
    finally:
        _current.reset(token)
