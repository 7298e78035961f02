"""Board pages: the drawn size, read back from the PDF itself, and the tiling of big boards.

The size check does not trust the layout code: it parses the board form (XObject) in the file,
finds the frame rectangle drawn around the playing area, and checks every page places that form
with a pure translation (no scaling), so the printed square is the requested one.
"""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from tafl_desktop.core.variants import find_variant
from tafl_desktop.printing import render_set
from tafl_desktop.printing.board_sheet import OVERLAP, plan_board, registration_marks
from tafl_desktop.printing.paper import make_page

MM = 72 / 25.4


def _board_form(reader: PdfReader, page) -> tuple[list[list[float]], list[float]]:
    """(rectangles in the board form, the bbox of the form) for a page that shows the board."""
    form = page["/Resources"]["/XObject"]["/FormXob.board"].get_object()
    rects = [[float(v) for v in ops] for ops, op in ContentStream(form, reader).operations if op == b"re"]
    return rects, [float(v) for v in form["/BBox"]]


def _placements(reader: PdfReader, page) -> list[list[float]]:
    """The transformation in force at each ``Do /FormXob.board`` on a page (cm ops in between
    save/restore are multiplied out; our pages only ever translate)."""
    stack = [[1.0, 0.0, 0.0, 1.0, 0.0, 0.0]]
    out = []
    for ops, op in ContentStream(page.get_contents(), reader).operations:
        if op == b"q":
            stack.append(list(stack[-1]))
        elif op == b"Q":
            stack.pop()
        elif op == b"cm":
            a, b, c, d, e, f = (float(v) for v in ops)
            A, B, C, D, E, F = stack[-1]
            stack[-1] = [a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D,
                         e * A + f * C + E, e * B + f * D + F]
        elif op == b"Do" and ops[0] == "/FormXob.board":
            out.append(stack[-1])
    return out


def _vertical_lines(reader: PdfReader, page) -> set[float]:
    """x of every vertical line segment (moveto/lineto pairs) drawn in the board form."""
    form = page["/Resources"]["/XObject"]["/FormXob.board"].get_object()
    xs = set()
    last = None
    for ops, op in ContentStream(form, reader).operations:
        if op == b"m":
            last = (float(ops[0]), float(ops[1]))
        elif op == b"l" and last is not None:
            if abs(float(ops[0]) - last[0]) < 1e-6 and abs(float(ops[1]) - last[1]) > 1:
                xs.add(round(last[0], 4))
            last = None
    return xs


def _board_pages(reader: PdfReader, first: int, last: int):
    return [reader.pages[i] for i in range(first - 1, last)]


@pytest.mark.parametrize("variant_id, square", [("copenhagen", None), ("copenhagen", 21.5), ("tablut", 27.0),
                                                ("brandubh", 30.0)])
def test_board_frame_is_exactly_the_requested_size(variant_id: str, square: float | None) -> None:
    v = find_variant(variant_id)
    data, report = render_set(v, parts=["board"], square_mm=square)
    reader = PdfReader(io.BytesIO(data))
    s = report.square_mm if square is None else square
    first, last = report.part_pages["board"]
    for page in _board_pages(reader, first, last):
        text = page.extract_text()
        assert "Print at 100% / actual size" in text and "100 mm" in text
        if "assembly map" in text:  # the reduced overview of a tiled board
            continue
        rects, bbox = _board_form(reader, page)
        # the frame: the largest rectangle drawn (the playing area's outline)
        frame = max(rects, key=lambda r: abs(r[2] * r[3]))
        assert abs(frame[2] / MM - v.geometry.width * s) < 0.1
        assert abs(frame[3] / MM - v.geometry.height * s) < 0.1
        assert bbox[2] / MM == pytest.approx(v.geometry.width * s + 2 * report.board.rim, abs=0.1)
        # the grid lines inside the frame are one square apart
        xs = sorted(_vertical_lines(reader, page))
        gaps = [b - a for a, b in zip([frame[0]] + xs, xs + [frame[0] + frame[2]], strict=True)]
        assert len(xs) == v.geometry.width - 1
        assert all(abs(g / MM - s) < 0.1 for g in gaps), gaps
        for m in _placements(reader, page):
            assert m[:4] == [1.0, 0.0, 0.0, 1.0], "the board form must never be scaled on a board page"


def test_alea_evangelii_at_30mm_is_tiled_into_twelve_even_a4_pages() -> None:
    v = find_variant("alea_evangelii")
    data, report = render_set(v, parts=["board"], square_mm=30.0)
    plan = report.board
    assert (plan.rows, plan.cols) == (3, 4)
    # tiles split evenly: same size, each overlapping its neighbour by the overlap strip
    widths = {round(t.w, 6) for t in plan.tiles}
    heights = {round(t.h, 6) for t in plan.tiles}
    assert len(widths) == 1 and len(heights) == 1
    row1 = sorted((t for t in plan.tiles if t.row == 1), key=lambda t: t.col)
    for a, b in zip(row1, row1[1:], strict=False):
        assert a.x + a.w - b.x == pytest.approx(OVERLAP)
    assert row1[-1].x + row1[-1].w == pytest.approx(plan.width)
    page = make_page("a4", "portrait")
    body = page.body(ruler=True)
    assert all(t.w <= body.w and t.h <= body.h for t in plan.tiles)
    reader = PdfReader(io.BytesIO(data))
    assert len(reader.pages) == 1 + 12  # assembly map + tiles
    texts = [p.extract_text() for p in reader.pages]
    assert "assembly map" in texts[0] and "12 pages" in texts[0]
    for r in range(1, 4):
        for c in range(1, 5):
            assert any(f"row {r}, column {c}" in t for t in texts[1:]), (r, c)
    for t in texts:
        assert "Print at 100% / actual size" in t
    # every tile page places the one form, unscaled, at most once
    for p in reader.pages[1:]:
        placements = _placements(reader, p)
        assert len(placements) == 1 and placements[0][:4] == [1.0, 0.0, 0.0, 1.0]
        rects, _ = _board_form(reader, p)
        assert any(abs(r[2] / MM - 570) < 0.1 and abs(r[3] / MM - 570) < 0.1 for r in rects)
    assert len(data) < 400_000  # one drawing shared by all tiles


def test_registration_marks_fall_on_both_neighbours() -> None:
    v = find_variant("alea_evangelii")
    plan = plan_board(v.geometry, make_page("letter", "landscape"), 35.0)
    assert plan.tiled
    for x, y in registration_marks(plan):
        holders = [t for t in plan.tiles if t.x <= x <= t.x + t.w and t.y <= y <= t.y + t.h]
        assert len(holders) >= 2


def test_default_square_fits_one_page_for_every_standard_board() -> None:
    for vid in ("brandubh", "tablut", "copenhagen", "large_hnefatafl", "fox_geese_13"):
        for paper in ("a4", "letter"):
            _, report = render_set(find_variant(vid), paper=paper, parts=["board"])
            assert not report.board.tiled, (vid, paper)
            assert report.square_mm >= 12.0


def test_default_square_never_goes_below_a_playable_size() -> None:
    # Alea Evangelii's 19 x 19 fits one A4 page only at 9.5 mm: the default tiles it instead, and at 15 mm
    # squares (12 mm tokens), a size fingers and cut-out pieces can use (issue "Rules and exchange
    # fidelity III", item 10); boards that fit one page keep their one-page size
    for paper in ("a4", "letter"):
        _, report = render_set(find_variant("alea_evangelii"), paper=paper, parts=["board"])
        assert report.board.tiled and report.square_mm >= 15.0, paper
        assert len(report.board.tiles) > 1


def test_board_marks_follow_the_rules_in_force() -> None:
    from tafl_desktop.printing.board_draw import marks_in_force

    v = find_variant("copenhagen")
    corner = marks_in_force(v)
    assert corner.escape == v.geometry.marked("corner") and not corner.escape_edge
    edge = marks_in_force(v.with_options({"escape": "edge"}))
    assert edge.escape_edge and not edge.escape
    camps = find_variant("tablut_camps")
    assert marks_in_force(camps).camp
    assert not marks_in_force(camps.with_options({"camps": False})).camp
