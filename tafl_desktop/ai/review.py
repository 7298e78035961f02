"""Game review: every position of a game searched, every move classed, a summary per side.

Two steps, kept apart so that a review can be stopped and resumed and so that the window and the
command line share one classing rule:

1. :func:`evaluate_positions` searches each position of the game (in the worker process for the
   window); each answer is a small dict (``score`` from the side to move's view, ``best`` move
   text, ``depth``), and positions already evaluated (``known``) are skipped: that is the resume.
2. :func:`classify` turns those evaluations into the review: one entry per move with its class,
   and a summary per side.  Pure and fast.

How a move is classed (the thresholds are stated in the README): the engine's score of the
position before the move and of the position after it are turned into the mover's winning chance
(:func:`tafl_desktop.ai.analysis.win_chance`: a logistic of the score, exactly 0 or 1 for a proven
result).  The drop in that chance, in percentage points, is the move's *loss*:

* ``best``: the move the engine would have played, or a loss under 2 points;
* ``good``: under 10 points;
* ``inaccuracy``: 10 to under 20;
* ``mistake``: 20 to under 30;
* ``blunder``: 30 points or more (throwing away a proven win, walking into a proven loss).

Why winning chance rather than raw score: a move that turns +9 soldiers into +7 changes nothing,
while one that turns 0 into -2 may decide the game; and proven results (scores near
``MATE``) need no special case.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from tafl_desktop.ai.analysis import win_chance
from tafl_desktop.ai.multipv import MultiPVSearcher, analyse
from tafl_desktop.ai.search import MATE
from tafl_desktop.core.marks import N_

CLASSES = ("best", "good", "inaccuracy", "mistake", "blunder")
#: Each class as a reader sees it (the keys above are the JSON's words, the same in every language).
CLASS_WORDS = {"best": N_("best move"), "good": N_("good move"), "inaccuracy": N_("inaccuracy"),
               "mistake": N_("mistake"), "blunder": N_("blunder")}
#: Upper bounds (exclusive) of the loss in winning-chance points for best, good, inaccuracy, mistake.
THRESHOLDS = (2.0, 10.0, 20.0, 30.0)
#: Default think time per position (s): a 60-move game takes about half a minute.
REVIEW_TIME = 0.5


def class_of(loss: float, engine_move: bool) -> str:
    """The class of a move that lost ``loss`` winning-chance points (``engine_move``: it was the
    engine's own choice)."""
    if engine_move:
        return "best"
    for name, bound in zip(CLASSES, THRESHOLDS, strict=False):
        if loss < bound:
            return name
    return "blunder"


def _terminal_score(rules: Any, pos: Any) -> int | None:
    out = rules.outcome(pos)
    if out is None:
        return None
    if out.winner is None:
        return 0
    return MATE if int(out.winner) == int(rules.side_to_move(pos)) else -MATE


def evaluate_position(rules: Any, pos: Any, time_limit: float, history_keys: Iterable[Any] = (),
                      should_stop: Callable[[], bool] | None = None,
                      searcher: MultiPVSearcher | None = None) -> dict[str, Any]:
    """One position's evaluation: ``{"score", "best", "best_move", "depth", "side"}`` (score from
    the side to move's view; an ended game gets its result and no best move)."""
    side = int(rules.side_to_move(pos))
    term = _terminal_score(rules, pos)
    if term is not None:
        return {"score": term, "best": "", "best_move": [], "depth": 0, "side": side}
    rep = analyse(rules, pos, lines=1, time_limit=time_limit, history_keys=history_keys,
                  should_stop=should_stop, searcher=searcher)
    if not rep.lines:
        return {"score": 0, "best": "", "best_move": [], "depth": 0, "side": side}
    line = rep.lines[0]
    return {"score": line.score, "best": line.moves[0], "best_move": list(line.move), "depth": line.depth,
            "side": side}


def game_positions(rules: Any, start: Any, moves: list[tuple[int, ...]]) -> list[Any]:
    """The positions of a game: the start and the one after each move."""
    out = [start]
    for m in moves:
        out.append(rules.play(out[-1], tuple(m))[0])
    return out


def evaluate_positions(rules: Any, positions: list[Any], time_limit: float = REVIEW_TIME,
                       known: dict[int, dict[str, Any]] | None = None,
                       should_stop: Callable[[], bool] | None = None,
                       on_progress: Callable[[int, dict[int, dict[str, Any]]], None] | None = None,
                       searcher: MultiPVSearcher | None = None) -> dict[int, dict[str, Any]]:
    """Evaluate every position not in ``known``; ``on_progress(done, evals)`` after each one.
    Stops early (returning what it has) when ``should_stop`` says so."""
    evals = dict(known or {})
    keys = [rules.position_key(p) for p in positions]
    s = searcher if searcher is not None else MultiPVSearcher(rules)
    for i, pos in enumerate(positions):
        if i in evals:
            continue
        if should_stop is not None and should_stop():
            break
        e = evaluate_position(rules, pos, time_limit, keys[:i + 1], should_stop, s)
        if should_stop is not None and should_stop():
            break  # an interrupted search is not an evaluation: leave it for the resume
        evals[i] = e
        if on_progress is not None:
            on_progress(len(evals), evals)
    return evals


def classify(rules: Any, positions: list[Any], moves: list[tuple[int, ...]],
             evals: dict[int, dict[str, Any]]) -> dict[str, Any]:
    """The review of the moves whose positions before and after are both evaluated.

    ``plies``: ``{"ply", "move", "score", "best", "class", "side", "loss"}`` with ``score`` the
    evaluation after the move from the view of side 1 (the summary's ``score_for``), so that a
    graph of it does not flip with the turn.  ``summary``: per side key, the count of each class
    and the average loss; ``complete`` tells whether every move was reviewed.
    """
    variant = rules.variant
    plies: list[dict[str, Any]] = []
    per_side = {variant.side_key(s): {**{c: 0 for c in CLASSES}, "moves": 0, "average_loss": 0.0}
                for s in (0, 1)}
    for i, move in enumerate(moves):
        before, after = evals.get(i), evals.get(i + 1)
        if before is None or after is None:
            continue
        mover = int(rules.side_to_move(positions[i]))
        after_mover = after["score"] if after["side"] == mover else -after["score"]
        loss = max(0.0, 100.0 * (win_chance(before["score"]) - win_chance(after_mover)))
        text = rules.move_text(tuple(move))
        engine_move = bool(before["best_move"]) and tuple(before["best_move"]) == tuple(move)
        cls = class_of(loss, engine_move)
        score_1 = after["score"] if after["side"] == 1 else -after["score"]
        plies.append({"ply": i + 1, "move": text, "score": int(score_1), "best": before["best"] or text,
                      "class": cls, "side": variant.side_key(mover), "loss": round(loss, 1)})
        agg = per_side[variant.side_key(mover)]
        agg[cls] += 1
        agg["moves"] += 1
        agg["average_loss"] += loss
    for agg in per_side.values():
        agg["average_loss"] = round(agg["average_loss"] / agg["moves"], 1) if agg["moves"] else 0.0
    summary = {"sides": per_side, "score_for": variant.side_key(1), "complete": len(plies) == len(moves),
               "loss_from": dict(zip(CLASSES[1:], THRESHOLDS, strict=True))}
    return {"plies": plies, "summary": summary}


def review_game(game: Any, time_limit: float = REVIEW_TIME, should_stop: Callable[[], bool] | None = None,
                on_progress: Callable[[int, dict[int, dict[str, Any]]], None] | None = None) -> dict[str, Any]:
    """Review a whole :class:`~tafl_desktop.core.game.Game` in this process (the CLI's path)."""
    rules = game.rules
    moves = [tuple(p.move) for p in game.plies]
    positions = [game.position_at(i) for i in range(len(moves) + 1)]
    evals = evaluate_positions(rules, positions, time_limit, should_stop=should_stop, on_progress=on_progress)
    return classify(rules, positions, moves, evals)
