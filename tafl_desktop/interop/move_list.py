"""Plain move lists as posted in forums and other programs' logs: ``1. d1-d3 e5-e2xe3 2. ...``.

Move numbers, commas and OpenTafl's info suffixes (``+``, ``-``, ``++``, ``--``) are optional;
captures after ``x`` (``/`` or ``,`` separated) are checked against ours when present.  A list
says nothing of its variant: the caller names it (``--variant`` on the command line).
"""

from __future__ import annotations

import re

from tafl_desktop.core.game import Game
from tafl_desktop.core.quoting import shown
from tafl_desktop.core.record_limits import MAX_MOVES, MAX_RECORD_BYTES, too_many_moves
from tafl_desktop.i18n import _
from tafl_desktop.interop.transfer import GameTransfer, InteropError, play_listed

MAX_BYTES = MAX_RECORD_BYTES
_NUMBER = re.compile(r"^\d+\.+$", re.ASCII)
_MOVE = re.compile(r"^K?([a-s]\d{1,2})-?([a-s]\d{1,2})(?:x([a-s0-9/]*))?[+-]{0,2}$", re.ASCII)


def parse_moves(text: str, where: str = "moves") -> list[tuple[str, tuple[str, ...] | None]]:
    """``(from-to, captures or None)`` for each move of a list (``h1h3`` without hyphen too)."""
    if len(text) > MAX_BYTES:
        raise InteropError(_("{where}: larger than the {limit} bytes a move list may have").format(
            where=where, limit=MAX_BYTES))
    out: list[tuple[str, tuple[str, ...] | None]] = []
    for tok in text.replace(",", " ").replace(";", " ").split():
        if _NUMBER.match(tok):
            continue
        m = _MOVE.match(tok)
        if m is None:
            raise InteropError(_("{where}: '{shown}' (move {number}) is not a move like d1-d3 or d1-d3xe3").format(
                where=where, shown=shown(tok, 20), number=len(out) + 1))
        if len(out) == MAX_MOVES:
            raise InteropError(_("{where}: {problem}").format(where=where, problem=too_many_moves()))
        caps = tuple(c for c in (m.group(3) or "").split("/") if c) if m.group(3) is not None else None
        out.append((f"{m.group(1)}-{m.group(2)}", caps))
    return out


def read_move_list(text: str, variant, where: str = "moves") -> GameTransfer:
    game = Game(variant.make_rules())
    play_listed(game, parse_moves(text, where), where)
    return GameTransfer(game)


def write_move_list(t: GameTransfer) -> str:
    """One numbered turn per line, captures after ``x`` (read back by :func:`read_move_list`)."""
    from tafl_desktop.interop.otg import move_record

    game = t.game
    n = len(game.plies)
    lines = []
    for turn, i in enumerate(range(0, n, 2), 1):
        pair = (move_record(game, j).lstrip("K").rstrip("+-") for j in range(i, min(i + 2, n)))
        lines.append(f"{turn}. " + " ".join(pair))
    return "\n".join(lines) + "\n"
