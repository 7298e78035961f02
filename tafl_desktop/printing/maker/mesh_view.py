"""A picture of printed parts, for the print dialog's preview and for looking at a file's meshes.

Why a small renderer of our own: the preview must show the very meshes that are written, off the
window's thread, without OpenGL (absent on many offscreen and remote machines) and without a
plotting library's 3D axes.  Triangles are projected from above at an angle, lit by one light
from the upper left, and painted far to near with Pillow, which is exact enough for parts that
are convex or nearly so; the picture is a preview, not a slicer.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from PIL import Image, ImageDraw

#: Viewing direction: turned 20 degrees about the vertical, looking down at 50 degrees.
YAW, TILT = np.radians(-20.0), np.radians(40.0)
LIGHT = np.array([-0.45, 0.35, 0.82])
BACKGROUND = (236, 236, 232)


def _rotation() -> np.ndarray:
    cz, sz = np.cos(YAW), np.sin(YAW)
    ct, st = np.cos(TILT), np.sin(TILT)
    yaw = np.array([[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]])
    # from straight above, tilted towards the viewer: height goes up the screen, depth away
    tilt = np.array([[1, 0, 0], [0, ct, st], [0, -st, ct]])
    return tilt @ yaw


def render(parts: Sequence[tuple[np.ndarray, np.ndarray, tuple[int, int, int]]], size: tuple[int, int],
           max_triangles: int = 400_000) -> Image.Image:
    """An RGB picture ``size`` pixels of ``parts``: (vertices n x 3, triangles m x 3, colour) each,
    placed where their vertices say (mm)."""
    w, h = size
    image = Image.new("RGB", (w, h), BACKGROUND)
    if not parts:
        return image
    rot = _rotation()
    light = LIGHT / np.linalg.norm(LIGHT)
    tris, shades = [], []
    for vertices, triangles, colour in parts:
        if len(triangles) == 0:
            continue
        v = vertices[triangles]  # m x 3 x 3, world
        n = np.cross(v[:, 1] - v[:, 0], v[:, 2] - v[:, 0])
        length = np.linalg.norm(n, axis=1)
        keep = length > 1e-12
        v, n = v[keep], n[keep] / length[keep, None]
        p = v @ rot.T  # view space: x right, y up the screen, z towards the viewer
        facing = (n @ rot.T)[:, 2] > 0  # back faces are hidden by the front ones anyway
        p, n = p[facing], n[facing]
        lum = 0.35 + 0.65 * np.clip(n @ light, 0, 1)
        tris.append(p)
        shades.append(np.clip(np.outer(lum, colour), 0, 255).astype(np.uint8))
    if not tris:
        return image
    p = np.concatenate(tris)
    c = np.concatenate(shades)
    if len(p) > max_triangles:  # keep the picture quick: a preview does not need every facet
        step = int(np.ceil(len(p) / max_triangles))
        p, c = p[::step], c[::step]
    lo = p.reshape(-1, 3).min(axis=0)
    hi = p.reshape(-1, 3).max(axis=0)
    margin = 0.06
    scale = min(w * (1 - 2 * margin) / max(hi[0] - lo[0], 1e-6), h * (1 - 2 * margin) / max(hi[1] - lo[1], 1e-6))
    ox = w / 2 - (lo[0] + hi[0]) / 2 * scale
    oy = h / 2 + (lo[1] + hi[1]) / 2 * scale
    xs = p[:, :, 0] * scale + ox
    ys = oy - p[:, :, 1] * scale
    order = np.argsort(p[:, :, 2].mean(axis=1))  # far first
    draw = ImageDraw.Draw(image)
    for k in order:
        pts = [(xs[k, 0], ys[k, 0]), (xs[k, 1], ys[k, 1]), (xs[k, 2], ys[k, 2])]
        colour = (int(c[k][0]), int(c[k][1]), int(c[k][2]))
        draw.polygon(pts, fill=colour, outline=colour)
    return image
