"""The laser plan as SVG: true scale in millimetres, one layer (group) and one colour per operation.

Why hand-written XML and not a library: an SVG for a laser is a handful of groups, paths and
circles, and what matters (``width="...mm"`` with a viewBox in mm, so every program imports it at
the right size; Inkscape's layer attributes; hairline strokes; red cut, blue score, black filled
engrave, as LightBurn, Inkscape and most laser programs map colours to operations) is spelled out
here where a reader can check it.  The standard library's ElementTree escapes every text.

Layers come in the order a laser should run them: engrave, score, then cut (a part cut free
first could shift under the later passes).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from tafl_desktop.printing.maker.laser import LaserPlan, Outline, Point

SVG_NS = "http://www.w3.org/2000/svg"
INKSCAPE_NS = "http://www.inkscape.org/namespaces/inkscape"
HAIRLINE = "0.1"  # mm: thin enough that laser programs treat the stroke as a vector line
#: Layer colours: the conventions of laser programs (red cut, blue score, black engrave).
COLOURS = {"cut": "#ff0000", "score": "#0000ff", "engrave": "#000000"}


def _n(v: float) -> str:
    text = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _poly_d(points: list[Point], closed: bool) -> str:
    head, *rest = points
    d = f"M{_n(head[0])},{_n(head[1])}" + "".join(f"L{_n(x)},{_n(y)}" for x, y in rest)
    return d + ("Z" if closed else "")


def outline_path(o: Outline) -> str:
    """The outline as a path with true arcs at the corners (a laser follows them smoothly)."""
    x, y, w, h, r = o.x, o.y, o.w, o.h, o.r
    if r <= 0:
        return _poly_d([(x, y), (x + w, y), (x + w, y + h), (x, y + h)], True)
    arc = f"A{_n(r)},{_n(r)} 0 0 1 "
    return (f"M{_n(x + r)},{_n(y)}H{_n(x + w - r)}{arc}{_n(x + w)},{_n(y + r)}V{_n(y + h - r)}"
            f"{arc}{_n(x + w - r)},{_n(y + h)}H{_n(x + r)}{arc}{_n(x)},{_n(y + h - r)}V{_n(y + r)}"
            f"{arc}{_n(x + r)},{_n(y)}Z")


def plan_to_svg(plan: LaserPlan, description: str = "") -> bytes:
    """The SVG document of ``plan`` (UTF-8 bytes)."""
    ET.register_namespace("", SVG_NS)
    ET.register_namespace("inkscape", INKSCAPE_NS)
    o = plan.outline
    root = ET.Element(f"{{{SVG_NS}}}svg", {
        "version": "1.1", "width": f"{_n(o.w)}mm", "height": f"{_n(o.h)}mm",
        "viewBox": f"{_n(o.x)} {_n(o.y)} {_n(o.w)} {_n(o.h)}"})
    ET.SubElement(root, f"{{{SVG_NS}}}title").text = plan.title
    if description:
        ET.SubElement(root, f"{{{SVG_NS}}}desc").text = description

    def layer(name: str, **style: str) -> ET.Element:
        return ET.SubElement(root, f"{{{SVG_NS}}}g", {
            "id": name, f"{{{INKSCAPE_NS}}}groupmode": "layer", f"{{{INKSCAPE_NS}}}label": name, **style})

    engrave = layer("engrave", fill=COLOURS["engrave"], stroke="none", **{"fill-rule": "evenodd"})
    if plan.engrave:
        ET.SubElement(engrave, f"{{{SVG_NS}}}path", {"d": "".join(_poly_d(c, True) for c in plan.engrave)})
    line = {"fill": "none", "stroke-width": HAIRLINE, "stroke-linecap": "round", "stroke-linejoin": "round"}
    score = layer("score", stroke=COLOURS["score"], **line)
    for loop in plan.score_loops:
        ET.SubElement(score, f"{{{SVG_NS}}}path", {"d": _poly_d(loop, True)})
    for run in plan.score_lines:
        ET.SubElement(score, f"{{{SVG_NS}}}path", {"d": _poly_d(run, False)})
    cut = layer("cut", stroke=COLOURS["cut"], **line)
    ET.SubElement(cut, f"{{{SVG_NS}}}path", {"id": "outline", "d": outline_path(o)})
    for c in plan.holes:
        ET.SubElement(cut, f"{{{SVG_NS}}}circle", {"cx": _n(c.cx), "cy": _n(c.cy), "r": _n(c.r)})
    ET.indent(root, space=" ")
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="utf-8") + b"\n"
