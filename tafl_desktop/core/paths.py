"""Where the app finds its resources (from a source tree, an installed package or a bundle) and
where it keeps the player's data.

Resources, in order: ``$TAFL_DESKTOP_RESOURCES``, a PyInstaller bundle (``sys._MEIPASS/resources``), the source
tree (``resources/`` beside the package), then ``resources/`` shipped inside the package.

The player's data folder (:func:`app_data_dir`) is the one the window gets from Qt's
``QStandardPaths.AppDataLocation`` with the app's names (:data:`ORGANISATION`, :data:`APPLICATION`),
found here without Qt so that the command line and the headless packages (``study/``, ``lab/``)
write where the window reads.

It lives in the core because the core reads resources itself (the presets), and the core imports
nothing outside it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

#: The app's names, as the window gives them to Qt (they name its settings and data folders).
ORGANISATION = "TaflDesktop"
APPLICATION = "Tafl Desktop"


def resources_dir() -> Path:
    env = os.environ.get("TAFL_DESKTOP_RESOURCES")
    candidates = [Path(env)] if env else []
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        candidates.append(Path(bundle) / "resources")
    package = Path(__file__).resolve().parent.parent  # tafl_desktop/
    candidates += [package.parent / "resources", package / "resources"]
    for c in candidates:
        if (c / "variants").is_dir():
            return c
    raise FileNotFoundError("Tafl Desktop cannot find its resources folder (looked in: "
                            + ", ".join(str(c) for c in candidates) + ")")


def variants_dir() -> Path:
    return resources_dir() / "variants"


def app_data_dir() -> Path:
    """The player's data folder: the folder Qt names ``AppDataLocation`` for this app, found
    without Qt.  Qt appends the organisation and the application to the platform's base:
    ``%APPDATA%`` on Windows, ``~/Library/Application Support`` on macOS, and elsewhere
    ``$XDG_DATA_HOME`` when it is an absolute path (the XDG rule), else ``~/.local/share``.
    The folder may not exist yet."""
    if sys.platform == "win32":
        base = os.environ.get("APPDATA") or str(Path.home() / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = str(Path.home() / "Library" / "Application Support")
    else:
        xdg = os.environ.get("XDG_DATA_HOME", "")
        base = xdg if os.path.isabs(xdg) else str(Path.home() / ".local" / "share")
    return Path(base) / ORGANISATION / APPLICATION
