"""The window palette that goes with a board theme: the dark board gets dark panels and menus, so
a dark theme is dark everywhere rather than a dark square in a bright window."""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

DARK_THEMES = ("dark",)


def dark_palette() -> QPalette:
    pal = QPalette()
    roles = QPalette.ColorRole
    base, window, text = QColor("#1b1e23"), QColor("#262a31"), QColor("#e6e8eb")
    for role, colour in (
        (roles.Window, window), (roles.WindowText, text), (roles.Base, base), (roles.AlternateBase, window),
        (roles.ToolTipBase, QColor("#30353d")), (roles.ToolTipText, text), (roles.Text, text),
        (roles.Button, QColor("#30353d")), (roles.ButtonText, text), (roles.BrightText, QColor("#ff6b5b")),
        (roles.Highlight, QColor("#3d6fb6")), (roles.HighlightedText, QColor("#ffffff")),
        (roles.Link, QColor("#7fb0ff")), (roles.PlaceholderText, QColor("#8b929c")),
        (roles.Light, QColor("#3a4049")), (roles.Midlight, QColor("#323841")), (roles.Mid, QColor("#23272d")),
        (roles.Dark, QColor("#16181c")), (roles.Shadow, QColor("#0b0c0e")),
    ):
        pal.setColor(role, colour)
    grey = QColor("#6b727c")
    for role in (roles.WindowText, roles.Text, roles.ButtonText):
        pal.setColor(QPalette.ColorGroup.Disabled, role, grey)
    return pal


def apply_palette(theme_key: str) -> None:
    """Dark panels for a dark board theme, the style's own palette otherwise."""
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        return
    app.setPalette(dark_palette() if theme_key in DARK_THEMES else app.style().standardPalette())
