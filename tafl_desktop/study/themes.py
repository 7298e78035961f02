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
  met by an immediate win, and the defences need at least two different winning answers: two
  threats at once, the fork of chess puzzles);
* by length, as lichess counts it: ``one_move``, ``short`` (two moves of the winner), ``long``
  (three), ``very_long`` (four or more).

``puzzles list --json`` lists a puzzle's theme ids under ``themes``; the window filters by them.
"""

from __future__ import annotations

from typing import Any

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


def detect_themes(rules: Any, pos: Any, solution: list[str], tree: dict[str, Any], goal: str) -> list[str]:
    """The theme ids of a proved puzzle: its start ``pos``, main line ``solution`` (move texts),
    expanded solution ``tree`` and ``goal`` (the outcome reason), in :data:`THEMES` order."""
    found = set()
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
    if _double_threat(tree):
        found.add("double_threat")
    found.add(length_theme(len(solution)))
    return [t for t in THEMES if t in found]


def _adjacent(rules: Any, a: int, b: int) -> bool:
    return b in rules.geometry.neighbours(a)


def _far_captures(rules: Any, move: Any, caps: Any) -> bool:
    """A Tafl capture of a piece not beside the square moved to: custodial capture and
    immobilisation take only neighbours, so this is a shield wall."""
    to = move[-1]
    return any(not _adjacent(rules, to, c) for c in caps)


def _outranks(rules: Any, pos: Any, move: Any, caps: Any) -> bool:
    """A Dablot capture whose captor outranks a piece it takes (a soldier could not have done it)."""
    cells = getattr(pos, "cells", None)
    rank = getattr(rules, "rank", None)
    if cells is None or rank is None or not cells[move[0]]:
        return False
    mine = rank(cells[move[0]])
    return any(cells[c] and rank(cells[c]) < mine for c in caps)


def _double_threat(node: dict[str, Any] | None) -> bool:
    """Somewhere in the solution tree a winner's move is answered, defence by defence, only by
    immediate wins, and at least two different ones are needed."""
    if not node or "move" not in node:
        return False
    replies = node["then"].get("replies") or {}
    if not replies:
        return False
    finals = set()
    all_final = True
    for sub in replies.values():
        if "move" in sub and "end" in sub["then"]:
            finals.add(sub["move"])
        elif "move" in sub:
            all_final = False
    if all_final and len(finals) >= 2:
        return True
    return any(_double_threat(sub) for sub in replies.values())
