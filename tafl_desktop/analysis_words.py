"""Scores in words, in the variant's own side names, for the analysis board, the review and the CLI.

A proven result reads "The defenders win in 2 moves", counting moves as the move list numbers
them (the winner's own turns, not plies: a win in 3 plies for the side to move is a win in 2
moves); "The fox wins..." has its own sentence (a side of one piece takes the singular verb).  An
evaluation reads "+1.4 attackers" (German "+1,4 Angreifer": the number and the noun as the
language writes them), in soldiers (100 units) for the side that is better.  Whole sentences per
form, never glued fragments, so the translators get each one as it is read.
"""

from __future__ import annotations

from typing import Any

from tafl_desktop.core.marks import decimal
from tafl_desktop.core.side_words import in_sentence, sentence
from tafl_desktop.i18n import _, ngettext

#: Below this (in hundredths of a soldier) a position reads as equal.
EQUAL_BAND = 15


def moves_to_result(plies: int, winner_moves_next: bool) -> int:
    """The moves of the winner in a forced result ``plies`` plies away: the side to move makes
    the 1st, 3rd, 5th... ply, so a win in 3 plies is a win in 2 moves, and a loss in 2 plies (the
    opponent's second ply wins) a win in 1 move for him."""
    return (plies + 1) // 2 if winner_moves_next else max(1, plies // 2)


def result_words(variant: Any, winner: int, plies: int, winner_moves_next: bool = True) -> str:
    """"The defenders win in 2 moves" / "The fox wins in 1 move"."""
    n = moves_to_result(plies, winner_moves_next)
    subject = variant.side_subject(winner)
    if variant.side_number(winner) == 1:
        text = ngettext("{side} wins in {n} move", "{side} wins in {n} moves", n)
    else:
        text = ngettext("{side} win in {n} move", "{side} win in {n} moves", n)
    return sentence(text.format(side=subject, n=n))


def value_words(variant: Any, score_for_1: int) -> str:
    """"+1.4 attackers" for the side ahead (``score_for_1`` is from side 1's view), "Equal" near 0."""
    if abs(score_for_1) < EQUAL_BAND:
        return _("Equal")
    side = 1 if score_for_1 > 0 else 0
    return _("+{value} {side}").format(value=decimal(abs(score_for_1) / 100),
                                       side=in_sentence(variant.side_names[side]))


def line_words(variant: Any, score: int, result_in: int | None, winner_key: str | None, to_move: int) -> str:
    """A line's score (``score`` from the side to move's view) as the analysis board shows it."""
    if result_in is not None and winner_key is not None:
        winner = next(s for s in (0, 1) if variant.side_key(s) == winner_key)
        return result_words(variant, winner, result_in, winner == to_move)
    return value_words(variant, score if to_move == 1 else -score)
