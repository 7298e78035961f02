"""Repeating a user's bad value in an error message, safely.

Every message that echoes something from a file, a command line or a file name goes through
:func:`quote` (a value) or :func:`shown` (a name): the text is shortened, so a 2 MB value cannot
make a 2 MB message (nor freeze a dialog laying it out), and control and bidirectional characters
are escaped (``\\n``, ``\\u202e``), so the message stays one line and reads in its true order.
"""

from __future__ import annotations

import reprlib
import unicodedata
from collections.abc import Iterable
from typing import Any

from tafl_desktop.core.marks import gettext as _
from tafl_desktop.core.marks import ngettext

#: Characters of a value shown before it is cut with an ellipsis.
LIMIT = 40
#: Longest file name or path shown in a message (a path of 4,096 characters is cut).
NAME_LIMIT = 260

_SPACES = frozenset(" \xa0\u202f")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape_char(ch: str) -> str:
    if ch in _NAMED:
        return _NAMED[ch]
    code = ord(ch)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def _unsafe(ch: str) -> bool:
    """Control, format (bidirectional marks and overrides are format characters), separator
    other than a plain or no-break space (French writes one before a colon), surrogate,
    private-use or unassigned: never shown raw."""
    if ch in _SPACES:
        return False
    return unicodedata.category(ch)[0] in "CZ"


def escape(text: str) -> str:
    """``text`` with every unsafe character written as an escape (``\\n``, ``\\x07``, ``\\u202e``)."""
    return "".join(_escape_char(ch) if _unsafe(ch) else ch for ch in text)


def clip(text: str, limit: int) -> str:
    """``text`` escaped and cut to at most ``limit`` characters *as shown* (an escape such as
    ``\\U0010ffff`` counts its ten), with an ellipsis where it was cut."""
    out: list[str] = []
    used = 0
    for ch in text:
        piece = _escape_char(ch) if _unsafe(ch) else ch
        if used + len(piece) > limit:
            return "".join(out) + "…"
        out.append(piece)
        used += len(piece)
    return "".join(out)


def shown(text: Any, limit: int = NAME_LIMIT) -> str:
    """A name (a file name, a path) for a message: escaped, and cut to ``limit`` characters."""
    return clip(str(text), limit)


class _ShortRepr(reprlib.Repr):
    """reprlib with small limits: a nested list is shown two levels deep, five items wide."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.maxlevel = 2
        self.maxlist = self.maxtuple = self.maxdict = self.maxset = self.maxfrozenset = 5
        self.maxstring = self.maxother = self.maxlong = limit

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 4 * self.maxlong:  # never convert a 5,000-digit number to text
            digits = int(x.bit_length() * 0.30103)
            return ngettext("<a number of about {n} digit>", "<a number of about {n} digits>", digits).format(n=digits)
        return super().repr_int(x, level)

    def repr_str(self, x: str, level: int) -> str:
        return quote(x, self.maxstring)


def quote(value: Any, limit: int = LIMIT) -> str:
    """``value`` as a message shows it: a text in single quotes, cut to ``limit`` characters with
    an ellipsis, unsafe characters escaped; anything else as a short ``repr``."""
    if isinstance(value, str):
        return "'" + clip(value, limit) + "'"
    try:
        text = _ShortRepr(limit).repr(value)
    except Exception:  # noqa: BLE001 - a value's own __repr__ may fail; the message must not
        text = f"<{type(value).__name__}>"
    return clip(text, 3 * limit)


#: Items a message lists by name before it says how many more there are.
MOST_ITEMS = 6
#: A list the program itself defines (option names, presets, allowed keys) is shown whole up to
#: this many names: it helps the user and cannot grow with the input.
KNOWN_MOST = 64


def listing(items: Iterable[Any], most: int = MOST_ITEMS, limit: int = LIMIT) -> str:
    """Items for a message, e.g. ``a1, a2, a3 and 97 more``: the first ``most`` only, each
    escaped and cut to ``limit`` characters, so a list of any length (squares, keys, values from
    a file) makes a message of bounded length.  Texts are shown as they are (they are names);
    quote them first with :func:`quote` where the message wants quotes."""
    shown_items: list[str] = []
    rest = 0
    for item in items:
        if len(shown_items) < most:
            shown_items.append(clip(item if isinstance(item, str) else quote(item, limit), limit))
        else:
            rest += 1
    text = ", ".join(shown_items)
    if rest:
        return _("{items} and {n} more").format(items=text, n=rest)
    return text


def known(items: Iterable[Any]) -> str:
    """A list the program itself defines (allowed keys, option names, presets), for "known: ..."
    in a message: shown whole up to :data:`KNOWN_MOST` names, through :func:`listing`."""
    return listing(items, KNOWN_MOST)


#: The reader's words for the operating system's commonest refusals (its own text, ``strerror``,
#: is in the system's language, which need not be the reader's): a lambda each, so that the text
#: is looked up in the language in use when it is needed.
_OS_REASONS = {
    "ENOENT": lambda: _("there is no such file or folder"),
    "EACCES": lambda: _("permission denied"),
    "EPERM": lambda: _("the operation is not permitted"),
    "EISDIR": lambda: _("it is a folder, not a file"),
    "ENOTDIR": lambda: _("a part of the path is not a folder"),
    "ENOSPC": lambda: _("the disk is full"),
    "EROFS": lambda: _("the disk can only be read"),
    "EEXIST": lambda: _("the file exists already"),
    "ENAMETOOLONG": lambda: _("the file name is too long"),
    "EBUSY": lambda: _("the file is in use"),
    "EINVAL": lambda: _("the name or value is not valid here"),
    "EIO": lambda: _("the disk could not be read or written"),
    "EMFILE": lambda: _("too many files are open"),
    "EDQUOT": lambda: _("the disk quota is used up"),
}


def os_reason(exc: BaseException) -> str:
    """Why a file operation failed, in the reader's language: our own refusal's sentence (see
    :class:`~tafl_desktop.core.safe_files.FileRefused`, already translated), the commonest
    operating-system errors in the catalogue's words, else the system's own text, shortened."""
    import errno

    if isinstance(exc, OSError):
        if type(exc).__name__ == "FileRefused" and exc.strerror:
            return shown(exc.strerror, 200)
        name = errno.errorcode.get(exc.errno or -1, "")
        if name in _OS_REASONS:
            return _OS_REASONS[name]()
        return shown(exc.strerror or exc, 200)
    return shown(exc, 200)


def json_problem(exc: ValueError) -> str:
    """What is wrong with a text that ``json.loads`` refused, in the reader's language (the
    parser's own message is English: "Expecting ',' delimiter: line 3 column 5 (char 40)")."""
    import json

    if isinstance(exc, json.JSONDecodeError):
        return _("not valid JSON at line {line}, column {column}").format(line=exc.lineno, column=exc.colno)
    if isinstance(exc, UnicodeDecodeError):
        return _("not UTF-8 text")
    # the one other ValueError of json.loads: an integer longer than Python converts
    return _("a number too long to read")

