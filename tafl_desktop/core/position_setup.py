"""Setting up a position by hand (the window's position editor, pasted text): which pieces a game
has, a board of pieces written in the family's own position text, and that text read back by the
rules.

The rules stay the judge: a set-up becomes a position only through ``rules.parse_position``, so
the editor refuses exactly what the rules refuse (two kings, two leaders in one army, a piece
where the rules say no piece may stand) with the rules' own reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tafl_desktop.core.game import Side
from tafl_desktop.core.marks import gettext as _

#: The piece letters of each family, in the order a palette shows them (the letters the rules'
#: ``pieces()`` and the board painter use).  Dablot: lower case is the South army, upper case North.
PIECE_KINDS: dict[str, tuple[str, ...]] = {
    "tafl": ("t", "T", "K"),
    "hunt": ("f", "h"),
    "dablot": ("s", "r", "o", "p", "k", "S", "R", "O", "P", "K"),
}


class SetupError(ValueError):
    """A set-up that is not a position of this game; the message is the rules' one-line reason."""


def piece_kinds(variant: Any) -> tuple[str, ...]:
    return PIECE_KINDS.get(variant.family, PIECE_KINDS["tafl"])


def board_text(variant: Any, pieces: Mapping[int, str]) -> str:
    """``pieces`` (point -> letter) as the family's position text, the form ``--position`` reads."""
    g = variant.geometry
    family = variant.family
    if family == "hunt":
        hunters = ",".join(g.name(p) for p in sorted(pieces) if pieces[p] == "h")
        flock = ",".join(g.name(p) for p in sorted(pieces) if pieces[p] == "f")
        return f"hunters={hunters} flock={flock}"
    if family == "dablot":
        south = ",".join(pieces[p] + g.name(p) for p in sorted(pieces) if pieces[p].islower())
        north = ",".join(pieces[p].lower() + g.name(p) for p in sorted(pieces) if pieces[p].isupper())
        return f"south={south} north={north}"
    rows = []
    for rank in range(g.height - 1, -1, -1):
        row, run = "", 0
        for file in range(g.width):
            letter = pieces.get(g.index(file, rank))
            if letter is None:
                run += 1
                continue
            row += (str(run) if run else "") + letter
            run = 0
        rows.append(row + (str(run) if run else ""))
    return "/" + "/".join(rows) + "/"


def position_from_text(rules: Any, text: str, to_move: Side) -> Any:
    """The rules' position for ``text`` (SetupError with their reason if they refuse it)."""
    if not text.strip():
        raise SetupError(_("the position text is empty"))
    try:
        return rules.parse_position(text.strip(), to_move)
    except (ValueError, KeyError, IndexError) as exc:
        raise SetupError(str(exc) or type(exc).__name__) from None


def position_from_pieces(rules: Any, pieces: Mapping[int, str], to_move: Side) -> Any:
    return position_from_text(rules, board_text(rules.variant, pieces), to_move)


def split_side(variant: Any, text: str) -> tuple[str, Side | None]:
    """A copied position may end with the side to move (``/3t3/.../ defenders``, ``hunters=d4
    flock=... geese``): the position text and that side (None when the text names none)."""
    head, _, last = text.strip().rpartition(" ")
    if head and "=" not in last and "/" not in last:
        try:
            return head.strip(), variant.parse_side(last)
        except ValueError:
            pass
    return text.strip(), None


def position_with_side(rules: Any, pos: Any) -> str:
    """The text Copy puts on the clipboard: the position and the side to move."""
    variant = rules.variant
    return f"{rules.position_text(pos)} {variant.side_key(rules.side_to_move(pos))}"
