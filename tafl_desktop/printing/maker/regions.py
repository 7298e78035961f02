"""Flat regions for engraving and for cutting into a peg board: built up from simple shapes and
merged with manifold3d's cross-sections.

Why merge: a laser fills each closed contour it is given, and two overlapping contours (the ends of
two walls meeting in a corner, a dash crossing another) come out as an unburnt hole under the
usual even-odd fill.  A union leaves one outline per blob, with holes where a symbol is knocked
out, which every laser program and slicer reads the same way.  manifold3d (a few MB, Clipper2
inside) also builds the 3D pieces, so one library serves both.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from manifold3d import CrossSection, FillRule, OpType

Point = tuple[float, float]
CIRCLE_SEGMENTS = 48


def polygon(points: Sequence[Point]) -> CrossSection:
    """A region bounded by one contour (either winding)."""
    return CrossSection([list(points)], FillRule.NonZero)


def contours(points: Iterable[Sequence[Point]]) -> CrossSection:
    """A region from several contours, holes winding the other way (e.g. letters)."""
    polys = [list(c) for c in points]
    return CrossSection(polys, FillRule.NonZero) if polys else CrossSection()


def rect(x: float, y: float, w: float, h: float) -> CrossSection:
    return CrossSection.square((w, h)).translate((x, y))


def square_band(x: float, y: float, side: float, width: float) -> CrossSection:
    """The frame of a square (outer side ``side`` with lower corner at x, y) ``width`` wide."""
    return rect(x, y, side, side) - rect(x + width, y + width, side - 2 * width, side - 2 * width)


def circle(cx: float, cy: float, r: float, segments: int = CIRCLE_SEGMENTS) -> CrossSection:
    return CrossSection.circle(r, segments).translate((cx, cy))


def ring(cx: float, cy: float, r: float, width: float) -> CrossSection:
    """A ring whose middle line has radius ``r``."""
    return circle(cx, cy, r + width / 2) - circle(cx, cy, max(0.01, r - width / 2))


def bar(a: Point, b: Point, width: float, round_ends: bool = False) -> CrossSection:
    """A straight stroke from ``a`` to ``b``, ``width`` wide, butt or round ended."""
    (x1, y1), (x2, y2) = a, b
    length = math.hypot(x2 - x1, y2 - y1)
    if length == 0:
        return circle(x1, y1, width / 2) if round_ends else CrossSection()
    nx, ny = -(y2 - y1) / length * width / 2, (x2 - x1) / length * width / 2
    out = polygon([(x1 + nx, y1 + ny), (x2 + nx, y2 + ny), (x2 - nx, y2 - ny), (x1 - nx, y1 - ny)])
    if round_ends:
        out = out + circle(x1, y1, width / 2, 24) + circle(x2, y2, width / 2, 24)
    return out


def dashes(a: Point, b: Point, width: float, dash: float, gap: float) -> CrossSection:
    """A dashed stroke: dashes of ``dash`` mm with ``gap`` mm between, centred on the segment."""
    (x1, y1), (x2, y2) = a, b
    length = math.hypot(x2 - x1, y2 - y1)
    n = max(1, int((length + gap) // (dash + gap)))
    used = n * dash + (n - 1) * gap
    start = (length - used) / 2
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    parts = []
    for k in range(n):
        d0 = start + k * (dash + gap)
        parts.append(bar((x1 + ux * d0, y1 + uy * d0), (x1 + ux * (d0 + dash), y1 + uy * (d0 + dash)), width))
    return union(parts)


def arrow(a: Point, b: Point, width: float) -> CrossSection:
    """An arrow from ``a`` to ``b`` with a head 3.2 widths long, as the paper board draws exits."""
    (x0, y0), (x1, y1) = a, b
    ang = math.atan2(y1 - y0, x1 - x0)
    head = width * 3.2
    bx, by = x1 - head * math.cos(ang), y1 - head * math.sin(ang)
    tip = [(x1, y1)]
    for side in (1, -1):
        t = ang + side * math.pi / 2
        tip.append((bx + head * 0.55 * math.cos(t), by + head * 0.55 * math.sin(t)))
    # the shaft runs a little into the head so the two merge into one outline
    back = 0.3 * head
    return bar((x0, y0), (bx + back * math.cos(ang), by + back * math.sin(ang)), width) + polygon(tip)


def rounded_rect(x: float, y: float, w: float, h: float, r: float) -> CrossSection:
    """A rectangle with corners rounded to radius ``r`` (0: square)."""
    if r <= 0:
        return rect(x, y, w, h)
    return rect(x + r, y + r, w - 2 * r, h - 2 * r).offset(r, circular_segments=4 * CIRCLE_SEGMENTS)


def union(parts: Iterable[CrossSection]) -> CrossSection:
    items = [p for p in parts if not p.is_empty()]
    if not items:
        return CrossSection()
    return CrossSection.batch_boolean(items, OpType.Add) if len(items) > 1 else items[0]


def outlines(region: CrossSection) -> list[list[Point]]:
    """The region's contours as point lists (outer contours and holes)."""
    return [[(float(x), float(y)) for x, y in poly] for poly in region.to_polygons() if len(poly) >= 3]
