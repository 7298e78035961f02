"""Icons drawn with QPainter at run time: no image files to ship, crisp at any DPI, and they follow
the palette so they read on a light or a dark window."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPainterPath, QPen, QPixmap
from PySide6.QtWidgets import QApplication

from tafl_desktop.gui.piece_painter import draw_piece
from tafl_desktop.gui.themes import BoardTheme, theme

ICON_PX = 32


def _canvas(size: int, ratio: float) -> QPixmap:
    pm = QPixmap(int(size * ratio), int(size * ratio))
    pm.setDevicePixelRatio(ratio)
    pm.fill(Qt.GlobalColor.transparent)
    return pm


def _ratio() -> float:
    app = QApplication.instance()
    return app.devicePixelRatio() if isinstance(app, QApplication) else 1.0


def piece_pixmap(kind: str, board_theme: BoardTheme, style: str, size: int = 22,
                 letters: dict[str, str] | None = None, rank: int = 0) -> QPixmap:
    """A piece as a small pixmap (side panel, captured counts, the Dablot legend)."""
    ratio = _ratio()
    pm = _canvas(size, ratio)
    p = QPainter(pm)
    draw_piece(p, kind, QRectF(0, 0, size, size), board_theme, style, letters=letters, rank=rank)
    p.end()
    return pm


def app_icon() -> QIcon:
    """The window icon: a king on a throne square."""
    icon = QIcon()
    t = theme("wood")
    for size in (16, 32, 64, 128):
        pm = _canvas(size, 1.0)
        p = QPainter(pm)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(t.frame))
        p.drawRoundedRect(QRectF(0, 0, size, size), size * 0.18, size * 0.18)
        inner = QRectF(size * 0.1, size * 0.1, size * 0.8, size * 0.8)
        p.setBrush(QColor(t.special))
        p.drawRect(inner)
        draw_piece(p, "K", inner, t, "flat")
        p.end()
        icon.addPixmap(pm)
    return icon


def glyph_icon(name: str, colour: QColor | None = None) -> QIcon:
    """Navigation and toolbar glyphs: first, back, forward, last, flip, undo, redo, rules, hint, pause."""
    if colour is None:
        app = QApplication.instance()
        colour = app.palette().buttonText().color() if isinstance(app, QApplication) else QColor("#202020")
    ratio = _ratio()
    pm = _canvas(ICON_PX, ratio)
    p = QPainter(pm)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    pen = QPen(colour, 2.6, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin)
    p.setPen(pen)
    p.setBrush(colour)
    s = ICON_PX

    def triangle(x: float, pointing: int) -> None:
        path = QPainterPath()
        path.moveTo(x, s * 0.25)
        path.lineTo(x + pointing * s * 0.32, s * 0.5)
        path.lineTo(x, s * 0.75)
        path.closeSubpath()
        p.drawPath(path)

    if name == "first":
        p.drawLine(QPointF(s * 0.24, s * 0.25), QPointF(s * 0.24, s * 0.75))
        triangle(s * 0.7, -1)
    elif name == "back":
        triangle(s * 0.66, -1)
    elif name == "forward":
        triangle(s * 0.34, 1)
    elif name == "last":
        triangle(s * 0.3, 1)
        p.drawLine(QPointF(s * 0.76, s * 0.25), QPointF(s * 0.76, s * 0.75))
    elif name in ("undo", "redo"):
        p.setBrush(Qt.BrushStyle.NoBrush)
        path = QPainterPath()
        path.moveTo(s * 0.25, s * 0.42)
        path.cubicTo(s * 0.45, s * 0.2, s * 0.85, s * 0.3, s * 0.78, s * 0.72)
        if name == "redo":
            p.translate(s, 0)
            p.scale(-1, 1)
        p.drawPath(path)
        p.setBrush(colour)
        head = QPainterPath()
        head.moveTo(s * 0.12, s * 0.36)
        head.lineTo(s * 0.36, s * 0.26)
        head.lineTo(s * 0.32, s * 0.54)
        head.closeSubpath()
        p.drawPath(head)
    elif name == "flip":
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawLine(QPointF(s * 0.35, s * 0.2), QPointF(s * 0.35, s * 0.8))
        p.drawLine(QPointF(s * 0.65, s * 0.2), QPointF(s * 0.65, s * 0.8))
        p.setBrush(colour)
        for x, y, d in ((0.35, 0.14, -1), (0.65, 0.86, 1)):
            path = QPainterPath()
            path.moveTo(s * x, s * y)
            path.lineTo(s * (x - 0.12), s * (y - d * 0.16))
            path.lineTo(s * (x + 0.12), s * (y - d * 0.16))
            path.closeSubpath()
            p.drawPath(path)
    elif name == "rules":
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRoundedRect(QRectF(s * 0.2, s * 0.12, s * 0.6, s * 0.76), 3, 3)
        for k in range(3):
            y = s * (0.34 + 0.16 * k)
            p.drawLine(QPointF(s * 0.32, y), QPointF(s * 0.68, y))
    elif name == "hint":  # a light bulb
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawEllipse(QPointF(s * 0.5, s * 0.4), s * 0.22, s * 0.22)
        p.drawLine(QPointF(s * 0.42, s * 0.7), QPointF(s * 0.58, s * 0.7))
        p.drawLine(QPointF(s * 0.44, s * 0.84), QPointF(s * 0.56, s * 0.84))
    elif name == "pause":
        p.setBrush(colour)
        p.drawRect(QRectF(s * 0.28, s * 0.22, s * 0.12, s * 0.56))
        p.drawRect(QRectF(s * 0.6, s * 0.22, s * 0.12, s * 0.56))
    elif name == "new":
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRect(QRectF(s * 0.16, s * 0.16, s * 0.68, s * 0.68))
        for k in (1, 2):
            v = s * (0.16 + 0.68 * k / 3)
            p.drawLine(QPointF(v, s * 0.16), QPointF(v, s * 0.84))
            p.drawLine(QPointF(s * 0.16, v), QPointF(s * 0.84, v))
    p.end()
    return QIcon(pm)


def set_glyph(target, name: str) -> None:
    """Give an action or button a glyph icon, remembered so :func:`refresh_glyphs` can redraw it."""
    target.setProperty("glyph", name)
    target.setIcon(glyph_icon(name))


def refresh_glyphs(root) -> None:
    """Redraw every glyph under ``root`` in the current palette (after a theme change)."""
    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import QAbstractButton

    for cls in (QAction, QAbstractButton):
        for obj in root.findChildren(cls):
            name = obj.property("glyph")
            if name:
                obj.setIcon(glyph_icon(str(name)))
