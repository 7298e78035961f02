"""Moves and plies: one number for the reader, the same everywhere.

A *ply* is one side's action; a *move*, as the move list numbers it and as players count a game's
length, is one turn of each side ("1. d6-b6 d5-d6" is move 1).  A Dablot side with action points
may make several plies in its turn: they belong to the same move.  Every text that says "move 12"
or "the game lasted 17 moves" counts with :func:`move_numbers`, so the end-of-game dialog, the
comment editor, Import and the command line agree with the move list.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def move_numbers(movers: Sequence[object], first: object) -> list[int]:
    """The move number of each ply, given the side that made it (``movers``) and the side that
    moves first in the game (the left column of the move list): a new move begins whenever the
    first side plays after the other side did."""
    out: list[int] = []
    number, previous = 1, None
    for side in movers:
        if previous is not None and side == first and previous != first:
            number += 1
        out.append(number)
        previous = side
    return out


def movers(game: Any) -> list[int]:
    """The side that made each ply of ``game`` (a :class:`~tafl_desktop.core.game.Game`)."""
    rules = game.rules
    return [int(rules.side_to_move(game.position_at(i))) for i in range(len(game.plies))]


def game_move_numbers(game: Any) -> list[int]:
    """The move number of each ply of ``game``, as its move list shows them."""
    return move_numbers(movers(game), int(game.rules.side_to_move(game.start)))


def moves_played(game: Any) -> int:
    """How many moves ``game`` lasted: the number of its last ply's move (0 before any ply)."""
    numbers = game_move_numbers(game)
    return numbers[-1] if numbers else 0


def numbered_lines(game: Any, texts: Sequence[str]) -> list[str]:
    """One line per move, "  12. d6-b6  d5-d6", of ``texts`` (one per ply of ``game``); a side's
    several plies of one turn are joined by a space, the two sides by two."""
    numbers = game_move_numbers(game)
    sides = movers(game)
    first = int(game.rules.side_to_move(game.start))
    rows: dict[int, list[list[str]]] = {}
    for number, side, text in zip(numbers, sides, texts, strict=True):
        rows.setdefault(number, [[], []])[0 if side == first else 1].append(text)
    return [f"{n:4}. " + "  ".join(" ".join(c) for c in cells if c) for n, cells in rows.items()]


def next_move_number(game: Any) -> int:
    """The number of the move the next ply of ``game`` belongs to (1 at the start)."""
    numbers = game_move_numbers(game)
    if not numbers:
        return 1
    first = int(game.rules.side_to_move(game.start))
    last_mover = movers(game)[-1]
    to_move = int(game.rules.side_to_move(game.position))
    return numbers[-1] + (1 if to_move == first and last_mover != first else 0)


def ply_labels(game: Any) -> list[str]:
    """A label per ply as a move list in one column writes it: "12." for the first side's ply of
    move 12, "12..." for the other side's."""
    first = int(game.rules.side_to_move(game.start))
    return [f"{n}." if side == first else f"{n}..." for n, side in zip(game_move_numbers(game), movers(game),
                                                                         strict=True)]


def node_label(tree: Any, node: Any) -> str:
    """The move-list label of a game-tree node: "6." when the first side made it, "6..." for the
    other side (the tree's root, the start position, has none: "")."""
    path = tree.path(node)
    if not path:
        return ""
    rules = tree.rules
    first = int(rules.side_to_move(tree.position(tree.root)))
    sides = [int(rules.side_to_move(tree.position(n.parent))) for n in path]
    number = move_numbers(sides, first)[-1]
    return f"{number}." if sides[-1] == first else f"{number}..."


def node_move_text(tree: Any, node: Any) -> str:
    """"6... d5-d6": the node's label and its move, as a reader names one move of the game."""
    return f"{node_label(tree, node)} {tree.rules.move_text(node.move)}"
