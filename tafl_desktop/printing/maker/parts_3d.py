"""Which parts a game's 3D-printed set holds, how many of each, and where they lie on the plate.

The counts are the paper set's (:mod:`tafl_desktop.printing.pieces_sheet`: the variant's own
starting position plus spares; Dablot officers one per soldier when promotion is on) and the
Dablot ranks and army symbols the paper markers use (:mod:`tafl_desktop.printing.markers`), so
a variant file with another army prints the right pieces in every medium.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tafl_desktop.i18n import _
from tafl_desktop.printing.board_draw import piece_room
from tafl_desktop.printing.maker import solids
from tafl_desktop.printing.maker.mesh_files import PrintObject
from tafl_desktop.printing.maker.options import MakerOptions, has_points
from tafl_desktop.printing.pieces_sheet import piece_counts, piece_kinds, spares
from tafl_desktop.printing.symbols import ATTACKER_FACE, DARK_ARMY, DEFENDER_FACE, LIGHT_ARMY

GAP = 4.0  # mm between parts on the plate


def _rgb(colour: Any) -> tuple[int, int, int]:
    return round(colour.red * 255), round(colour.green * 255), round(colour.blue * 255)


DARK, LIGHT = _rgb(ATTACKER_FACE), _rgb(DEFENDER_FACE)
BOARD_COLOUR = (196, 160, 112)


@dataclass
class PartGroup:
    """``count`` copies of one solid, named as the paper set names the group."""

    name: str
    solid: Any  # a manifold3d Manifold
    count: int
    colour: tuple[int, int, int]


def piece_diameter(variant: Any, opts: MakerOptions) -> float:
    """A piece is the distance between two neighbouring squares or points less the clearance."""
    return round(opts.square_mm * piece_room(variant.geometry) - opts.clearance_mm, 1)


def peg_diameter(variant: Any, opts: MakerOptions) -> float | None:
    """Pieces get pegs when their board has holes cut for them: a point-and-line board always
    (laser-cut or printed), a board of squares when its peg board is printed with them."""
    if opts.holes == "cut" and (has_points(variant) or "board" in (opts.parts or ())):
        return round(opts.hole_mm - solids.PEG_PLAY, 2)
    return None


def piece_groups(variant: Any, opts: MakerOptions) -> list[PartGroup]:
    d = piece_diameter(variant, opts)
    peg = peg_diameter(variant, opts)
    counts = piece_counts(variant)
    out = []
    solid_of = (_TACTILE if opts.tactile else _SOLIDS)[variant.family](variant, d, peg)
    for letter, title, _label in piece_kinds(variant):
        n = counts.get(letter, 0)
        if not n:
            continue
        extra = 0 if letter in "oO" and variant.traits.ranked_pieces else spares(n)
        solid, colour = solid_of(letter)
        out.append(PartGroup(title, solid, n + extra, colour))
    if peg and (variant.family == "tafl" or opts.tactile):
        # Tafl's knob and crown cannot lie on the plate: the pieces get a socket underneath and
        # loose pegs, one each, as long as the socket and the board's hole take
        depth = min(solids.socket_depth(g.solid) for g in out)
        out = [PartGroup(g.name, solids.with_socket(g.solid, peg, depth), g.count, g.colour) for g in out]
        out.append(PartGroup(_("Pegs"), solids.loose_peg(peg, depth + solids.PEG_LENGTH),
                             sum(g.count for g in out), BOARD_COLOUR))
    return out


def _tafl_solids(variant: Any, d: float, peg: float | None) -> Callable[[str], tuple[Any, Any]]:
    """Tafl's pieces: attacker, defender, king."""
    makers = {"t": solids.tafl_attacker, "T": solids.tafl_defender, "K": solids.tafl_king}
    return lambda letter: (makers[letter](d), DARK if letter == "t" else LIGHT)


def _dablot_solids(variant: Any, d: float, peg: float | None) -> Callable[[str], tuple[Any, Any]]:
    """Dablot's pieces: each army's ranks as points, its leader with the army's symbol."""
    from tafl_desktop.printing.markers import armies_for_variant

    armies = armies_for_variant(variant)

    def make(letter: str) -> tuple[Any, Any]:
        army = armies[1 if letter.isupper() else 0]
        key = {"s": "soldier", "o": "officer", "p": "son", "k": "leader"}[letter.lower()]
        rank = army.rank(key)
        points = rank.points if rank is not None else (2 if key == "officer" else 1)
        symbol = army.symbol if key == "leader" else None
        return solids.dablot_piece(d, points, symbol, points, peg), _rgb((DARK_ARMY if army.dark else LIGHT_ARMY)[0])

    return make


def _hunt_solids(variant: Any, d: float, peg: float | None) -> Callable[[str], tuple[Any, Any]]:
    """The Fox games' pieces: the hunters dark, the flock light."""
    return lambda letter: ((solids.hunter_piece(d, peg), DARK) if letter == "h"
                           else (solids.flock_piece(d, peg), LIGHT))


#: How each family's pieces are made as solids (keyed by ``Family.name``).
_SOLIDS: dict[str, Callable[[Any, float, float | None], Callable[[str], tuple[Any, Any]]]] = {
    "tafl": _tafl_solids, "dablot": _dablot_solids, "hunt": _hunt_solids}


def _tactile_solids(variant: Any, d: float, peg: float | None) -> Callable[[str], tuple[Any, Any]]:
    """The pieces to play by touch (:mod:`.tactile`), coloured as the ordinary set; their raised
    tops print upwards, so pegs are loose (a socket underneath) in every family."""
    from tafl_desktop.printing.maker import tactile

    if variant.family == "dablot":
        from tafl_desktop.printing.markers import armies_for_variant

        armies = armies_for_variant(variant)
        level_h = max(2.5, d * 0.18)

        def dablot(letter: str) -> tuple[Any, Any]:
            army = armies[1 if letter.isupper() else 0]
            key = {"s": "soldier", "o": "officer", "p": "son", "k": "leader"}[letter.lower()]
            rank = army.rank(key)
            points = rank.points if rank is not None else (2 if key == "officer" else 1)
            kind = tactile.dablot_kind(army.dark, points, key == "leader")
            return tactile.tactile_piece(kind, d, level_h), _rgb((DARK_ARMY if army.dark else LIGHT_ARMY)[0])

        return dablot
    kinds = tactile.KINDS[variant.family]
    many = "f" if variant.family == "hunt" else "t"

    def make(letter: str) -> tuple[Any, Any]:
        kind = kinds.get(letter, kinds[many])
        dark = letter == "t" if variant.family == "tafl" else letter == "h"
        return tactile.tactile_piece(kind, d), DARK if dark else LIGHT

    return make


#: The pieces to play by touch, by family.
_TACTILE: dict[str, Callable[[Any, float, float | None], Callable[[str], tuple[Any, Any]]]] = {
    "tafl": _tactile_solids, "dablot": _tactile_solids, "hunt": _tactile_solids}


def marker_groups(variant: Any, opts: MakerOptions) -> list[PartGroup]:
    """Dablot's rank markers as discs one draught across, as many as the paper markers."""
    from tafl_desktop.printing.markers import armies_for_variant

    out = []
    for army in armies_for_variant(variant):
        colour = _rgb((DARK_ARMY if army.dark else LIGHT_ARMY)[0])
        for rank in army.ranks:
            if rank.count:
                symbol = army.symbol if rank.key == "leader" else None
                if opts.tactile:  # raised dots, as on the tactile pieces
                    from tafl_desktop.printing.maker.tactile import tactile_marker

                    disc = tactile_marker(opts.draught_mm, rank.points, rank.key == "leader", army.dark)
                else:
                    disc = solids.rank_disc(opts.draught_mm, symbol, rank.points)
                out.append(PartGroup(_("{army}: {rank} markers").format(army=_(army.name), rank=rank.title),
                                     disc, rank.count, colour))
        soldiers = army.rank("soldier")
        if army.officer_material and soldiers is not None and soldiers.count:
            out.append(PartGroup(_("{army}: 'retreated' marks").format(army=_(army.name)),
                                 solids.rank_disc(opts.draught_mm, None, 1, retreated=True), soldiers.count, colour))
    return out


def lay_out(groups: list[PartGroup], x0: float, width: float) -> tuple[list[PrintObject], float, float]:
    """Copies in rows, each group starting a row, in a block about ``width`` mm wide starting at
    x0; returns the objects and the block's width and depth."""
    objects = []
    y = 0.0
    widest = 0.0
    for g in groups:
        data = solids.mesh_data(g.solid)
        lo, hi = data.vertices.min(axis=0), data.vertices.max(axis=0)
        pitch_x, pitch_y = hi[0] - lo[0] + GAP, hi[1] - lo[1] + GAP
        cols = max(1, min(g.count, int((width + GAP) // pitch_x)))
        rows = math.ceil(g.count / cols)
        places = []
        for k in range(g.count):
            r, c = divmod(k, cols)
            places.append((x0 + c * pitch_x - lo[0], y + r * pitch_y - lo[1]))
        objects.append(PrintObject(g.name, data.vertices, data.triangles, g.colour, places))
        widest = max(widest, cols * pitch_x - GAP)
        y += rows * pitch_y
    return objects, widest, max(0.0, y - GAP)
