"""Game review: every position of a game searched at a fixed quality, every move classed, a summary
and an accuracy figure per side.

Two steps, kept apart so that a review can be stopped and resumed and so that the window and the
command line share one classing rule:

1. :func:`evaluate_positions` searches each position of the game (in the worker process for the
   window) with one :class:`Budget`: a depth or a node budget (or, not reproducibly, a time).
   Each answer is a small dict (``score`` from the side to move's view, ``best`` move text, the
   engine's ``line``, ``depth``); positions already evaluated (``known``) are skipped: that is
   the resume.  Every position is searched by a searcher emptied first, on one thread, so its
   evaluation depends on the position, the game before it and the budget only: the same game at
   the same depth gives the same evaluations, in any order, resumed or not, on every run.
2. :func:`classify` turns those evaluations into the review: one entry per move with its class
   and accuracy, and a summary per side.  Pure and fast.

How a move is classed (the thresholds are stated in the README): the engine's score of the
position before the move and of the position after it are turned into the mover's winning chance
(:func:`tafl_desktop.ai.analysis.win_chance`: a logistic of the score fitted to real games, exactly
0 or 1 for a proven result).  The drop in that chance, in percentage points, is the move's *loss*.
The thresholds are lichess's (``Advice.scala``: a drop of 0.1, 0.2, 0.3 of winning chances
on its -1..1 scale is an inaccuracy, a mistake, a blunder: 5, 10 and 15 points of a 0-100 % chance):

* ``best``: the move the engine would have played, or a loss under 2 points;
* ``good``: under 5 points;
* ``inaccuracy``: 5 to under 10;
* ``mistake``: 10 to under 15;
* ``blunder``: 15 points or more, and, whatever the drop, throwing away a proven win or walking
  into a proven loss (:func:`forced_blunder`).  The drop alone would miss the second in a position
  already rated bad: from a winning chance of 1.5 % a move that lets the king be taken at once
  "loses" only 1.5 points, yet it turned a game the search could not yet decide into a lost one.

Accuracy is lichess's (https://lichess.org/page/accuracy and ``AccuracyPercent.scala`` in lila):
a move's accuracy is ``103.1668 * exp(-0.04354 * loss) - 3.1669`` (+1 for the engine's own
imperfection, clamped to 0..100; 100 when the chance did not drop), and a side's accuracy over a
game is the mean of two means of its moves' accuracies: one weighted by how much the winning
chance swung around each move (the standard deviation of the chance over a window of
``moves / 10`` positions, 2 to 8, each weight held within 0.5 to 12), and the harmonic mean
(each accuracy counted as at least 1).

Why winning chance rather than raw score: a move that turns +9 soldiers into +7 changes nothing,
while one that turns 0 into -2 may decide the game; and proven results (scores near ``MATE``)
need no special case.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tafl_desktop.ai.analysis import win_chance
from tafl_desktop.ai.engine import make_searcher
from tafl_desktop.ai.multipv import analyse, proven
from tafl_desktop.ai.search import MATE
from tafl_desktop.core.game import Game, P, Rules
from tafl_desktop.core.marks import N_

if TYPE_CHECKING:
    from tafl_desktop.ai.multipv import Report
    from tafl_desktop.search_contract import Searcher

CLASSES = ("best", "good", "inaccuracy", "mistake", "blunder")
#: Each class as a reader sees it (the keys above are the JSON's words, the same in every language).
CLASS_WORDS = {"best": N_("best move"), "good": N_("good move"), "inaccuracy": N_("inaccuracy"),
               "mistake": N_("mistake"), "blunder": N_("blunder")}
#: The classes as the evaluation graph's legend names them (tafl_desktop.charts.review_graph).
LEGEND_WORDS = (N_("Inaccuracy"), N_("Mistake"), N_("Blunder"))
#: Upper bounds (exclusive) of the loss in winning-chance points for best, good, inaccuracy, mistake.
THRESHOLDS = (2.0, 5.0, 10.0, 15.0)
#: Classes a player may learn from (the review's exercises; the better move drawn as an arrow).
MISSED = ("inaccuracy", "mistake", "blunder")
#: The largest depth and node budgets a review accepts (the dialog's and the CLI's bounds).
MAX_DEPTH = 20
MIN_NODES, MAX_NODES = 1_000, 100_000_000


@dataclass(frozen=True)
class Budget:
    """How hard each position of a review is searched: to ``depth`` plies, or ``nodes``
    positions, or (not reproducible: it depends on the machine) ``time`` seconds.  Exactly one
    is set."""

    depth: int = 0
    nodes: int = 0
    time: float = 0.0

    def __post_init__(self) -> None:
        if sum(1 for v in (self.depth, self.nodes, self.time) if v) != 1:
            raise ValueError("a review budget is one of a depth, a node count or a time")
        if self.depth and not 1 <= self.depth <= MAX_DEPTH:
            raise ValueError(f"the depth must be from 1 to {MAX_DEPTH}")
        if self.nodes and not MIN_NODES <= self.nodes <= MAX_NODES:
            raise ValueError(f"the node budget must be from {MIN_NODES:,} to {MAX_NODES:,}")
        if self.time and not 0 < self.time <= 600:
            raise ValueError("the time must be more than 0 and at most 600 seconds")

    @property
    def reproducible(self) -> bool:
        """Does the same game always give the same review under this budget?"""
        return not self.time

    def to_json(self) -> dict[str, Any]:
        """``{"depth": 3}``, ``{"nodes": 20000}`` or ``{"time": 0.5}``."""
        if self.depth:
            return {"depth": self.depth}
        if self.nodes:
            return {"nodes": self.nodes}
        return {"time": self.time}

    @classmethod
    def from_json(cls, data: object) -> Budget:
        """The inverse of :meth:`to_json`; ValueError for anything else."""
        if not isinstance(data, dict) or len(data) != 1:
            raise ValueError("not a review budget")
        key, value = next(iter(data.items()))
        if key == "depth" and type(value) is int:
            return cls(depth=value)
        if key == "nodes" and type(value) is int:
            return cls(nodes=value)
        if key == "time" and type(value) in (int, float):
            return cls(time=float(value))
        raise ValueError("not a review budget")


def default_budget(rules: Rules[P], engine: str = "python") -> Budget:
    """The review's standard quality for ``rules`` on ``engine``: a depth that reviews a game of
    60 moves in a few minutes at most on a slow machine (the Python search is about fifty times
    slower than the native one; a bigger board has more moves to search)."""
    points = rules.variant.geometry.size
    if engine == "native":
        return Budget(depth=8 if points <= 81 else 6)
    if points <= 49:
        return Budget(depth=4)
    return Budget(depth=3 if points <= 121 else 2)


def class_of(loss: float, engine_move: bool) -> str:
    """The class of a move that lost ``loss`` winning-chance points (``engine_move``: it was the
    engine's own choice)."""
    if engine_move:
        return "best"
    for name, bound in zip(CLASSES, THRESHOLDS, strict=False):
        if loss < bound:
            return name
    return "blunder"


def move_accuracy(loss: float) -> float:
    """Lichess's accuracy (0..100) of a move that lowered the mover's winning chance by ``loss``
    percentage points (see the module docstring)."""
    if loss <= 0:
        return 100.0
    raw = 103.1668100711649 * math.exp(-0.04354415386753951 * loss) - 3.166924740191411 + 1
    return max(0.0, min(100.0, raw))


def _terminal_score(rules: Rules[P], pos: P) -> int | None:
    out = rules.outcome(pos)
    if out is None:
        return None
    if out.winner is None:
        return 0
    return MATE if int(out.winner) == int(rules.side_to_move(pos)) else -MATE


def evaluate_position(rules: Rules[P], pos: P, budget: Budget, history_keys: Iterable[Hashable] = (),
                      should_stop: Callable[[], bool] | None = None,
                      searcher: Searcher[P] | None = None) -> dict[str, Any]:
    """One position's evaluation: ``{"score", "best", "best_move", "line", "depth", "side"}``
    (score from the side to move's view; ``line`` the engine's best line as move texts; an ended
    game gets its result and no best move).  The searcher is emptied first (reproducibility)."""
    side = int(rules.side_to_move(pos))
    term = _terminal_score(rules, pos)
    if term is not None:
        return {"score": term, "best": "", "best_move": [], "line": [], "depth": 0, "side": side, "scores": []}
    s = searcher if searcher is not None else make_searcher(rules)
    s.clear()
    by_depth: dict[int, int] = {}

    def iteration(r: Report) -> None:
        if r.lines:
            by_depth[r.depth] = r.lines[0].score

    rep = analyse(rules, pos, lines=1, time_limit=budget.time, depth=budget.depth or 64, nodes=budget.nodes,
                  history_keys=history_keys, should_stop=should_stop, searcher=s, on_iteration=iteration,
                  reproducible=budget.reproducible)
    if not rep.lines:
        return {"score": 0, "best": "", "best_move": [], "line": [], "depth": 0, "side": side, "scores": []}
    line = rep.lines[0]
    by_depth[line.depth] = line.score
    scores = [by_depth[d] for d in sorted(by_depth) if d <= line.depth]
    return {"score": line.score, "best": line.moves[0], "best_move": list(line.move), "line": list(line.moves),
            "depth": line.depth, "side": side, "scores": scores}


def value_at(e: dict[str, Any], depth: int) -> int:
    """An evaluated position's score (its side to move's view) as its search saw it at ``depth``
    (its deepest when it stopped earlier, at a proven result; its result when the game is over)."""
    scores = e.get("scores") or []
    if not scores:
        return int(e["score"])
    return int(scores[max(1, min(depth, len(scores))) - 1])


def game_positions(rules: Rules[P], start: P, moves: list[tuple[int, ...]]) -> list[P]:
    """The positions of a game: the start and the one after each move."""
    out = [start]
    for m in moves:
        out.append(rules.play(out[-1], tuple(m))[0])
    return out


def evaluate_positions(rules: Rules[P], positions: list[P], budget: Budget,
                       known: dict[int, dict[str, Any]] | None = None,
                       should_stop: Callable[[], bool] | None = None,
                       on_progress: Callable[[int, dict[int, dict[str, Any]]], None] | None = None,
                       searcher: Searcher[P] | None = None, engine: str | None = None,
                       on_position: Callable[[int, dict[str, Any]], None] | None = None) -> dict[int, dict[str, Any]]:
    """Evaluate every position not in ``known``; ``on_position(i, eval)`` and then
    ``on_progress(done, evals)`` after each one.  Stops early (returning what it has) when
    ``should_stop`` says so."""
    evals = dict(known or {})
    keys = [rules.position_key(p) for p in positions]
    s = searcher if searcher is not None else make_searcher(rules, engine)
    for i, pos in enumerate(positions):
        if i in evals:
            continue
        if should_stop is not None and should_stop():
            break
        e = evaluate_position(rules, pos, budget, keys[:i + 1], should_stop, s)
        if should_stop is not None and should_stop():
            break  # an interrupted search is not an evaluation: leave it for the resume
        evals[i] = e
        if on_position is not None:
            on_position(i, e)
        if on_progress is not None:
            on_progress(len(evals), evals)
    return evals


def _for(e: dict[str, Any], score: int, side: int) -> int:
    """``score`` (from ``e``'s side to move's view) from ``side``'s view."""
    return score if e["side"] == side else -score


def played_value(before: dict[str, Any], after: dict[str, Any], mover: int) -> int:
    """The played move's score from ``mover``'s view, as the search of the position before it
    sees it: the position after the move searched one ply less deep than the position before.

    Why not the position after's own (full-depth) score: the evaluation leans towards the side
    to move at the search's horizon, and a search of the position after has its horizon one
    ply later.  Compared with it, the best move and the played move would be judged at horizons
    of different parity and the review would zigzag (each side "blundering" in turn).  Compared
    at the same horizon they are judged as the search judges any two moves: as equals."""
    if not after.get("scores"):
        return _for(after, int(after["score"]), mover)
    return _for(after, value_at(after, max(1, int(before["depth"]) - 1)), mover)


def forced_blunder(before: dict[str, Any], after: dict[str, Any], mover: int) -> bool:
    """Did the move throw away a proven win or walk into a proven loss while a move that does
    not lose (or that keeps the win) by force existed?  Proven by the searches themselves: the
    position before's score says what the best move keeps, the position after's value at the
    same horizon (:func:`played_value`) what the move played kept.  A position already proven
    lost has no such move, so no move from it is a blunder by this rule."""
    best = proven(_for(before, int(before["score"]), mover))
    played = proven(played_value(before, after, mover))
    if played is not None and played < 0:
        return best is None or best > 0
    if best is not None and best > 0:
        own = proven(_for(after, int(after["score"]), mover))  # a slower win seen deeper is still a win
        return (played is None or played < 0) and (own is None or own < 0)
    return False


def graph_value(e: dict[str, Any], side: int) -> int:
    """A position's score from ``side``'s view for the graph and the accuracy's volatility: the
    mean of its last two depths, so that the side to move at the horizon does not make the
    curve zigzag (a proven result as it is)."""
    last = value_at(e, int(e["depth"]))
    if abs(last) >= MATE - 1_000 or int(e["depth"]) < 2:
        return _for(e, last, side)
    return _for(e, (last + value_at(e, int(e["depth"]) - 1)) // 2, side)


def side_accuracies(rules: Rules[P], positions: list[P], evals: dict[int, dict[str, Any]],
                    plies: list[dict[str, Any]]) -> dict[int, float | None]:
    """Lichess's game accuracy of each side (0..100, None for a side without a reviewed move),
    over the moves of ``plies`` (see the module docstring)."""
    n = 0
    while n in evals:
        n += 1
    chances = [100.0 * win_chance(graph_value(evals[i], 1)) for i in range(n)]  # side 1's view throughout
    moves = n - 1
    if moves < 1:
        return {0: None, 1: None}
    size = max(2, min(8, moves // 10))
    windows = [chances[:size]] * max(0, min(size, len(chances)) - 2)
    windows += [chances[k:k + size] for k in range(0, len(chances) - size + 1)]
    weights = [max(0.5, min(12.0, statistics.pstdev(w))) for w in windows]
    by_side: dict[int, list[tuple[float, float]]] = {0: [], 1: []}
    for p in plies:
        k = p["ply"] - 1
        if k < moves:
            mover = int(rules.side_to_move(positions[k]))
            by_side[mover].append((p["accuracy"], weights[k] if k < len(weights) else weights[-1]))
    out: dict[int, float | None] = {}
    for side, items in by_side.items():
        if not items:
            out[side] = None
            continue
        weighted = sum(a * w for a, w in items) / sum(w for _a, w in items)
        harmonic = len(items) / sum(1.0 / max(1.0, a) for a, _w in items)
        out[side] = round((weighted + harmonic) / 2, 1)
    return out


def classify(rules: Rules[P], positions: list[P], moves: list[tuple[int, ...]],
             evals: dict[int, dict[str, Any]]) -> dict[str, Any]:
    """The review of the moves whose positions before and after are both evaluated.

    ``plies``: ``{"ply", "move", "score", "best", "class", "side", "loss", "accuracy", "line"}``
    with ``score`` the evaluation after the move from the view of side 1 (the summary's
    ``score_for``), so that a graph of it does not flip with the turn, and ``line`` the engine's
    best line from the position before the move.  ``summary``: per side key, the count of each
    class, the average loss and the ``accuracy``; ``complete`` tells whether every move was
    reviewed.
    """
    variant = rules.variant
    plies: list[dict[str, Any]] = []
    per_side: dict[str, dict[str, Any]] = {
        variant.side_key(s): {**{c: 0 for c in CLASSES}, "moves": 0, "average_loss": 0.0, "accuracy": None}
        for s in (0, 1)}
    for i, move in enumerate(moves):
        before, after = evals.get(i), evals.get(i + 1)
        if before is None or after is None:
            continue
        mover = int(rules.side_to_move(positions[i]))
        best_chance = win_chance(_for(before, int(before["score"]), mover))
        loss = max(0.0, 100.0 * (best_chance - win_chance(played_value(before, after, mover))))
        text = rules.move_text(tuple(move))
        engine_move = bool(before["best_move"]) and tuple(before["best_move"]) == tuple(move)
        cls = class_of(loss, engine_move)
        if not engine_move and forced_blunder(before, after, mover):
            cls = "blunder"
        score_1 = graph_value(after, 1)
        plies.append({"ply": i + 1, "move": text, "score": int(score_1), "best": before["best"] or text,
                      "class": cls, "side": variant.side_key(mover), "loss": round(loss, 1),
                      "accuracy": round(100.0 if engine_move else move_accuracy(loss), 1),
                      "line": list(before.get("line") or ([before["best"]] if before["best"] else []))})
        agg = per_side[variant.side_key(mover)]
        agg[cls] += 1
        agg["moves"] += 1
        agg["average_loss"] += loss
    for agg in per_side.values():
        agg["average_loss"] = round(agg["average_loss"] / agg["moves"], 1) if agg["moves"] else 0.0
    for side, acc in side_accuracies(rules, positions, evals, plies).items():
        per_side[variant.side_key(side)]["accuracy"] = acc
    summary = {"sides": per_side, "score_for": variant.side_key(1), "complete": len(plies) == len(moves),
               "loss_from": dict(zip(CLASSES[1:], THRESHOLDS, strict=True))}
    return {"plies": plies, "summary": summary}


def review_game(game: Game[P], budget: Budget, should_stop: Callable[[], bool] | None = None,
                on_progress: Callable[[int, dict[int, dict[str, Any]]], None] | None = None,
                engine: str | None = None, known: dict[int, dict[str, Any]] | None = None,
                on_position: Callable[[int, dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Review a whole :class:`~tafl_desktop.core.game.Game` in this process (the CLI's path),
    resuming from ``known`` evaluations."""
    rules = game.rules
    moves = [tuple(p.move) for p in game.plies]
    positions = [game.position_at(i) for i in range(len(moves) + 1)]
    evals = evaluate_positions(rules, positions, budget, known, should_stop=should_stop, on_progress=on_progress,
                               engine=engine, on_position=on_position)
    return classify(rules, positions, moves, evals)
