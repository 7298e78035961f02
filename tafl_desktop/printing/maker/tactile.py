"""A set to play by touch (issue 40): pieces told apart by fingers alone and a peg board to feel.

Colour and recessed marks 0.8 mm deep, which is all the ordinary printed set offers, say little to a
fingertip.  Here every kind of piece differs in at least two of three things a finger finds at
once, each a size a fingertip tells apart (raised features 1 mm or more, heights 3 mm or more apart):

* the **footprint** (round, square, hexagonal), felt by closing the fingers round the piece;
* the **height**;
* the **top**: smooth, ribbed (three raised bars), raised dots (one per point of a Dablot rank),
  a raised ring, a crown, or a cone.

Which piece gets which (:data:`KINDS`): Tafl's attackers square, low and ribbed; the defenders
round, taller and smooth; the king round, as tall, and crowned.  The Fox games' flock round, low
and smooth; the hunters hexagonal, tall, with a cone.  Dablot's two armies round and square; each
piece a stack as high as its rank with as many raised dots as its points; a leader's dots inside a
raised ring.

The peg board: the lines stand up as ridges a finger follows; a piece stands in a hole at each
square's centre or at each point; on a Tafl board the throne is a raised plateau, the corner (and
other exit) squares are sunk pockets, the camps carry a raised frame inside the square, walls are
tall ridges; on a Fox or Dablot board the marked areas (the pen, the home row) are sunk.

Raised features face up and have no overhangs, so every piece prints standing without supports;
a piece for a board with holes gets a socket underneath and a loose peg
(:func:`tafl_desktop.printing.maker.solids.with_socket`).  All units mm, z up, every solid on z = 0.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from manifold3d import CrossSection, Manifold, OpType

from tafl_desktop.core.board_marks import marks_in_force
from tafl_desktop.printing.maker import regions as rg
from tafl_desktop.printing.maker.solids import BOARD_THICKNESS, GROOVE_DEPTH, SEGMENTS, king_crown

RAISE = 1.2  # height of a raised texture (dots, ribs, ring) above a piece's flat top
RIDGE = 1.2  # height of a board line's ridge above the plate
RIDGE_WIDTH = 1.6
PLATEAU = 2.0  # how far the throne stands above the plate
POCKET = 2.0  # how deep an exit square is sunk
WALL = 3.0  # height of a wall's ridge
SUNK = 1.5  # how deep a Fox or Dablot board's marked area is sunk


@dataclass(frozen=True)
class Kind:
    """What a finger finds on one kind of piece: ``shape`` of the footprint, ``height`` of the
    body as a fraction of the piece's diameter, ``top`` the texture ("smooth", "ribs", "dots",
    "ring-dots", "crown", "cone") and, for dots, how many."""

    shape: str
    height: float
    top: str
    dots: int = 0


#: Tafl and the Fox games by the letters of :func:`tafl_desktop.printing.pieces_sheet.piece_kinds`.
KINDS = {
    "tafl": {"t": Kind("square", 0.40, "ribs"), "T": Kind("circle", 0.62, "smooth"),
             "K": Kind("circle", 0.62, "crown")},
    "hunt": {"h": Kind("hexagon", 0.90, "cone"), "f": Kind("circle", 0.35, "smooth")},
}


def dablot_kind(dark: bool, points: int, leader: bool) -> Kind:
    """A Dablot piece: its army by the footprint (the dark army square), its rank by the number
    of draughts stacked and the raised dots on top, a leader's dots ringed."""
    return Kind("square" if dark else "circle", 0.0, "ring-dots" if leader else "dots", points)


#: Half the width across the flats of a footprint with flats, as a fraction of the piece's
#: diameter: the polygon's corners are cut off by the piece's circle, so the piece keeps its
#: full width and a finger finds four (or six) flat sides and rounded corners.
FLATS = {"square": 0.40, "hexagon": 0.45}


def footprint(shape: str, d: float) -> CrossSection:
    """The piece's outline, within a circle ``d`` across (so it fits its square or point)."""
    r = d / 2
    circle = rg.circle(0.0, 0.0, r, SEGMENTS)
    if shape == "circle":
        return circle
    sides = {"square": 4, "hexagon": 6}[shape]
    corner = FLATS[shape] * d / math.cos(math.pi / sides)
    turn = math.pi / 4 if sides == 4 else 0.0
    pts = [(corner * math.cos(turn + 2 * math.pi * i / sides), corner * math.sin(turn + 2 * math.pi * i / sides))
           for i in range(sides)]
    return rg.polygon(pts) ^ circle


def _inscribed(shape: str, d: float) -> float:
    """The radius of the largest circle inside the footprint (room for a texture)."""
    return FLATS[shape] * d if shape in FLATS else d / 2


def _raised(region: CrossSection, top: float, height: float = RAISE) -> Manifold:
    return Manifold.extrude(region, height + 0.2).translate((0.0, 0.0, top - 0.2))


def _dots(n: int, spread: float, dot: float) -> CrossSection:
    """``n`` round dots (1 to 5) in the patterns of a die, ``spread`` from the centre."""
    patterns: dict[int, list[tuple[float, float]]] = {1: [(0, 0)], 2: [(-1, 0), (1, 0)],
                                                       3: [(-1, -0.6), (1, -0.6), (0, 0.85)],
                                                       4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
                                                       5: [(-1, -1), (1, -1), (-1, 1), (1, 1), (0, 0)]}
    places = patterns[max(1, min(5, n))]
    scale = spread / (1.0 if n in (2, 3) else math.sqrt(2))
    return rg.union([rg.circle(x * scale, y * scale, dot / 2, 24) for x, y in places])


def tactile_piece(kind: Kind, d: float, level_h: float | None = None) -> Manifold:
    """One piece of ``kind``, ``d`` mm across; a Dablot piece (``level_h`` given) is a stack of
    ``kind.dots`` layers, each ``level_h`` high, grooved between layers so the count can be felt."""
    outline = footprint(kind.shape, d)
    if level_h is not None:
        levels = max(1, kind.dots)
        h = levels * level_h
        body = Manifold.extrude(outline, h)
        groove = outline - outline.offset(-0.8)
        for k in range(1, levels):
            body = body - Manifold.extrude(groove, 0.8).translate((0.0, 0.0, k * level_h - 0.4))
    else:
        h = max(5.0, d * kind.height)
        body = Manifold.extrude(outline, h)
    room = _inscribed(kind.shape, d)
    if kind.top == "ribs":
        width = max(1.4, d * 0.07)
        bars = [rg.rect(-room * 0.7, y - width / 2, room * 1.4, width) for y in (-room * 0.45, 0.0, room * 0.45)]
        body = body + _raised(rg.union(bars), h)
    elif kind.top in ("dots", "ring-dots"):
        dot = max(2.0, d * 0.12)
        spread = room * (0.38 if kind.top == "ring-dots" else 0.5)
        body = body + _raised(_dots(kind.dots, spread, dot), h)
        if kind.top == "ring-dots":
            body = body + _raised(rg.ring(0.0, 0.0, room * 0.82, max(1.4, d * 0.06)), h)
    elif kind.top == "crown":
        body = body + _crown(d).translate((0.0, 0.0, h))
    elif kind.top == "cone":
        cone = Manifold.cylinder(d * 0.35, room * 0.45, 0.6, SEGMENTS)
        body = body + cone.translate((0.0, 0.0, h - 0.2))
    return body


def tactile_marker(d: float, points: int, leader: bool, dark: bool) -> Manifold:
    """A Dablot rank marker to feel: ``d`` across, 2.4 mm thick, its army by its outline (the
    dark army's square, as on the tactile pieces: a draughts set's two colours feel alike) and
    its rank as raised dots (a leader's ringed)."""
    shape = "square" if dark else "circle"
    body = Manifold.extrude(footprint(shape, d), 2.4)
    room = _inscribed(shape, d)
    body = body + _raised(_dots(points, room * (0.38 if leader else 0.5), max(2.0, d * 0.1)), 2.4)
    if leader:
        body = body + _raised(rg.ring(0.0, 0.0, room * 0.82, max(1.4, d * 0.05)), 2.4)
    return body


def _crown(d: float) -> Manifold:
    """The ordinary king's standing crown (:func:`solids.king_crown`), reaching 0.2 mm down into
    the body it stands on, so the two merge."""
    return king_crown(d).translate((0.0, 0.0, -0.2))


# -------------------------------------------------------------------------------- peg board
def tactile_board(plan: Any, variant: Any, opts: Any) -> Manifold:
    """The peg board to feel: the plan's lines as ridges, holes (or dimples) where the pieces
    stand, the special squares raised or sunk (see the module's description)."""
    height = plan.height

    def up(points: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
        return [(x, height - y) for x, y in points]

    o = plan.outline
    plate = Manifold.extrude(rg.rounded_rect(0.0, 0.0, plan.width, plan.height, max(0.0, o.r - plan.kerf / 2)),
                             BOARD_THICKNESS)
    bars = [rg.bar(p, q, RIDGE_WIDTH, round_ends=True) for run in plan.score_lines
            for p, q in zip(up(run), up(run)[1:], strict=False)]
    for loop in plan.score_loops:
        pts = up(loop)
        bars += [rg.bar(p, q, RIDGE_WIDTH, round_ends=True) for p, q in zip(pts, pts[1:] + pts[:1], strict=True)]
    raised: list[Manifold] = [_raised(rg.union(bars), BOARD_THICKNESS, RIDGE)]
    sunk: list[Manifold] = []
    g = variant.geometry
    marks = marks_in_force(variant)
    s = opts.square_mm
    x0, y0 = plan.frame[0], plan.frame[1]
    if getattr(g, "kind", "grid") == "grid":
        inset = max(1.5, s * 0.12)

        def square(i: int, shrink: float) -> CrossSection:
            x, y, w, hh = g.cell_rect(i)
            left, top = x0 + x * s, y0 + y * s
            return rg.rect(left + shrink, height - (top + hh * s) + shrink, w * s - 2 * shrink, hh * s - 2 * shrink)

        for i in sorted(marks.throne):
            raised.append(_raised(square(i, inset), BOARD_THICKNESS, PLATEAU))
        for i in sorted(marks.corner | marks.escape):
            sunk.append(Manifold.extrude(square(i, inset), POCKET + 1.0).translate(
                (0.0, 0.0, BOARD_THICKNESS - POCKET)))
        band = max(1.2, s * 0.06)
        for i in sorted(marks.camp - marks.throne):
            frame = square(i, inset) - square(i, inset + band)
            raised.append(_raised(frame, BOARD_THICKNESS, RAISE))
        walls = g.wall_segments() if hasattr(g, "wall_segments") else []
        for p, q in walls:
            a = (x0 + p[0] * s, height - (y0 + p[1] * s))
            b = (x0 + q[0] * s, height - (y0 + q[1] * s))
            raised.append(_raised(rg.bar(a, b, RIDGE_WIDTH * 1.5, round_ends=True), BOARD_THICKNESS, WALL))
        if opts.coordinates:  # for a sighted helper; recessed as on the ordinary board
            from tafl_desktop.printing.maker.laser import coordinates_region

            letters = rg.contours([up(c) for c in rg.outlines(coordinates_region(variant, s))])
            sunk.append(Manifold.extrude(letters, GROOVE_DEPTH + 1.0).translate(
                (0.0, 0.0, BOARD_THICKNESS - GROOVE_DEPTH)))
    else:
        marked = rg.contours([up(c) for c in plan.engrave])
        if not marked.is_empty():
            sunk.append(Manifold.extrude(marked, SUNK + 1.0).translate((0.0, 0.0, BOARD_THICKNESS - SUNK)))
    board = plate + Manifold.batch_boolean(raised, OpType.Add)
    if sunk:
        board = board - Manifold.batch_boolean(sunk, OpType.Add)
    if opts.holes != "none":
        depth = BOARD_THICKNESS - 1.5 if opts.holes == "cut" else 1.5
        tools = [Manifold.cylinder(depth + PLATEAU + 2.0, opts.hole_mm / 2, opts.hole_mm / 2, 40).translate(
            (x, height - y, BOARD_THICKNESS - depth)) for x, y in plan.points]
        board = board - Manifold.batch_boolean(tools, OpType.Add)
    return board
