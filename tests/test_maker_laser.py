"""Laser boards (``print --format svg|dxf``): true scale in mm, three layers, closed contours, and
the rule toggles on the wood, read back with svgelements and ezdxf (libraries that did not write
them) from files the real command line wrote.

Sizes follow the paper board (docs/ARCHITECTURE.md §5): the playing area is exactly the board's squares (or
point spacing) times the square size, with the paper's rim (``rim_for``) around it for the
coordinates.  The marks are the rules' marks in force (``core/board_marks.py``): camps only with
the camp rule (source 000's Tablut camps), exits per ``escape``, walls from the variant file
(mini_tablut's throne room, source 000), the fox-only diagonals of the 19th-century board
(source 000: "the fox ... along the thinner, red, diagonal lines").
"""

from __future__ import annotations

import math

import ezdxf
import pytest
from maker_helpers import engraved_contours, inside_even_odd, make, read_svg, subpaths, svg_layers

from tafl_desktop.core.variants import find_variant
from tafl_desktop.printing.board_draw import rim_for


def expected_size(variant_id: str, square: float, **options) -> tuple[float, float, float]:
    """(width, height, rim) of the board as drawn: the geometry's extent in squares plus the rim."""
    g = find_variant(variant_id, options or None).geometry
    w, h = g.extent
    rim = rim_for(square)
    return w * square + 2 * rim, h * square + 2 * rim, rim


CASES = [("brandubh", "25"), ("mini_tablut", "30"), ("tablut_camps", "20"), ("fox_geese_diagonals", "25"),
         ("dablot", "28"), ("fox_hounds", "22"), ("asalto", "25")]


@pytest.mark.parametrize(("variant_id", "square"), CASES)
def test_svg_is_true_scale_with_three_layers_of_closed_contours(tmp_path, variant_id, square):
    path = make(tmp_path, variant_id, "svg", "--square-mm", square)
    text = path.read_text(encoding="utf-8")
    w, h, _rim = expected_size(variant_id, float(square))
    svg = read_svg(path)
    assert svg.width == pytest.approx(w, abs=1e-3) and svg.height == pytest.approx(h, abs=1e-3)
    assert f'width="{w:g}mm"' in text and f'height="{h:g}mm"' in text  # mm on the root, not px
    layers = svg_layers(svg)
    assert list(layers) == ["engrave", "score", "cut"]  # the order a laser should run them
    # cut: the outline first, the size of the whole board, closed; then holes (circles)
    outline, *holes = layers["cut"]
    x0, y0, x1, y1 = outline.bbox()
    assert (x1 - x0, y1 - y0) == (pytest.approx(w, abs=1e-3), pytest.approx(h, abs=1e-3))
    assert all(closed for _pts, closed in subpaths(outline))
    g = find_variant(variant_id).geometry
    if g.kind == "grid":
        assert holes == []
    else:  # a hole for a peg at every point: 5 mm by default
        assert len(holes) == g.size
        assert all(type(c).__name__ == "Circle" and c.implicit_r == pytest.approx(2.5) for c in holes)
    # score: lines within the playing area
    assert layers["score"], "no lines to score"
    for element in layers["score"]:
        bx0, by0, bx1, by1 = element.bbox()
        assert 0 < bx0 <= bx1 < w and 0 < by0 <= by1 < h
    # engrave: one filled path of closed contours (the coordinates at least)
    assert len(layers["engrave"]) == 1
    assert all(closed for _pts, closed in subpaths(layers["engrave"][0]))
    assert 'fill-rule="evenodd"' in text and 'stroke="#ff0000"' in text and 'stroke="#0000ff"' in text


@pytest.mark.parametrize(("variant_id", "extra"), [("brandubh", ()), ("fox_geese_diagonals", ("--corner-mm", "0")),
                                                   ("dablot_mini", ("--kerf-mm", "0.2"))])
def test_dxf_reads_back_in_mm_with_layers_and_closed_outlines(tmp_path, variant_id, extra):
    path = make(tmp_path, variant_id, "dxf", *extra)
    doc = ezdxf.readfile(str(path))
    auditor = doc.audit()
    assert not auditor.has_errors, [str(e) for e in auditor.errors]
    assert doc.units == ezdxf.units.MM and doc.header["$INSUNITS"] == 4 and doc.header["$MEASUREMENT"] == 1
    assert {"CUT", "SCORE", "ENGRAVE"} <= {layer.dxf.name for layer in doc.layers}
    assert (doc.layers.get("CUT").color, doc.layers.get("SCORE").color) == (1, 5)
    msp = doc.modelspace()
    kerf = float(extra[1]) if extra and extra[0] == "--kerf-mm" else 0.0
    w, h, _rim = expected_size(variant_id, 25.0)
    outlines = msp.query('LWPOLYLINE[layer=="CUT"]')
    assert len(outlines) == 1 and outlines[0].closed
    from ezdxf import bbox

    box = bbox.extents(outlines)
    assert box.size.x == pytest.approx(w + kerf, abs=1e-6) and box.size.y == pytest.approx(h + kerf, abs=1e-6)
    bulges = [b for *_xy, b in outlines[0].get_points("xyb")]
    corner = 0 if "--corner-mm" in extra else 3
    assert sum(1 for b in bulges if b) == (4 if corner else 0)
    engraved = msp.query('LWPOLYLINE[layer=="ENGRAVE"]')
    assert engraved and all(p.closed for p in engraved)
    assert msp.query('*[layer=="SCORE"]')
    circles = msp.query('CIRCLE[layer=="CUT"]')
    g = find_variant(variant_id).geometry
    assert len(circles) == (0 if g.kind == "grid" else g.size)
    assert all(c.dxf.radius == pytest.approx(2.5 - kerf / 2) for c in circles)  # holes shrink by half the kerf
    for entity in msp:  # everything on the board
        b = bbox.extents([entity])
        assert -kerf <= b.extmin.x and b.extmax.x <= w + kerf and -kerf <= b.extmin.y and b.extmax.y <= h + kerf


def vary(tmp_path, variant_id: str, fmt: str, *extra: str, name: str | None = None):
    """The same command in this process: the tests below vary one setting or toggle at a time."""
    return make(tmp_path, variant_id, fmt, *extra, name=name, in_process=True)


def _square_centre(variant_id: str, name: str, square: float, rim: float, **options) -> tuple[float, float]:
    g = find_variant(variant_id, options or None).geometry
    x, y = g.point_xy(g.parse_square(name))
    return rim + x * square, rim + y * square


def test_walls_and_doorways_of_the_throne_room_are_engraved(tmp_path):
    """mini_tablut: the room c3:e5 is walled except its four doorways (source 000)."""
    path = vary(tmp_path, "mini_tablut", "svg", "--no-coordinates")
    contours = engraved_contours(path)
    s, rim = 25.0, rim_for(25.0)
    g = find_variant("mini_tablut").geometry
    walls = g.wall_segments()
    assert walls
    for (x1, y1), (x2, y2) in walls:  # the middle of every wall is burnt
        assert inside_even_odd(contours, rim + (x1 + x2) / 2 * s, rim + (y1 + y2) / 2 * s)
    # a doorway d5|d6: the side between d5 and d6 is left bare
    x, y = _square_centre("mini_tablut", "d5", s, rim)
    assert not inside_even_odd(contours, x, y - s / 2)


def test_camps_appear_only_with_the_camp_rule(tmp_path):
    on = engraved_contours(vary(tmp_path, "tablut_camps", "svg", "--no-coordinates", name="on.svg"))
    off = engraved_contours(vary(tmp_path, "tablut_camps", "svg", "--no-coordinates", "--set", "camps=false",
                                 name="off.svg"))
    rim = rim_for(25.0)
    x, y = _square_centre("tablut_camps", "a5", 25.0, rim)  # a camp square: its diamond is engraved
    assert inside_even_odd(on, x, y)
    assert not inside_even_odd(off, x, y)


def test_exits_follow_the_escape_rule(tmp_path):
    rim = rim_for(25.0)
    corner = engraved_contours(vary(tmp_path, "brandubh", "svg", "--no-coordinates", name="corner.svg"))
    edge = engraved_contours(vary(tmp_path, "brandubh", "svg", "--no-coordinates", "--set", "escape=edge",
                                  name="edge.svg"))
    # d1 is an ordinary edge square under corner escape, an exit (banded) under edge escape
    x, y = _square_centre("brandubh", "d1", 25.0, rim)
    band = 25.0 * 0.08 + 0.3  # just inside the band drawn round an exit square
    assert not inside_even_odd(corner, x - 12.5 + band, y)
    assert inside_even_odd(edge, x - 12.5 + band, y)
    # the throne is engraved in both; its centre (where the diagonals cross) is left bare
    tx, ty = _square_centre("brandubh", "d4", 25.0, rim)
    assert inside_even_odd(corner, tx + 12.5 - 2.5, ty) and not inside_even_odd(corner, tx, ty)


def test_fox_only_diagonals_are_engraved_dashes_and_otherwise_scored(tmp_path):
    hunters = vary(tmp_path, "fox_geese_diagonals", "svg", "--no-coordinates", name="hunters.svg")
    everyone = vary(tmp_path, "fox_geese_diagonals", "svg", "--no-coordinates", "--set", "diagonals=everyone",
                    name="everyone.svg")
    rim = rim_for(25.0)
    ax, ay = _square_centre("fox_geese_diagonals", "c3", 25.0, rim)
    # a quarter of the way along the diagonal c3-d4 (45 degrees up-right, y down)
    px, py = ax + 25.0 * 0.25, ay - 25.0 * 0.25
    dashes = engraved_contours(hunters)
    assert any(inside_even_odd(dashes, px + t, py - t) for t in (-1.0, -0.5, 0.0, 0.5, 1.0))
    assert not any(inside_even_odd(engraved_contours(everyone), px + t, py - t) for t in (-1.0, 0.0, 1.0))

    def scored_diagonals(path):
        count = 0
        for element in svg_layers(read_svg(path))["score"]:
            for pts, _closed in subpaths(element):
                (x1, y1), (x2, y2) = pts[0], pts[-1]
                count += abs(abs(x2 - x1) - abs(y2 - y1)) < 1e-6 and x1 != x2
        return count

    assert scored_diagonals(hunters) == 0 and scored_diagonals(everyone) > 0


def test_kerf_grows_the_outline_and_shrinks_the_holes(tmp_path):
    plain = svg_layers(read_svg(vary(tmp_path, "fox_geese_13", "svg", name="plain.svg")))["cut"]
    kerfed = svg_layers(read_svg(vary(tmp_path, "fox_geese_13", "svg", "--kerf-mm", "0.3", name="kerf.svg")))["cut"]
    (a0, b0, a1, b1), (c0, d0, c1, d1) = plain[0].bbox(), kerfed[0].bbox()
    assert (c1 - c0) - (a1 - a0) == pytest.approx(0.3, abs=1e-3)
    assert (d1 - d0) - (b1 - b0) == pytest.approx(0.3, abs=1e-3)
    assert kerfed[1].implicit_r == pytest.approx(plain[1].implicit_r - 0.15, abs=1e-6)


def test_holes_can_be_dimples_or_nothing(tmp_path):
    dimples = vary(tmp_path, "dablot_mini", "svg", "--holes", "engrave", "--hole-mm", "8", "--no-coordinates",
                   name="dimples.svg")
    assert len(svg_layers(read_svg(dimples))["cut"]) == 1  # the outline only
    g = find_variant("dablot_mini").geometry
    rim = rim_for(25.0)
    x, y = g.point_xy(0)
    contours = engraved_contours(dimples)
    assert inside_even_odd(contours, rim + x * 25 + 3.5, rim + y * 25)  # within the 8 mm dimple
    assert not inside_even_odd(contours, rim + x * 25 + 4.5, rim + y * 25)


def test_coordinates_are_engraved_in_the_rim_only_when_asked(tmp_path):
    w, h, rim = expected_size("brandubh", 25.0)

    def in_rim(path):
        return [c for c in engraved_contours(path) if all(x < rim or y < rim or x > w - rim or y > h - rim
                                                          for x, y in c)]

    with_letters = in_rim(vary(tmp_path, "brandubh", "svg", name="with.svg"))
    assert len(with_letters) >= 4 * 7  # a letter or digit per file and rank on each side
    assert in_rim(vary(tmp_path, "brandubh", "svg", "--no-coordinates", name="without.svg")) == []


def test_rounded_corners_stay_outside_the_playing_area(tmp_path):
    w, h, rim = expected_size("brandubh", 25.0)
    outline = svg_layers(read_svg(vary(tmp_path, "brandubh", "svg", "--corner-mm", "30")))["cut"][0]
    points = [outline.point(k / 2000) for k in range(2001)]
    # the arcs are real: the path passes well inside the bounding box's corners ...
    assert min(math.hypot(p.x, p.y) for p in points) > 8.0
    # ... but never into the playing area, the frame from (rim, rim) to (w - rim, h - rim)
    assert not any(rim < p.x < w - rim and rim < p.y < h - rim for p in points)
    # and a radius that would is refused
    from maker_helpers import run_main

    done = run_main("print", "brandubh", "--format", "svg", "--corner-mm", "35", "--out", str(tmp_path / "x.svg"))
    assert done.returncode == 1 and "would cut into the playing area" in done.stderr
    assert not (tmp_path / "x.svg").exists()
