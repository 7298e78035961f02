"""A set to play by touch (issue 40): ``print GAME --format stl|3mf --tactile`` and the print
window's "Tactile set" box.

Tested as the other solids are (read back by lib3mf in strict mode and by trimesh: manifold,
watertight, standing on z = 0), and, for the promise itself, by measuring each kind of piece as a
finger meets it, never by its colour: the roundness of its footprint (4 pi area / perimeter^2: 1 for
a circle, 0.89 for the square with rounded corners), its height, and the raised features on its
top (the separate shapes a slice 0.6 mm above the flat top cuts).  Two kinds of one game must
differ in at least one of those by a margin a fingertip finds: 2.5 mm of height, 0.04 of roundness
(flat sides against none), or a different top.

The board marks come from the rules (tafl-rules.md "Brandubh": "the central square (throne) and
the four corner squares are restricted"; Tablut with camps, source 000: the attackers' four base
camps; hunt-games.md 2.1 for the Fox and Geese cross).
"""

from __future__ import annotations

import numpy as np
import pytest
import trimesh
from maker_helpers import make, read_3mf, run_main
from test_maker_grid_peg_board import loops, square_centres

from tafl_desktop.printing.maker import tactile
from tafl_desktop.printing.maker.solids import BOARD_THICKNESS

S = 25.0


def area(p: np.ndarray) -> float:
    x, y = p[:, 0], p[:, 1]
    return 0.5 * abs(float(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1))))


def perimeter(p: np.ndarray) -> float:
    return float(np.linalg.norm(np.diff(np.vstack([p, p[:1]]), axis=0), axis=1).sum())


def feel(m: trimesh.Trimesh) -> dict[str, float]:
    """What a finger finds on one piece: footprint roundness, height, the height of its flat
    top (the highest slice that is still one outline of at least 70% of the footprint), and the
    raised shapes on that top (how many, and the tallest's height above it)."""
    base = max(loops(m, 0.3), key=area)
    a0 = area(base)
    top = float(m.vertices[:, 2].max())
    body = 0.3
    for z in np.arange(0.3, top, 0.1):
        cut = loops(m, float(z))
        if len(cut) == 1 and area(cut[0]) >= 0.7 * a0:
            body = float(z)
    texture = loops(m, body + 0.6) if body + 0.6 < top else []
    return {"round": 4 * np.pi * a0 / perimeter(base) ** 2, "height": top, "body": body,
            "texture": len(texture), "raised": top - body}


def pieces(tmp_path, variant: str, *extra: str) -> dict[str, dict[str, float]]:
    path = make(tmp_path, variant, "3mf", "--tactile", "--parts", "pieces", *extra, in_process=True)
    model = read_3mf(path)
    assert model["warnings"] == 0 and model["unit"] == model["unit_mm"]
    out = {}
    for o in model["objects"].values():
        assert o["manifold"], o["name"]
        m = trimesh.Trimesh(o["vertices"], o["triangles"])
        assert m.is_watertight and m.is_winding_consistent and m.is_volume, o["name"]
        assert m.bounds[0][2] == pytest.approx(0.0, abs=1e-6)  # stands on the plate, texture up
        out[o["name"]] = feel(m)
    return out


def differ_by_touch(a: dict[str, float], b: dict[str, float]) -> bool:
    return (abs(a["height"] - b["height"]) >= 2.5 or abs(a["round"] - b["round"]) >= 0.04
            or a["texture"] != b["texture"])


@pytest.mark.parametrize(("variant", "extra", "kinds"), [
    ("brandubh", (), 3),  # attackers, defenders, king (tafl-rules.md "Brandubh")
    ("fox_geese_13", ("--holes", "none"), 2),  # geese and fox (hunt-games.md 2.1)
    ("fox_hounds", ("--holes", "none"), 2),  # hounds and fox (hunt-games.md 3)
    ("dablot", ("--holes", "none"), 6),  # two armies of soldiers, the leader's son, the leader (source 000)
])
def test_every_kind_of_piece_differs_by_touch(tmp_path, variant, extra, kinds):
    felt = pieces(tmp_path, variant, *extra)
    assert len(felt) == kinds
    names = sorted(felt)
    alike = [(p, q) for i, p in enumerate(names) for q in names[i + 1:] if not differ_by_touch(felt[p], felt[q])]
    assert alike == []
    for name, f in felt.items():  # a raised texture stands at least 1 mm proud: a fingertip finds it
        if f["texture"]:
            assert f["raised"] >= 1.0, name


def test_the_tafl_pieces_are_what_the_rule_sheet_says(tmp_path):
    felt = pieces(tmp_path, "brandubh")
    attackers, defenders, king = felt["Attackers"], felt["Defenders (the king's side)"], felt["King"]
    assert attackers["round"] < 0.92 < defenders["round"] and defenders["round"] > 0.99 < king["round"]  # square
    assert attackers["texture"] == 3 and defenders["texture"] == 0  # three ribs; smooth
    assert attackers["height"] + 2.5 <= defenders["height"] and king["height"] >= defenders["height"] + 5  # crown


def test_dablot_ranks_are_felt_by_height_and_dots_and_the_armies_by_footprint(tmp_path):
    felt = pieces(tmp_path, "dablot", "--holes", "none")
    for army in ("Saami", "Swedes"):
        soldier, son, leader = (felt[f"{army}: {k}"] for k in ("soldiers", "leader's son", "leader"))
        assert soldier["height"] < son["height"] < leader["height"]  # one draught a point (source 000)
        assert (soldier["texture"], son["texture"]) == (1, 2)  # raised dots, one a point
        assert leader["texture"] == 3 + 2  # three dots inside a raised ring (its outer and inner edge)
    assert abs(felt["Saami: soldiers"]["round"] - felt["Swedes: soldiers"]["round"]) >= 0.1


def board_of(tmp_path, variant: str, *extra: str) -> trimesh.Trimesh:
    path = make(tmp_path, variant, "3mf", "--tactile", "--parts", "pieces,board", *extra, in_process=True)
    model = read_3mf(path)
    assert model["warnings"] == 0 and all(o["manifold"] for o in model["objects"].values())
    o = next(o for o in model["objects"].values() if o["name"] == "Peg board")
    m = trimesh.Trimesh(o["vertices"], o["triangles"])
    assert m.is_watertight and m.is_volume
    names = {o["name"] for o in model["objects"].values()}
    assert "Pegs" in names  # raised tops print upwards, so every piece takes a loose peg
    return m


def solid_at(board: trimesh.Trimesh, z: float, x: float, y: float) -> bool:
    """True when the board's slice at height z holds material at (x, y) (even-odd over its loops)."""
    from matplotlib.path import Path

    inside = sum(Path(p).contains_point((x, y)) for p in loops(board, z))
    return inside % 2 == 1


def test_brandubh_board_throne_raised_corners_sunk_lines_ridged(tmp_path):
    board = board_of(tmp_path, "brandubh", "--square-mm", str(S))
    centres = square_centres("brandubh")
    from tafl_desktop.core.variants import find_variant

    g = find_variant("brandubh").geometry
    throne, corner, plain = g.parse_square("d4"), g.parse_square("a1"), g.parse_square("c3")
    off = S * 0.3  # beside the peg hole, inside the square's marked area
    above_lines = BOARD_THICKNESS + (tactile.RIDGE + tactile.PLATEAU) / 2
    (tx, ty), (cx, cy), (px, py) = centres[throne], centres[corner], centres[plain]
    assert solid_at(board, above_lines, tx + off, ty)  # only the throne stands this high
    assert not solid_at(board, above_lines, px + off, py)
    below_top = BOARD_THICKNESS - tactile.POCKET / 2
    assert not solid_at(board, below_top, cx + off, cy) and solid_at(board, below_top, px + off, py)
    ridge = BOARD_THICKNESS + tactile.RIDGE / 2  # a line between two squares stands up
    assert solid_at(board, ridge, px + S / 2, py) and not solid_at(board, ridge, px + off, py)


def test_tablut_camps_carry_a_raised_frame(tmp_path):
    board = board_of(tmp_path, "tablut_camps", "--square-mm", str(S))
    from tafl_desktop.core.board_marks import marks_in_force
    from tafl_desktop.core.variants import find_variant

    v = find_variant("tablut_camps")
    camp = sorted(marks_in_force(v).camp)[0]
    plain = v.geometry.parse_square("c3")
    centres = square_centres("tablut_camps")
    inset = max(1.5, S * 0.12) + max(1.2, S * 0.06) / 2  # the middle of the frame's band
    z = BOARD_THICKNESS + tactile.RAISE / 2
    (x, y), (px, py) = centres[camp], centres[plain]
    assert solid_at(board, z, x - S / 2 + inset, y) and not solid_at(board, z, px - S / 2 + inset, py)


def test_fox_board_lines_are_ridges_between_holes(tmp_path):
    board = board_of(tmp_path, "fox_geese_13", "--square-mm", str(S))
    pts = square_centres("fox_geese_13")  # the points' centres on the plate
    from tafl_desktop.core.variants import find_variant

    g = find_variant("fox_geese_13").geometry
    a, b = g.parse_square("c1"), g.parse_square("d1")
    (ax, ay), (bx, by) = pts[a], pts[b]
    z = BOARD_THICKNESS + tactile.RIDGE / 2
    assert solid_at(board, z, (ax + bx) / 2, (ay + by) / 2)  # on the line c1-d1
    assert not solid_at(board, z, (ax + bx) / 2, (ay + by) / 2 + S * 0.3)  # beside it
    assert not solid_at(board, BOARD_THICKNESS - 1.0, ax, ay)  # the peg hole at c1


def test_a_laser_board_refuses_tactile_in_one_line():
    done = run_main("print", "brandubh", "--format", "svg", "--tactile", "--out", "/tmp/never-written.svg")
    assert done.returncode != 0 and "--tactile" in done.stderr and len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_rule_sheet_says_how_to_feel_the_board(lang):
    from pypdf import PdfReader

    from tafl_desktop.core.variants import find_variant
    from tafl_desktop.i18n import _, set_language
    from tafl_desktop.printing import render_set

    set_language(lang, explicit=True)
    try:
        import io

        v = find_variant("brandubh")
        plain, _report = render_set(v, parts=["rules"])
        data, _report = render_set(v, parts=["rules"], tactile=True)
        heading, throne = _("Playing by touch"), _("The throne is a raised plateau.")
    finally:
        set_language("en", explicit=True)
    text = " ".join(" ".join((p.extract_text() or "").split()) for p in PdfReader(io.BytesIO(data)).pages)
    before = " ".join(" ".join((p.extract_text() or "").split()) for p in PdfReader(io.BytesIO(plain)).pages)
    assert heading in text and throne in text and heading not in before
    if lang == "de":
        assert heading != "Playing by touch"


def test_the_print_window_offers_the_tactile_set(qtbot, gui_settings, dialogs_recorder, tmp_path):
    """The print window's "Tactile set" box: for the 3D files it builds the tactile pieces (the
    file saved is the command line's), for paper it adds the rule sheet's section, and a laser
    board does not offer it."""
    from tafl_desktop.core.variants import find_variant
    from tafl_desktop.gui.print_dialog import PrintSetDialog

    dlg = PrintSetDialog(find_variant("brandubh"), persist=False)
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.waitUntil(lambda: not dlg.building, timeout=60_000)
    box = dlg.tactile_box
    assert box.isVisibleTo(dlg) and not box.isChecked() and box.accessibleDescription()
    box.setChecked(True)
    assert dlg.options().tactile
    with qtbot.waitSignal(dlg.preview_updated, timeout=60000):
        dlg.format_combo.setCurrentIndex(dlg.format_combo.findData("stl"))
    assert box.isVisibleTo(dlg) and dlg.error == ""
    assert any(line.startswith("A set to play by touch") for line in dlg.maker.report.lines)
    dlg.grab().save("/tmp/s40-print-tactile.png")
    out = tmp_path / "mine.stl"
    assert dlg.save_to(str(out))
    assert out.read_bytes() == make(tmp_path, "brandubh", "stl", "--tactile", in_process=True).read_bytes()
    with qtbot.waitSignal(dlg.preview_updated, timeout=60000):
        dlg.format_combo.setCurrentIndex(dlg.format_combo.findData("svg"))
    assert not box.isVisibleTo(dlg) and not dlg.maker_options().tactile


def overhangs(m: trimesh.Trimesh) -> float:
    """How far (mm) the widest downward-facing surface above the base reaches in from the
    piece's outline: what would print over air.  A ledge of a millimetre or so (the grooves
    between Dablot's layers) prints without supports; a texture or a crown hanging over the
    middle would not."""
    base = max(loops(m, 0.3), key=area)
    down = (m.face_normals[:, 2] < -0.5) & (m.triangles_center[:, 2] > 0.2)
    worst = 0.0
    edges = np.stack([base, np.roll(base, -1, axis=0)], axis=1)
    edges = edges[np.linalg.norm(edges[:, 1] - edges[:, 0], axis=1) > 1e-9]  # repeated points
    for p in m.triangles[down].reshape(-1, 3)[:, :2]:
        a, b = edges[:, 0], edges[:, 1]
        t = np.clip(np.einsum("ij,ij->i", p - a, b - a) / np.einsum("ij,ij->i", b - a, b - a), 0, 1)
        worst = max(worst, float(np.min(np.linalg.norm(a + (b - a) * t[:, None] - p, axis=1))))
    return worst


@pytest.mark.parametrize(("variant", "extra"), [("brandubh", ()), ("fox_geese_13", ("--holes", "none")),
                                                ("dablot", ("--holes", "none"))])
def test_the_pieces_print_standing_without_supports(tmp_path, variant, extra):
    path = make(tmp_path, variant, "3mf", "--tactile", "--parts", "pieces", *extra, in_process=True)
    for o in read_3mf(path)["objects"].values():
        m = trimesh.Trimesh(o["vertices"], o["triangles"])
        assert overhangs(m) <= 1.0, o["name"]


def test_dablot_rank_markers_carry_raised_dots(tmp_path):
    """The markers for playing Dablot with a draughts set (source 000) read as the tactile
    pieces do: one raised dot a point, a leader's ringed, the armies by outline."""
    path = make(tmp_path, "dablot", "3mf", "--tactile", "--parts", "markers", in_process=True)
    model = read_3mf(path)
    assert model["warnings"] == 0
    felt = {}
    for o in model["objects"].values():
        assert o["manifold"], o["name"]
        felt[o["name"]] = feel(trimesh.Trimesh(o["vertices"], o["triangles"]))
    for army in ("Saami", "Swedes"):
        marks = {name.split(": ", 1)[1]: f for name, f in felt.items() if name.startswith(army)}
        assert (marks["Soldier markers"]["texture"], marks["Leader's son markers"]["texture"],
                marks["Leader markers"]["texture"]) == (1, 2, 3 + 2)
        assert all(f["raised"] >= 1.0 for f in marks.values())
    # the armies by the outline, as on the pieces (the draughts under them may feel alike)
    assert abs(felt["Saami: Soldier markers"]["round"] - felt["Swedes: Soldier markers"]["round"]) >= 0.1


def test_the_print_command_puts_the_section_on_the_rule_sheet(tmp_path):
    """``tafl-desktop print brandubh --tactile --parts rules`` run as a player runs it."""
    from pypdf import PdfReader

    path = make(tmp_path, "brandubh", "pdf", "--tactile", "--parts", "rules")
    text = " ".join(" ".join((p.extract_text() or "").split()) for p in PdfReader(str(path)).pages)
    assert "Playing by touch" in text and "The corner squares are sunk pockets." in text
    assert "Attackers: square base, low height, three raised ribs on top." in text
