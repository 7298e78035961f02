"""Printable sets: board, pieces, rule sheet and Dablot rank markers as one PDF, true to scale.

:func:`build_set` is the single entry point (the CLI's ``print`` command and the GUI's print
dialog call it).  The PDF is built in memory and then written to a temporary file beside the
target and renamed over it, so a failure never leaves a half-written file behind.
"""

from __future__ import annotations

import io
import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tafl_desktop.core.marks import number, number_beyond
from tafl_desktop.core.quoting import quote
from tafl_desktop.core.safe_files import write_safely
from tafl_desktop.i18n import _

if TYPE_CHECKING:
    from tafl_desktop.printing.board_sheet import BoardPlan
    from tafl_desktop.printing.paper import Document

# ReportLab is imported by the functions that draw, not here: the command line builds its parser
# from tafl_desktop.printing.maker, a sub-package, and must not pay for ReportLab on every start.

__all__ = ["PrintError", "build_set", "render_set", "PARTS", "SetReport"]

#: Every part, in the order a set is printed.  "standees" (fold-over standing pieces) is only
#: printed when asked for; "markers" by default only for Dablot.
PARTS = ("rules", "board", "pieces", "standees", "markers")
MIN_DRAUGHT, MAX_DRAUGHT = 15.0, 60.0


class PrintError(ValueError):
    """A request that cannot be printed; the message is one line for the user."""


@dataclass
class SetReport:
    """What went into a set (for tests and the print dialog's summary)."""

    parts: list[str]
    square_mm: float
    board: BoardPlan | None = None
    pages: int = 0
    part_pages: dict[str, tuple[int, int]] = field(default_factory=dict)  # part -> (first, last) page
    cuts: dict[str, Any] = field(default_factory=dict)  # part -> CutSheet (cut-out rectangles, crop ticks)


def default_parts(variant: Any) -> list[str]:
    parts = ["rules", "board", "pieces"]
    if variant.traits.ranked_pieces:
        parts.append("markers")
    return parts


def _check(variant: Any, paper: str, orientation: str, square_mm: float | None, parts: list[str] | None,
           draught_mm: float) -> list[str]:
    from tafl_desktop.printing.board_sheet import MAX_SQUARE, MIN_SQUARE
    from tafl_desktop.printing.paper import ORIENTATIONS, PAPERS

    if paper not in PAPERS:
        raise PrintError(_("paper {paper} is not known: use a4 or letter").format(paper=quote(paper)))
    if orientation not in ORIENTATIONS:
        raise PrintError(_("orientation {orientation} is not known: use portrait or landscape").format(
            orientation=quote(orientation)))
    if parts is None:
        chosen = default_parts(variant)
    else:
        chosen = []
        for p in parts:
            key = str(p).strip().lower()
            if key not in PARTS:
                raise PrintError(_("unknown part {part}: choose from {parts}").format(
                    part=quote(p), parts=", ".join(PARTS)))
            if key not in chosen:
                chosen.append(key)
        if not chosen:
            raise PrintError(_("no part to print: choose from {parts}").format(parts=", ".join(PARTS)))
    if square_mm is not None:
        if not isinstance(square_mm, (int, float)) or square_mm != square_mm:
            raise PrintError(_("the square size must be a number of millimetres"))
        if square_mm < MIN_SQUARE:
            raise PrintError(_("a square of {size} mm is too small to print pieces on: use at least {least} "
                               "mm").format(size=number_beyond(square_mm, MIN_SQUARE), least=number(MIN_SQUARE)))
        if square_mm > MAX_SQUARE:
            raise PrintError(_("a square of {size} mm is too large: use at most {most} mm").format(
                size=number_beyond(square_mm, MAX_SQUARE), most=number(MAX_SQUARE)))
    if not (MIN_DRAUGHT <= draught_mm <= MAX_DRAUGHT):
        raise PrintError(_("a draught of {size} mm is out of range: use {least} to {most} mm").format(
            size=number_beyond(draught_mm, MIN_DRAUGHT if draught_mm < MIN_DRAUGHT else MAX_DRAUGHT),
            least=number(MIN_DRAUGHT), most=number(MAX_DRAUGHT)))
    return [p for p in PARTS if p in chosen]


def render_set(variant: Any, paper: str = "a4", orientation: str = "portrait", square_mm: float | None = None,
               parts: list[str] | None = None, draught_mm: float = 30.0,
               balance: dict[str, Any] | None = None, tactile: bool = False) -> tuple[bytes, SetReport]:
    """Build the PDF in memory; return its bytes and a report of what it holds.  ``balance`` is a
    Rules Lab report (``tafl_desktop.lab.report.summary``) whose chart the rule sheet shows;
    ``tactile`` adds to the rule sheet how to feel the set to play by touch."""
    from tafl_desktop.printing.board_draw import BoardDrawError, marks_in_force
    from tafl_desktop.printing.board_sheet import board_pages, default_square, define_board_form, plan_board
    from tafl_desktop.printing.paper import Document, make_page

    chosen = _check(variant, paper, orientation, square_mm, parts, draught_mm)
    page = make_page(paper, orientation)
    square = float(square_mm) if square_mm is not None else default_square(variant.geometry, page)
    report = SetReport(chosen, square)
    buf = io.BytesIO()
    doc = Document(buf, page, _("{game} — printable set").format(game=variant.title),
                   _("{game}: {parts}; {paper}; print at 100% (actual size)").format(
                       game=variant.title, parts=", ".join(chosen), paper=page.label))
    try:
        marks = marks_in_force(variant)
        # forms first: pages only refer to them
        if "board" in chosen:
            report.board = plan_board(variant.geometry, page, square)
            define_board_form(doc.canvas, variant, report.board, marks)
        sizes: dict[str, float] = {}
        if "rules" in chosen:
            from tafl_desktop.printing.rule_sheet import define_rule_forms

            sizes = define_rule_forms(doc, variant, marks)
        for part in chosen:
            first = doc.count + 1
            if part == "rules":
                from tafl_desktop.printing.rule_sheet import rule_pages

                rule_pages(doc, variant, marks, sizes, balance, tactile)
            elif part == "board":
                assert report.board is not None
                board_pages(doc, variant, report.board, marks)
            elif part == "pieces":
                from tafl_desktop.printing.pieces_sheet import token_pages

                report.cuts[part] = token_pages(doc, variant, square)
            elif part == "standees":
                from tafl_desktop.printing.pieces_sheet import standee_pages

                report.cuts[part] = standee_pages(doc, variant, square)
            elif part == "markers":
                report.cuts[part] = _markers(doc, variant, draught_mm)
            report.part_pages[part] = (first, doc.count)
    except BoardDrawError as exc:
        raise PrintError(str(exc)) from None
    except ValueError as exc:  # a layout that cannot fit (e.g. a piece larger than the page)
        raise PrintError(_("cannot lay out the pages ({paper}, {orientation}): {problem}").format(
            paper=paper, orientation=orientation, problem=exc)) from None
    doc.save()
    report.pages = doc.count
    return buf.getvalue(), report


def _markers(doc: Document, variant: Any, draught_mm: float) -> Any:
    from tafl_desktop.printing import markers

    if variant.traits.ranked_pieces:
        armies = markers.armies_for_variant(variant)
        heading = _("{game} with stacked draughts").format(game=variant.title)
        return markers.marker_pages(doc, armies, draught_mm, heading)
    return markers.generic_marker_pages(doc, draught_mm)


def write_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and a rename, so
    readers see either the old file or the whole new one, and a failure leaves nothing behind.
    A link is written through to its file; a device, folder or pipe is refused (OSError)."""
    write_safely(path, data)


def build_set(variant: Any, out: str | os.PathLike[str], paper: str = "a4", orientation: str = "portrait",
              square_mm: float | None = None, parts: list[str] | None = None, draught_mm: float = 30.0,
              balance: dict[str, Any] | None = None, tactile: bool = False) -> None:
    """Write the printable set for ``variant`` to ``out`` (PDF).

    Raises :class:`PrintError` for a request that cannot be printed (unknown part, square too small
    or too large, ...) and lets :class:`OSError` through for a path that cannot be written.
    """
    data, _report = render_set(variant, paper, orientation, square_mm, parts, draught_mm, balance, tactile)
    write_atomic(out, data)
