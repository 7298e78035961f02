"""Random playouts and perft over the protocol: used by the benchmark, the tests and the AI."""

from __future__ import annotations

import random

from tafl_desktop.core.game import Outcome, P, Rules


def random_playout(
    rules: Rules[P], pos: P, rng: random.Random, max_plies: int = 10_000
) -> tuple[P, int, Outcome | None]:
    """Play uniformly random legal moves until the game ends or ``max_plies`` pass.

    Every ply generates the full legal-move list, plays one move and checks for the end of the
    game (the last move's result, no legal move, the captureless-draw counter).  Repetition is
    not tracked here (it needs history, which :class:`~tafl_desktop.core.game.Game` keeps).
    Returns the final position, the plies played and the outcome (None if cut off).
    """
    legal = rules.legal_moves
    play = rules.play
    rand = rng.random
    plies = 0
    outcome = None
    while plies < max_plies:
        moves = legal(pos)
        if not moves:
            outcome = rules.outcome(pos)
            break
        pos, _ = play(pos, moves[int(rand() * len(moves))])
        plies += 1
        if pos.result is not None:
            outcome = pos.result
            break
    return pos, plies, outcome


def perft(rules: Rules[P], pos: P, depth: int) -> int:
    """Leaf count of the legal-move tree to ``depth`` plies.

    Uses the family's bulk ``count_moves`` at the last ply when it has one (as every fast perft
    does); a decided position has no moves.
    """
    if depth <= 0:
        return 1
    if depth == 1:
        counter = getattr(rules, "count_moves", None)
        return counter(pos) if counter else len(rules.legal_moves(pos))
    total = 0
    play = rules.play
    for m in rules.legal_moves(pos):
        nxt, _ = play(pos, m)
        total += perft(rules, nxt, depth - 1)
    return total
