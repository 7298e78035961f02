"""Drawing one piece with QPainter, in vectors so it stays crisp at any size and DPI.

Shared by the board, the side panel (side-to-move badge, captured counts) and the app icon, so a
piece looks the same everywhere.  Marks differ by shape, not only by colour: attackers carry a
diamond, defenders a ring, the king a crown; flock pieces a dot, hunters a pointed head; the
Dablot leaders the Saami hat (South) and the crown (North), as on the printed pieces.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPen, QRadialGradient

from tafl_desktop.gui.themes import BoardTheme

#: kind -> (dark face?, mark).  Dark and light differ in lightness, and every kind in a game
#: has its own mark shape, so colour is never the only cue.
LOOKS: dict[str, tuple[bool, str]] = {
    "t": (True, "diamond"), "T": (False, "ring"), "K": (False, "crown"),   # Tafl
    "f": (False, "dot"), "h": (True, "head"),                              # Fox games
    "s": (True, "dot"), "r": (True, "square"), "o": (True, "bars"),        # Dablot, South (the Saami)
    "p": (True, "ring"), "k": (True, "hat"),
    "S": (False, "dot"), "R": (False, "square"), "O": (False, "bars"),     # Dablot, North
    "P": (False, "ring"),                                                  # North leader: "K", a crown
}
#: Shapes of a leader: drawn a little larger, with a rim.
LEADER_SHAPES = ("crown", "hat")
LETTERS = {"t": "A", "T": "D", "K": "K", "f": "F", "h": "H"}


def look(kind: str) -> tuple[bool, str]:
    """(dark face?, mark) of a piece letter; unknown letters get a lettered disc by case."""
    return LOOKS.get(kind, (kind.islower(), "letter"))


def letter(kind: str, letters: Mapping[str, str] | None = None) -> str:
    """The letter of the "lettered" style: the variant's own (``letters``), else the default."""
    if letters and kind in letters:
        return letters[kind]
    return LETTERS.get(kind, kind.upper())


def _colours(kind: str, theme: BoardTheme) -> tuple[QColor, QColor]:
    """(face, mark) of a piece kind."""
    dark, _mark = look(kind)
    if dark:
        face = QColor(theme.attacker)
        if kind == "h" and theme.key not in ("contrast", "tol"):
            face = QColor("#7a2e12")
        return face, QColor(theme.attacker_mark)
    return QColor(theme.defender), QColor(theme.defender_mark)


def face_colour(kind: str, theme: BoardTheme) -> QColor:
    """The main colour of a piece kind (what stands for its side elsewhere, e.g. the evaluation bar)."""
    return _colours(kind, theme)[0]


def crown_path(c: QPointF, r: float) -> QPainterPath:
    """A three-pointed crown centred on ``c`` inside a circle of radius ``r``."""
    w, h = 1.15 * r, 0.8 * r
    x0, y0 = c.x() - w / 2, c.y() - h / 2 + 0.08 * r
    path = QPainterPath()
    path.moveTo(x0, y0 + h)
    path.lineTo(x0, y0 + 0.15 * h)
    path.lineTo(x0 + 0.25 * w, y0 + 0.55 * h)
    path.lineTo(x0 + 0.5 * w, y0)
    path.lineTo(x0 + 0.75 * w, y0 + 0.55 * h)
    path.lineTo(x0 + w, y0 + 0.15 * h)
    path.lineTo(x0 + w, y0 + h)
    path.closeSubpath()
    return path


def hat_path(c: QPointF, r: float) -> QPainterPath:
    """The Saami leader's four-pointed hat inside a circle of radius ``r``: headband, cap and a
    broad four-pointed star seen slightly from above (the printed symbol's proportions,
    printing/symbols.draw_hat), so the two Dablot leaders differ by shape, not only colour."""
    size = 1.5 * r
    band_w, band_h = size * 0.46, size * 0.13
    bottom = c.y() + size * 0.30
    top = bottom - band_h
    path = QPainterPath()
    path.addRoundedRect(QRectF(c.x() - band_w / 2, top, band_w, band_h), band_h * 0.25, band_h * 0.25)
    cap = QPainterPath()
    cap.moveTo(c.x() - band_w / 2, top)
    cap.cubicTo(c.x() - band_w / 2, top - size * 0.22, c.x() + band_w / 2, top - size * 0.22, c.x() + band_w / 2, top)
    cap.closeSubpath()
    path.addPath(cap)
    star = QPainterPath()
    sy = top - size * 0.24
    rx, ry, inner = size * 0.50, size * 0.27, 0.30
    for k in range(8):
        ang = k * math.pi / 4
        rad = 1.0 if k % 2 == 0 else inner
        x = c.x() + rx * rad * math.cos(ang)
        y = sy - ry * rad * math.sin(ang) * (1.0 if k % 2 == 0 else 1.6)
        if k == 0:
            star.moveTo(x, y)
        else:
            star.lineTo(x, y)
    star.closeSubpath()
    path.addPath(star)
    return path


def draw_piece(p: QPainter, kind: str, rect: QRectF, theme: BoardTheme, style: str = "stones",
               opacity: float = 1.0, letters: Mapping[str, str] | None = None, rank: int = 0) -> None:
    """Draw piece ``kind`` ('t', 'T', 'K', 'f', 'h') centred in ``rect`` (one cell).  ``letters``
    are the variant's own letters for the lettered style; ``rank`` > 0 adds a rank badge (Dablot)."""
    size = min(rect.width(), rect.height())
    c = rect.center()
    dark, shape = look(kind)
    r = size * (0.43 if shape in LEADER_SHAPES else 0.39)
    face, mark = _colours(kind, theme)
    p.save()
    p.setOpacity(opacity)
    p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    outline = QPen(QColor(theme.outline), max(1.0, size * 0.03))
    if style == "stones":
        shadow = QColor(0, 0, 0, 70)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(shadow)
        p.drawEllipse(QPointF(c.x() + r * 0.07, c.y() + r * 0.12), r, r)
        grad = QRadialGradient(QPointF(c.x() - r * 0.35, c.y() - r * 0.4), r * 1.6)
        grad.setColorAt(0.0, face.lighter(165 if dark else 108))
        grad.setColorAt(0.6, face)
        grad.setColorAt(1.0, face.darker(135))
        p.setBrush(QBrush(grad))
    else:
        p.setBrush(face)
    p.setPen(outline)
    p.drawEllipse(c, r, r)
    if shape in LEADER_SHAPES:
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.setPen(QPen(QColor(theme.king_rim), size * 0.06))
        p.drawEllipse(c, r * 0.86, r * 0.86)
    if style == "lettered" or shape == "letter":
        _draw_letter(p, letter(kind, letters), c, r, mark)
    else:
        _draw_mark(p, shape, c, r, mark, bold=style == "flat")
    if rank > 0:
        _draw_rank(p, rank, c, r, theme)
    p.restore()


def _draw_letter(p: QPainter, text: str, c: QPointF, r: float, mark: QColor) -> None:
    font = QFont(p.font())
    font.setBold(True)
    font.setPixelSize(max(6, int(r * (1.15 if len(text) == 1 else 0.8))))
    p.setFont(font)
    p.setPen(mark)
    box = QRectF(c.x() - r, c.y() - r, 2 * r, 2 * r)
    p.drawText(box, Qt.AlignmentFlag.AlignCenter, text)


def _draw_rank(p: QPainter, rank: int, c: QPointF, r: float, theme: BoardTheme) -> None:
    """A rank number in a small badge at the piece's lower right, readable on either face: the
    number the capture rule compares (a piece takes only pieces of equal or lower rank)."""
    br = r * 0.42
    centre = QPointF(c.x() + r * 0.72, c.y() + r * 0.72)
    p.setPen(QPen(QColor(theme.outline), max(1.0, r * 0.06)))
    p.setBrush(QColor(theme.king_rim))
    p.drawEllipse(centre, br, br)
    font = QFont(p.font())
    font.setBold(True)
    font.setPixelSize(max(6, int(br * 1.5)))
    p.setFont(font)
    p.setPen(QColor(theme.outline))
    p.drawText(QRectF(centre.x() - br, centre.y() - br, 2 * br, 2 * br), Qt.AlignmentFlag.AlignCenter, str(rank))


def _draw_mark(p: QPainter, shape: str, c: QPointF, r: float, mark: QColor, bold: bool) -> None:
    width = r * (0.16 if bold else 0.11)
    if shape == "diamond":  # a solid diamond
        d = r * (0.42 if bold else 0.36)
        path = QPainterPath()
        path.moveTo(c.x(), c.y() - d)
        path.lineTo(c.x() + d, c.y())
        path.lineTo(c.x(), c.y() + d)
        path.lineTo(c.x() - d, c.y())
        path.closeSubpath()
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(mark)
        p.drawPath(path)
    elif shape == "ring":
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.setPen(QPen(mark, width))
        p.drawEllipse(c, r * 0.48, r * 0.48)
    elif shape == "crown":
        p.setPen(QPen(mark, max(1.0, width * 0.6), Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap,
                      Qt.PenJoinStyle.RoundJoin))
        p.setBrush(mark)
        p.drawPath(crown_path(c, r * 0.78))
    elif shape == "hat":
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(mark)
        p.drawPath(hat_path(c, r * 0.78))
    elif shape == "dot":
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(mark)
        p.drawEllipse(c, r * 0.22, r * 0.22)
    elif shape == "head":  # a pointed head with two ears
        path = QPainterPath()
        s = r * 0.55
        path.moveTo(c.x() - s, c.y() - s * 0.7)
        path.lineTo(c.x() - s * 0.35, c.y() - s * 0.2)
        path.lineTo(c.x() + s * 0.35, c.y() - s * 0.2)
        path.lineTo(c.x() + s, c.y() - s * 0.7)
        path.lineTo(c.x() + s * 0.55, c.y() + s * 0.2)
        path.lineTo(c.x(), c.y() + s)
        path.lineTo(c.x() - s * 0.55, c.y() + s * 0.2)
        path.closeSubpath()
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(mark)
        p.drawPath(path)
    elif shape == "square":
        d = r * 0.3
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(mark)
        p.drawRect(QRectF(c.x() - d, c.y() - d, 2 * d, 2 * d))
    elif shape == "bars":
        p.setPen(QPen(mark, width * 1.3, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
        for dy in (-0.22, 0.22):
            p.drawLine(QPointF(c.x() - r * 0.45, c.y() + dy * r), QPointF(c.x() + r * 0.45, c.y() + dy * r))
