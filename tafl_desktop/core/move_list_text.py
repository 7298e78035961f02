"""A line of moves as plain text, for Copy and Paste: ``1. d6-b6 c4-c6 2. b6-b5``.

Turns are numbered as in the window's move list (a turn is the first side's move and the
other's reply; a line that starts with the second side starts ``1... e4-e6``).  Reading accepts
the same text, or bare moves separated by spaces, commas or new lines; numbers are skipped.
"""

from __future__ import annotations

import re
from typing import Any

from tafl_desktop.core.game import Game, IllegalMove

_NUMBER = re.compile(r"^[0-9]+\s*(\.\.\.|\.|…)")


def line_text(game: Game) -> str:
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
    for token in re.split(r"[\s,;]+", text.strip()):
        token = _NUMBER.sub("", token).strip()
        if token and token not in ("...", "…"):
            out.append(token)
    return out


def replay(rules: Any, start: Any, text: str) -> Game:
    """A game from ``start`` with the moves of ``text``; IllegalMove names the first that fails."""
    from tafl_desktop.core.quoting import shown
    from tafl_desktop.core.record_limits import MAX_MOVES, too_many_moves

    game = Game(rules, start)
    tokens = move_tokens(text)
    if not tokens:
        raise IllegalMove("the text holds no moves")
    if len(tokens) > MAX_MOVES:
        raise IllegalMove(too_many_moves(len(tokens)))
    for i, token in enumerate(tokens, 1):
        try:
            game.play_text(token)
        except IllegalMove as exc:
            raise IllegalMove(f"move {i} ({shown(token, 30)}) cannot be played: {exc}") from None
    return game
