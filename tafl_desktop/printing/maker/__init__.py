"""Makers' files: the board for a laser cutter (SVG, DXF) and the pieces for a 3D printer (STL, 3MF).

:func:`render_maker` is the one entry point: the ``print`` command (``--format svg|dxf|stl|3mf``)
and the print dialog call it, so the dialog's preview is drawn from exactly what gets saved.
Everything comes from the geometry the window and the paper set share (see :mod:`.laser`), and
the settings have one schema (:mod:`.options`).  ``tactile`` makes the set to play by touch
instead of the ordinary pieces and peg board (:mod:`.tactile`).

Dependencies and why: manifold3d (a few MB, a fast import) builds every solid and merges the
engraved areas; ezdxf (the ``maker`` extra, about 26 MB) writes DXF and is imported only for it.
A missing library is a :class:`MakerError` with one line saying which extra to install.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from tafl_desktop.core.marks import Num
from tafl_desktop.core.safe_files import write_safely
from tafl_desktop.i18n import _, ngettext, pgettext
from tafl_desktop.printing.maker.options import (
    FORMATS,
    LASER_FORMATS,
    MESH_FORMATS,
    MakerError,
    MakerOptions,
    check_options,
    default_parts,
    has_points,
)

__all__ = ["FORMATS", "LASER_FORMATS", "MESH_FORMATS", "MakerError", "MakerOptions", "MakerReport",
           "render_maker", "build_maker", "check_options", "default_parts", "has_points"]


@dataclass
class MakerReport:
    """What a maker's file holds: for the dialog's summary and preview, and for tests."""

    format: str
    parts: tuple[str, ...]
    options: MakerOptions
    plan: Any = None  # the LaserPlan (laser formats, and the peg board's)
    objects: list[Any] = field(default_factory=list)  # PrintObjects (mesh formats)
    piece_mm: float | None = None
    peg_mm: float | None = None
    plate: tuple[float, float, float] | None = None  # everything laid out, x by y by z mm
    lines: list[str] = field(default_factory=list)  # the summary, one sentence per line


def _need(module: str) -> Any:
    """Import a library of the ``maker`` extra, or say in one line how to get it."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise MakerError(_("this file needs the Python package {package}: install it with pip install "
                           "'tafl-desktop[maker]'").format(package=module)) from None


def render_maker(variant: Any, opts: MakerOptions) -> tuple[bytes, MakerReport]:
    """Build the file in memory; return its bytes and what it holds.  Raises :class:`MakerError`."""
    _need("manifold3d")
    if opts.format == "dxf":
        _need("ezdxf")
    opts = check_options(variant, opts)
    from tafl_desktop.printing.maker.laser import plan_board

    report = MakerReport(opts.format, opts.parts or (), opts)
    plan = plan_board(variant, opts)
    report.plan = plan
    if opts.format in LASER_FORMATS:
        return _laser(variant, plan, report), report
    return _meshes(variant, plan, report), report


def _laser(variant: Any, plan: Any, report: MakerReport) -> bytes:
    opts = report.options
    report.lines.append(_("Board {w} x {h} mm; cut {cut}, score {score}, engrave {engrave}.").format(
        w=Num(plan.width), h=Num(plan.height), cut=_("red"), score=_("blue"), engrave=_("black")))
    if plan.holes:
        report.lines.append(ngettext("{n} hole of {d} mm cut for pegs.",
                                     "{n} holes of {d} mm cut for pegs.",
                                     len(plan.holes)).format(n=len(plan.holes), d=Num(opts.hole_mm)))
    elif has_points(variant) and opts.holes == "engrave":
        report.lines.append(ngettext("{n} dimple of {d} mm engraved.",
                                     "{n} dimples of {d} mm engraved.",
                                     len(plan.points)).format(n=len(plan.points), d=Num(opts.hole_mm)))
    if opts.kerf_mm:
        report.lines.append(_("Kerf {k} mm: outlines grow and holes shrink by half of it.").format(
            k=Num(opts.kerf_mm)))
    description = _("{game}: laser board at true scale in mm; layers cut (red), score (blue), engrave (black)"
                    ).format(game=variant.title)
    if report.format == "svg":
        from tafl_desktop.printing.maker.svg import plan_to_svg

        return plan_to_svg(plan, description)
    from tafl_desktop.printing.maker.dxf import plan_to_dxf

    return plan_to_dxf(plan)


def _meshes(variant: Any, plan: Any, report: MakerReport) -> bytes:
    from tafl_desktop.printing.maker import mesh_files, parts_3d, solids

    opts = report.options
    objects: list[Any] = []
    x = 0.0
    depth = 0.0
    if "board" in report.parts:
        if opts.tactile:
            from tafl_desktop.printing.maker.tactile import tactile_board

            board = solids.mesh_data(tactile_board(plan, variant, opts))
        else:
            board = solids.mesh_data(solids.peg_board(plan, opts.holes, opts.hole_mm))
        objects.append(mesh_files.PrintObject(_("Peg board"), board.vertices, board.triangles,
                                              parts_3d.BOARD_COLOUR, [(0.0, 0.0)]))
        x, depth = plan.width + 10.0, plan.height
        report.lines.append(_("Peg board {w} x {h} x {t} mm.").format(w=Num(plan.width), h=Num(plan.height),
                                                                      t=Num(solids.BOARD_THICKNESS)))
    groups = []
    if "pieces" in report.parts:
        groups += parts_3d.piece_groups(variant, opts)
        report.piece_mm = parts_3d.piece_diameter(variant, opts)
        report.peg_mm = parts_3d.peg_diameter(variant, opts)
        line = _("Pieces {d} mm across").format(d=Num(report.piece_mm))
        if report.peg_mm and (variant.family == "tafl" or opts.tactile):  # raised tops: sockets, loose pegs
            line += ", " + _("with sockets for loose {p} mm pegs for {h} mm holes").format(
                p=Num(report.peg_mm), h=Num(opts.hole_mm))
        elif report.peg_mm:
            line += ", " + _("with {p} mm pegs for {h} mm holes (printed top down)").format(
                p=Num(report.peg_mm), h=Num(opts.hole_mm))
        report.lines.append(_("{pieces}: {counts}.").format(
            pieces=line, counts=pgettext("list separator", "; ").join(f"{g.count} \u00d7 {g.name}" for g in groups)))
    if "markers" in report.parts:
        markers = parts_3d.marker_groups(variant, opts)
        groups += markers
        report.lines.append(ngettext("Rank markers {d} mm across: {n} disc.",
                                     "Rank markers {d} mm across: {n} discs.", sum(g.count for g in markers)).format(
            d=Num(opts.draught_mm), n=sum(g.count for g in markers)))
    if opts.tactile:
        report.lines.append(_("A set to play by touch: every kind of piece differs in shape, height or texture."))
        if "board" in report.parts:
            report.lines.append(_("The peg board's lines are raised; its special squares are raised or sunk."))
    laid, width, block = parts_3d.lay_out(groups, x, max(150.0, plan.width if x else 200.0))
    objects += laid
    height = max([0.0] + [float(o.vertices[:, 2].max()) for o in objects])
    report.objects = objects
    report.plate = (round(x + width, 1), round(max(depth, block), 1), round(height, 1))
    report.lines.append(_("Everything laid out: {x} x {y} mm, {z} mm high at most; a slicer can split it over "
                          "several plates.").format(x=Num(report.plate[0]), y=Num(report.plate[1]),
                                                    z=Num(report.plate[2])))
    title = f"{variant.title} ({', '.join(report.parts)})"
    if report.format == "stl":
        return mesh_files.write_stl(objects, title)
    return mesh_files.write_3mf(objects, title)


def build_maker(variant: Any, out: str | os.PathLike[str], opts: MakerOptions) -> MakerReport:
    """Write the maker's file for ``variant`` to ``out``; raises :class:`MakerError` for settings
    that cannot be made and lets ``OSError`` through for a path that cannot be written (nothing
    is written then: the file is built whole in memory first, then written atomically)."""
    data, report = render_maker(variant, opts)
    write_safely(out, data)
    return report
