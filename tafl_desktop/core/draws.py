"""When a draw may be claimed, and when the computer accepts one: pure functions of the game.

A claim is offered where the rules leave a repetition without consequence ("Repetition:
allowed"): once the same position, with the same side to move, has occurred three times, either
player may claim the draw, as FIDE's Laws of Chess (9.2) allow in chess.  Where the rules decide
repetitions themselves (a draw, or a loss for one side) they end the game on their own and no
claim is needed or allowed.  This is the house rule of this program, not a historical one; it is
written in the game record as ``draw_claimed``.
"""

from __future__ import annotations

from tafl_desktop.core.game import Game, Position

#: Occurrences of one position that allow a claim.
CLAIM_COUNT = 3
#: The computer accepts a draw when its own winning chance is at most this (0.5: even).
ACCEPT_CHANCE = 0.5


def repetitions(game: Game[Position]) -> int:
    """How many times the live position has occurred in the game (the start counts)."""
    rules = game.rules
    key = rules.position_key(game.position)
    return sum(1 for i in range(len(game.plies) + 1) if rules.position_key(game.position_at(i)) == key)


def draw_claimable(game: Game[Position]) -> bool:
    """True when the player to move may claim a draw now (see the module text)."""
    if game.outcome is not None:
        return False
    if game.rules.repetition_outcome(game.position, 10**6) is not None:
        return False  # the rules decide repetitions themselves
    return repetitions(game) >= CLAIM_COUNT


def computer_accepts(defenders_win_chance: float, computer_side: int) -> bool:
    """The computer's answer to a draw offer, from its own evaluation of the position
    (``defenders_win_chance`` in 0..1): yes only when it does not judge itself better."""
    own = defenders_win_chance if computer_side == 1 else 1.0 - defenders_win_chance
    return own <= ACCEPT_CHANCE
