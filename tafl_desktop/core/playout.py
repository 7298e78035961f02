"""Random playouts and perft over the protocol: used by the benchmark, the tests and the AI."""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from typing import cast

from tafl_desktop.core.game import Outcome, P, RepetitionRules, Rules, repeat_key


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
    does); a decided position has no moves.  A legality rule that depends on the history (the
    defenders' no-repeat rule, ``rules.no_repeat``) is honoured along each line from ``pos``: a
    move that recreates a board of that line is not counted, as a game refuses it.  Results that
    need the history (repetition, moves without a capture) are left out, as chess perft leaves out
    its draws: they end a game but make no move illegal.
    """
    if getattr(rules, "no_repeat", False):
        return _perft_no_repeat(rules, pos, depth, {repeat_key(rules, pos)})
    if depth <= 0:
        return 1
    if depth == 1:
        counter: Callable[[P], int] | None = getattr(rules, "count_moves", None)
        return counter(pos) if counter else len(rules.legal_moves(pos))
    total = 0
    play = rules.play
    for m in rules.legal_moves(pos):
        nxt, _ = play(pos, m)
        total += perft(rules, nxt, depth - 1)
    return total


def _perft_no_repeat(rules: Rules[P], pos: P, depth: int, line: set[Hashable]) -> int:
    """:func:`perft` with the boards of the line so far in ``line`` (a move may not recreate one
    where ``rules.forbids_repetition`` says so)."""
    if depth <= 0:
        return 1
    forbids = cast("RepetitionRules[P]", rules).forbids_repetition(pos)  # perft asked rules.no_repeat
    total = 0
    for m in rules.legal_moves(pos):
        nxt, _ = rules.play(pos, m)
        board = repeat_key(rules, nxt)
        if forbids and board in line:
            continue
        if depth == 1:
            total += 1
            continue
        fresh = board not in line
        line.add(board)
        total += _perft_no_repeat(rules, nxt, depth - 1, line)
        if fresh:
            line.discard(board)
    return total
