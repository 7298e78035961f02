"""Running ``tafl-desktop print`` as a player would, and reading its makers' files back with
libraries that did not write them (svgelements, ezdxf, trimesh, lib3mf)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np


def run_cli(*argv: str, env: dict[str, str] | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """The real command line in a subprocess (English messages)."""
    full_env = dict(os.environ, TAFL_LANG="en", **(env or {}))
    return subprocess.run([sys.executable, "-m", "tafl_desktop", *argv], capture_output=True, text=True,
                          env=full_env, timeout=timeout)


def run_main(*argv: str) -> subprocess.CompletedProcess:
    """The command line's ``main`` in this process (the same parser and code, without a Python
    start-up per call: for the many small variations of one command)."""
    import contextlib
    import io

    from tafl_desktop.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as exc:  # argparse's own refusals
            code = exc.code if isinstance(exc.code, int) else 1
    return subprocess.CompletedProcess(list(argv), code, out.getvalue(), err.getvalue())


def make(tmp_path: Path, variant: str, fmt: str, *extra: str, name: str | None = None,
         in_process: bool = False) -> Path:
    """``print VARIANT --format FMT ... --out FILE``; asserts it succeeded quietly."""
    out = tmp_path / (name or f"{variant}.{fmt}")
    done = (run_main if in_process else run_cli)("print", variant, "--format", fmt, *extra, "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    return out


# ----------------------------------------------------------------------------------- SVG
def read_svg(path: Path):
    """The SVG parsed by svgelements at 25.4 px per inch, so one unit is one millimetre."""
    from svgelements import SVG

    return SVG.parse(str(path), ppi=25.4)


def svg_layers(svg) -> dict[str, list]:
    """Elements of each layer group, by the group's id."""
    from svgelements import Group

    out = {}
    for g in svg.elements(conditional=lambda e: isinstance(e, Group)):
        if g.values.get("inkscape:groupmode") == "layer" or g.values.get(
                "{http://www.inkscape.org/namespaces/inkscape}groupmode") == "layer":
            out[g.id] = [e for e in g if not isinstance(e, Group)]
    return out


def subpaths(path) -> list[tuple[list[tuple[float, float]], bool]]:
    """(points, closed) of every subpath of an svgelements Path (lines only: our plans' kind)."""
    from svgelements import Close, Line, Move

    out = []
    for sub in path.as_subpaths():
        pts, closed = [], False
        for seg in sub:
            if isinstance(seg, Move):
                pts.append((seg.end.x, seg.end.y))
            elif isinstance(seg, Line):
                pts.append((seg.end.x, seg.end.y))
            elif isinstance(seg, Close):
                closed = True
            else:
                pts.append((seg.end.x, seg.end.y))
        out.append((pts, closed))
    return out


def inside_even_odd(contours: list[list[tuple[float, float]]], x: float, y: float) -> bool:
    """Is (x, y) filled under the even-odd rule (what the engrave layer asks for)?"""
    inside = False
    for c in contours:
        n = len(c)
        for i in range(n):
            (x1, y1), (x2, y2) = c[i], c[(i + 1) % n]
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                inside = not inside
    return inside


def engraved_contours(path: Path) -> list[list[tuple[float, float]]]:
    """The engrave layer's contours (mm, y down) of an SVG written by the app."""
    layers = svg_layers(read_svg(path))
    out = []
    for element in layers["engrave"]:
        out += [pts for pts, _closed in subpaths(element)]
    return out


# ------------------------------------------------------------------------------------ meshes
def read_3mf(path: Path) -> dict:
    """A 3MF read by lib3mf (the 3MF Consortium's library) in strict mode: its warnings, unit,
    objects (name, manifold flag, vertices, triangles) and build items (object name, x, y)."""
    import lib3mf

    wrapper = lib3mf.get_wrapper()
    model = wrapper.CreateModel()
    reader = model.QueryReader("3mf")
    reader.SetStrictModeActive(True)
    reader.ReadFromFile(str(path))
    objects = {}
    it = model.GetMeshObjects()
    while it.MoveNext():
        o = it.GetCurrentMeshObject()
        verts = np.array([list(v.Coordinates) for v in o.GetVertices()], dtype=float)
        tris = np.array([list(t.Indices) for t in o.GetTriangleIndices()], dtype=np.int64)
        objects[o.GetResourceID()] = {"name": o.GetName(), "manifold": o.IsManifoldAndOriented(),
                                      "vertices": verts, "triangles": tris}
    items = []
    bi = model.GetBuildItems()
    while bi.MoveNext():
        item = bi.GetCurrent()
        t = item.GetObjectTransform()
        items.append((objects[item.GetObjectResourceID()]["name"], t.Fields[3][0], t.Fields[3][1]))
    return {"warnings": reader.GetWarningCount(), "unit": model.GetUnit(), "objects": objects, "items": items,
            "unit_mm": lib3mf.ModelUnit.MilliMeter}
