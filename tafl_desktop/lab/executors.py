"""Where a study's games are played: a local process pool, or an existing Dask cluster.

Both back-ends take the same jobs and hand back the same results, one at a time as games finish,
and both stop promptly when asked.  The pool is the standard library's ``multiprocessing`` pool
with the ``spawn`` start method (safe in a frozen app and under Qt); its ``terminate`` ends games
in play at once on cancel, which ``concurrent.futures`` cannot do.  For more than one machine the
lab uses Dask's ``distributed`` scheduler as it is, so there is no job server of our own to trust.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from tafl_desktop.i18n import _
from tafl_desktop.lab.play import play_job
from tafl_desktop.lab.study import Job, StudyError

ResultCallback = Callable[[dict[str, Any]], None]
StopCheck = Callable[[], bool]
#: How often a waiting back-end looks at the stop flag (seconds).
POLL = 0.25
#: Most local worker processes (a typo should not start a thousand interpreters).
MAX_WORKERS = 256


class Backend(Protocol):
    def run(self, jobs: Sequence[Job], on_result: ResultCallback, should_stop: StopCheck) -> bool:
        """Play ``jobs``; call ``on_result`` in the caller's thread for each finished game.
        True when every job finished, False when stopped."""


def default_workers() -> int:
    """The core count minus one (one core stays with the window and the system), at least 1."""
    return max(1, (os.cpu_count() or 2) - 1)


def _ignore_interrupts() -> None:
    # Ctrl+C in a terminal reaches the whole process group: the parent handles it and ends the
    # pool, so the workers must not each print a traceback of their own.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class ProcessPoolBackend:
    """``workers`` local processes, one game per task."""

    def __init__(self, workers: int | None = None) -> None:
        workers = default_workers() if workers is None else workers
        if not 1 <= workers <= MAX_WORKERS:
            raise StudyError(_("--workers must be from 1 to {most}").format(most=MAX_WORKERS))
        self.workers = workers

    def run(self, jobs: Sequence[Job], on_result: ResultCallback, should_stop: StopCheck) -> bool:
        if not jobs:
            return True
        pool = mp.get_context("spawn").Pool(min(self.workers, len(jobs)), initializer=_ignore_interrupts)
        finished = False
        try:
            it = pool.imap_unordered(play_job, jobs, chunksize=1)
            for _i in range(len(jobs)):
                while True:
                    if should_stop():
                        return False
                    try:
                        result = it.next(timeout=POLL)
                        break
                    except mp.TimeoutError:
                        continue
                on_result(result)
            finished = True
            return True
        finally:
            if finished:
                pool.close()
            else:
                pool.terminate()
            pool.join()


class DaskBackend:
    """An existing Dask ``distributed`` cluster at ``address`` (``tcp://host:port``)."""

    def __init__(self, address: str) -> None:
        if not address or len(address) > 300:
            raise StudyError(_("--scheduler needs an address such as tcp://127.0.0.1:8786"))
        self.address = address

    def run(self, jobs: Sequence[Job], on_result: ResultCallback, should_stop: StopCheck) -> bool:
        try:
            from distributed import Client, wait
        except ImportError:
            raise StudyError(_("Dask is not installed: install the lab extra (pip install 'tafl-desktop[lab]')")) \
                from None
        if not jobs:
            return True
        try:
            client = Client(self.address, timeout="15s")
        except (OSError, TimeoutError, ValueError) as exc:
            raise StudyError(_("cannot reach the Dask scheduler at {address}: {problem}").format(
                address=self.address[:100], problem=str(exc)[:200])) from None
        try:
            pending = set(client.map(play_job, list(jobs), pure=False))
            while pending:
                if should_stop():
                    client.cancel(list(pending))
                    return False
                try:
                    done, pending = wait(pending, timeout=POLL, return_when="FIRST_COMPLETED")
                except TimeoutError:
                    continue
                for fut in done:
                    on_result(fut.result())
            return True
        finally:
            client.close()


def make_backend(workers: int | None = None, scheduler: str | None = None) -> Backend:
    """The Dask back-end when a scheduler is named, else the local pool."""
    if scheduler:
        return DaskBackend(scheduler)
    return ProcessPoolBackend(workers)
