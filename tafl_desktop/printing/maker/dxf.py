"""The laser plan as DXF, for the cutters' programs that want it (LightBurn, RDWorks, LaserGRBL...).

Why ezdxf: a DXF needs its header, tables and object sections right (units, layer table, handles)
or programs import it at the wrong scale or not at all; ezdxf is the well-kept library for that,
and the tests read the file back with it (ezdxf's audit, layers, units, closed outlines).  It is
the ``maker`` extra: only this writer needs it, so it is imported here and nowhere at start-up.

Units are millimetres (``$INSUNITS`` 4, ``$MEASUREMENT`` 1), y grows upwards as DXF has it.
Layers: CUT (red, colour 1), SCORE (blue, 5), ENGRAVE (black/white, 7), the colours laser
programs map to operations.  The outline is one closed LWPOLYLINE whose rounded corners are true
arcs (bulges); holes are CIRCLEs; engraved areas closed LWPOLYLINEs, their holes included (the
laser program fills them even-odd).
"""

from __future__ import annotations

import io
import math

from tafl_desktop.printing.maker.laser import LaserPlan, Outline, Point

#: (layer, AutoCAD colour index)
LAYERS = (("CUT", 1), ("SCORE", 5), ("ENGRAVE", 7))
QUARTER_BULGE = math.tan(math.radians(90) / 4)  # a 90-degree arc, counter-clockwise


class DxfUnavailable(ImportError):
    """ezdxf is not installed (the ``maker`` extra)."""


def _ezdxf():
    try:
        import ezdxf
    except ImportError as exc:
        raise DxfUnavailable(str(exc)) from None
    return ezdxf


def outline_vertices(o: Outline, height: float) -> list[tuple[float, float, float]]:
    """(x, y, bulge) of the outline, counter-clockwise in DXF's y-up coordinates."""
    x0, y0 = o.x, height - (o.y + o.h)
    x1, y1 = x0 + o.w, y0 + o.h
    r = o.r
    if r <= 0:
        return [(x0, y0, 0.0), (x1, y0, 0.0), (x1, y1, 0.0), (x0, y1, 0.0)]
    b = QUARTER_BULGE
    return [(x0 + r, y0, 0.0), (x1 - r, y0, b), (x1, y0 + r, 0.0), (x1, y1 - r, b), (x1 - r, y1, 0.0),
            (x0 + r, y1, b), (x0, y1 - r, 0.0), (x0, y0 + r, b)]


def plan_to_dxf(plan: LaserPlan) -> bytes:
    """The DXF document of ``plan`` (R2010, UTF-8 bytes)."""
    ezdxf = _ezdxf()
    doc = ezdxf.new("R2010", setup=False)
    doc.units = ezdxf.units.MM
    doc.header["$MEASUREMENT"] = 1
    doc.header["$LUNITS"] = 2
    for name, colour in LAYERS:
        doc.layers.add(name, color=colour)
    msp = doc.modelspace()
    H = plan.height

    def flip(points: list[Point]) -> list[tuple[float, float]]:
        return [(x, H - y) for x, y in points]

    for contour in plan.engrave:
        msp.add_lwpolyline(flip(contour), close=True, dxfattribs={"layer": "ENGRAVE"})
    for loop in plan.score_loops:
        msp.add_lwpolyline(flip(loop), close=True, dxfattribs={"layer": "SCORE"})
    for run in plan.score_lines:
        msp.add_lwpolyline(flip(run), close=False, dxfattribs={"layer": "SCORE"})
    msp.add_lwpolyline(outline_vertices(plan.outline, H), format="xyb", close=True, dxfattribs={"layer": "CUT"})
    for c in plan.holes:
        msp.add_circle((c.cx, H - c.cy), c.r, dxfattribs={"layer": "CUT"})
    text = io.StringIO()
    doc.write(text)
    return text.getvalue().encode("utf-8")
