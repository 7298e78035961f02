"""Typed moves: what a player types in the move field, read as a move of the game shown.

A player who cannot see the board plays by typing (as in lichess's blind mode), so the field takes
every way of writing a move that the app's notation allows, and a little more:

- the family's own notation: ``d1-d3`` (Tafl), ``c3-c4`` or a jump chain ``c3xc5xe5`` (the Fox
  games), Dablot's ``c3xe5+e1-e2`` and ``end``;
- the squares run together, without a separator: ``d1d3``, ``c3c5e5``;
- a destination alone, ``d3``, when exactly one legal move ends there.

The move read is returned as it stands; whether it is legal is the game's business
(:meth:`~tafl_desktop.core.game.Game.check` gives the engine's own reason), so a refused move is
answered in the same words as a refused click.  Pure Python: the window and the tests share it.
"""

from __future__ import annotations

import re
from typing import Any

from tafl_desktop.core.marks import gettext as _
from tafl_desktop.core.quoting import quote

Move = tuple[int, ...]

#: One square or point name (a letter and a rank number), as every board of the app names them.
_NAME = re.compile(r"[a-z][0-9]{1,2}")
_GLUED = re.compile(r"(?:[a-z][0-9]{1,2})+")


class MoveEntryError(ValueError):
    """Typed text that names no single move; the message is one sentence for the player."""


def read_typed_move(game: Any, text: str) -> Move:
    """The move ``text`` names in ``game``'s current position (not yet checked for legality).

    Raises :class:`MoveEntryError` with one sentence when the text names no move, or when a
    destination alone is reached by no legal move or by several (their moves are listed)."""
    t = text.strip().lower() if text.isascii() else ""
    if not t:
        raise MoveEntryError(_("{text} is not a move (type it as e.g. d1-d3, d1d3 or d3)").format(text=quote(text)))
    rules, pos = game.rules, game.position
    try:
        return tuple(rules.parse_move(pos, t))
    except ValueError as exc:
        own_reason = str(exc)
    if not _GLUED.fullmatch(t):
        raise MoveEntryError(own_reason)
    g = rules.geometry
    try:
        points = tuple(g.parse_square(n) for n in _NAME.findall(t))
    except ValueError as exc:
        raise MoveEntryError(str(exc)) from None
    if len(points) > 1:
        return points
    return _only_move_to(game, points[0])


def _only_move_to(game: Any, target: int) -> Move:
    """The one legal move that ends on ``target`` (a destination typed alone)."""
    g = game.rules.geometry
    name = g.name(target)
    reaching = [m for m in game.legal_moves() if len(m) >= 2 and m[-1] == target and m[0] >= 0]
    if len(reaching) == 1:
        return tuple(reaching[0])
    if not reaching:
        raise MoveEntryError(_("no legal move ends on {square}").format(square=name))
    texts = ", ".join(sorted(game.rules.move_text(m) for m in reaching)[:6])
    raise MoveEntryError(_("several moves end on {square} ({moves}): type the whole move").format(
        square=name, moves=texts))
