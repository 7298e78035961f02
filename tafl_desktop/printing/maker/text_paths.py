"""Letters as outlines: the coordinates a laser engraves and a peg board carries, in the set's font.

Why outlines and not text: laser software and slicers either lack the font, substitute another or
ignore text entities altogether, and a 3D printer needs a shape anyway.  The glyphs come from the
same DejaVu Sans the paper set embeds (fontTools reads it; it is installed with matplotlib), and
their curves are flattened to short straight segments far below a laser's spot size.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from fontTools.pens.basePen import BasePen
from fontTools.ttLib import TTFont

from tafl_desktop.printing.fonts import fonts_dir

Point = tuple[float, float]
CURVE_STEPS = 6  # segments per curve piece: at 4 mm letters an error far below 0.01 mm


class _FlatPen(BasePen):
    """Collects a glyph's contours as point lists, curves flattened."""

    def __init__(self, glyph_set: Any) -> None:
        super().__init__(glyph_set)
        self.contours: list[list[Point]] = []
        self._current: list[Point] = []

    def _moveTo(self, pt: Point) -> None:  # noqa: N802 (fontTools' names)
        self._current = [pt]

    def _lineTo(self, pt: Point) -> None:  # noqa: N802
        self._current.append(pt)

    def _curveToOne(self, p1: Point, p2: Point, p3: Point) -> None:  # noqa: N802
        (x0, y0) = self._current[-1]
        for k in range(1, CURVE_STEPS + 1):
            t = k / CURVE_STEPS
            u = 1 - t
            self._current.append((u**3 * x0 + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0] + t**3 * p3[0],
                                  u**3 * y0 + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1] + t**3 * p3[1]))

    def _qCurveToOne(self, p1: Point, p2: Point) -> None:  # noqa: N802
        (x0, y0) = self._current[-1]
        for k in range(1, CURVE_STEPS + 1):
            t = k / CURVE_STEPS
            u = 1 - t
            self._current.append((u * u * x0 + 2 * u * t * p1[0] + t * t * p2[0],
                                  u * u * y0 + 2 * u * t * p1[1] + t * t * p2[1]))

    def _closePath(self) -> None:  # noqa: N802
        if len(self._current) >= 3:
            self.contours.append(self._current)
        self._current = []

    _endPath = _closePath


@lru_cache(maxsize=2)
def _font(bold: bool) -> TTFont:
    return TTFont(str(fonts_dir() / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")), lazy=True)


@lru_cache(maxsize=512)
def _glyph(char: str, bold: bool) -> tuple[float, tuple[tuple[Point, ...], ...]]:
    """(advance, contours) of one character in font units (y up)."""
    font = _font(bold)
    name = font.getBestCmap().get(ord(char), ".notdef")
    glyphs = font.getGlyphSet()
    pen = _FlatPen(glyphs)
    glyphs[name].draw(pen)
    return float(font["hmtx"][name][0]), tuple(tuple(c) for c in pen.contours)


def text_width(text: str, size: float, bold: bool = False) -> float:
    """Width in mm of ``text`` set ``size`` mm high (the em)."""
    units = _font(bold)["head"].unitsPerEm
    return sum(_glyph(ch, bold)[0] for ch in text) * size / units


def text_outlines(text: str, size: float, x: float, baseline: float, centred: bool = True,
                  bold: bool = False) -> list[list[Point]]:
    """The contours of ``text`` set ``size`` mm high, in mm with y growing *downwards* (the laser
    plan's and SVG's way), starting at ``x`` (or centred on it) on the ``baseline``.

    Outer contours and holes wind in opposite directions (TrueType's rule), so a non-zero fill
    gives the letters with their counters open."""
    units = _font(bold)["head"].unitsPerEm
    k = size / units
    pen_x = x - (text_width(text, size, bold) / 2 if centred else 0.0)
    out: list[list[Point]] = []
    for ch in text:
        advance, contours = _glyph(ch, bold)
        for c in contours:
            out.append([(pen_x + px * k, baseline - py * k) for px, py in c])
        pen_x += advance * k
    return out
