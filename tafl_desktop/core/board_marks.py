"""Which marks a board shows under the rules in force: one answer for the screen and the paper.

The board file says where the special squares are; the rules in force say which of them matter
(a corner-escape game marks the corners as exits, an edge-escape game shades the whole rim, camps
only when the camp rule is on, the fox's breakthrough row only when breaking through wins, the
fox-only diagonals only when the geese may not use them).  The board view and the printed board
both draw from :func:`marks_in_force`, so they cannot disagree.  Walls are geometry
(:meth:`GridGeometry.wall_segments`) and are drawn whatever the toggles.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tafl_desktop.core.geometry import GraphGeometry

if TYPE_CHECKING:
    from tafl_desktop.core.game import Position, Rules
    from tafl_desktop.core.variants import Variant


@dataclass(frozen=True)
class BoardMarks:
    """The special squares to draw, as the rules in force see them (square indices)."""

    throne: frozenset[int] = frozenset()
    corner: frozenset[int] = frozenset()
    camp: frozenset[int] = frozenset()
    escape: frozenset[int] = frozenset()
    #: True when every edge square is an exit (edge escape): drawn as a shaded rim
    escape_edge: bool = False
    #: True when the rim acts as a capturing partner (Alea Evangelii)
    edge_hostile: bool = False
    #: Lines (a, b) of a point-and-line board only the hunters may use (the 19th-century
    #: board's diagonals, source 000: "the thinner, red, diagonal lines"), drawn thinner.
    hunter_lines: frozenset[tuple[int, int]] = frozenset()
    extra: dict[str, Any] = field(default_factory=dict, compare=False)


def marks_in_force(variant: Variant, rules: Rules[Position] | None = None) -> BoardMarks:
    """Special squares of ``variant`` under its current toggles (read from its rules object;
    pass ``rules`` when one is at hand, to save building another)."""
    g = variant.geometry
    opts = (rules if rules is not None else variant.make_rules()).opts
    if isinstance(g, GraphGeometry):
        extra: dict[str, Any] = {"pen": g.marked("pen"), "words": variant.words, "sides": tuple(variant.sides)}
        if opts.get("breakthrough"):
            extra["home"] = g.marked("home")
        hunter = frozenset((a, b) for a, b, kind in g.lines if kind == "diag") \
            if opts.get("diagonals") == "hunters" else frozenset()
        return BoardMarks(hunter_lines=hunter, extra=extra)
    escape_mode = opts.get("escape", "corner")
    corners = g.marked("corner")
    if escape_mode == "corner":
        escape = corners
    elif escape_mode == "marked":
        escape = g.marked("escape")
    else:
        escape = frozenset()
    return BoardMarks(
        throne=g.marked("throne"),
        corner=corners,
        camp=g.marked("camp") if opts.get("camps") else frozenset(),
        escape=escape,
        escape_edge=escape_mode == "edge",
        edge_hostile=bool(opts.get("edge_hostile")),
        extra={"walls": bool(getattr(g, "walls", ())),
               "corners_open_to_defenders": opts.get("corner_entry") == "defenders"},
    )
