"""Where a study's games are played: a local process pool, or an existing Dask cluster.

Both back-ends take the same jobs and hand back the same results, one at a time as games finish,
and both stop promptly when asked.  The pool is the standard library's ``multiprocessing`` pool
with the ``spawn`` start method (safe in a frozen app and under Qt); its ``terminate`` ends games
in play at once on cancel, which ``concurrent.futures`` cannot do.  For more than one machine the
lab uses Dask's ``distributed`` scheduler as it is, so there is no job server of our own to trust.

Jobs are taken from an iterator a few at a time (a window of games in flight), never listed whole:
the largest study the limits allow has 6.4 million games, and listing their jobs up front held a
gigabyte before the first game was played.  A scheduler address is checked before any connection
(one line for anything but ``tcp://HOST:PORT`` or ``ws://HOST:PORT``), and the scheduler must
answer Dask's ``identity`` call within :data:`CONNECT_TIMEOUT` seconds: Dask's own client waits
for ever on a server that accepts the connection and then says nothing.
"""

from __future__ import annotations

import itertools
import multiprocessing as mp
import os
import queue
import re
import signal
from collections.abc import Callable, Iterable, Iterator
from decimal import Decimal
from typing import Any, Protocol

from tafl_desktop.i18n import _, ngettext
from tafl_desktop.lab.play import play_job
from tafl_desktop.lab.study import Job, StudyError

ResultCallback = Callable[[dict[str, Any]], None]
StopCheck = Callable[[], bool]
#: How often a waiting back-end looks at the stop flag (seconds).
POLL = 0.25
#: Most local worker processes (a typo should not start a thousand interpreters).
MAX_WORKERS = 256
#: Games handed out per worker before one comes back (keeps every worker busy, bounds memory).
WINDOW_PER_WORKER = 2
#: Games in flight on a Dask cluster at once.
DASK_WINDOW = 512
#: Seconds a Dask scheduler has to answer before the lab gives up with one line.
CONNECT_TIMEOUT = 10.0
#: Schemes the lab connects with: TLS (``tls://``, ``wss://``) needs certificates the lab takes no
#: settings for, and ``inproc://``/``ucx://`` are not reachable from a separate command.
SCHEMES = ("tcp", "ws")
_HOST_PORT = re.compile(r"^(?:\[(?P<ip6>[0-9A-Fa-f:.]+)\]|(?P<host>[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})))"
                        r":(?P<port>[0-9]{1,5})$")


class Backend(Protocol):
    def run(self, jobs: Iterable[Job], on_result: ResultCallback, should_stop: StopCheck) -> bool:
        """Play ``jobs`` (taken from the iterable as workers free up); call ``on_result`` in the
        caller's thread for each finished game.  True when every job finished, False when stopped."""


def default_workers() -> int:
    """The core count minus one (one core stays with the window and the system), at least 1."""
    return max(1, (os.cpu_count() or 2) - 1)


def _ignore_interrupts() -> None:
    # Ctrl+C in a terminal reaches the whole process group: the parent handles it and ends the
    # pool, so the workers must not each print a traceback of their own.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class _Failed:
    """A game that raised in its worker (carried back through the result queue)."""

    def __init__(self, exc: BaseException) -> None:
        self.exc = exc


def _game_failed(exc: BaseException) -> StudyError:
    from tafl_desktop.core.quoting import quote

    return StudyError(_("a game of the study could not be played: {problem}").format(
        problem=quote(f"{type(exc).__name__}: {exc}", 200)))


class ProcessPoolBackend:
    """``workers`` local processes, one game per task, a small window of games in flight."""

    def __init__(self, workers: int | None = None) -> None:
        workers = default_workers() if workers is None else workers
        if not 1 <= workers <= MAX_WORKERS:
            raise StudyError(_("--workers must be from 1 to {most}").format(most=MAX_WORKERS))
        self.workers = workers

    def run(self, jobs: Iterable[Job], on_result: ResultCallback, should_stop: StopCheck) -> bool:
        pending: Iterator[Job] = iter(jobs)
        first = list(itertools.islice(pending, self.workers))
        if not first:
            return True
        pending = itertools.chain(first, pending)
        window = len(first) * WINDOW_PER_WORKER
        results: queue.Queue[Any] = queue.Queue()
        pool = mp.get_context("spawn").Pool(len(first), initializer=_ignore_interrupts)
        finished = False
        in_flight = 0
        try:
            while True:
                while in_flight < window:
                    job = next(pending, None)
                    if job is None:
                        break
                    pool.apply_async(play_job, (job,), callback=results.put,
                                     error_callback=lambda exc: results.put(_Failed(exc)))
                    in_flight += 1
                if in_flight == 0:
                    break
                while True:
                    if should_stop():
                        return False
                    try:
                        item = results.get(timeout=POLL)
                        break
                    except queue.Empty:
                        continue
                in_flight -= 1
                if isinstance(item, _Failed):
                    raise _game_failed(item.exc)
                on_result(item)
            finished = True
            return True
        finally:
            if finished:
                pool.close()
            else:
                pool.terminate()
            pool.join()


def scheduler_address(text: str) -> str:
    """``text`` as a Dask scheduler address (``tcp://HOST:PORT``; no scheme means tcp), or a
    StudyError saying what is wrong with it, before any connection is tried."""
    from tafl_desktop.core.quoting import quote

    example = "tcp://127.0.0.1:8786"
    if not text or len(text) > 300:
        raise StudyError(_("--scheduler needs an address such as {example}").format(example=example))
    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "tcp", text
    if scheme not in SCHEMES:
        raise StudyError(_("--scheduler: {scheme} addresses are not supported; give tcp://HOST:PORT or "
                           "ws://HOST:PORT").format(scheme=quote(scheme + "://", 40)))
    m = _HOST_PORT.match(rest) if rest.isascii() else None
    if m is None or not 1 <= int(m["port"]) <= 65535:
        raise StudyError(_("--scheduler: {address} is not an address such as {example}").format(
            address=quote(text, 80), example=example))
    return f"{scheme}://{rest}"


def _probe(address: str, timeout: float) -> None:
    """Ask the scheduler at ``address`` for its identity; raise if it does not answer in time."""
    import asyncio

    from distributed.core import rpc

    async def ask() -> None:
        remote = rpc(address, timeout=timeout)
        try:
            await asyncio.wait_for(remote.identity(), timeout)
        finally:
            await remote.close_rpc()

    asyncio.run(ask())


class DaskBackend:
    """An existing Dask ``distributed`` cluster at ``address`` (``tcp://host:port``)."""

    def __init__(self, address: str, connect_timeout: float = CONNECT_TIMEOUT) -> None:
        self.address = scheduler_address(address)
        self.connect_timeout = connect_timeout
        self._answered = False

    def check(self) -> None:
        """StudyError (one line) unless Dask is installed and the scheduler answers in time."""
        if self._answered:
            return
        try:
            import distributed  # noqa: F401 - only whether it is there
        except ImportError:
            raise StudyError(_("Dask is not installed: install the lab extra (pip install 'tafl-desktop[lab]')")) \
                from None
        try:
            _probe(self.address, self.connect_timeout)
        except Exception as exc:  # noqa: BLE001 - Dask raises many kinds; each is one line here
            raise self._unreachable(exc) from None
        self._answered = True

    def _unreachable(self, exc: BaseException) -> StudyError:
        from tafl_desktop.core.quoting import quote

        if isinstance(exc, TimeoutError) or "timed out" in str(exc).lower():
            return StudyError(ngettext("no Dask scheduler answered at {address} within {seconds:g} second",
                                       "no Dask scheduler answered at {address} within {seconds:g} seconds",
                                       Decimal(f"{self.connect_timeout:g}")).format(
                address=quote(self.address, 100), seconds=self.connect_timeout))
        return StudyError(_("cannot reach the Dask scheduler at {address}: {problem}").format(
            address=quote(self.address, 100), problem=quote(str(exc) or type(exc).__name__, 200)))

    def run(self, jobs: Iterable[Job], on_result: ResultCallback, should_stop: StopCheck) -> bool:
        pending_jobs: Iterator[Job] = iter(jobs)
        first = next(pending_jobs, None)
        if first is None:
            return True
        self.check()
        from distributed import Client, wait

        try:
            client = Client(self.address, timeout=f"{self.connect_timeout:g}s")
        except Exception as exc:  # noqa: BLE001 - Dask raises many kinds; each is one line here
            raise self._unreachable(exc) from None
        pending_jobs = itertools.chain([first], pending_jobs)
        try:
            pending: set[Any] = set()
            while True:
                while len(pending) < DASK_WINDOW:
                    job = next(pending_jobs, None)
                    if job is None:
                        break
                    pending.add(client.submit(play_job, job, pure=False))
                if not pending:
                    return True
                if should_stop():
                    client.cancel(list(pending))
                    return False
                try:
                    done, pending = wait(pending, timeout=POLL, return_when="FIRST_COMPLETED")
                except TimeoutError:
                    continue
                for fut in done:
                    try:
                        result = fut.result()
                    except Exception as exc:  # noqa: BLE001 - a worker's failure, as one line
                        raise _game_failed(exc) from None
                    on_result(result)
        finally:
            client.close()


def make_backend(workers: int | None = None, scheduler: str | None = None) -> Backend:
    """The Dask back-end when a scheduler is named, else the local pool."""
    if scheduler is not None:
        return DaskBackend(scheduler)
    return ProcessPoolBackend(workers)
