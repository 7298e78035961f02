"""Game tables: many games in one text file, one a line, as the real games shipped with the app
(``resources/games``, from the MIT-licensed hnefatafl-rs project) are written.

A line is ``MOVES,N,N,RESULT``: the moves space-separated (``d1-d3``, captures appended as ``x``
and the square, once per captured piece, the king's capture left out; the word ``timeout`` where
a player ran out of time), two numbers the source does not explain (kept as tags), and the result
(``Black`` = attackers won, ``White`` = defenders, ``Draw`` or ``Ongoing``).  A table says nothing
of its rules: the caller names the variant.  Each line is read on its own, so one bad line is
reported (line number and why, one line) and the others are still read.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from tafl_desktop.core.game import Game, Outcome, Side
from tafl_desktop.core.move_list_text import MoveListError, listed_moves, play_listed
from tafl_desktop.core.quoting import shown
from tafl_desktop.i18n import _, ngettext
from tafl_desktop.interop.transfer import GameTransfer, InteropError, check_result

#: The result column -> the winner (None for a draw); ``Ongoing`` is no result.
RESULTS: dict[str, Side | None] = {"Black": Side.ATTACKERS, "White": Side.DEFENDERS, "Draw": None}
#: The longest line read (a game of the record limit's moves fits many times over).
MAX_LINE = 64_000


@dataclass
class TableGame:
    """One line of a table: its number, and the game or why it could not be read."""

    line: int
    transfer: GameTransfer | None
    problem: str = ""


def read_table(text: str, variant, where: str = "table") -> Iterator[TableGame]:
    """Every non-empty line of ``text`` as a game of ``variant`` (lines without a move are
    skipped: the source's files hold a few bare ``timeout`` lines)."""
    for number, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            transfer = read_line(raw, variant, number, where)
        except InteropError as exc:
            yield TableGame(number, None, str(exc))
            continue
        if transfer is not None:
            yield TableGame(number, transfer)


def read_line(raw: str, variant, number: int = 1, where: str = "table") -> GameTransfer | None:
    """The game of one line, or None for a line without moves; InteropError naming the line."""
    here = _("{where}, line {line}").format(where=shown(where), line=number)
    if len(raw) > MAX_LINE:
        raise InteropError(ngettext("{where}: longer than {limit} character", "{where}: longer than {limit} characters",
                                    MAX_LINE).format(where=here, limit=MAX_LINE))
    parts = raw.rsplit(",", 3)
    if len(parts) != 4:
        raise InteropError(_("{where}: not MOVES,N,N,RESULT").format(where=here))
    moves_text, first, second, result = (p.strip() for p in parts)
    tokens = moves_text.split()
    timeout = "timeout" in tokens
    moves = " ".join(t for t in tokens if t != "timeout")
    if not moves:
        return None
    if result not in RESULTS and result != "Ongoing":
        raise InteropError(_("{where}: the result {result} is none of Black, White, Draw, Ongoing").format(
            where=here, result=shown(result, 40)))
    game = Game(variant.make_rules())
    try:
        listed = listed_moves(moves, variant.traits)
        play_listed(game, listed)
    except MoveListError as exc:
        raise InteropError(_("{where}: {problem}").format(where=here, problem=exc)) from None
    if result in RESULTS:
        check_result(game, RESULTS[result], here, listed)
    if game.outcome is None and result in RESULTS:
        winner = RESULTS[result]
        game.finish(Outcome(winner, "draw_agreed" if winner is None else "time" if timeout else "resigned"))
    tags = {"line": str(number), "n1": shown(first, 40), "n2": shown(second, 40)}
    return GameTransfer(game, tags)
