"""Where the app finds its resources, from a source tree, an installed package or a bundle.

Order: ``$TAFL_DESKTOP_RESOURCES``, a PyInstaller bundle (``sys._MEIPASS/resources``), the source
tree (``resources/`` beside the package), then ``resources/`` shipped inside the package.

It lives in the core because the core reads resources itself (the presets), and the core imports
nothing outside it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


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
