"""Scores in words, in the variant's own side names, for the analysis board, the review and the CLI.

A proven result reads "Defenders win in 3 moves" ("The fox wins in 5 moves" has its own sentence:
a side of one piece takes the singular verb); an evaluation reads "+1.4 attackers", in soldiers
(100 units) for the side that is better.  Whole sentences per form, never glued fragments, so the
translators get each one as it is read.
"""

from __future__ import annotations

from typing import Any

from tafl_desktop.i18n import _, ngettext

#: Below this (in hundredths of a soldier) a position reads as equal.
EQUAL_BAND = 15


def result_words(variant: Any, winner: int, plies: int) -> str:
    """"Defenders win in 3 moves" / "Fox wins in 1 move" (one move = one ply of the move list)."""
    name = variant.side_names[int(winner)]
    if variant.side_count(winner) == 1:
        text = ngettext("{side} wins in {n} move", "{side} wins in {n} moves", plies)
    else:
        text = ngettext("{side} win in {n} move", "{side} win in {n} moves", plies)
    return text.format(side=name, n=plies)


def value_words(variant: Any, score_for_1: int) -> str:
    """"+1.4 attackers" for the side ahead (``score_for_1`` is from side 1's view), "Equal" near 0."""
    if abs(score_for_1) < EQUAL_BAND:
        return _("Equal")
    side = 1 if score_for_1 > 0 else 0
    return _("+{value} {side}").format(value=f"{abs(score_for_1) / 100:.1f}", side=variant.side_names[side].lower())


def line_words(variant: Any, score: int, result_in: int | None, winner_key: str | None, to_move: int) -> str:
    """A line's score (``score`` from the side to move's view) as the analysis board shows it."""
    if result_in is not None and winner_key is not None:
        winner = next(s for s in (0, 1) if variant.side_key(s) == winner_key)
        return result_words(variant, winner, result_in)
    return value_words(variant, score if to_move == 1 else -score)
