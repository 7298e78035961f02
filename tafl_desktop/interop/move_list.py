"""Plain move lists as posted in forums and other programs' logs: ``1. d1-d3 e5-e2xe3 2. ...``.

Move numbers, commas and OpenTafl's info suffixes (``+``, ``-``, ``++``, ``--``) are optional;
captures after ``x`` (``/`` separated) are checked against ours when present.  The reading is the
one of :mod:`tafl_desktop.core.move_list_text`, which the window's Paste uses too.  A list says
nothing of its variant: the caller names it (``--variant`` on the command line).
"""

from __future__ import annotations

from tafl_desktop.core.families import FAMILIES
from tafl_desktop.core.game import Game
from tafl_desktop.core.move_list_text import MoveListError, listed_moves
from tafl_desktop.core.record_limits import MAX_RECORD_BYTES
from tafl_desktop.i18n import _, ngettext
from tafl_desktop.interop.transfer import GameTransfer, InteropError, play_listed

MAX_BYTES = MAX_RECORD_BYTES


def parse_moves(text: str, where: str = "moves") -> list[tuple[str, tuple[str, ...] | None]]:
    """``(move, captures or None)`` for each move of a Tafl move list (``h1h3`` without hyphen too)."""
    if len(text) > MAX_BYTES:
        raise InteropError(ngettext("{where}: larger than the {limit} byte a move list may have",
                                    "{where}: larger than the {limit} bytes a move list may have", MAX_BYTES).format(
            where=where, limit=MAX_BYTES))
    try:
        return [(m.move, m.captures) for m in listed_moves(text, FAMILIES["tafl"])]
    except MoveListError as exc:
        raise InteropError(_("{where}: {problem}").format(where=where, problem=exc)) from None


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
