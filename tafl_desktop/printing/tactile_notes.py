"""The rule sheet's words on the set to play by touch (issue 40): how to feel the board and tell
the pieces apart, for the game in hand.

The words follow :mod:`tafl_desktop.printing.maker.tactile`, which builds the set: what a sentence
says about a shape, a height or a texture is what that module makes, and only the marks the
game's rules put on its board are described (a throne, corners, other exits, camps, walls; a pen).
"""

from __future__ import annotations

from typing import Any

from tafl_desktop.core.board_marks import BoardMarks
from tafl_desktop.i18n import _
from tafl_desktop.printing.pieces_sheet import piece_kinds


def by_touch(variant: Any, marks: BoardMarks) -> tuple[str, list[str]]:
    """The heading and the sentences of the rule sheet's section on playing by touch."""
    g = variant.geometry
    grid = getattr(g, "kind", "grid") == "grid"
    out = [_("Print the tactile set (3D printer: the print command with --tactile, or Tactile set in the print "
             "window). The board's lines stand up as ridges: follow them with a fingertip to count the rows.")]
    if grid:
        out.append(_("Each piece stands in a hole at the centre of its square."))
        if marks.throne:
            out.append(_("The throne is a raised plateau."))
        if marks.corner:
            out.append(_("The corner squares are sunk pockets."))
        if marks.escape - marks.corner:
            out.append(_("The exit squares are sunk pockets."))
        if marks.camp:
            out.append(_("Each camp square carries a raised frame inside its edges."))
        if marks.extra.get("walls"):
            out.append(_("Walls stand up as tall ridges between squares."))
    else:
        out.append(_("Each piece stands in a hole where lines cross."))
        if marks.extra.get("pen") or marks.extra.get("home"):
            out.append(_("The marked areas of the board (the pen, the home row) are sunk below the rest."))
    titles = {letter: title for letter, title, _label in piece_kinds(variant)}
    if variant.family == "tafl":
        words = {"t": _("square base, low height, three raised ribs on top"),
                 "T": _("round base, greater height, smooth top"),
                 "K": _("round base, a defender's height, a standing crown")}
        out += [_("{pieces}: {feel}.").format(pieces=titles[k], feel=w) for k, w in words.items() if k in titles]
    elif variant.family == "hunt":
        words = {"h": _("six-sided base, great height, a cone on top"), "f": _("round base, low height, smooth top")}
        out += [_("{pieces}: {feel}.").format(pieces=titles[k], feel=w) for k, w in words.items() if k in titles]
    else:
        from tafl_desktop.printing.markers import armies_for_variant

        for army in armies_for_variant(variant):
            out.append(_("{pieces}: {feel}.").format(
                pieces=_(army.name), feel=_("square pieces") if army.dark else _("round pieces")))
        out.append(_("A piece's rank is its height, one layer a point, grooved between the layers, and as many "
                     "raised dots on top; a leader's dots are ringed."))
    return _("Playing by touch"), out
