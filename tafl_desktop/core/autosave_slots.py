"""One autosave file per running window, so two windows never remove each other's game.

Every window keeps its unfinished game in a *slot*: ``autosave.tafl.json`` (slot 1, the name every
earlier version used), ``autosave-2.tafl.json``, ``autosave-3.tafl.json``...  Beside each slot is a
lock file (``.autosave-2.tafl.json.lock``) that the owning process holds with an operating-system
lock (``flock`` on POSIX, ``msvcrt.locking`` on Windows).  The system drops the lock when the
process ends in any way, ``kill -9`` and a power cut included, so:

* a slot whose lock can be taken and whose file exists is an *orphan*: a game left by a window
  that is gone, which the next start offers back;
* a slot whose lock cannot be taken belongs to a live window: nobody else reads, adopts or
  removes it;
* a new window takes the lowest slot that is free (lock taken, no file).

Pure Python (no Qt): the start-up code in ``gui.app`` decides what to offer and the window
writes its slot.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

#: The first slot's name (the single autosave of earlier versions).
BASE_NAME = "autosave.tafl.json"
_SLOT = re.compile(r"^autosave(?:-([1-9][0-9]{0,5}))?\.tafl\.json$")
#: Slots are numbered up to this; more windows than that run without an autosave.
MAX_SLOTS = 999


class SlotLock:
    """An operating-system lock on one slot's lock file, held until :meth:`release` (or the
    process ends)."""

    def __init__(self, fd: int, path: Path) -> None:
        self._fd: int | None = fd
        self.path = path

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        """Let the slot go (its file stays: a later start may offer it)."""
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        try:
            _unlock(fd)
        finally:
            os.close(fd)

    def __del__(self) -> None:  # a window dropped without closing must not keep its slot for ever
        try:
            self.release()
        except OSError:
            pass


if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _lock(fd: int) -> bool:
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def _unlock(fd: int) -> None:
        try:
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        except OSError:
            pass
else:
    import fcntl

    def _lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return False
        return True

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)


def slot_path(folder: Path, number: int) -> Path:
    """The autosave file of slot ``number`` (1 is ``autosave.tafl.json``)."""
    return folder / (BASE_NAME if number == 1 else f"autosave-{number}.tafl.json")


def slot_number(path: Path) -> int | None:
    """The slot a file name is, or None for any other file."""
    m = _SLOT.match(path.name)
    if not m:
        return None
    return int(m.group(1)) if m.group(1) else 1


def lock_path(path: Path) -> Path:
    return path.with_name(f".{path.name}.lock")


def try_lock(path: Path) -> SlotLock | None:
    """Take the lock of the slot whose file is ``path``, or None when a live process holds it (or
    the lock file cannot be made)."""
    target = lock_path(path)
    try:
        fd = os.open(target, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        return None
    if not _lock(fd):
        os.close(fd)
        return None
    return SlotLock(fd, target)


@dataclass
class Orphan:
    """An autosave file no live window owns; its lock is held while it is offered."""

    path: Path
    lock: SlotLock
    modified: float


def orphans(folder: Path) -> list[Orphan]:
    """Every slot file in ``folder`` whose window is gone, newest first.  Their locks are held
    by the caller until it adopts one slot and releases the others."""
    found: list[Orphan] = []
    try:
        entries = sorted(folder.iterdir())
    except OSError:
        return found
    for entry in entries:
        number = slot_number(entry)
        if number is None or number > MAX_SLOTS:
            continue
        try:
            if not entry.is_file():
                continue
            modified = entry.stat().st_mtime
        except OSError:
            continue
        lock = try_lock(entry)
        if lock is not None:
            found.append(Orphan(entry, lock, modified))
    found.sort(key=lambda o: -o.modified)
    return found


def claim_free_slot(folder: Path) -> tuple[Path, SlotLock] | None:
    """The lowest slot that no window owns and no file holds, locked for this window (None when
    the folder cannot hold one)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    for number in range(1, MAX_SLOTS + 1):
        path = slot_path(folder, number)
        if os.path.lexists(path):
            continue
        lock = try_lock(path)
        if lock is None:
            continue
        if os.path.lexists(path):  # another start wrote it between the look and the lock
            lock.release()
            continue
        return path, lock
    return None
