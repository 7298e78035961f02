"""An external engine's process, run so that nothing it does can block its host.

Headless (threads and queues, no Qt): the window's timer and the command-line referee use the
same object.  The rules it keeps, each the answer to a way a hostile or broken engine froze the
window or left processes behind (issue 26):

* **Nothing waits on the caller's thread.**  The process is started (fork and exec) by a starter
  thread; a program that does not exist is refused at once.  Lines to the engine go through a
  bounded queue to a writer thread; an engine that never reads fills its pipe and then that queue, and
  :meth:`EngineProcess.send` says so (it returns False) instead of blocking.  Lines from the
  engine come through a reader thread into a bounded queue, each at most :data:`MAX_LINE` bytes
  (a longer one is read past, never held), decoded with replacement.
* **A crash is noticed by the exit, not the end of output.**  A watcher thread waits for the
  process itself (``waitid`` without reaping, so its id, which is also its process group's id,
  cannot be reused while the group is ended); a helper that keeps the output pipe open hides
  nothing.
* **The whole process group ends.**  The engine starts in a session (and process group) of its
  own; when it exits, crashes or is closed, the group gets SIGTERM and, if any of it is left
  :data:`KILL_GRACE` seconds later, SIGKILL, so no helper outlives it.
* **Closing never blocks.**  :meth:`EngineProcess.close` queues ``goodbye`` and leaves the rest
  to a closer thread: after :data:`CLOSE_GRACE` seconds a live engine's group is ended.  That
  thread is not a daemon, so quitting the app still ends every engine it started.

On Windows, where there are no process groups or ``waitid``, the engine gets a new process group
and is ended with ``TerminateProcess``; its helpers are not tracked.
"""

from __future__ import annotations

import contextlib
import errno
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence

#: Longest protocol line kept (bytes); a longer one is read past and arrives as :data:`TOO_LONG`.
MAX_LINE = 64 * 1024
#: Lines from the engine held before its output pipe is left to fill (it then waits for us).
MAX_LINES_IN = 1024
#: Lines to the engine held before it counts as not reading (each a few hundred bytes at most,
#: beyond the 64 kB its pipe already holds).
MAX_LINES_OUT = 256
#: Seconds a closed engine has to leave after ``goodbye`` before its group is ended.
CLOSE_GRACE = 1.0
#: Seconds between SIGTERM and SIGKILL to a process group.
KILL_GRACE = 0.5
#: What the reader queues for a line longer than MAX_LINE.
TOO_LONG = "\x00line-too-long"

_POSIX = os.name == "posix"
_LINUX = sys.platform.startswith("linux")


class EngineProcess:
    """One engine process with its reader, writer, exit watcher and (once closed) closer threads."""

    def __init__(self, args: Sequence[str], cwd: str | None = None) -> None:
        """Start ``args`` in a starter thread (fork and exec took up to 225 ms on a loaded
        machine: not the caller's time).  OSError at once when the program cannot be found;
        any later failure to start is :attr:`start_error`, and the process counts as exited."""
        self.args = list(args)
        if not self.args:
            raise OSError(errno.ENOENT, "no command")
        program = self.args[0]
        if shutil.which(program) is None and not (cwd and shutil.which(os.path.join(cwd, program))):
            if os.path.exists(program):
                raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), program)
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), program)
        self.cwd = cwd
        self.proc: subprocess.Popen | None = None
        self.pid: int | None = None
        self.start_error: str = ""
        self.lines: queue.Queue[str | None] = queue.Queue(MAX_LINES_IN)
        self._outbox: queue.Queue[bytes | None] = queue.Queue(MAX_LINES_OUT)
        self._started = threading.Event()
        self._exited = threading.Event()
        self._ended = threading.Event()  # the group has been ended and the process reaped
        self._closing = threading.Event()
        self.exit_code: int | None = None
        self.exit_time: float | None = None
        self.output_ended = False
        self.write_failed = False
        self.not_reading = False
        self.name = os.path.basename(self.args[0])
        threading.Thread(target=self._start, name=f"engine-{self.name}-starter", daemon=True).start()

    def _start(self) -> None:
        extra: dict = {"start_new_session": True} if _POSIX else {
            "creationflags": getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)}
        try:
            self.proc = subprocess.Popen(self.args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, cwd=self.cwd, bufsize=0, **extra)
        except (OSError, ValueError) as exc:
            self.start_error = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
            self.exit_time = time.monotonic()
            self.output_ended = True
            self._exited.set()
            self._ended.set()
            self._started.set()
            with contextlib.suppress(queue.Full):
                self.lines.put_nowait(None)
            return
        self.pid = self.proc.pid
        self._started.set()
        for target, role in ((self._read, "reader"), (self._write, "writer"), (self._watch, "watcher")):
            threading.Thread(target=target, name=f"engine-{self.name}-{role}", daemon=True).start()

    # ------------------------------------------------------------------------------ threads
    def _read(self) -> None:
        assert self.proc is not None
        stream = self.proc.stdout
        assert stream is not None
        try:
            for line in (self._lines_polled(stream.fileno()) if _POSIX else self._lines_blocking(stream)):
                if not self._queue_line(line):
                    return
        except (OSError, ValueError):
            pass
        self.output_ended = True
        self._queue_line(None)

    def _lines_polled(self, fd: int):
        """Lines from ``fd`` read in chunks as they come; the wait is in slices, so the reader
        ends once the engine's group is gone even if a stray process holds the pipe open."""
        import selectors

        sel = selectors.DefaultSelector()
        sel.register(fd, selectors.EVENT_READ)
        pending = b""
        skipping = False
        try:
            while True:
                if not sel.select(0.2):
                    if self._ended.is_set():
                        return
                    continue
                chunk = os.read(fd, 65536)
                if not chunk:
                    if pending and not skipping:  # a last line without its newline
                        yield pending.decode("utf-8", "replace").rstrip("\r")
                    return
                pending += chunk
                while True:
                    nl = pending.find(b"\n")
                    if nl < 0:
                        if len(pending) > MAX_LINE:  # a line too long: read past it, keep nothing
                            pending, skipping = b"", True
                        break
                    line, pending = pending[:nl], pending[nl + 1:]
                    if skipping or len(line) > MAX_LINE:
                        skipping = False
                        yield TOO_LONG
                        continue
                    yield line.decode("utf-8", "replace").rstrip("\r")
        finally:
            sel.close()

    @staticmethod
    def _lines_blocking(stream):
        while True:
            line = stream.readline(MAX_LINE + 1)
            if not line:
                return
            if len(line) > MAX_LINE and not line.endswith(b"\n"):
                while line and not line.endswith(b"\n"):
                    line = stream.readline(MAX_LINE)
                yield TOO_LONG
                continue
            yield line.decode("utf-8", "replace").rstrip("\r\n")

    def _queue_line(self, line: str | None) -> bool:
        """Queue a line, waiting while the queue is full (the engine then waits on its pipe);
        False once the engine is closed and nobody will read it any more."""
        while True:
            try:
                self.lines.put(line, timeout=0.2)
                return True
            except queue.Full:
                if self._closing.is_set():
                    return False

    def _write(self) -> None:
        assert self.proc is not None
        stream = self.proc.stdin
        assert stream is not None
        try:
            while True:
                data = self._outbox.get()
                if data is None:
                    break
                view = memoryview(data)
                while view:
                    view = view[stream.write(view) or 0:]
        except (OSError, ValueError):
            self.write_failed = True
        with contextlib.suppress(OSError):
            stream.close()

    def _watch(self) -> None:
        """Wait for the engine's exit, end its group, then reap it."""
        assert self.proc is not None and self.pid is not None
        code: int | None = None
        waitid = getattr(os, "waitid", None)
        if waitid is not None:
            try:
                info = waitid(os.P_PID, self.pid, os.WEXITED | os.WNOWAIT)
                if info is not None:
                    code = info.si_status if info.si_code == os.CLD_EXITED else -info.si_status
            except ChildProcessError:
                pass  # already reaped (a caller's Popen.wait got there first)
            except OSError:
                waitid = None
        if waitid is None:
            code = self.proc.wait()
        self.exit_time = time.monotonic()
        self.exit_code = code if code is not None else self.proc.returncode
        self._exited.set()
        self._end_group()
        with contextlib.suppress(ChildProcessError, OSError):
            self.proc.wait()
        if self.exit_code is None:
            self.exit_code = self.proc.returncode
        self._ended.set()
        with contextlib.suppress(queue.Full):
            self._outbox.put_nowait(None)  # the writer ends too

    def _signal_group(self, sig: int) -> None:
        if self.proc is None or self.pid is None:
            return
        if _POSIX:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, sig)
        elif self.proc.returncode is None:
            with contextlib.suppress(OSError):
                self.proc.kill()

    def _end_group(self) -> None:
        """SIGTERM to the engine's whole group and, if any of it is still there KILL_GRACE
        seconds later, SIGKILL.  (The engine itself is not reaped yet, so the group's id is
        still taken and cannot name someone else's processes.)"""
        if not _POSIX:
            self._signal_group(0)
            return
        pid = self.pid
        if pid is None:
            return  # never started: no group
        if _LINUX and not live_group_members(pid):
            return  # it left alone, with no helper behind
        self._signal_group(signal.SIGTERM)
        deadline = time.monotonic() + KILL_GRACE
        while time.monotonic() < deadline:
            time.sleep(0.02)
            if _LINUX and not live_group_members(pid):
                return
        self._signal_group(signal.SIGKILL)
        deadline = time.monotonic() + 2.0  # SIGKILL is delivered at once, the exit takes a moment
        while _LINUX and live_group_members(pid) and time.monotonic() < deadline:
            time.sleep(0.02)
            self._signal_group(signal.SIGKILL)  # a helper forked meanwhile is killed too

    def _close(self, grace: float) -> None:
        self._started.wait(30.0)
        if not self._exited.wait(grace):
            self._signal_group(signal.SIGTERM if _POSIX else 0)
            if not self._exited.wait(KILL_GRACE):
                self._signal_group(signal.SIGKILL if _POSIX else 0)
        self._ended.wait(KILL_GRACE + 5.0)
        # a writer stuck on a full pipe and a reader on a full queue end with the process
        with contextlib.suppress(queue.Full):
            self._outbox.put_nowait(None)

    # ------------------------------------------------------------------------------ the API
    def send(self, line: str) -> bool:
        """Queue one line for the engine; False (and :attr:`not_reading` set) when it has left
        too many unread, or the pipe is broken.  Never blocks."""
        if self.write_failed or self._closing.is_set():
            return False
        try:
            self._outbox.put_nowait((line + "\n").encode("utf-8", "replace"))
        except queue.Full:
            self.not_reading = True
            return False
        return True

    @property
    def exited(self) -> bool:
        """Has the engine's process exited (noticed within milliseconds by the watcher)?"""
        return self._exited.is_set()

    @property
    def closed(self) -> bool:
        return self._closing.is_set()

    def close(self, grace: float | None = None) -> None:
        """``goodbye``, then the engine's group is ended if it has not left within ``grace``
        seconds (default CLOSE_GRACE).  Returns at once: a closer thread (not a daemon, so the
        app waits for it when it quits) does the waiting."""
        if self._closing.is_set():
            return
        grace = CLOSE_GRACE if grace is None else grace
        if not self._exited.is_set():
            with contextlib.suppress(queue.Full):
                self._outbox.put_nowait(b"goodbye\n")
        self._closing.set()
        threading.Thread(target=self._close, args=(grace,), name="engine-closer", daemon=False).start()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the engine has exited and its group was ended (for the command line and
        tests, never the window); True when that happened within ``timeout`` seconds."""
        return self._ended.wait(timeout)


def live_group_members(pgid: int) -> list[int]:
    """Process ids still in process group ``pgid``, zombies excluded (from /proc; Linux only, an
    empty list elsewhere).  For tests and diagnostics."""
    found = []
    if not sys.platform.startswith("linux"):
        return found
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                stat = fh.read().decode("ascii", "replace")
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2:].split()
        if len(fields) > 2 and fields[0] != "Z" and int(fields[2]) == pgid:
            found.append(int(entry))
    return found
