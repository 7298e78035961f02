"""Learn from your mistakes: a review's inaccuracies, mistakes and blunders turned into exercises,
the judging of an answer, and the facts that explain the engine's answer.

An exercise is the position before one of the player's own missed moves: find a better move.  An
answer is judged as the review judged the move played: the position after it is searched with the
review's budget, and its value at the same horizon as the best move's (see
:func:`tafl_desktop.ai.review.played_value`) is turned into the mover's winning chance.  A move is
right when it is the engine's move or gives away less than the review's "good" bound (5 points)
without walking into a proven loss or throwing away a proven win: the classes best and good.

The explanation is made of facts, not words (the words are the window's, in the player's language:
:func:`tafl_desktop.analysis.words.explain_exercise`): what the engine's line does (a proven
result, the pieces it takes in its first moves), what the reply to the move played does, and the
winning chances of both moves.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tafl_desktop.ai.analysis import win_chance
from tafl_desktop.ai.multipv import proven
from tafl_desktop.ai.review import MISSED, THRESHOLDS, forced_blunder, played_value
from tafl_desktop.core.game import P, Rules

#: Moves of a line looked at for captures (the explanation's horizon).
LOOK_AHEAD = 4


@dataclass
class LineFacts:
    """What a line does: its moves, who moves first, the squares each side takes in its first
    :data:`LOOK_AHEAD` moves, and a proven result (winner side, plies) if the search proved one."""

    moves: list[str]
    first: int
    taken_by: dict[int, list[str]] = field(default_factory=lambda: {0: [], 1: []})
    result: tuple[int, int] | None = None
    #: The ply (1 = the line's first move) of each side's first capture in the line, if any: the
    #: review names the line up to it ("Loses a piece: g4-h4 takes h5").
    first_take: dict[int, int] = field(default_factory=dict)


@dataclass
class Exercise:
    """One missed move as an exercise."""

    ply: int                       # the move's number in the game (1 = the first move)
    side: int                      # the side that moved
    cls: str                       # its class in the review
    position: Any                  # the position before the move
    played: tuple[int, ...]
    played_text: str
    best: tuple[int, ...]
    best_text: str
    loss: float
    before: dict[str, Any]         # the review's evaluation of the position before
    after: dict[str, Any]          # ... and after the move played
    #: The game's start and its moves up to this position (the answer's search honours the
    #: repetition rules), and the review's evaluations of those positions (not searched again).
    start: Any = None
    moves_before: list[tuple[int, ...]] = field(default_factory=list)
    evals_before: dict[int, dict[str, Any]] = field(default_factory=dict)


def exercises_from_review(rules: Rules[P], start: P, moves: list[tuple[int, ...]], evals: dict[int, dict[str, Any]],
                          review: dict[str, Any], sides: list[int]) -> list[Exercise]:
    """The missed moves (inaccuracies, mistakes, blunders) of ``sides`` in game order, each with
    a better move the engine named."""
    out = []
    position = start
    positions = [start]
    for m in moves:
        position = rules.play(position, tuple(m))[0]
        positions.append(position)
    for p in review["plies"]:
        i = p["ply"] - 1
        before, after = evals.get(i), evals.get(i + 1)
        if p["class"] not in MISSED or before is None or after is None or not before.get("best_move"):
            continue
        side = int(rules.side_to_move(positions[i]))
        if side not in sides:
            continue
        out.append(Exercise(p["ply"], side, p["class"], positions[i], tuple(moves[i]), p["move"],
                            tuple(before["best_move"]), before["best"], float(p["loss"]), before, after,
                            start, [tuple(x) for x in moves[:i]], {k: evals[k] for k in range(i + 1) if k in evals}))
    return out


def chance_of(e: dict[str, Any], side: int) -> float:
    """``side``'s winning chance (0..1) in an evaluated position."""
    score = e["score"] if e["side"] == side else -e["score"]
    return win_chance(int(score))


def judge(ex: Exercise, move: tuple[int, ...], after: dict[str, Any]) -> tuple[bool, float]:
    """Is ``move`` (whose position after it is evaluated as ``after``) a right answer, and what
    does it give away (points of winning chance) against the engine's move?"""
    if tuple(move) == tuple(ex.best):
        return True, 0.0
    best = chance_of(ex.before, ex.side)
    tried = win_chance(played_value(ex.before, after, ex.side))
    loss = max(0.0, 100.0 * (best - tried))
    return loss < THRESHOLDS[1] and not forced_blunder(ex.before, after, ex.side), loss


def line_facts(rules: Rules[P], position: P, texts: list[str]) -> LineFacts:
    """Replay the move texts of a line from ``position`` and note the captures of its first moves
    (squares named) and, from the search's score, nothing else: the caller adds the result."""
    facts = LineFacts(list(texts), int(rules.side_to_move(position)))
    pos = position
    for n, text in enumerate(texts[:LOOK_AHEAD]):
        try:
            move = rules.parse_move(pos, text)
        except ValueError:
            break
        mover = int(rules.side_to_move(pos))
        before = rules.pieces(pos)
        pos, caps = rules.play(pos, move)
        geometry = rules.variant.geometry
        facts.taken_by[mover] += [geometry.name(s) for s in caps if s in before]
        if facts.taken_by[mover]:
            facts.first_take.setdefault(mover, n + 1)
        out = rules.outcome(pos)
        if out is not None:
            if out.winner is not None:
                facts.result = (int(out.winner), n + 1)
            break
    return facts


def explain(rules: Rules[P], ex: Exercise) -> dict[str, Any]:
    """The facts of an exercise's answer: ``best`` (the engine's line from the position),
    ``reply`` (the engine's line after the move played, the opponent first), each with a proven
    result where the search proved one, and both moves' winning chances (percent, the mover's)."""
    best = line_facts(rules, ex.position, list(ex.before.get("line") or [ex.best_text]))
    plies = proven(int(ex.before["score"]))
    if best.result is None and plies is not None:
        winner = ex.side if plies > 0 else 1 - ex.side
        best.result = (winner, abs(plies))
    after_pos = rules.play(ex.position, ex.played)[0]
    reply = line_facts(rules, after_pos, list(ex.after.get("line") or []))
    plies = proven(int(ex.after["score"]))
    if reply.result is None and plies is not None:
        to_move = int(rules.side_to_move(after_pos))
        winner = to_move if plies > 0 else 1 - to_move
        reply.result = (winner, abs(plies))
    return {"best": best, "reply": reply,
            "best_chance": round(100 * chance_of(ex.before, ex.side)),
            "played_chance": round(100 * win_chance(played_value(ex.before, ex.after, ex.side)))}
