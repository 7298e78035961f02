"""A proven line shown to its end: the moves a search's principal variation leaves out.

Why they go missing: a search proves a result as soon as a line ends the game *somewhere* in its
tree, the last moves often past the horizon (captures followed in quiescence, a king's threat
extended); the principal variation is read back from the transposition table, which keeps no
move for those last positions.  So a win in three plies found at depth 2 printed only two moves.

A proven score says how many plies the win takes, so the rest of the line is a small question
for the exhaustive prover (:mod:`tafl_desktop.ai.prover`, native where it is built): at the
winner's turn a move that still wins in the plies left (the fastest found), at the loser's turn
the defence that holds out longest.  The prover's node budget keeps this from ever costing more
than a moment; a line it cannot finish within it is left as the search gave it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tafl_desktop.core.game import Move, P, Rules, Side

if TYPE_CHECKING:
    from tafl_desktop.ai.prover import Prover

#: Positions the prover may visit to finish one line (a few plies at most are missing).
MAX_NODES = 50_000


def complete_line(rules: Rules[P], pos: P, line: list[Move], plies: int, engine: str | None = None) -> list[Move]:
    """``line`` (a principal variation from ``pos`` whose result is proven in ``plies`` plies,
    positive when the side to move wins) with the moves up to the end of the game added; the
    moves of ``line`` past the end of the game are dropped."""
    from tafl_desktop.ai.prover import SearchBudgetExceeded, make_prover

    to_move = rules.side_to_move(pos)
    winner = to_move if plies > 0 else to_move.other
    total = abs(plies)
    out: list[Move] = []
    p = pos
    for move in line:
        if rules.outcome(p) is not None or move not in rules.legal_moves(p):
            break
        out.append(tuple(move))
        p = rules.play(p, move)[0]
    if rules.outcome(p) is not None:
        return out
    prover = make_prover(rules, Side(int(winner)), MAX_NODES, engine)
    try:
        while rules.outcome(p) is None:
            left = total - len(out)
            if left <= 0:
                break
            step = _next_move(rules, prover, p, left, rules.side_to_move(p) == winner)
            if step is None:
                break
            out.append(step)
            p = rules.play(p, step)[0]
    except SearchBudgetExceeded:
        pass
    return out


def _next_move(rules: Rules[P], prover: Prover[P], p: P, left: int, winner_turn: bool) -> Move | None:
    """The winner's fastest winning move within ``left`` plies, or the loser's longest defence."""
    moves = rules.legal_moves(p)
    children = [(m, rules.play(p, m)[0]) for m in moves]
    if winner_turn:
        for within in range(0, left, 2):  # a win in 1, 3, 5 ... plies from here
            for m, child in children:
                if prover.wins(child, within):
                    return tuple(m)
        return None
    best: tuple[int, Move] | None = None
    for m, child in children:
        need = next((w for w in range(1, left, 2) if prover.wins(child, w)), None)
        if need is None:
            return None  # a defence that holds: the line read so far was not the proven one
        if best is None or need > best[0]:
            best = (need, tuple(m))
    return best[1] if best is not None else None
