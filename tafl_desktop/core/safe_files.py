"""Reading a user's file and writing over a user's path without hanging, exhausting memory or
destroying something that was not a file.

* :func:`read_limited` is how every game record and variant file is read: it looks at what the
  path is before opening it (a FIFO would block for ever, ``/dev/zero`` never ends, a 3 GiB file
  would be read whole), opens it non-blocking, and reads at most ``limit + 1`` bytes.
* :func:`write_safely` is how Save Game, Save as Variant, the autosave, the printable set and the
  screenshot write: a link is followed to the file it names (the link stays a link), a device
  node, folder, FIFO or socket is refused, and a regular file is replaced atomically (temporary
  file in the same folder, flush, fsync, rename), so either the old or the whole new file exists.

Both raise :class:`FileRefused`, an ``OSError`` whose ``strerror`` is one sentence, so callers
that already turn ``OSError`` into a message need nothing new.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path

from tafl_desktop.core.marks import gettext as _
from tafl_desktop.core.marks import ngettext


class FileRefused(OSError):
    """A path that is not a regular file we may read or replace; ``strerror`` says what it is."""


def _kind(mode: int) -> str:
    """What a non-regular file is, in words."""
    if stat.S_ISDIR(mode):
        return _("it is a folder, not a file")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return _("it is a device, not a file")
    if stat.S_ISFIFO(mode):
        return _("it is a pipe (FIFO), not a file")
    if stat.S_ISSOCK(mode):
        return _("it is a socket, not a file")
    return _("it is not a regular file")


def _refuse(mode: int, path: str | os.PathLike[str]) -> FileRefused:
    code = errno.EISDIR if stat.S_ISDIR(mode) else errno.EINVAL
    return FileRefused(code, _kind(mode), str(path))


def read_limited(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of the regular file ``path`` (links followed), if it has at most ``limit`` bytes.

    Raises :class:`FileRefused` for anything that is not a regular file or is too large (checked
    before reading, and again by reading at most ``limit + 1`` bytes, in case it grows), and
    ``OSError`` for a file that cannot be opened.
    """
    if not str(path):
        raise FileRefused(errno.ENOENT, _("no file name was given"), "")
    st = os.stat(path)
    if not stat.S_ISREG(st.st_mode):
        raise _refuse(st.st_mode, path)
    if st.st_size > limit:
        raise FileRefused(errno.EFBIG, _("it has {size} bytes, more than the {limit} allowed").format(
            size=st.st_size, limit=limit), str(path))
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    try:
        st = os.fstat(fd)  # the path may have been swapped for a FIFO between stat and open
        if not stat.S_ISREG(st.st_mode):
            raise _refuse(st.st_mode, path)
        chunks: list[bytes] = []
        left = limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limit:
        why = ngettext("it has more than the {limit} byte allowed", "it has more than the {limit} bytes allowed",
                       limit).format(limit=limit)
        raise FileRefused(errno.EFBIG, why, str(path))
    return data


def resolve_target(path: str | os.PathLike[str]) -> Path:
    """The path a write really goes to: links followed to the file they name.  Raises
    :class:`FileRefused` for an empty name and for an existing target that is not a regular file."""
    if not str(path):
        raise FileRefused(errno.ENOENT, _("no file name was given"), "")
    target = Path(os.path.realpath(path))
    try:
        st = os.stat(target)
    except FileNotFoundError:
        return target
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise FileRefused(errno.ELOOP, _("its links go round in a circle"), str(path)) from None
        raise
    if not stat.S_ISREG(st.st_mode):
        raise _refuse(st.st_mode, path)
    return target


def write_safely(path: str | os.PathLike[str], data: bytes | str) -> Path:
    """Replace the regular file ``path`` (or the file a link there names) with ``data``, atomically;
    return the path written.  A new file gets the usual permissions (0666 less the umask), a
    replaced one keeps its own."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    target = resolve_target(path)
    folder = target.parent
    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())  # the bytes are on disk before the rename makes them the file
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return target
