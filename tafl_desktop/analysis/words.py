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


def _taken(variant: Any, squares: list[str], by_side: int) -> str:
    """"Attackers take 1 piece (b4)" in the variant's side names (a one-piece side in the singular)."""
    if variant.side_count(by_side) == 1:
        text = ngettext("{side} takes {n} piece ({squares})", "{side} takes {n} pieces ({squares})", len(squares))
    else:
        text = ngettext("{side} take {n} piece ({squares})", "{side} take {n} pieces ({squares})", len(squares))
    return text.format(side=variant.side_names[by_side], n=len(squares), squares=", ".join(squares))


def explain_exercise(variant: Any, ex: Any, facts: dict[str, Any]) -> list[str]:
    """The engine's answer to an exercise of "Learn from your mistakes", in whole sentences: what
    the move played allowed, what the better move does, and the winning chances of both
    (``facts`` from :func:`tafl_desktop.ai.mistakes.explain`)."""
    out = []
    me, them = ex.side, 1 - ex.side
    reply = facts["reply"]
    if reply.result is not None and reply.result[0] == them:
        out.append(_("After {move}: {result} ({line}).").format(
            move=ex.played_text, result=result_words(variant, them, reply.result[1]),
            line=" ".join(reply.moves[:reply.result[1]])))
    elif reply.taken_by[them]:
        out.append(_("After {move}, the engine answers {line}: {taken}.").format(
            move=ex.played_text, line=" ".join(reply.moves[:4]), taken=_taken(variant, reply.taken_by[them], them)))
    elif reply.moves:
        out.append(_("After {move}, the engine answers {line}.").format(move=ex.played_text,
                                                                       line=" ".join(reply.moves[:4])))
    best = facts["best"]
    if best.result is not None and best.result[0] == me:
        out.append(_("{move} wins: {result} ({line}).").format(
            move=ex.best_text, result=result_words(variant, me, best.result[1]), line=" ".join(best.moves[:6])))
    elif best.taken_by[me] and len(best.taken_by[me]) > len(best.taken_by[them]):
        out.append(_("{move} is better: in the line {line}, {taken}.").format(
            move=ex.best_text, line=" ".join(best.moves[:4]), taken=_taken(variant, best.taken_by[me], me)))
    else:
        out.append(_("{move} is better: the engine's line is {line}.").format(
            move=ex.best_text, line=" ".join(best.moves[:4])))
    out.append(_("Your winning chance: {best} % with {better}, {played} % after {move}.").format(
        best=facts["best_chance"], better=ex.best_text, played=facts["played_chance"], move=ex.played_text))
    return out


def allowed_words(variant: Any, ex: Any, facts: dict[str, Any]) -> str:
    """What a missed move allowed, in one sentence for the review's status line and move-list tip
    (issue 36: "h1-h4 was better" alone does not say why): a forced loss, a lost piece (the line
    up to the capture), or else the winning chance it gave away (``facts`` from
    :func:`tafl_desktop.ai.mistakes.explain`)."""
    me, them = ex.side, 1 - ex.side
    reply = facts["reply"]
    if reply.result is not None and reply.result[0] == them:
        return _("Allows a forced loss: {result} ({line}).").format(
            result=result_words(variant, them, reply.result[1]), line=" ".join(reply.moves[:reply.result[1]]))
    lost = reply.taken_by[them]
    if lost and len(lost) > len(reply.taken_by[me]):
        # one piece: the line up to its capture; more: the whole line looked at (they fall on the way)
        line = " ".join(reply.moves[:reply.first_take.get(them, 1) if len(lost) == 1 else 4])
        return ngettext("Loses a piece: {line} takes {squares}.", "Loses {n} pieces: {line} takes {squares}.",
                        len(lost)).format(n=len(lost), line=line, squares=", ".join(lost))
    return _("Gives away winning chance: {played} % after it, {best} % with the better move.").format(
        played=facts["played_chance"], best=facts["best_chance"])
