"""Render the main window with a variant's start position to a PNG, headless.

Used by ``tafl-desktop screenshot`` and by the checks that every screen has been looked at.
Preferences are the defaults (the user's settings are neither read nor written), so the image
is the same on every machine.
"""

from __future__ import annotations

import os

from tafl_desktop.core.variants import Variant

#: Smallest window drawn; a smaller request is raised to this (the window cannot be smaller).
MIN_SIZE = (480, 360)


def grab_png(widget) -> bytes:
    """A widget's pixels as PNG bytes."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice

    pixmap = widget.grab()
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    if not pixmap.save(buf, "PNG"):
        raise OSError("the window could not be encoded as PNG")
    buf.close()
    return bytes(data.data())


def settle(app, rounds: int = 3) -> None:
    """Let layouts and paints happen."""
    for _ in range(rounds):
        app.processEvents()


def render_screenshot(variant: Variant, out_path: str, size: tuple[int, int]) -> None:
    """Draw the window at ``size`` (width, height; at least :data:`MIN_SIZE`) showing ``variant``'s
    start position and write it to ``out_path``.  Raises OSError when the file cannot be written."""
    w, h = max(MIN_SIZE[0], int(size[0])), max(MIN_SIZE[1], int(size[1]))
    from tafl_desktop.core.safe_files import resolve_target, write_safely

    resolve_target(out_path)  # refuse a folder or a device before drawing anything
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from tafl_desktop.core.game import Game
    from tafl_desktop.gui.app import make_app
    from tafl_desktop.gui.main_window import MainWindow
    from tafl_desktop.gui.preferences import Preferences

    app = make_app()
    window = MainWindow(Game(variant.make_rules()), prefs=Preferences(animation=False), persist=False)
    try:
        window.resize(w, h)
        window.show()
        settle(app)
        png = grab_png(window)
    finally:
        window.close()
        window.deleteLater()
        settle(app, 1)
    write_safely(out_path, png)
