"""Draw the application icon once, at 1024 px, and derive every installer icon from that one image.

Why a script and not committed PNGs: one source of truth that any build machine can regenerate
with Pillow (already a dependency of the app), and no binary files to keep in step in git.

The picture is the one the window uses (``tafl_desktop.gui.icons.app_icon``): a king on a throne
square inside a wooden frame, in the colours of the "wood" theme.  It is drawn here with Pillow,
not Qt, so the build needs no display and no Qt at all.

Outputs (into the folder given, default ``build/icons``)::

    tafl-desktop-1024.png                      the one source image
    hicolor/<N>x<N>/apps/<APP_ID>.png          N = 16 24 32 48 64 128 256 512 (Linux icon theme)
    tafl-desktop.ico                           16..256 px (Windows: exe and Inno Setup)
    tafl-desktop.icns                          16..1024 px (macOS .app)

Run: ``python installer/make_icons.py [OUT_DIR]``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw

APP_ID = "io.github.tafldesktop.TaflDesktop"
MASTER_PX = 1024
PNG_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
#: Drawn this many times larger and scaled down: Pillow's shapes have no anti-aliasing of their own.
SUPERSAMPLE = 4

# The "wood" theme of tafl_desktop/gui/themes.py.
FRAME = "#7a4a24"
THRONE = "#c4935a"
THRONE_LINE = "#8a5a2e"
#: The piece's shadow: the throne colour darkened (drawing on RGBA in Pillow replaces, never blends).
SHADOW = "#8e6a41"
PIECE_FACE = "#f4ecdc"
PIECE_OUTLINE = "#1b1512"
KING_RIM = "#c8962a"
CROWN = "#3a2c22"


def draw_master(px: int = MASTER_PX) -> Image.Image:
    """The icon as an RGBA image ``px`` pixels square."""
    big = px * SUPERSAMPLE
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)

    def s(f: float) -> int:
        return round(f * big)

    # Wooden frame with rounded corners, the throne square inside it (with a thin inner line).
    d.rounded_rectangle((0, 0, big - 1, big - 1), radius=s(0.18), fill=FRAME)
    d.rectangle((s(0.1), s(0.1), s(0.9), s(0.9)), fill=THRONE)
    d.rectangle((s(0.14), s(0.14), s(0.86), s(0.86)), outline=THRONE_LINE, width=s(0.012))

    # The king: a light disc with a soft shadow, a dark outline, a golden rim and a crown.
    cx = cy = 0.5
    r = 0.8 * 0.43  # piece_painter: the crown piece fills 43% of its cell; the cell is 80% of the icon
    off = 0.025
    d.ellipse((s(cx - r + off), s(cy - r + off * 1.6), s(cx + r + off), s(cy + r + off * 1.6)), fill=SHADOW)
    d.ellipse((s(cx - r), s(cy - r), s(cx + r), s(cy + r)), fill=PIECE_OUTLINE)
    inner = r - 0.022
    d.ellipse((s(cx - inner), s(cy - inner), s(cx + inner), s(cy + inner)), fill=PIECE_FACE)
    rim = r * 0.86
    d.ellipse((s(cx - rim), s(cy - rim), s(cx + rim), s(cy + rim)), outline=KING_RIM, width=s(0.8 * 0.06))

    # Three-pointed crown (same proportions as piece_painter.crown_path).
    cr = r * 0.78
    w, h = 1.15 * cr, 0.8 * cr
    x0, y0 = cx - w / 2, cy - h / 2 + 0.08 * cr
    crown = [(x0, y0 + h), (x0, y0 + 0.15 * h), (x0 + 0.25 * w, y0 + 0.55 * h), (x0 + 0.5 * w, y0),
             (x0 + 0.75 * w, y0 + 0.55 * h), (x0 + w, y0 + 0.15 * h), (x0 + w, y0 + h)]
    d.polygon([(s(x), s(y)) for x, y in crown], fill=CROWN)
    return img.resize((px, px), Image.Resampling.LANCZOS)


def build(out_dir: str | Path = "build/icons") -> dict[str, Path]:
    """Write every icon derived from the master into ``out_dir``; returns their paths by role."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    master = draw_master()
    paths: dict[str, Path] = {"master": out / f"tafl-desktop-{MASTER_PX}.png"}
    master.save(paths["master"])
    for n in PNG_SIZES:
        p = out / "hicolor" / f"{n}x{n}" / "apps" / f"{APP_ID}.png"
        p.parent.mkdir(parents=True, exist_ok=True)
        master.resize((n, n), Image.Resampling.LANCZOS).save(p)
        paths[f"png{n}"] = p
    paths["ico"] = out / "tafl-desktop.ico"
    master.save(paths["ico"], sizes=[(n, n) for n in ICO_SIZES])
    paths["icns"] = out / "tafl-desktop.icns"
    master.save(paths["icns"])
    return paths


if __name__ == "__main__":
    written = build(sys.argv[1] if len(sys.argv) > 1 else "build/icons")
    print(f"{len(written)} icon files in {written['master'].parent}")
