"""Vector symbols shared by every sheet: piece faces, the crown, the Saami hat, move arrows.

One drawing per piece kind serves the cut-out tokens, the standing pieces and the rule-sheet
diagrams, so a player matches a diagram to a token at a glance.  The faces are told apart by
lightness as well as by marks (attackers dark, defenders light, the king light with a crown), so
a black-and-white printer keeps them distinct.  All sizes are mm; the canvas is in points.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from reportlab.lib.colors import Color
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from tafl_desktop.i18n import _
from tafl_desktop.printing.fonts import FONT, FONT_BOLD

PT = 25.4 / 72  # one typographic point in mm (font sizes are given in points)

ATTACKER_FACE = Color(0.20, 0.17, 0.16)
ATTACKER_MARK = Color(0.86, 0.82, 0.74)
DEFENDER_FACE = Color(0.94, 0.90, 0.80)
DEFENDER_MARK = Color(0.22, 0.18, 0.16)
OUTLINE = Color(0.1, 0.1, 0.1)

#: Dablot's armies, (face, ink): dark for South and light for North, the faces of every other
#: game's printed pieces and of the window's pieces, so a player matches screen and printout at
#: a glance (issue 36: they were red and yellow in print, dark and light on screen).
LIGHT_ARMY = (DEFENDER_FACE, DEFENDER_MARK)  # Dablot's North
DARK_ARMY = (ATTACKER_FACE, ATTACKER_MARK)  # Dablot's South


@dataclass(frozen=True)
class RankFace:
    """A ranked piece or rank marker (Dablot): army symbol and colour, rank title and points."""

    symbol: str  # "crown" (the Swedes' leader) or "hat" (the Saami leader's four-pointed hat)
    dark: bool
    title: str
    points: int
    leader: bool = False
    retreated: bool = False  # the Officer Material underside mark


#: Piece kinds drawn dark: Tafl attackers and the Fox games' hunters.
DARK_KINDS = frozenset("th")


def face_colours(kind: str) -> tuple[Color, Color]:
    """(face, mark) colours of a piece kind: 't'/'T'/'K' (Tafl), 'f'/'h' (Fox games' flock and
    hunters)."""
    if kind in DARK_KINDS:
        return ATTACKER_FACE, ATTACKER_MARK
    return DEFENDER_FACE, DEFENDER_MARK


def draw_piece(c: Canvas, kind: str | RankFace, cx: float, cy: float, r: float, bleed: float = 0.0,
               outline: bool = False) -> None:
    """A round piece face centred at (cx, cy) with radius ``r`` mm.

    ``bleed`` extends the face colour beyond the cut line so a slightly-off cut shows no white
    edge; ``outline`` (for diagrams on a white board, never for cut-outs) rims the disc.
    """
    if isinstance(kind, RankFace):
        draw_rank_face(c, kind, cx, cy, r, bleed, outline)
        return
    face, mark = face_colours(kind)
    c.saveState()
    c.setFillColor(face)
    if outline:
        c.setStrokeColor(OUTLINE)
        c.setLineWidth(max(0.15, r * 0.06) * mm)
        c.circle(cx * mm, cy * mm, r * mm, stroke=1, fill=1)
    else:
        c.circle(cx * mm, cy * mm, (r + bleed) * mm, stroke=0, fill=1)
    c.setStrokeColor(mark)
    c.setLineWidth(r * 0.07 * mm)
    if kind == "K":
        c.circle(cx * mm, cy * mm, r * 0.80 * mm, stroke=1, fill=0)
        draw_crown(c, cx, cy - r * 0.05, r * 1.05, mark)
    elif kind == "h":
        draw_star(c, cx, cy, r * 0.62, mark)
    else:
        c.circle(cx * mm, cy * mm, r * 0.62 * mm, stroke=1, fill=0)
        if kind == "t":
            c.setFillColor(mark)
            c.circle(cx * mm, cy * mm, r * 0.16 * mm, stroke=0, fill=1)
    c.restoreState()


def crown_outline(cx: float, cy: float,
                  size: float) -> tuple[list[tuple[float, float]], list[tuple[float, float, float]]]:
    """The crown's shape in mm (y up): its outline and the (x, y, r) balls on its three tall
    points.  The paper draws it and the 3D pieces cut it into the Swedish leader's top."""
    w, h = size * 0.62, size * 0.46
    x0, y0 = cx - w / 2, cy - h / 2
    tips = [(1.0, 1.0), (0.80, 0.55), (0.5, 1.0), (0.20, 0.55), (0.0, 1.0)]
    points = [(x0, y0), (x0 + w, y0), (x0 + w, y0 + h * 0.25)]
    points += [(x0 + fx * w, y0 + fy * h) for fx, fy in tips]
    points.append((x0, y0 + h * 0.25))
    balls = [(x0 + fx * w, y0 + h * 1.04, size * 0.045) for fx in (0.0, 0.5, 1.0)]
    return points, balls


def draw_crown(c: Canvas, cx: float, cy: float, size: float, colour: Color) -> None:
    """A five-pointed crown about ``size`` mm wide: the king's and the Swedish leader's mark."""
    points, balls = crown_outline(cx, cy, size)
    p = c.beginPath()
    p.moveTo(points[0][0] * mm, points[0][1] * mm)
    for x, y in points[1:]:
        p.lineTo(x * mm, y * mm)
    p.close()
    c.saveState()
    c.setFillColor(colour)
    c.drawPath(p, stroke=0, fill=1)
    for x, y, r in balls:
        c.circle(x * mm, y * mm, r * mm, stroke=0, fill=1)
    c.restoreState()


def star_outline(cx: float, cy: float, r: float, points: int = 4) -> list[tuple[float, float]]:
    """A star with ``points`` points of outer radius ``r`` mm (y up): the hunters' mark."""
    out = []
    for k in range(2 * points):
        rad = r if k % 2 == 0 else r * 0.38
        a = math.pi / 2 + k * math.pi / points
        out.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
    return out


def draw_star(c: Canvas, cx: float, cy: float, r: float, colour: Color, points: int = 4) -> None:
    """A star with ``points`` points of outer radius ``r`` mm: the hunters' mark."""
    p = c.beginPath()
    for k, (x, y) in enumerate(star_outline(cx, cy, r, points)):
        if k == 0:
            p.moveTo(x * mm, y * mm)
        else:
            p.lineTo(x * mm, y * mm)
    p.close()
    c.saveState()
    c.setFillColor(colour)
    c.drawPath(p, stroke=0, fill=1)
    c.restoreState()


@dataclass(frozen=True)
class HatShape:
    """The Saami leader's hat in mm (y up): headband (x, y, w, h, corner radius), the cap as a
    cubic curve from the band's left top corner to its right one, and the star's outline."""

    band: tuple[float, float, float, float, float]
    cap: tuple[tuple[float, float], tuple[float, float], tuple[float, float], tuple[float, float]]
    star: list[tuple[float, float]]


def hat_outline(cx: float, cy: float, size: float) -> HatShape:
    """The four-pointed hat about ``size`` mm wide (see :func:`draw_hat`)."""
    band_w, band_h = size * 0.46, size * 0.13
    base = cy - size * 0.30
    top = base + band_h
    cap = ((cx - band_w / 2, top), (cx - band_w / 2, top + size * 0.22), (cx + band_w / 2, top + size * 0.22),
           (cx + band_w / 2, top))
    # the star: long points left and right, shorter ones front and back (perspective)
    sx, sy = cx, top + size * 0.24
    rx, ry, inner = size * 0.50, size * 0.27, 0.30
    star = []
    for k in range(8):
        ang = k * math.pi / 4
        rad = 1.0 if k % 2 == 0 else inner
        star.append((sx + rx * rad * math.cos(ang), sy + ry * rad * math.sin(ang) * (1.0 if k % 2 == 0 else 1.6)))
    return HatShape((cx - band_w / 2, base, band_w, band_h, band_h * 0.25), cap, star)


def draw_hat(c: Canvas, cx: float, cy: float, size: float, colour: Color) -> None:
    """The Saami leader's four-pointed hat (the "hat of the four winds"), about ``size`` mm wide:
    a headband and cap crowned by a broad stuffed four-pointed star, seen slightly from above so
    all four points show - unmistakably not the Swedes' crown."""
    hat = hat_outline(cx, cy, size)
    x, y, w, h, r = hat.band
    c.saveState()
    c.setFillColor(colour)
    c.roundRect(x * mm, y * mm, w * mm, h * mm, r * mm, stroke=0, fill=1)
    # the cap between band and star
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = hat.cap
    p = c.beginPath()
    p.moveTo(x0 * mm, y0 * mm)
    p.curveTo(x1 * mm, y1 * mm, x2 * mm, y2 * mm, x3 * mm, y3 * mm)
    p.close()
    c.drawPath(p, stroke=0, fill=1)
    p = c.beginPath()
    for k, (x, y) in enumerate(hat.star):
        if k == 0:
            p.moveTo(x * mm, y * mm)
        else:
            p.lineTo(x * mm, y * mm)
    p.close()
    c.drawPath(p, stroke=0, fill=1)
    c.restoreState()


def draw_capture_cross(c: Canvas, cx: float, cy: float, r: float) -> None:
    """A bold X with a white halo over a captured piece: readable on dark and light faces."""
    c.saveState()
    c.setLineCap(1)
    for colour, width in ((Color(1, 1, 1), 0.22 * r), (Color(0.80, 0.05, 0.05), 0.11 * r)):
        c.setStrokeColor(colour)
        c.setLineWidth(width * mm)
        d = r * 0.95
        c.line((cx - d) * mm, (cy - d) * mm, (cx + d) * mm, (cy + d) * mm)
        c.line((cx - d) * mm, (cy + d) * mm, (cx + d) * mm, (cy - d) * mm)
    c.restoreState()


def draw_arrow(c: Canvas, x0: float, y0: float, x1: float, y1: float, width: float,
               colour: Color = OUTLINE) -> None:
    """A move arrow from (x0, y0) to (x1, y1) mm with a filled head."""
    ang = math.atan2(y1 - y0, x1 - x0)
    head = width * 3.2
    bx, by = x1 - head * math.cos(ang), y1 - head * math.sin(ang)
    c.saveState()
    c.setStrokeColor(colour)
    c.setFillColor(colour)
    c.setLineWidth(width * mm)
    c.setLineCap(1)
    c.line(x0 * mm, y0 * mm, bx * mm, by * mm)
    p = c.beginPath()
    p.moveTo(x1 * mm, y1 * mm)
    for side in (1, -1):
        a = ang + side * math.pi / 2
        p.lineTo((bx + head * 0.55 * math.cos(a)) * mm, (by + head * 0.55 * math.sin(a)) * mm)
    p.close()
    c.drawPath(p, stroke=0, fill=1)
    c.restoreState()


def draw_rank_face(c: Canvas, f: RankFace, cx: float, cy: float, r: float, bleed: float = 0.0,
                   outline: bool = False) -> None:
    """A ranked piece: the army's symbol above, the points in the middle, the rank title below.

    Small faces (board diagrams) keep only what stays legible: the points, and the symbol for
    the leader."""
    face, ink = DARK_ARMY if f.dark else LIGHT_ARMY
    c.saveState()
    c.setFillColor(face)
    if outline:
        c.setStrokeColor(OUTLINE)
        c.setLineWidth(max(0.15, r * 0.06) * mm)
        c.circle(cx * mm, cy * mm, r * mm, stroke=1, fill=1)
    else:
        c.circle(cx * mm, cy * mm, (r + bleed) * mm, stroke=0, fill=1)
    c.setStrokeColor(ink)
    c.setFillColor(ink)
    c.setLineWidth(max(0.15, r * 0.04) * mm)
    c.circle(cx * mm, cy * mm, r * 0.88 * mm, stroke=1, fill=0)
    if f.retreated:
        # a broad band across the face: plain to see when the piece is turned over
        p = c.beginPath()
        p.circle(cx * mm, cy * mm, r * 0.88 * mm)
        c.clipPath(p, stroke=0, fill=0)
        c.rect((cx - r) * mm, (cy - r * 0.22) * mm, 2 * r * mm, r * 0.44 * mm, stroke=0, fill=1)
        c.setFillColor(face)
        # TRANSLATORS: printed in capitals across the underside of a Dablot soldier that moved backwards
        word = _("retreated").upper()
        size = r * 0.26
        width = c.stringWidth(word, FONT_BOLD, size / PT) / mm
        size *= min(1.0, r * 1.45 / width)
        c.setFont(FONT_BOLD, size / PT)
        c.drawCentredString(cx * mm, (cy - size * 0.36) * mm, word)
        c.setFillColor(ink)
        # TRANSLATORS: printed under "retreated" on a Dablot marker: this soldier can no longer be promoted
        note = _("no promotion")
        size = r * 0.17
        # the disc is narrower down there: the note keeps inside its inner ring
        size *= min(1.0, r * 1.05 / (c.stringWidth(note, FONT, size / PT) / mm))
        c.setFont(FONT, size / PT)
        c.drawCentredString(cx * mm, (cy - r * 0.55) * mm, note)
        c.restoreState()
        return
    big = r >= 6.0
    sym = draw_crown if f.symbol == "crown" else draw_hat
    if big:
        sym(c, cx, cy + r * 0.50, r * 0.58, ink)
        size = r * 0.58
        c.setFont(FONT_BOLD, size / PT)
        c.drawCentredString(cx * mm, (cy - size * 0.50) * mm, str(f.points))
        tsize = min(r * 0.18, 4.0)
        width = c.stringWidth(f.title, FONT, tsize / PT) / mm
        if width > r * 1.35:
            tsize *= r * 1.35 / width
        c.setFont(FONT, tsize / PT)
        c.drawCentredString(cx * mm, (cy - r * 0.64) * mm, f.title)
    else:
        if f.leader:
            sym(c, cx, cy + r * 0.35, r * 0.75, ink)
            size = r * 0.75
            c.setFont(FONT_BOLD, size / PT)
            c.drawCentredString(cx * mm, (cy - r * 0.72) * mm, str(f.points))
        else:
            size = r * 1.05
            c.setFont(FONT_BOLD, size / PT)
            c.drawCentredString(cx * mm, (cy - size * 0.36) * mm, str(f.points))
    c.restoreState()
