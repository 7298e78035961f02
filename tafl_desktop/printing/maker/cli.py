"""The ``print`` command's makers' options (``--format svg|dxf|stl|3mf`` and their settings).

Kept beside the writers so the command line module only adds the options and hands over: the
option names, ranges and defaults come from :mod:`.options`, the one schema the dialog uses too.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from tafl_desktop.i18n import _
from tafl_desktop.printing.maker.options import (
    CLEARANCE_RANGE,
    CORNER_RANGE,
    DEFAULT_SQUARE,
    FORMATS,
    HOLE_MODES,
    HOLE_RANGE,
    KERF_RANGE,
    MakerOptions,
)

#: Options that only a maker's file reads: (attribute, flag).
MAKER_ONLY = (("kerf_mm", "--kerf-mm"), ("corner_mm", "--corner-mm"), ("holes", "--holes"),
              ("hole_mm", "--hole-mm"), ("clearance_mm", "--clearance-mm"), ("coordinates", "--coordinates"))


def add_arguments(parser: argparse.ArgumentParser, number: Any) -> None:
    """The makers' options on ``print``; ``number(low, high)`` is the command line's number type."""
    from tafl_desktop.core.marks import number as n

    defaults = MakerOptions()
    parser.add_argument("--format", choices=FORMATS, default="pdf",
                        help=_("pdf: the paper set (default); svg or dxf: the board for a laser cutter, true scale in "
                               "mm, layers cut (red), score (blue), engrave (black); stl or 3mf: pieces for a 3D "
                               "printer, and the peg board of the Fox games and Dablot"))
    parser.add_argument("--kerf-mm", type=number(-1e6, 1e6), default=None,
                        help=_("laser: width the beam burns away, {low} to {high} (default {default}); outlines grow "
                               "and holes shrink by half of it").format(
                            low=n(KERF_RANGE[0]), high=n(KERF_RANGE[1]), default=n(defaults.kerf_mm)))
    parser.add_argument("--corner-mm", type=number(-1e6, 1e6), default=None,
                        help=_("board corner radius, {low} (square) to {high} (default {default}; never into the "
                               "playing area)").format(
                            low=n(CORNER_RANGE[0]), high=n(CORNER_RANGE[1]), default=n(defaults.corner_mm)))
    parser.add_argument("--holes", choices=HOLE_MODES, default=None,
                        help=_("point-and-line boards: cut a hole for a peg at each point, engrave a dimple, or none "
                               "(default {default}); pieces get pegs for cut holes").format(default=defaults.holes))
    parser.add_argument("--hole-mm", type=number(-1e6, 1e6), default=None,
                        help=_("diameter of the holes or dimples, {low} to {high} (default {default}, and less than "
                               "the point spacing)").format(
                            low=n(HOLE_RANGE[0]), high=n(HOLE_RANGE[1]), default=n(defaults.hole_mm)))
    parser.add_argument("--clearance-mm", type=number(-1e6, 1e6), default=None,
                        help=_("3D pieces: gap between two pieces on neighbouring squares or points, {low} to {high} "
                               "(default {default})").format(
                            low=n(CLEARANCE_RANGE[0]), high=n(CLEARANCE_RANGE[1]), default=n(defaults.clearance_mm)))
    parser.add_argument("--tactile", action="store_true",
                        help=_("a set to play by touch: pieces that differ by shape, height and texture and a peg "
                               "board with raised lines (stl, 3mf); on paper (pdf), the rule sheet says how to feel "
                               "them"))
    parser.add_argument("--coordinates", action=argparse.BooleanOptionalAction, default=None,
                        help=_("engrave (or recess) the file letters and rank numbers in the rim (default: on)"))


def check_pdf_arguments(args: argparse.Namespace) -> str | None:
    """For ``--format pdf``: the first makers' option given, as a one-line complaint (or None)."""
    for attr, flag in MAKER_ONLY:
        if getattr(args, attr, None) is not None:
            return _("{option} is for makers' files: add --format svg, dxf, stl or 3mf").format(option=flag)
    return None


def format_mismatch(args: argparse.Namespace) -> str | None:
    """A file name ending in another known format than the one asked for (``--out board.svg``
    without ``--format svg`` would otherwise get a PDF named .svg)."""
    suffix = os.path.splitext(str(args.out))[1].lower().lstrip(".")
    if suffix in FORMATS and suffix != args.format:
        return _("{path} ends in .{suffix} but the format is {fmt}: add --format {suffix}").format(
            path=os.path.basename(str(args.out)), suffix=suffix, fmt=args.format)
    return None


def unread_option(args: argparse.Namespace, variant: Any) -> str | None:
    """A setting given on the command line that the chosen file would not read, as one line:
    a kerf for a 3D file, a clearance for a laser board, holes on a board of squares."""
    from tafl_desktop.printing.maker.options import LASER_FORMATS, has_points, takes_holes

    if getattr(args, "tactile", False) and args.format in LASER_FORMATS:
        return _("--tactile is for a 3D-printed set (--format stl or 3mf) or the rule sheet (--format pdf)")
    if args.kerf_mm is not None and args.format not in LASER_FORMATS:
        return _("--kerf-mm is for laser boards (--format svg or dxf)")
    if args.clearance_mm is not None and args.format in LASER_FORMATS:
        return _("--clearance-mm is for 3D-printed pieces (--format stl or 3mf)")
    if (args.holes is not None or args.hole_mm is not None) and not has_points(variant):
        if args.format in LASER_FORMATS:
            return _("--holes and --hole-mm are for boards whose pieces stand on points (the Fox games, Dablot); "
                     "{game} has squares").format(game=variant.title)
        if not takes_holes(variant, args.format, options_from(args).parts):
            return _("--holes and --hole-mm are for {game}'s peg board: add --parts pieces,board").format(
                game=variant.title)
    return None


def options_from(args: argparse.Namespace) -> MakerOptions:
    defaults = MakerOptions()
    parts = None
    if args.parts is not None:
        parts = tuple(p.strip() for p in args.parts.split(",") if p.strip())

    def pick(attr: str, default: Any) -> Any:
        value = getattr(args, attr, None)
        return default if value is None else value

    return MakerOptions(
        format=args.format, parts=parts, square_mm=pick("square_mm", DEFAULT_SQUARE),
        kerf_mm=pick("kerf_mm", defaults.kerf_mm), corner_mm=pick("corner_mm", defaults.corner_mm),
        coordinates=pick("coordinates", defaults.coordinates), holes=pick("holes", defaults.holes),
        hole_mm=pick("hole_mm", defaults.hole_mm), clearance_mm=pick("clearance_mm", defaults.clearance_mm),
        draught_mm=pick("draught_mm", defaults.draught_mm), tactile=bool(getattr(args, "tactile", False)))


def run(args: argparse.Namespace, variant: Any, fail: Any) -> int:
    """Write the maker's file ``args`` asks for; ``fail(message)`` returns the exception to raise
    (the command line's one-line error)."""
    from tafl_desktop.core.quoting import shown
    from tafl_desktop.printing.maker import MakerError, build_maker

    if args.balance:
        raise fail(_("--balance is for the paper set's rule sheet (--format pdf)"))
    problem = unread_option(args, variant)
    if problem:
        raise fail(problem)
    try:
        build_maker(variant, args.out, options_from(args))
    except MakerError as exc:
        raise fail(str(exc)) from None
    except OSError as exc:
        raise fail(_("cannot write {path}: {error}").format(path=shown(args.out), error=exc.strerror or exc)) from None
    return 0
