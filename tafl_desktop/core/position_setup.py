"""Setting up a position by hand (the window's position editor, pasted text): which pieces a game
has, a board of pieces written in the family's own position text, and that text read back by the
rules.

The rules stay the judge: a set-up becomes a position only through ``rules.parse_position``, so
the editor refuses exactly what the rules refuse (two kings, two leaders in one army, a piece
where the rules say no piece may stand) with the rules' own reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from tafl_desktop.core.game import Position, Rules, Side
from tafl_desktop.core.marks import gettext as _

if TYPE_CHECKING:
    from tafl_desktop.core.variants import Variant


class SetupError(ValueError):
    """A set-up that is not a position of this game; the message is the rules' one-line reason."""


def piece_kinds(variant: Variant) -> tuple[str, ...]:
    """The piece letters of ``variant``'s family, in the order a palette shows them (the letters
    the rules' ``pieces()`` and the board painter use)."""
    return tuple(variant.traits.piece_kinds)


def board_text(variant: Variant, pieces: Mapping[int, str]) -> str:
    """``pieces`` (point -> letter) as the family's position text, the form ``--position`` reads."""
    return _WRITERS[variant.traits.setup_form](variant, pieces)


def _points_text(variant: Variant, pieces: Mapping[int, str]) -> str:
    """Each side's points, the second side first: ``hunters=d4 flock=a3,b3`` (the Fox games)."""
    g, traits = variant.geometry, variant.traits
    lists = [f"{traits.setup_labels[side]}=" + ",".join(g.name(p) for p in sorted(pieces)
                                                      if traits.piece_side(pieces[p]) == side) for side in (1, 0)]
    return " ".join(lists)


def _lettered_text(variant: Variant, pieces: Mapping[int, str]) -> str:
    """Each side's pieces, letter and point: ``south=sa1,pe6 north=kf7`` (Dablot)."""
    g, traits = variant.geometry, variant.traits
    lists = [f"{traits.setup_labels[side]}=" + ",".join(pieces[p].lower() + g.name(p) for p in sorted(pieces)
                                                      if traits.piece_side(pieces[p]) == side) for side in (0, 1)]
    return " ".join(lists)


def _rows_text(variant: Variant, pieces: Mapping[int, str]) -> str:
    """OpenTafl's rows of letters, top row first: ``/3t3/.../`` (Tafl)."""
    g = variant.grid
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


#: The position text of each kind of set-up (``Family.setup_form``).
_WRITERS = {"rows": _rows_text, "points": _points_text, "lettered": _lettered_text}


def position_from_text(rules: Rules[Position], text: str, to_move: Side) -> Position:
    """The rules' position for ``text`` (SetupError with their reason if they refuse it)."""
    if not text.strip():
        raise SetupError(_("the position text is empty"))
    try:
        return rules.parse_position(text.strip(), to_move)
    except (ValueError, KeyError, IndexError) as exc:
        raise SetupError(str(exc) or type(exc).__name__) from None


def position_from_pieces(rules: Rules[Position], pieces: Mapping[int, str], to_move: Side) -> Position:
    return position_from_text(rules, board_text(rules.variant, pieces), to_move)


def split_side(variant: Variant, text: str) -> tuple[str, Side | None]:
    """A copied position may end with the side to move (``/3t3/.../ defenders``, ``hunters=d4
    flock=... geese``): the position text and that side (None when the text names none)."""
    head, _, last = text.strip().rpartition(" ")
    if head and "=" not in last and "/" not in last:
        try:
            return head.strip(), variant.parse_side(last)
        except ValueError:
            pass
    return text.strip(), None


def position_with_side(rules: Rules[Position], pos: Position) -> str:
    """The text Copy puts on the clipboard: the position and the side to move."""
    variant = rules.variant
    return f"{rules.position_text(pos)} {variant.side_key(rules.side_to_move(pos))}"
