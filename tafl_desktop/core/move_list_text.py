"""A line of moves as plain text, the one reader of every move list: Copy and Paste in the window
(``1. d6-b6 c4-c6 2. b6-b5``), plain move-list files and the moves of PGN-like and OpenTafl
records (``1. d1-d3 e5-e2xe3 2. ...``).

Turns are numbered as in the window's move list (a turn is the first side's move and the
other's reply; a line that starts with the second side starts ``1... e4-e6``).  Reading accepts
the same text, or bare moves separated by spaces, commas, semicolons or new lines; move numbers
are skipped.  In families whose records list captures (Tafl), OpenTafl's annotations are read
too: a ``K`` before a king's move, captures after ``x`` (``e5-e2xe3/e4``, checked against the
ones our rules make, so a record played under other rules is refused rather than shown as a
different game) and the info suffixes ``+ - ++ --``; ``h1h3`` without its hyphen is accepted.
In the other families the text after the number is the move itself (a jump ``c3xc5xe5``, an
ambush ``c3xd5+d3xc5``, ``end``).

Before this module the window's Paste and the Import of move lists had a parser each, and they
disagreed: ``1. d6-b6+ d5-d6-`` was accepted by one and refused by the other, a claimed capture
that did not happen passed the other.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tafl_desktop.core import progress
from tafl_desktop.core.game import Game, IllegalMove, Position, Rules
from tafl_desktop.core.marks import gettext as _
from tafl_desktop.core.quoting import shown
from tafl_desktop.core.record_limits import MAX_MOVES, too_many_moves

if TYPE_CHECKING:
    from tafl_desktop.core.families import Family
    from tafl_desktop.core.geometry import GraphGeometry, GridGeometry

#: A move number (``12.``, ``12...``, ``12…``), alone or glued to the move after it (ASCII digits:
#: other scripts' digits are no move numbers, and would be read as moves and refused).
_NUMBER = re.compile(r"^[0-9]+\s*(\.\.\.|\.+|…)")
#: A Tafl move as OpenTafl and hnefatafl.org records write it.
#: Captures follow the move after ``x``, as OpenTafl writes them (``e5-e2xe3/e4``) or one ``x`` per
#: captured piece as the shipped real games do (``e2-d2xc2xd3``).
_ANNOTATED = re.compile(r"^K?([a-s]\d{1,2})-?([a-s]\d{1,2})((?:x[a-s0-9/]*)*)[+-]{0,2}$", re.IGNORECASE | re.ASCII)
#: How much of a bad token a message quotes.
QUOTE = 40
#: What separates the moves of a list.
_SEPARATORS = re.compile(r"[\s,;]+")


class MoveListError(IllegalMove):
    """A move list that cannot be played; the message names the move and why, in one line."""


@dataclass(frozen=True)
class ListedMove:
    """One move of a list: as written, the move itself, and the squares the list says it
    captured (None when it says nothing of captures)."""

    text: str
    move: str
    captures: tuple[str, ...] | None = None


#: Tafl tokens read before -> their reading (a collection of records repeats the same few
#: thousand move texts; ListedMove is immutable, so one reading serves every list).
_READ: dict[str, ListedMove] = {}


def line_text(game: Game[Position]) -> str:
    """The moves of ``game`` as numbered text."""
    rules = game.rules
    first = int(rules.side_to_move(game.start))
    parts: list[str] = []
    turn, prev = 0, -1
    for i, ply in enumerate(game.plies):
        side = int(rules.side_to_move(game.position_at(i)))
        col = 0 if side == first else 1
        if i == 0 or (col == 0 and prev == 1):
            turn += 1
            parts.append(f"{turn}." if col == 0 else f"{turn}...")
        parts.append(rules.move_text(ply.move))
        prev = col
    return " ".join(parts)


def move_tokens(text: str) -> list[str]:
    """The move texts in ``text``, without move numbers and separators."""
    out = []
    for token in _SEPARATORS.split(text.strip()):
        if "0" <= token[:1] <= "9":  # only a token that starts with a digit may hold a move number
            token = _NUMBER.sub("", token).strip()
        if token and token not in ("...", "…"):
            out.append(token)
    return out


def listed_moves(text: str, traits: Family) -> list[ListedMove]:
    """The moves of ``text`` for a game of the family ``traits``, annotations read apart.
    MoveListError for a token that is no move of the family's notation at all, or for more moves
    than a game may hold (``core.record_limits``)."""
    tokens = move_tokens(text)
    if len(tokens) > MAX_MOVES:
        raise MoveListError(too_many_moves(len(tokens)))
    out = []
    for i, token in enumerate(tokens, 1):
        if not traits.captures_in_notation:
            out.append(ListedMove(token, token))
            continue
        known = _READ.get(token)
        if known is not None:
            out.append(known)
            continue
        m = _ANNOTATED.match(token)
        if m is None:
            raise MoveListError(_("move {i} ({text}) is not a move like d1-d3 or d1-d3xe3").format(
                i=i, text=shown(token, QUOTE)))
        captures = None if not m.group(3) else tuple(c.lower() for c in re.split(r"[x/]", m.group(3), flags=re.I) if c)
        listed = ListedMove(token, f"{m.group(1)}-{m.group(2)}".lower(), captures)
        if len(_READ) < 65536:
            _READ[token] = listed
        out.append(listed)
    return out


def play_listed(game: Game[Position], moves: Sequence[ListedMove], done: int = 0, total: int = 0) -> None:
    """Play the listed moves on ``game``; a move the rules refuse, a move after the end, captures
    that differ from ours, or more moves than a game may hold raise MoveListError naming the move.
    ``done`` of ``total`` moves were read before (for the progress a background read reports,
    through :mod:`tafl_desktop.core.progress`)."""
    if len(game.plies) + len(moves) > MAX_MOVES:
        raise MoveListError(too_many_moves(len(game.plies) + len(moves)))
    g = game.rules.variant.geometry
    total = max(total, done + len(moves))
    for i, listed in enumerate(moves, 1):
        if not i % 256:
            progress.moves(done + i, total)
        if game.over:
            quoted = shown(listed.text, QUOTE)
            raise MoveListError(_("move {i} ({text}) comes after the end of the game ({outcome})").format(
                i=i, text=quoted,
                outcome=game.outcome.describe(game.rules.variant).rstrip(".") if game.outcome else ""))
        try:
            ply = game.play_text(listed.move)
        except IllegalMove as exc:
            raise MoveListError(_("move {i} ({text}) cannot be played: {problem}").format(
                i=i, text=shown(listed.text, QUOTE), problem=exc)) from None
        if listed.captures is not None and not _same_captures(listed.captures, ply.captures, g, game):
            ours = sorted(g.name(s) for s in ply.captures)
            quoted = shown(listed.text, QUOTE)
            nothing = _("nothing")
            raise MoveListError(_("move {i} ({text}) captures {listed} in the record but {ours} under these "
                                  "rules").format(i=i, text=quoted,
                                                  listed=shown(", ".join(listed.captures), 80) or nothing,
                                                  ours=", ".join(ours) or nothing))


def _same_captures(listed: Sequence[str], ours: Sequence[int], g: GridGeometry | GraphGeometry,
                   game: Game[Position]) -> bool:
    """Do the captures a record lists match the ones our rules made?  Compared as sets: a record
    may write a piece twice when two rules take it (the shipped real games do, e.g. for a soldier
    taken by a sandwich and a shield wall at once).  A record may leave out the king's
    capture (the real games do: the game's end says it); every other piece must be named."""
    said = set(listed)
    made = {g.name(s) for s in ours}
    if said == made:
        return True
    before = game.position_at(len(game.plies) - 1)
    king = getattr(before, "king", -1)
    return king in ours and said == made - {g.name(king)}


def replay(rules: Rules[Position], start: Position, text: str) -> Game[Position]:
    """A game from ``start`` with the moves of ``text``; MoveListError names the first that fails."""
    game = Game(rules, start)
    moves = listed_moves(text, rules.variant.traits)
    if not moves:
        raise MoveListError(_("the text holds no moves"))
    play_listed(game, moves)
    return game
