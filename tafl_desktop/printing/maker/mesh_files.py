"""Writing printed parts as binary STL and as 3MF.

Why no library here: both formats are short specifications (STL: an 80-byte header, a count and
50 bytes per triangle; 3MF core: a zip with three small XML parts) and numpy writes them fast.
The mesh libraries that write them (trimesh) would add their own dependencies (networkx for a
3MF scene) to produce less: our 3MF names every kind of part, gives each its side's colour (core
``basematerials``, which slicers show) and places one object many times by transform, so a slicer
lists "King", "Attackers"... and the file stays small.  The tests read both files back with
independent readers (trimesh, and lib3mf, the 3MF Consortium's own library).

Everything is in millimetres, z up, standing on z = 0, triangles wound counter-clockwise seen
from outside.
"""

from __future__ import annotations

import io
import struct
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

import numpy as np

MODEL_NS = "http://schemas.microsoft.com/3dmanufacturing/core/2015/02"
MODEL_PATH = "3D/3dmodel.model"
#: A fixed date for the zip entries, so the same parts give the same bytes.
ZIP_DATE = (2000, 1, 1, 0, 0, 0)


@dataclass
class PrintObject:
    """One kind of part: a mesh, its name and colour, and where each copy stands (x, y offsets)."""

    name: str
    vertices: np.ndarray  # n x 3, mm
    triangles: np.ndarray  # m x 3
    colour: tuple[int, int, int]
    places: list[tuple[float, float]]


def _placed(obj: PrintObject) -> tuple[np.ndarray, np.ndarray]:
    """All copies of ``obj`` as one vertex and triangle array."""
    n = len(obj.vertices)
    verts = [obj.vertices + np.array([x, y, 0.0]) for x, y in obj.places]
    tris = [obj.triangles + k * n for k in range(len(obj.places))]
    return np.concatenate(verts), np.concatenate(tris)


def write_stl(objects: Sequence[PrintObject], title: str) -> bytes:
    """A binary STL holding every copy of every object (each a closed shell of its own)."""
    arrays = [_placed(o) for o in objects if o.places]
    if arrays:
        tri = np.concatenate([v[t] for v, t in arrays]).astype(np.float32)  # m x 3 x 3
    else:
        tri = np.zeros((0, 3, 3), dtype=np.float32)
    normals = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    length = np.linalg.norm(normals, axis=1, keepdims=True)
    normals = np.divide(normals, length, out=np.zeros_like(normals), where=length > 0)
    record = np.dtype([("normal", "<f4", (3,)), ("vertices", "<f4", (3, 3)), ("attr", "<u2")])
    data = np.zeros(len(tri), dtype=record)
    data["normal"] = normals
    data["vertices"] = tri
    # the header must not start with "solid", or readers take the file for ASCII STL
    header = f"Tafl Desktop: {title}".encode("ascii", "replace")[:80].ljust(80, b" ")
    return header + struct.pack("<I", len(tri)) + data.tobytes()


def _numbers(rows: np.ndarray, fmt: str) -> list[str]:
    return [fmt % tuple(r) for r in rows.tolist()]


def write_3mf(objects: Sequence[PrintObject], title: str) -> bytes:
    """A 3MF package: one object per kind of part (named, coloured) and one build item per copy."""
    out = [f'<?xml version="1.0" encoding="UTF-8"?>\n<model unit="millimeter" xml:lang="en-US" xmlns="{MODEL_NS}">',
           f' <metadata name="Title">{escape(title)}</metadata>',
           ' <metadata name="Application">Tafl Desktop</metadata>',
           " <resources>",
           '  <basematerials id="1">']
    colours: list[tuple[int, int, int]] = []
    for o in objects:
        if o.colour not in colours:
            colours.append(o.colour)
    for k, (r, g, b) in enumerate(colours):
        out.append(f'   <base name="colour {k + 1}" displaycolor="#{r:02X}{g:02X}{b:02X}"/>')
    out.append("  </basematerials>")
    items = []
    for index, o in enumerate(objects, start=2):
        out.append(f'  <object id="{index}" type="model" name={quoteattr(o.name)} pid="1" '
                   f'pindex="{colours.index(o.colour)}">')
        out.append("   <mesh>\n    <vertices>")
        out += _numbers(o.vertices, '     <vertex x="%.4f" y="%.4f" z="%.4f"/>')
        out.append("    </vertices>\n    <triangles>")
        out += _numbers(o.triangles, '     <triangle v1="%d" v2="%d" v3="%d"/>')
        out.append("    </triangles>\n   </mesh>\n  </object>")
        items += [f'  <item objectid="{index}" transform="1 0 0 0 1 0 0 0 1 {x:.4f} {y:.4f} 0"/>'
                  for x, y in o.places]
    out.append(" </resources>\n <build>")
    out += items
    out.append(" </build>\n</model>\n")
    model = "\n".join(out).encode("utf-8")
    types = ('<?xml version="1.0" encoding="UTF-8"?>\n'
             '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
             '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
             '<Default Extension="model" ContentType="application/vnd.ms-package.3dmanufacturing-3dmodel+xml"/>'
             "</Types>\n")
    rels = ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            f'<Relationship Target="/{MODEL_PATH}" Id="rel0" '
            'Type="http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel"/></Relationships>\n')
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in (("[Content_Types].xml", types.encode()), ("_rels/.rels", rels.encode()),
                           (MODEL_PATH, model)):
            info = zipfile.ZipInfo(name, ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    return buf.getvalue()
