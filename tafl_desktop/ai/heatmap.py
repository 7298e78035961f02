"""The analysis board's heat map: for every square the side to move can move a piece to, how good
the best move that lands there is.

What is computed, exactly: every legal move of the side to move is played, and the position after
it is searched to :func:`heat_depth` plies (with the analysis' quiescence: forcing lines and
captures followed past the horizon), so each move's value is its value *after the opponent's best
reply*.  That value, turned into the mover's winning chance (0..1, :func:`~tafl_desktop.ai.analysis.win_chance`;
exactly 0 or 1 for a proven result), is the move's heat.  A square's heat is the highest heat of
the moves that end on it (the last square of a jump chain); squares no move reaches have none.
The window colours each square by how far its heat falls short of the best move's, in the
review's classes: within 2 points of the best (the best moves), under 5, under 10, under 15, and
15 or more (a blunder).

Every move is searched on its own from an emptied table, so the map is the same on every run.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import TYPE_CHECKING, Any

from tafl_desktop.ai.analysis import win_chance
from tafl_desktop.ai.multipv import analysis_limits, playable_moves, searches_full_width
from tafl_desktop.ai.search import MATE
from tafl_desktop.core.game import P, Rules

if TYPE_CHECKING:
    from tafl_desktop.search_contract import Searcher


def heat_depth(rules: Rules[P], engine: str) -> int:
    """How deep each move's reply is searched: two plies less than a review's standard depth
    (at least one), so the whole map costs about what one review position costs."""
    from tafl_desktop.ai.review import default_budget

    return max(1, default_budget(rules, engine).depth - 2)


def _child_score(rules: Rules[P], child: P, searcher: Searcher[P], depth: int, keys: list[Hashable],
                 should_stop: Callable[[], bool] | None, full_width: bool = False) -> int:
    """The value of ``child`` for the player who is *not* to move there (the mover of the move),
    searched as the strongest level searches for that mover (``full_width``: see
    :func:`~tafl_desktop.ai.multipv.searches_full_width`)."""
    out = rules.outcome(child)
    if out is not None:
        if out.winner is None:
            return 0
        return MATE if int(out.winner) != int(rules.side_to_move(child)) else -MATE
    searcher.clear()
    searcher.lines = 1
    limits = analysis_limits(0.0, depth, 0, reproducible=True, full_width=full_width)
    res = searcher.search(child, limits, keys, should_stop)
    return -res.score


def heat_map(rules: Rules[P], pos: P, searcher: Searcher[P], depth: int, history_keys: Iterable[Hashable] = (),
             should_stop: Callable[[], bool] | None = None,
             on_progress: Callable[[int, int], None] | None = None) -> dict[str, Any] | None:
    """``{"squares": {square: chance}, "moves": {square: move}, "best": chance, "depth": depth,
    "side": side to move}`` (chance the mover's winning chance 0..1 after its best move to that
    square), or None when ``should_stop`` ended it early or the position has no move."""
    keys = list(history_keys)
    moves = playable_moves(rules, pos, keys)
    if not moves:
        return None
    side = int(rules.side_to_move(pos))
    full_width = searches_full_width(rules, pos, searcher)
    squares: dict[int, float] = {}
    best_move: dict[int, tuple[int, ...]] = {}
    for n, move in enumerate(moves):
        if should_stop is not None and should_stop():
            return None
        child, _caps = rules.play(pos, move)
        score = _child_score(rules, child, searcher, depth, [*keys, rules.position_key(child)], should_stop,
                             full_width)
        if should_stop is not None and should_stop():
            return None
        chance = win_chance(score)
        if on_progress is not None:
            on_progress(n + 1, len(moves))
        target = next((s for s in reversed(move) if s >= 0), None)
        if target is None:
            continue  # Dablot's "end the turn" lands nowhere
        if target not in squares or chance > squares[target]:
            squares[target], best_move[target] = chance, tuple(move)
    if not squares:
        return None
    return {"squares": squares, "moves": best_move, "best": max(squares.values()), "depth": depth, "side": side}
