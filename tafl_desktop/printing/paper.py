"""Paper, pages and the furniture every sheet shares (header, page numbers, ruler, crop marks).

Sizes are millimetres at every interface and become points only at the ReportLab call, so a
square asked for as 30 mm is drawn as ``30 * mm`` points and nothing in between rounds it.

Why the page is exactly A4 or Letter and nothing else: a PDF page that is larger than the paper
(ReportLab's ``cropMarks=True`` makes an A4 page 235 x 322 mm) is silently shrunk by printer
drivers, which ruins a board printed to scale.  Crop marks are drawn by hand inside the margins,
and the viewer preference ``PrintScaling = None`` asks viewers not to "fit to page".
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, BinaryIO

from reportlab.lib.colors import Color
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from tafl_desktop.i18n import _, current_language
from tafl_desktop.printing.fonts import FONT, FONT_BOLD, register_fonts, text_width

#: Paper sizes in mm, portrait.
PAPERS: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
ORIENTATIONS = ("portrait", "landscape")

#: Margin on every side.  Home printers cannot print the outer 3-6 mm; 8 mm is safe everywhere
#: and still leaves a 19x19 board at 9.5 mm squares on one A4 page.
MARGIN = 8.0
HEADER = 7.0  # band at the top of each page for the title line
FOOTER = 4.0  # band at the bottom for the page number
RULER_BAND = 13.0  # band above the footer for the 100 mm calibration ruler

INK = Color(0.1, 0.1, 0.1)
GREY = Color(0.55, 0.55, 0.55)
LIGHT = Color(0.75, 0.75, 0.75)

PT = 25.4 / 72  # one typographic point in mm


@dataclass(frozen=True)
class Rect:
    """A rectangle in mm, PDF orientation (origin bottom-left of the page, y up)."""

    x: float
    y: float
    w: float
    h: float

    @property
    def top(self) -> float:
        return self.y + self.h

    @property
    def right(self) -> float:
        return self.x + self.w


@dataclass(frozen=True)
class Page:
    """One paper size in one orientation, with the areas a sheet may draw in."""

    paper: str
    orientation: str
    width: float
    height: float
    margin: float = MARGIN

    @property
    def printable(self) -> Rect:
        m = self.margin
        return Rect(m, m, self.width - 2 * m, self.height - 2 * m)

    def body(self, ruler: bool = False) -> Rect:
        """The area below the header and above the footer (and the ruler band, if any)."""
        p = self.printable
        bottom = FOOTER + (RULER_BAND if ruler else 0.0)
        return Rect(p.x, p.y + bottom, p.w, p.h - HEADER - bottom)

    @property
    def label(self) -> str:
        return {("a4", "portrait"): _("A4 portrait"), ("a4", "landscape"): _("A4 landscape"),
                ("letter", "portrait"): _("Letter portrait"), ("letter", "landscape"): _("Letter landscape")}.get(
            (self.paper, self.orientation), f"{self.paper} {self.orientation}")


def make_page(paper: str, orientation: str) -> Page:
    w, h = PAPERS[paper]
    if orientation == "landscape":
        w, h = h, w
    return Page(paper, orientation, w, h)


def even_split(length: float, avail: float, overlap: float) -> tuple[int, float]:
    """How many tiles of at most ``avail`` mm cover ``length`` mm with ``overlap`` mm shared
    between neighbours, and the step between tile starts.

    Every tile gets the same share (``step + overlap``): a greedy split would fill pages to the
    brim and leave a sliver on the last one, which is both wasteful and hard to align.
    """
    if length <= avail + 1e-9:
        return 1, length
    if avail <= overlap:
        raise ValueError(_("tile area is smaller than the overlap"))
    n = math.ceil((length - overlap) / (avail - overlap) - 1e-9)
    return n, (length - overlap) / n


_fixed_date = False


def reproducible() -> int:
    """1 when ``SOURCE_DATE_EPOCH`` is set (the reproducible-builds convention; the tests set it) or
    inside :func:`fixed_date`: ReportLab then dates the PDF at that moment and derives its file ID
    from the content alone, so the same set gives the same bytes.  Otherwise 0: a player's PDF
    carries the day it was made, not ReportLab's fixed 1 January 2000."""
    return 1 if _fixed_date or os.environ.get("SOURCE_DATE_EPOCH", "").strip() else 0


@contextmanager
def fixed_date() -> Iterator[None]:
    """PDFs made inside are dated on ReportLab's fixed 1 January 2000, whatever the environment
    says: the shipped ``printables/`` were made so and must stay byte-identical (ReportLab mixes the
    epoch's spelling into the file ID, so even ``SOURCE_DATE_EPOCH=946684800`` changes it)."""
    global _fixed_date
    saved = os.environ.pop("SOURCE_DATE_EPOCH", None)
    _fixed_date = True
    try:
        yield
    finally:
        _fixed_date = False
        if saved is not None:
            os.environ["SOURCE_DATE_EPOCH"] = saved


class Document:
    """A PDF being built: one canvas, one page size, page headers and "page N of M" numbers.

    The total page count is not known while pages are drawn (the rule sheet flows), so every
    footer refers to a form that is defined once at the end; PDF allows the forward reference.
    """

    def __init__(self, out: BinaryIO, page: Page, title: str, subject: str = "") -> None:
        register_fonts()
        self.page = page
        self.title = title
        self.count = 0
        self.canvas = Canvas(out, pagesize=(page.width * mm, page.height * mm), invariant=reproducible(),
                             initialFontName=FONT, initialFontSize=9, pageCompression=1, lang=current_language())
        c = self.canvas
        c.setTitle(title)
        c.setAuthor("Tafl Desktop")
        c.setCreator("Tafl Desktop")
        c.setSubject(subject or _("Printable set, {paper}, print at 100% (actual size)").format(paper=page.label))
        c.setKeywords(["tafl", "print and play", page.paper, page.orientation])
        c.setViewerPreference("PrintScaling", "None")

    @contextmanager
    def sheet(self, part: str, detail: str = "") -> Iterator[Canvas]:
        """Draw one page: header line, footer with the page number, then the caller's content."""
        c = self.canvas
        self.count += 1
        p = self.page.printable
        c.saveState()
        c.setFillColor(INK)
        c.setFont(FONT_BOLD, 9)
        top = p.top - 4.0
        c.drawString(p.x * mm, top * mm, f"{self.title} · {part}")
        if detail:
            c.setFont(FONT, 8)
            c.drawRightString(p.right * mm, top * mm, detail)
        c.setStrokeColor(LIGHT)
        c.setLineWidth(0.3)
        c.line(p.x * mm, (p.top - HEADER + 1.5) * mm, p.right * mm, (p.top - HEADER + 1.5) * mm)
        c.setFont(FONT, 7)
        c.setFillColor(GREY)
        label = _("page {n} of").format(n=self.count) + " "
        c.drawString(p.x * mm, (p.y + 0.5) * mm, "Tafl Desktop · " + self.page.label)
        right = p.right - 6.0
        c.drawRightString(right * mm, (p.y + 0.5) * mm, label)
        c.translate(right * mm, (p.y + 0.5) * mm)
        c.doForm("pagetotal")
        c.restoreState()
        c.saveState()
        yield c
        c.restoreState()
        c.showPage()

    def save(self) -> None:
        c = self.canvas
        c.beginForm("pagetotal", 0, 0, 6 * mm, 4 * mm)
        c.setFont(FONT, 7)
        c.setFillColor(GREY)
        c.drawString(0.3 * mm, 0, str(self.count))
        c.endForm()
        c.save()


# ------------------------------------------------------------------------------- furniture
def draw_ruler(c: Canvas, x: float, y: float) -> Rect:
    """A 100 mm calibration ruler with its instruction; (x, y) is the ruler's left end in mm.

    Returns the area it used.  Ticks every mm, taller every 5 and 10, numbered every 10, so a
    player can check the print with any ruler before cutting anything.
    """
    c.saveState()
    c.setStrokeColor(INK)
    c.setFillColor(INK)
    c.setLineWidth(0.25)
    c.line(x * mm, y * mm, (x + 100) * mm, y * mm)
    for i in range(101):
        t = 3.0 if i % 10 == 0 else 2.0 if i % 5 == 0 else 1.2
        c.line((x + i) * mm, y * mm, (x + i) * mm, (y + t) * mm)
    c.setFont(FONT, 5.5)
    for i in range(0, 101, 10):
        c.drawCentredString((x + i) * mm, (y + 3.6) * mm, str(i // 10))
    c.setFont(FONT_BOLD, 7.5)
    first = _("Print at 100% / actual size")
    c.drawString(x * mm, (y - 4.0) * mm, first)
    c.setFont(FONT, 7)
    # the note follows the instruction; 41 mm is where it always stood in English
    gap = max(41.0, c.stringWidth(first, FONT_BOLD, 7.5) / mm + 1.5)
    c.drawString((x + gap) * mm, (y - 4.0) * mm, _("— this line must measure 100 mm (10 cm)."))
    c.restoreState()
    return Rect(x, y - 5.0, 100.0, 9.5)


def ruler_position(page: Page) -> tuple[float, float]:
    """Where the ruler goes: in the ruler band above the footer, left-aligned."""
    p = page.printable
    return p.x + 1.0, p.y + FOOTER + 7.0


def crop_cross(c: Canvas, x: float, y: float, arm: float = 1.5) -> None:
    """A thin crop-mark cross at (x, y) mm: cut guides that do not outline the piece."""
    c.line((x - arm) * mm, y * mm, (x + arm) * mm, y * mm)
    c.line(x * mm, (y - arm) * mm, x * mm, (y + arm) * mm)


def grid_crop_marks(c: Canvas, xs: list[float], ys: list[float], arm: float = 1.5, outer: float = 4.0) -> None:
    """Crop marks for a grid of cut lines ``xs`` x ``ys`` (mm): small crosses where gutters meet
    and longer ticks beyond the outer edge, all 0.15 mm grey, none reaching into a cell's piece
    (callers keep pieces at least ``arm`` clear of every line crossing)."""
    c.saveState()
    c.setStrokeColor(GREY)
    c.setLineWidth(0.15 * mm)
    for x in xs:
        for y in ys:
            crop_cross(c, x, y, arm)
    lo_y, hi_y, lo_x, hi_x = min(ys), max(ys), min(xs), max(xs)
    for x in xs:
        c.line(x * mm, (lo_y - outer - 1) * mm, x * mm, (lo_y - 1) * mm)
        c.line(x * mm, (hi_y + 1) * mm, x * mm, (hi_y + outer + 1) * mm)
    for y in ys:
        c.line((lo_x - outer - 1) * mm, y * mm, (lo_x - 1) * mm, y * mm)
        c.line((hi_x + 1) * mm, y * mm, (hi_x + outer + 1) * mm, y * mm)
    c.restoreState()


def fit_text(text: str, size: float, width_mm: float, bold: bool = False, minimum: float = 5.0) -> float:
    """The largest font size <= ``size`` at which ``text`` fits ``width_mm``."""
    w = text_width(text, size, bold) / mm
    if w <= width_mm:
        return size
    return max(minimum, size * width_mm / w)


def fill_frame(frame: Any, story: list[Any], c: Canvas) -> None:
    """Put as much of ``story`` into ``frame`` as fits, splitting tables and keep-together blocks
    the way ReportLab's document templates do (a bare ``Frame.addFromList`` never splits), and
    remove what was placed.  A block that does not fit even on an empty frame raises ValueError.
    """
    from reportlab.platypus.doctemplate import ActionFlowable

    while story:
        f = story[0]
        if isinstance(f, ActionFlowable):
            story.pop(0)
            # KeepTogether asks for a frame break when its block does not fit below
            if "frameEnd" in str(getattr(f, "action", "")) and not frame._atTop:
                return
            continue
        if frame.add(f, c, trySplit=1):
            story.pop(0)
            continue
        parts = frame.split(f, c)
        if parts and not (len(parts) == 1 and parts[0] is f):
            story[0:1] = parts
            continue
        if frame._atTop:
            raise ValueError(_("a block of the page ({kind}) is taller than a page").format(kind=type(f).__name__))
        return
