"""What a piece shows besides its shape: the letter of the "lettered" style and a Dablot rank.

Letters come from the variant's own side names, so the geese read "G" and the fox "F" (not the
family's internal "flock" and "hunter"); Asalto's rebels "R" and officers "O".  Tafl keeps A, D and
K (attacker, defender, king).  Dablot ranks are the rules' own ``rank`` of each piece kind, so the
numbers on screen are the numbers the capture rule compares.
"""

from __future__ import annotations

from typing import Any

from tafl_desktop.core.side_words import singular

#: Tafl's letters: attacker, defender, king.
TAFL_LETTERS = {"t": "A", "T": "D", "K": "K"}


def piece_letters(variant: Any) -> dict[str, str]:
    """Piece kind -> the letter the "lettered" style draws, in the variant's words."""
    letters = _LETTERS.get(variant.family)
    return letters(variant) if letters is not None else {}


def _side_letters(variant: Any) -> dict[str, str]:
    """One kind of piece a side (the Fox games): the initial of each side's name."""
    flock, hunters = (singular(name)[:1].upper() or "?" for name in variant.sides)
    if flock == hunters:  # two sides with one initial: take two letters each
        flock, hunters = (singular(name)[:2].capitalize() for name in variant.sides)
    return {"f": flock, "h": hunters}


#: The lettered style's letters of each family (Dablot's pieces show their ranks instead).
_LETTERS = {"tafl": lambda _variant: dict(TAFL_LETTERS), "hunt": _side_letters}


def piece_ranks(rules: Any) -> dict[str, int]:
    """Piece kind -> rank, for games whose pieces have ranks (Dablot); empty otherwise."""
    if not rules.variant.traits.ranked_pieces:
        return {}
    from tafl_desktop.core import dablot

    kinds = dict(dablot.KIND_LETTERS, r=dablot.SOLDIER)
    out: dict[str, int] = {}
    for letter, kind in kinds.items():
        rank = rules.rank(dablot.cell(0, kind))
        out[letter] = out[letter.upper()] = rank
    return out
