"""Puzzle themes, detected from the proved solution rather than labelled by hand.

A theme says what a puzzle teaches (lichess tags its puzzles the same way: mate patterns, forks,
length).  Every theme here is a fact the rules engine can check on the puzzle's own solution:

* by the goal the solution reaches: ``escape`` (the king escapes), ``capture_king``, ``fort``
  (the defenders win by an exit fort), ``encirclement``, ``trap`` (the flock leaves the hunters no
  move), ``fox_feast`` (the hunters take so many that the flock can no longer win),
  ``fox_breakthrough`` (a hunter gets behind the one-way flock);
* by what a move of the main line does: ``shield_wall`` (a capture of pieces not beside the
  square moved to: only a shield wall takes those), ``dablot_ranks`` (a Dablot capture by a piece
  that outranks what it takes, or the leader taken: the capture depends on the ranks);
* by the shape of the solution tree: ``double_threat`` (after a winner's move every defence is
  met by an immediate win, and no single winning move answers every defence: two threats at
  once, the fork of chess puzzles.  The tree keeps one answer per defence, whichever the prover
  found first, so two different answers in it are not enough: the rules are asked whether one
  move would have won against all of them);
* by length, as lichess counts it: ``one_move``, ``short`` (two moves of the winner), ``long``
  (three), ``very_long`` (four or more).

``puzzles list --json`` lists a puzzle's theme ids under ``themes``; the window filters by them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tafl_desktop.core.game import Move, P, Rules
from tafl_desktop.core.marks import N_

#: Theme id -> label (marked for translation), in the order the window lists them.
THEMES: dict[str, str] = {
    "escape": N_("Escape"),
    "capture_king": N_("Capture the king"),
    "shield_wall": N_("Shield wall"),
    "fort": N_("Fort"),
    "encirclement": N_("Encirclement"),
    "double_threat": N_("Double threat"),
    "trap": N_("Trap the hunters"),
    "fox_feast": N_("The hunters' feast"),
    "fox_breakthrough": N_("The fox's breakthrough"),
    "dablot_ranks": N_("Dablot ranks"),
    "one_move": N_("One move"),
    "short": N_("Short (2 moves)"),
    "long": N_("Long (3 moves)"),
    "very_long": N_("Very long (4+ moves)"),
}

_GOAL_THEMES = {"king_escaped": "escape", "king_captured": "capture_king", "edge_fort": "fort",
                "encircled": "encirclement", "trapped": "trap", "flock_depleted": "fox_feast",
                "broke_through": "fox_breakthrough"}


def length_theme(plies: int) -> str:
    moves = (plies + 1) // 2
    return {1: "one_move", 2: "short", 3: "long"}.get(moves, "very_long")


def detect_themes(rules: Rules[P], pos: P, solution: list[str], tree: dict[str, Any], goal: str) -> list[str]:
    """The theme ids of a proved puzzle: its start ``pos``, main line ``solution`` (move texts),
    expanded solution ``tree`` and ``goal`` (the outcome reason), in :data:`THEMES` order."""
    found = set()
    start = pos
    if goal in _GOAL_THEMES:
        found.add(_GOAL_THEMES[goal])
    family = getattr(rules, "family", "")
    if family == "dablot" and goal == "leader_captured":  # only a leader takes a leader
        found.add("dablot_ranks")
    winner_turn = True
    for text in solution:
        move = rules.parse_move(pos, text)
        after, caps = rules.play(pos, move)
        if winner_turn and caps:
            if family == "tafl" and _far_captures(rules, move, caps):
                found.add("shield_wall")
            if family == "dablot" and _outranks(rules, pos, move, caps):
                found.add("dablot_ranks")
        pos = after
        winner_turn = not winner_turn
    if _double_threat(rules, start, tree):
        found.add("double_threat")
    found.add(length_theme(len(solution)))
    return [t for t in THEMES if t in found]


def _adjacent(rules: Rules[P], a: int, b: int) -> bool:
    return b in rules.geometry.neighbours(a)


def _far_captures(rules: Rules[P], move: Move, caps: Iterable[int]) -> bool:
    """A Tafl capture of a piece not beside the square moved to: custodial capture and
    immobilisation take only neighbours, so this is a shield wall."""
    to = move[-1]
    return any(not _adjacent(rules, to, c) for c in caps)


def _outranks(rules: Rules[P], pos: P, move: Move, caps: Iterable[int]) -> bool:
    """A Dablot capture whose captor outranks a piece it takes (a soldier could not have done it)."""
    cells = getattr(pos, "cells", None)
    rank = getattr(rules, "rank", None)
    if cells is None or rank is None or not cells[move[0]]:
        return False
    mine = rank(cells[move[0]])
    return any(cells[c] and rank(cells[c]) < mine for c in caps)


def _wins_at_once(rules: Rules[P], pos: P, move: Move) -> bool:
    """Does ``move`` end the game from ``pos`` with a win for the side that plays it?"""
    mover = rules.side_to_move(pos)
    out = rules.outcome(rules.play(pos, move)[0])
    return out is not None and out.winner == mover


def _one_answer_for_all(rules: Rules[P], defended: list[P]) -> bool:
    """Is there one move that wins at once in every one of the positions ``defended`` (the
    positions after each defence)?  The candidates are the first position's immediate wins."""
    if not defended:
        return False
    first, rest = defended[0], defended[1:]
    candidates = [m for m in rules.legal_moves(first) if _wins_at_once(rules, first, m)]
    for p in rest:
        if not candidates:
            break
        legal = set(rules.legal_moves(p))
        candidates = [m for m in candidates if m in legal and _wins_at_once(rules, p, m)]
    return bool(candidates)


def _double_threat(rules: Rules[P], pos: P, node: dict[str, Any] | None) -> bool:
    """Somewhere in the solution tree (``node`` a winner's move from ``pos``) a winner's move is
    answered, defence by defence, only by immediate wins, and no one move wins against every
    defence: at least two threats stand at once."""
    if not node or "move" not in node:
        return False
    replies = node["then"].get("replies") or {}
    if not replies:
        return False
    after = rules.play(pos, rules.parse_move(pos, node["move"]))[0]
    defended: list[Any] = []
    all_final = True
    for reply, sub in replies.items():
        if "move" not in sub:
            continue  # a defence that ends the game itself
        defended.append(rules.play(after, rules.parse_move(after, reply))[0])
        if "end" not in sub["then"]:
            all_final = False
    if all_final and defended and not _one_answer_for_all(rules, defended):
        return True
    return any(_double_threat(rules, rules.play(after, rules.parse_move(after, reply))[0], sub)
               for reply, sub in replies.items() if "move" in sub)
