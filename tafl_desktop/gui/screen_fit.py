"""Windows that fit the smallest screen the app supports (1366 x 768, issue 36).

Why a limit of our own rather than the screen's: a window asks for the size its contents like
best, and Qt opens it at that size even where the screen is smaller; a dialog taller than the
screen hides its bottom buttons (the Rules Lab once opened 900 pixels tall).  Every top-level
window asks through :func:`fit_size`, which caps the size at :data:`SMALL_SCREEN` (768 less a
desktop panel and a title bar) and at the screen it will open on, whichever is smaller.
"""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

#: The usable area of a 1366 x 768 screen: a panel of up to 40 pixels and a title bar of about 30.
SMALL_SCREEN = QSize(1366 - 16, 768 - 40 - 30)


def fit_size(widget: QWidget, width: int, height: int) -> None:
    """Resize the top-level ``widget`` to ``width`` x ``height``, or less where the screen is
    smaller (the offscreen platform's 800 x 600 stand-in screen is not taken as a real one)."""
    w, h = min(width, SMALL_SCREEN.width()), min(height, SMALL_SCREEN.height())
    screen = widget.screen() or QGuiApplication.primaryScreen()
    if screen is not None and QGuiApplication.platformName() != "offscreen":
        room = screen.availableGeometry().size()
        w, h = min(w, room.width() - 16), min(h, room.height() - 30)
    widget.resize(max(w, widget.minimumSizeHint().width()), max(h, widget.minimumSizeHint().height()))
