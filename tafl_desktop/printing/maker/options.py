"""The settings of a maker's file (laser board, 3D-printed pieces), with their ranges: one schema.

The command line's options, the print dialog's widgets and the writers all read the limits from
here, so a value one of them accepts is never refused by another.  Every check raises
:class:`MakerError` with one sentence in the reader's language.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from tafl_desktop.core.marks import Num, Shown, number_beyond
from tafl_desktop.core.quoting import quote
from tafl_desktop.i18n import _

#: File formats of the ``print`` command: the paper set and the four makers' files.
FORMATS = ("pdf", "svg", "dxf", "stl", "3mf")
LASER_FORMATS = ("svg", "dxf")
MESH_FORMATS = ("stl", "3mf")

#: What each makers' format may carry (``board`` in a mesh file is the peg board).
LASER_PARTS = ("board",)
MESH_PARTS = ("pieces", "board", "markers")

HOLE_MODES = ("cut", "engrave", "none")

#: Ranges, in mm.  The square (or point spacing) shares the paper set's range.
SQUARE_RANGE = (8.0, 80.0)
DEFAULT_SQUARE = 25.0  # a comfortable square for hand-sized pieces; most hobby lasers take 7x7 to 11x11 at it
KERF_RANGE = (0.0, 1.0)  # what a laser burns away; CO2 and diode lasers are 0.05 to 0.4 mm
CORNER_RANGE = (0.0, 40.0)
HOLE_RANGE = (1.0, 30.0)
CLEARANCE_RANGE = (0.5, 20.0)
DRAUGHT_RANGE = (15.0, 60.0)

#: The thinnest material a laser or printer leaves between two holes, or around a peg.
MIN_WALL = 1.5


class MakerError(ValueError):
    """A maker's file that cannot be made with these settings; the message is one line."""


@dataclass(frozen=True)
class MakerOptions:
    """Everything a maker's file depends on besides the variant.

    ``square_mm`` is the side of a square on a Tafl board and the distance between neighbouring
    points on a point-and-line board, as for the paper set; ``kerf_mm`` the width the laser
    burns away (cut outlines grow by half of it, holes shrink by half, so the parts come out at
    the drawn size); ``corner_mm`` the radius of the board's rounded corners (0: square);
    ``holes`` what a point-and-line board gets at each point: a cut hole for a peg, an engraved
    dimple for a round-bottomed piece or a marble, or nothing; ``hole_mm`` their diameter (pieces
    with pegs get pegs that fit it); ``clearance_mm`` the gap between two pieces on neighbouring
    squares or points (a piece is the square less this gap).
    """

    format: str = "svg"
    parts: tuple[str, ...] | None = None
    square_mm: float = DEFAULT_SQUARE
    kerf_mm: float = 0.0
    corner_mm: float = 3.0
    coordinates: bool = True
    holes: str = "cut"
    hole_mm: float = 5.0
    clearance_mm: float = 3.0
    draught_mm: float = 30.0
    #: a set to play by touch (issue 40): pieces that differ by shape, height and texture, a
    #: peg board with raised lines and raised or sunk special squares (:mod:`.tactile`)
    tactile: bool = False

    def with_changes(self, **changes: Any) -> MakerOptions:
        return replace(self, **changes)


def _number(value: Any, what: str, low: float, high: float) -> float:
    """``value`` as a float within [low, high], else MakerError naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise MakerError(_("{what} must be a number of millimetres, not {value}").format(what=what,
                                                                                          value=quote(value)))
    if not low <= value <= high:
        raise MakerError(_("{what} of {value:g} mm is out of range: use {low:g} to {high:g} mm").format(
            what=what, value=Shown(value, number_beyond(value, low if value < low else high, 3)), low=Num(low),
            high=Num(high)))
    return float(value)


def has_points(variant: Any) -> bool:
    """True for boards whose pieces stand on points (the Fox games' boards, Dablot's lattice, the
    checkerboard's dark squares): those boards get holes or dimples on the laser board too, and
    their peg board comes with the pieces by default."""
    return getattr(variant.geometry, "kind", "grid") != "grid"


def takes_holes(variant: Any, fmt: str, parts: tuple[str, ...] | None) -> bool:
    """True when the file reads ``--holes``: a point-and-line board always (its laser board and
    its peg board have holes), a board of squares only in its 3D-printed peg board (a laser
    board of squares keeps its squares whole; the pieces stand in them)."""
    return has_points(variant) or (fmt in MESH_FORMATS and "board" in (parts or default_parts(variant, fmt)))


def default_parts(variant: Any, fmt: str) -> tuple[str, ...]:
    """A laser file carries the board; a mesh file the pieces and, where the game has one, the
    peg board."""
    if fmt in LASER_FORMATS:
        return ("board",)
    return ("pieces", "board") if has_points(variant) else ("pieces",)


def check_options(variant: Any, opts: MakerOptions) -> MakerOptions:
    """``opts`` with its parts filled in and every value checked against ``variant``'s board;
    raises :class:`MakerError` with one line for the first value that cannot be used."""
    if opts.format not in FORMATS or opts.format == "pdf":
        raise MakerError(_("format {value} is not a maker's file: use svg, dxf, stl or 3mf").format(
            value=quote(opts.format)))
    allowed = LASER_PARTS if opts.format in LASER_FORMATS else MESH_PARTS
    if opts.parts is None:
        parts = default_parts(variant, opts.format)
    else:
        parts = tuple(dict.fromkeys(str(p).strip().lower() for p in opts.parts if str(p).strip()))
        if not parts:
            raise MakerError(_("no part to make: choose from {parts}").format(parts=", ".join(allowed)))
        for p in parts:
            if p not in allowed:
                if opts.format in LASER_FORMATS:
                    raise MakerError(_("the {fmt} format carries the board only, not {part}: pieces are 3D "
                                       "printed (--format stl or 3mf), the rule sheet is on paper (--format "
                                       "pdf)").format(fmt=opts.format, part=quote(p)))
                raise MakerError(_("the {fmt} format carries {parts}, not {part}: the rule sheet is on paper "
                                   "(--format pdf)").format(fmt=opts.format, parts=", ".join(allowed), part=quote(p)))
        if "markers" in parts and not variant.traits.ranked_pieces:
            raise MakerError(_("rank markers are for Dablot with stacked draughts; {game} has none").format(
                game=variant.title))
        parts = tuple(p for p in allowed if p in parts)
    square = _number(opts.square_mm, _("the square size"), *SQUARE_RANGE)
    kerf = _number(opts.kerf_mm, _("the kerf"), *KERF_RANGE)
    corner = _number(opts.corner_mm, _("the corner radius"), *CORNER_RANGE)
    hole = _number(opts.hole_mm, _("the hole diameter"), *HOLE_RANGE)
    clearance = _number(opts.clearance_mm, _("the clearance"), *CLEARANCE_RANGE)
    draught = _number(opts.draught_mm, _("the draught diameter"), *DRAUGHT_RANGE)
    if opts.holes not in HOLE_MODES:
        raise MakerError(_("holes {value} is not known: use cut, engrave or none").format(value=quote(opts.holes)))
    if not isinstance(opts.coordinates, bool):
        raise MakerError(_("coordinates must be on or off"))
    if opts.tactile and opts.format in LASER_FORMATS:
        raise MakerError(_("the tactile set is 3D printed (--format stl or 3mf); a laser board has no raised "
                           "lines"))
    from tafl_desktop.printing.board_draw import piece_room

    pitch = square * piece_room(variant.geometry)  # the distance between two neighbouring pieces
    holed = takes_holes(variant, opts.format, parts)
    if holed and opts.holes != "none" and hole > pitch - MIN_WALL:
        raise MakerError(_("holes of {hole:g} mm do not fit points {pitch:g} mm apart: use at most {most:g} mm, or "
                           "larger spacing").format(hole=Num(hole), pitch=Num(round(pitch, 1)),
                                                    most=Num(math.floor((pitch - MIN_WALL) * 10) / 10)))
    if pitch - clearance < 5.0:
        raise MakerError(_("a clearance of {clearance:g} mm leaves pieces under 5 mm across on this board: use at "
                           "most {most:g} mm").format(clearance=Num(clearance),
                                                      most=Num(max(0.0, math.floor((pitch - 5.0) * 10) / 10))))
    if holed and opts.holes == "cut" and opts.format in MESH_FORMATS and "pieces" in parts:
        if hole > pitch - clearance - 2 * MIN_WALL:
            raise MakerError(_("pegs of {hole:g} mm are too thick for pieces {piece:g} mm across: use smaller holes "
                               "or less clearance").format(hole=Num(hole), piece=Num(round(pitch - clearance, 1))))
    return replace(opts, parts=parts, square_mm=square, kerf_mm=kerf, corner_mm=corner, hole_mm=hole,
                   clearance_mm=clearance, draught_mm=draught)
