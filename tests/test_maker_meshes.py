"""3D-printed pieces and peg boards (``print --format stl|3mf``), read back with trimesh and with
lib3mf (the 3MF Consortium's library, strict mode): watertight, manifold, in mm, with the sizes,
counts and heights the set promises.

Counts are the paper set's (docs/ARCHITECTURE.md §5: "the count comes from the preset's setup, plus spares"),
taken here from each variant's own starting position; a piece is the distance between
neighbouring squares or points less the clearance; Dablot's ranks stand one draught high per
point (source 000: a single for a soldier, a double for the leader's son, a triple for the leader).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import trimesh
from maker_helpers import make, read_3mf

from tafl_desktop.core.variants import find_variant
from tafl_desktop.printing.board_draw import rim_for
from tafl_desktop.printing.pieces_sheet import spares


def start_counts(variant_id: str) -> dict[str, int]:
    rules = find_variant(variant_id).make_rules()
    out: dict[str, int] = {}
    for p in rules.pieces(rules.initial_position()).values():
        out[p] = out.get(p, 0) + 1
    return out


def bodies(path) -> list[trimesh.Trimesh]:
    mesh = trimesh.load(str(path), force="mesh")
    assert mesh.is_watertight and mesh.is_winding_consistent and mesh.is_volume
    return mesh.split(only_watertight=True)


def footprint(m: trimesh.Trimesh) -> float:
    lo, hi = m.bounds
    return max(hi[0] - lo[0], hi[1] - lo[1])


def test_tafl_pieces_stl_counts_sizes_and_heights(tmp_path):
    parts = bodies(make(tmp_path, "brandubh", "stl", "--square-mm", "25", "--clearance-mm", "3"))
    counts = start_counts("brandubh")
    expected = sum(n + spares(n) for n in counts.values())
    assert len(parts) == expected == 18  # 8+2 attackers, 4+2 defenders, 1+1 king
    for m in parts:
        assert footprint(m) == pytest.approx(22.0, abs=0.05)  # 25 mm squares less 3 mm
        assert m.bounds[0][2] == pytest.approx(0.0, abs=1e-6)  # standing on the plate
    heights = sorted({round(m.extents[2], 2) for m in parts})
    assert len(heights) == 3  # attackers < defenders < kings: three kinds told apart by height
    tallest = [m for m in parts if round(m.extents[2], 2) == heights[-1]]
    assert len(tallest) == counts["K"] + spares(counts["K"])


def test_fox_game_stl_has_the_peg_board_and_pegged_pieces(tmp_path):
    path = make(tmp_path, "fox_geese_13", "stl", "--square-mm", "25", "--hole-mm", "5")
    parts = bodies(path)
    g = find_variant("fox_geese_13").geometry
    board = max(parts, key=lambda m: m.volume)
    w, h = g.extent
    side = w * 25 + 2 * rim_for(25.0)
    assert board.extents == pytest.approx([side, h * 25 + 2 * rim_for(25.0), 6.0], abs=1e-3)
    # one blind hole per point: the board is a plate with g.size pockets, no through holes
    assert board.euler_number == 2
    pieces = [m for m in parts if m is not board]
    counts = start_counts("fox_geese_13")
    assert len(pieces) == sum(n + spares(n) for n in counts.values())
    for m in pieces:
        assert footprint(m) == pytest.approx(22.0, abs=0.05)
        # printed top down, peg up: the top 2 mm are the 4.7 mm peg (a 5 mm hole less 0.3 mm play)
        top = m.vertices[m.vertices[:, 2] > m.bounds[1][2] - 2.0]
        radius = np.hypot(*(top[:, :2] - top[:, :2].mean(axis=0)).T).max()
        assert radius * 2 == pytest.approx(4.7, abs=0.05)
    # the peg fits its hole: the board's pockets are 5 mm across, as deep as the peg is long
    holes = trimesh.intersections.mesh_plane(board, [0, 0, 1], [0, 0, 3.0])
    assert len(holes) > g.size * 10


def test_dablot_ranks_stand_one_draught_per_point_and_markers_are_discs(tmp_path):
    path = make(tmp_path, "dablot_mini", "3mf", "--holes", "none", "--parts", "pieces,markers")
    model = read_3mf(path)
    assert model["warnings"] == 0 and model["unit"] == model["unit_mm"]
    by_name = {o["name"]: o for o in model["objects"].values()}
    assert all(o["manifold"] for o in by_name.values())
    for o in by_name.values():
        m = trimesh.Trimesh(o["vertices"], o["triangles"])
        assert m.is_watertight and m.is_volume, o["name"]
    height = {name: o["vertices"][:, 2].max() for name, o in by_name.items()}
    soldier = height["Saami: soldiers"]
    assert height["Saami: leader's son"] == pytest.approx(2 * soldier)
    assert height["Saami: leader"] == pytest.approx(3 * soldier)
    assert height["Swedes: leader"] == pytest.approx(3 * soldier)
    # the counts of the start position, plus spares, one build item per piece
    counts = start_counts("dablot_mini")
    items = [name for name, _x, _y in model["items"]]
    assert items.count("Saami: soldiers") == counts["s"] + spares(counts["s"])
    assert items.count("Swedes: leader") == counts["K"] + spares(counts["K"])
    # rank markers: discs one draught (30 mm) across, one per piece of each rank
    disc = by_name["Saami: Leader markers"]["vertices"]
    assert np.ptp(disc[:, 0]) == pytest.approx(30.0, abs=0.05) and np.ptp(disc[:, 2]) == pytest.approx(2.4)
    assert items.count("Saami: Soldier markers") == counts["s"]
    # the two armies in their colours, as on paper and on screen (one scheme: South dark, North
    # light, the faces of every game's pieces)
    text = __import__("zipfile").ZipFile(path).read("3D/3dmodel.model").decode()
    assert 'displaycolor="#332B29"' in text and 'displaycolor="#F0E6CC"' in text


def test_3mf_places_every_piece_without_overlap(tmp_path):
    model = read_3mf(make(tmp_path, "fox_hounds", "3mf"))
    assert model["warnings"] == 0
    boxes = []
    objects = {o["name"]: o for o in model["objects"].values()}
    assert set(objects) == {"Peg board", "Fox", "Hounds"}
    for name, x, y in model["items"]:
        v = objects[name]["vertices"]
        boxes.append((v[:, 0].min() + x, v[:, 1].min() + y, v[:, 0].max() + x, v[:, 1].max() + y))
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)


def test_clearance_and_square_size_set_the_piece_size(tmp_path):
    def stl(*args, name):
        return bodies(make(tmp_path, *args, name=name, in_process=True))

    small = stl("brandubh", "stl", "--square-mm", "30", "--clearance-mm", "6", name="a.stl")
    big = stl("brandubh", "stl", "--square-mm", "30", "--clearance-mm", "2", name="b.stl")
    assert {round(footprint(m), 1) for m in small} == {24.0}
    assert {round(footprint(m), 1) for m in big} == {28.0}
    # Dablot's pieces stand on points: room is the shortest line (a half diagonal of a 25 mm square)
    dablot = stl("dablot_mini", "stl", "--parts", "pieces", "--holes", "none", name="d.stl")
    assert {round(footprint(m), 1) for m in dablot} == {round(25 * math.sqrt(0.5) - 3, 1)}


def test_stl_header_is_binary_and_names_the_game(tmp_path):
    data = make(tmp_path, "brandubh", "stl").read_bytes()
    assert not data.startswith(b"solid")  # readers would take it for ASCII STL
    assert b"Brandubh" in data[:80]
    n = int.from_bytes(data[80:84], "little")
    assert len(data) == 84 + 50 * n
