"""Cut-out pieces and Dablot rank markers: counts, sizes, and crop marks that never touch a piece."""

from __future__ import annotations

import io
import math

import pytest
from pypdf import PdfReader

from tafl_desktop.core.variants import find_variant, presets
from tafl_desktop.printing import render_set
from tafl_desktop.printing.markers import army_symbol, make_army, reference_armies
from tafl_desktop.printing.symbols import ATTACKER_FACE, DARK_ARMY, DEFENDER_FACE, LIGHT_ARMY


def _seg_point_distance(x0, y0, x1, y1, px, py) -> float:
    dx, dy = x1 - x0, y1 - y0
    t = max(0.0, min(1.0, ((px - x0) * dx + (py - y0) * dy) / (dx * dx + dy * dy or 1)))
    return math.hypot(x0 + t * dx - px, y0 + t * dy - py)


def _assert_ticks_clear(sheet, round_faces: bool) -> None:
    """No crop tick comes within 0.3 mm of any printed face (cut shape plus bleed)."""
    bleed = sheet.layout.bleed
    by_page: dict[int, list] = {}
    for page, r in sheet.rects:
        by_page.setdefault(page, []).append(r)
    assert sheet.ticks
    for page, x0, y0, x1, y1 in sheet.ticks:
        for r in by_page[page]:
            if round_faces:
                d = _seg_point_distance(x0, y0, x1, y1, r.x + r.w / 2, r.y + r.h / 2) - (r.w / 2 + bleed)
            else:  # a rectangle grown by the bleed; ticks are axis-parallel
                gx0, gy0, gx1, gy1 = r.x - bleed, r.y - bleed, r.right + bleed, r.top + bleed
                dx = max(gx0 - max(x0, x1), min(x0, x1) - gx1, 0.0)
                dy = max(gy0 - max(y0, y1), min(y0, y1) - gy1, 0.0)
                d = math.hypot(dx, dy)
            assert d > 0.3, (page, (x0, y0, x1, y1), r)


def test_tokens_in_setup_counts_plus_spares() -> None:
    v = find_variant("copenhagen")
    _, report = render_set(v, parts=["pieces"])
    sheet = report.cuts["pieces"]
    # king 1+1, defenders 12+2, attackers 24+3
    assert len(sheet.rects) == 2 + 14 + 27
    d = sheet.layout.w
    assert d <= report.square_mm * 0.8 + 1e-9 and d >= report.square_mm * 0.7
    _assert_ticks_clear(sheet, round_faces=True)


@pytest.mark.parametrize("variant_id", ["alea_evangelii", "fox_geese_13", "fox_hounds", "halatafl"])
def test_tokens_for_other_boards(variant_id: str) -> None:
    v = find_variant(variant_id)
    _, report = render_set(v, parts=["pieces"], paper="letter", orientation="landscape")
    rules = v.make_rules()
    on_board = len(rules.pieces(rules.initial_position()))
    sheet = report.cuts["pieces"]
    assert len(sheet.rects) > on_board
    _assert_ticks_clear(sheet, round_faces=True)


def test_fold_over_standing_pieces() -> None:
    v = find_variant("brandubh")
    data, report = render_set(v, parts=["standees"], square_mm=30)
    sheet = report.cuts["standees"]
    assert len(sheet.rects) == 2 + 6 + 10  # king 1+1, defenders 4+2, attackers 8+2
    r = sheet.rects[0][1]
    assert r.h > 2.5 * r.w  # front, back and two base tabs on one strip
    _assert_ticks_clear(sheet, round_faces=False)
    text = PdfReader(io.BytesIO(data)).pages[0].extract_text()
    assert "Fold along the middle" in text


def test_faces_differ_in_black_and_white() -> None:
    def lum(c) -> float:
        return 0.299 * c.red + 0.587 * c.green + 0.114 * c.blue

    assert lum(DEFENDER_FACE) - lum(ATTACKER_FACE) > 0.5
    assert lum(LIGHT_ARMY[0]) - lum(DARK_ARMY[0]) > 0.5


# ----------------------------------------------------------------------------- Dablot markers
def test_mini_army_needs_sixteen_draughts() -> None:
    saami, swedes = reference_armies("mini")
    for army in (saami, swedes):
        stacks = {r.key: (r.points, r.count) for r in army.ranks}
        assert stacks == {"soldier": (1, 11), "son": (2, 1), "leader": (3, 1)}  # 11 singles, a double, a triple
        assert army.pieces == 13 and army.draughts() == 16
    assert saami.symbol == "hat" and swedes.symbol == "crown"


def test_full_army_four_ranks_and_promotion() -> None:
    full = reference_armies("full")[0]
    assert full.pieces == 30 and full.draughts() == 28 + 2 + 3
    four = reference_armies("mini", four_ranks=True)[0]
    assert {r.key: r.points for r in four.ranks} == {"soldier": 1, "son": 3, "leader": 4}
    assert four.draughts() == 11 + 3 + 4
    promo = reference_armies("mini", promotion=True)[0]
    officer = promo.rank("officer")
    assert officer is not None and officer.points == 2 and officer.up_to
    assert promo.draughts() == 16 and promo.draughts_with_promotion() == 16 + 11
    promo4 = reference_armies("mini", four_ranks=True, promotion=True)[0]
    assert promo4.rank("officer").points == 2 and promo4.draughts_with_promotion() == 18 + 11


def test_army_from_plain_counts() -> None:
    army = make_army("Finns", army_symbol("Finns", 1), True, soldiers=5, officer_material=True, promotion=True)
    assert army.symbol == "crown" and army.pieces == 7 and army.draughts() == 5 + 2 + 3
    assert army.officer_material
    assert army_symbol("Sámi", 1) == "hat" and army_symbol("North", 1) == "crown"


def test_generic_markers_for_a_game_that_is_not_dablot() -> None:
    data, report = render_set(find_variant("brandubh"), parts=["markers"], draught_mm=32)
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(data)).pages)
    assert "stacked draughts" in text and "16 draughts" in text and "33 draughts" in text
    assert "four-pointed hat" in text and "crown" in text
    sheet = report.cuts["markers"]
    assert sheet.layout.w == 32
    assert len(sheet.rects) == 2 * 30  # one marker per piece of the two full armies
    _assert_ticks_clear(sheet, round_faces=True)


def test_dablot_variant_prints_its_own_markers() -> None:
    dablot = [v for v in presets().values() if v.family == "dablot"]
    if not dablot:
        pytest.skip("no Dablot preset")
    v = min(dablot, key=lambda v: v.geometry.size).with_options({"promotion": True, "officer_material": True})
    data, report = render_set(v, paper="letter")
    assert "markers" in report.parts
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(data)).pages)
    assert "RETREATED" in text and "by promotion" in text
    rules = v.make_rules()
    per_side = len(rules.pieces(rules.initial_position())) // 2
    soldiers = per_side - 2
    # per army: one marker per piece, one officer per soldier, one retreated mark per soldier
    assert len(report.cuts["markers"].rects) == 2 * (per_side + 2 * soldiers)
