"""3D-printable pieces, Dablot's rank discs and the peg board, built as closed solids with manifold3d.

Why manifold3d: every shape here is made of unions and differences (a crown's notches, a groove,
a recessed number, a board full of holes), and a slicer wants the result watertight and
manifold.  manifold3d's booleans guarantee exactly that by construction (no repair step), it
is a few MB with a fast import, and the same library merges the laser plan's engraved areas.

The shapes follow the paper set, so a player matches a printed piece to a token at a glance:

* Tafl: attackers short with a knob (the paper's dot), defenders taller with a ring, the king as
  tall again and crowned (a standing crown with five points);
* the Fox games: the flock low with a ring, the hunters tall and tapered with a four-pointed star;
* Dablot: every piece a stack of draughts, one per point of rank (soldier 1, the leader's son 2,
  the leader 3; with Four Ranks 3 and 4), the points recessed on top and the leaders' army
  symbol (the Swedes' crown, the Saami four-pointed hat) instead; officers 2 high.
* Dablot's rank markers for playing with stacked draughts: discs one draught across.

Sizes come from the board: a piece is the distance between two neighbouring squares or points
less the clearance.  Marks are recessed, so tops stay flat: a piece with a peg (for a board
with holes) is laid top down in the file, peg up, and prints without supports.  All units mm,
z up, every solid standing on z = 0.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from manifold3d import CrossSection, Manifold, OpType

from tafl_desktop.printing.maker import regions as rg
from tafl_desktop.printing.maker.text_paths import text_outlines
from tafl_desktop.printing.symbols import crown_outline, hat_outline, star_outline

SEGMENTS = 64  # around a piece: facets of 1 mm on a 20 mm piece
RECESS = 0.8  # depth of a recessed mark
PEG_PLAY = 0.3  # a peg is this much thinner than its hole, so it slides in after printing
PEG_LENGTH = 4.0
BOARD_THICKNESS = 6.0
GROOVE_DEPTH = 0.6


@dataclass
class Solid:
    """One kind of printed part: its mesh, how many to print and what to call it."""

    key: str
    name: str
    mesh: Manifold
    count: int
    dark: bool = False


def _revolve(profile: Sequence[tuple[float, float]]) -> Manifold:
    """A solid of revolution from a profile in (radius, height), closed along the axis."""
    return Manifold.revolve(CrossSection([list(profile)]), SEGMENTS)


def _extrude(region: CrossSection, height: float, z: float = 0.0) -> Manifold:
    return Manifold.extrude(region, height).translate((0.0, 0.0, z))


def _recess(body: Manifold, region: CrossSection, top: float, depth: float = RECESS) -> Manifold:
    """Sink ``region`` (x, y about the axis) ``depth`` mm into the flat top at height ``top``."""
    if region.is_empty():
        return body
    return body - _extrude(region, depth + 1.0, top - depth)


def _disc(r: float, h: float, chamfer: float) -> Manifold:
    """A flat disc with its top and bottom edges chamfered."""
    c = min(chamfer, h / 3, r / 3)
    return _revolve([(0, 0), (r - c, 0), (r, c), (r, h - c), (r - c, h), (0, h)])


def _with_peg(body: Manifold, peg_d: float | None) -> Manifold:
    """A peg under the body, then the whole turned top down so it prints flat (peg up)."""
    if not peg_d:
        return body
    peg = Manifold.cylinder(PEG_LENGTH + 0.5, peg_d / 2, peg_d / 2, 32).translate((0, 0, -PEG_LENGTH))
    tip = Manifold.cylinder(0.5, peg_d / 2 - 0.4, peg_d / 2, 32).translate((0, 0, -PEG_LENGTH - 0.5))
    whole = body + peg + tip
    whole = whole.rotate((180.0, 0.0, 0.0))
    return whole.translate((0, 0, -whole.bounding_box()[2]))


def with_socket(body: Manifold, peg_d: float, depth: float) -> Manifold:
    """A blind socket ``depth`` mm deep in the piece's underside for a loose peg
    (:func:`loose_peg`): for pieces whose tops are not flat (a knob, a crown), which cannot be
    printed top down with their peg.  The socket is a snug 0.1 mm wider than the peg (the peg
    stays in the piece; a drop of glue makes it permanent), the board's hole 0.3 mm (it slides)."""
    r = (peg_d + 0.1) / 2
    return body - Manifold.cylinder(depth + 1.0, r, r, 32).translate((0, 0, -1.0))


def socket_depth(body: Manifold) -> float:
    """As deep as a peg goes into the board, leaving at least 1.5 mm of the piece above it."""
    lo, hi = body.bounding_box()[2], body.bounding_box()[5]
    return round(min(PEG_LENGTH, hi - lo - 1.5), 2)


def loose_peg(peg_d: float, length: float) -> Manifold:
    """A peg printed standing, chamfered at both ends so it finds the hole and the socket."""
    r = peg_d / 2
    c = min(0.4, r / 3)
    return _revolve([(0, 0), (r - c, 0), (r, c), (r, length - c), (r - c, length), (0, length)])


def _text_region(text: str, height: float, bold: bool = True) -> CrossSection:
    """``text`` centred on the origin, ``height`` mm tall capitals, y up (for a recess)."""
    size = height / 0.73  # DejaVu's digits are 0.73 em tall
    outlines = text_outlines(text, size, 0.0, height / 2, centred=True, bold=bold)
    return rg.contours([[(x, -y) for x, y in c] for c in outlines])


def _crown_region(size: float) -> CrossSection:
    points, balls = crown_outline(0.0, 0.0, size)
    return rg.union([rg.polygon(points)] + [rg.circle(x, y, r, 24) for x, y, r in balls])


def _hat_region(size: float) -> CrossSection:
    hat = hat_outline(0.0, 0.0, size)
    x, y, w, h, _r = hat.band
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = hat.cap
    cap = []
    for k in range(17):
        t = k / 16
        u = 1 - t
        cap.append((u**3 * x0 + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t**3 * x3,
                    u**3 * y0 + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t**3 * y3))
    # the band is drawn a hair taller so it overlaps the cap and the two merge
    return rg.union([rg.rect(x, y, w, h + 0.05), rg.polygon(cap), rg.polygon(hat.star)])


# ---------------------------------------------------------------------------------- Tafl
def tafl_attacker(d: float) -> Manifold:
    r, h = d / 2, max(4.0, d * 0.40)
    body = _disc(r, h, max(0.6, d * 0.04))
    knob = _revolve([(0, h - 0.5), (r * 0.22, h - 0.5), (r * 0.20, h + d * 0.05), (r * 0.12, h + d * 0.09),
                     (0, h + d * 0.10)])
    return body + knob


def tafl_defender(d: float) -> Manifold:
    r, h = d / 2, max(5.0, d * 0.60)
    body = _disc(r, h, max(0.6, d * 0.04))
    return _recess(body, rg.ring(0, 0, r * 0.62, max(0.8, r * 0.08)), h, min(RECESS, h / 4))


def tafl_king(d: float) -> Manifold:
    """The defenders' body with a standing crown: a ring with five points cut by V notches."""
    r, h = d / 2, max(5.0, d * 0.60)
    body = _disc(r, h, max(0.6, d * 0.04))
    return body + king_crown(d).translate((0, 0, h - 0.2))


def king_crown(d: float) -> Manifold:
    """The king's standing crown for a piece ``d`` mm across, its foot at z = 0."""
    r = d / 2
    cr = r * 0.62
    wall = max(1.2, r * 0.16)
    ch = max(4.0, d * 0.42)
    ring = Manifold.cylinder(ch, cr, cr, SEGMENTS) - Manifold.cylinder(ch + 2, cr - wall, cr - wall, SEGMENTS
                                                                        ).translate((0, 0, -1))
    notch_depth = ch * 0.45
    half = math.pi * cr / 5 * 0.55  # half the width of a notch at the top
    tri = CrossSection([[(-half, ch + 0.01), (0.0, ch - notch_depth), (half, ch + 0.01), (half, ch + 5),
                         (-half, ch + 5)]])
    notch = Manifold.extrude(tri, 2 * cr + 4).translate((0, 0, -(cr + 2)))  # along z, then stood up
    notch = notch.rotate((90.0, 0.0, 0.0))  # the triangle now stands in the x-z plane, reaching through y
    cuts = [notch.rotate((0.0, 0.0, 36.0 + 72.0 * k)) for k in range(5)]
    return ring - Manifold.batch_boolean(cuts, OpType.Add) if cuts else ring


# ------------------------------------------------------------------------------- Fox games
def flock_piece(d: float, peg_d: float | None = None) -> Manifold:
    r, h = d / 2, max(4.0, d * 0.45)
    body = _disc(r, h, max(0.6, d * 0.04))
    body = _recess(body, rg.ring(0, 0, r * 0.62, max(0.8, r * 0.08)), h, min(RECESS, h / 4))
    return _with_peg(body, peg_d)


def hunter_piece(d: float, peg_d: float | None = None) -> Manifold:
    """Tall and tapered with the paper's four-pointed star recessed in its flat top."""
    r, h = d / 2, max(7.0, d * 0.85)
    c = max(0.6, d * 0.04)
    top = r * 0.78
    body = _revolve([(0, 0), (r - c, 0), (r, c), (r, h * 0.25), (top, h - c), (top - c, h), (0, h)])
    return _with_peg(_recess(body, rg.polygon(star_outline(0, 0, top * 0.80)), h, min(RECESS, h / 6)), peg_d)


# ----------------------------------------------------------------------------------- Dablot
def draught_stack(d: float, levels: int, level_h: float) -> Manifold:
    """``levels`` draughts stacked, each with chamfered edges so the stack shows its count."""
    r = d / 2
    c = min(0.8, level_h * 0.25)
    profile = [(0.0, 0.0)]
    for k in range(levels):
        z0, z1 = k * level_h, (k + 1) * level_h
        profile += [(r - c, z0), (r, z0 + c), (r, z1 - c), (r - c, z1)]
    profile.append((0.0, levels * level_h))
    return _revolve(profile)


def dablot_piece(d: float, levels: int, symbol: str | None, points: int, peg_d: float | None = None) -> Manifold:
    """A Dablot piece: the stack of its rank, its points recessed on top, or its army's symbol
    for a leader."""
    level_h = max(2.5, d * 0.18)
    body = draught_stack(d, levels, level_h)
    top = levels * level_h
    if symbol == "crown":
        mark = _crown_region(d * 0.95).translate((0, -d * 0.02))
    elif symbol == "hat":
        mark = _hat_region(d * 0.85).translate((0, d * 0.05))
    else:
        mark = _text_region(str(points), d * 0.42)
    return _with_peg(_recess(body, mark, top, min(RECESS, level_h / 3)), peg_d)


def rank_disc(d: float, symbol: str | None, points: int, retreated: bool = False) -> Manifold:
    """A rank marker to lay on a stack of draughts: a thin disc with the rank recessed on top
    (the leaders' army symbol above their points), or the 'retreated' band for the underside."""
    h = 2.4
    body = _disc(d / 2, h, 0.5)
    if retreated:
        band = rg.rect(-d / 2, -d * 0.11, d, d * 0.22) ^ rg.circle(0, 0, d / 2 * 0.82)
        return _recess(body, band, h, 0.8)
    if symbol is not None:
        sym = (_crown_region(d * 0.42) if symbol == "crown" else _hat_region(d * 0.40)).translate((0, d * 0.18))
        mark = sym + _text_region(str(points), d * 0.26).translate((0, -d * 0.16))
    else:
        mark = _text_region(str(points), d * 0.40)
    return _recess(body, mark, h, 0.8)


# -------------------------------------------------------------------------------- peg board
def peg_board(plan: Any, holes: str, hole_mm: float) -> Manifold:
    """The laser plan of a point-and-line board as a printed plate: the outline as the plate, the
    scored lines and the engraved areas as grooves, the points as blind holes for pegs (or
    shallow dimples), coordinates recessed."""
    o = plan.outline
    height = plan.height

    def up(points: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
        return [(x, height - y) for x, y in points]

    plate = _extrude(rg.rounded_rect(0.0, 0.0, plan.width, plan.height, max(0.0, o.r - plan.kerf / 2)),
                     BOARD_THICKNESS)
    groove = max(0.8, min(1.2, plan.frame[2] / 200))
    lines = [rg.bar(p, q, groove, round_ends=True) for run in plan.score_lines
             for p, q in zip(up(run), up(run)[1:], strict=False)]
    loops = []
    for loop in plan.score_loops:
        pts = up(loop)
        loops += [rg.bar(p, q, groove, round_ends=True) for p, q in zip(pts, pts[1:] + pts[:1], strict=True)]
    engraved = rg.contours([up(c) for c in plan.engrave])
    cuts = rg.union(lines + loops + [engraved])
    board = plate - _extrude(cuts, GROOVE_DEPTH + 1.0, BOARD_THICKNESS - GROOVE_DEPTH)
    if holes != "none":
        # blind holes for the pieces' pegs, or dimples deep enough to hold a round-bottomed piece
        depth = BOARD_THICKNESS - 1.5 if holes == "cut" else 1.5
        tools = [Manifold.cylinder(depth + 1.0, hole_mm / 2, hole_mm / 2, 40).translate(
            (x, height - y, BOARD_THICKNESS - depth)) for x, y in plan.points]
        board = board - Manifold.batch_boolean(tools, OpType.Add)
    return board


# ----------------------------------------------------------------------------------- meshes
@dataclass
class MeshData:
    """Vertices (n x 3, float) and triangles (m x 3, int) of one solid."""

    vertices: np.ndarray
    triangles: np.ndarray


def mesh_data(solid: Manifold) -> MeshData:
    mesh = solid.to_mesh()
    return MeshData(np.asarray(mesh.vert_properties, dtype=np.float64)[:, :3].copy(),
                    np.asarray(mesh.tri_verts, dtype=np.int64).copy())
