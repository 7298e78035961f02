"""Backslash escapes for texts inside other programs' record files (tags and comments of
``.otg`` and ``.pgn``), so that any text a player wrote goes out and comes back unchanged.

Each format has characters that end a text early or split it: ``]`` ends an OpenTafl tag or
comment, ``|`` separates OpenTafl's comments, ``"`` ends a PGN tag value, and a line break ends
a PGN line.  Those, backslashes, control characters and line separators are written as escapes
the way C and JSON spell them (``\\\\``, ``\\n``, ``\\r``, ``\\t``, ``\\"``, ``\\xHH``,
``\\uHHHH``, ``\\UHHHHHHHH``); spaces at either end (which readers trim) are written ``\\x20``.
``\\_`` stands for nothing: it breaks a sequence a reader would take for something else, such as
``1. `` in an OpenTafl header (OpenTafl's reader starts the moves at the first ``1. `` of the
file, in a tag or not) or digits opening an OpenTafl comment (OpenTafl takes them for the time
left on the clock).  Another program shows the escapes as they are: the text stays readable,
and nothing in it can break that program's reader.
"""

from __future__ import annotations

import re
import unicodedata

_NAMED = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_DECODE = re.compile(r"\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)", re.DOTALL)
_SIMPLE = {"\\": "\\", "n": "\n", "r": "\r", "t": "\t", '"': '"', "_": ""}


def _code(ch: str) -> str:
    n = ord(ch)
    return f"\\x{n:02x}" if n <= 0xFF else f"\\u{n:04x}" if n <= 0xFFFF else f"\\U{n:08x}"


def _needs_escape(ch: str, special: str, keep_newlines: bool) -> bool:
    if ch == "\n" and keep_newlines:
        return False
    if ch in special or ch in _NAMED:
        return True
    # control characters, line and paragraph separators, lone surrogates: never written raw
    return unicodedata.category(ch) in ("Cc", "Zl", "Zp", "Cs")


def escape(text: str, special: str = "", keep_newlines: bool = False, quote_char: str = "") -> str:
    """``text`` with backslashes, ``special`` characters, control characters and line separators
    escaped (``quote_char`` as ``\\"``); spaces at either end as ``\\x20``; ``keep_newlines``
    leaves line breaks inside the text as they are (OpenTafl's comments may span lines)."""
    pieces = []
    for ch in text:
        if quote_char and ch == quote_char:
            pieces.append("\\" + ch)
        elif _needs_escape(ch, special, keep_newlines):
            pieces.append(_NAMED.get(ch) or _code(ch))
        else:
            pieces.append(ch)
    # whitespace at either end would be trimmed by the readers: escape it
    i = 0
    while i < len(pieces) and pieces[i].isspace():
        pieces[i] = _NAMED.get(pieces[i]) or _code(pieces[i])
        i += 1
    j = len(pieces) - 1
    while j >= i and pieces[j].isspace():
        pieces[j] = _NAMED.get(pieces[j]) or _code(pieces[j])
        j -= 1
    return "".join(pieces)


def guard(text: str, sequence: str) -> str:
    """``text`` with ``\\_`` inside every ``sequence`` (after its first character), so that no
    reader finds ``sequence`` in it; :func:`unescape` removes the guards."""
    return text.replace(sequence, sequence[0] + "\\_" + sequence[1:]) if sequence else text


def guard_leading_digit(text: str) -> str:
    """``\\_`` before a text that opens with a digit (OpenTafl reads leading digits of a comment
    as the time left on the clock and cuts them off)."""
    return "\\_" + text if text[:1].isdigit() else text


def unescape(text: str) -> str:
    """The text :func:`escape` (and :func:`guard`) wrote; an unknown escape is kept as it is."""
    if "\\" not in text:
        return text

    def one(m: re.Match[str]) -> str:
        code = m.group(1)
        if len(code) > 1:
            n = int(code[1:], 16)
            return chr(n) if n <= 0x10FFFF else m.group(0)
        return _SIMPLE.get(code, m.group(0))

    return _DECODE.sub(one, text)
