"""The peg board of a game played on squares (issue 36 item 8: the README promises one for
Brandubh): ``print brandubh --format stl|3mf --parts pieces,board`` and the print dialog's Peg
board box.

The board is the laser plan's board as a 6 mm plate: the squares' lines as grooves, the throne and
corner squares engraved (their cross and throne symbol left standing), the coordinates recessed,
and a blind hole (or a dimple) at the centre of every square, where the piece stands.  The board
itself is the variant's geometry: Brandubh is 7 x 7 with a throne in the centre and four corner
squares (reference/sources, tafl-rules.md "Brandubh": "7x7 ... the central square (throne) and the
four corner squares are restricted").
"""

from __future__ import annotations

import numpy as np
import pytest
import trimesh
from maker_helpers import make, read_3mf, run_main

from tafl_desktop.core.board_marks import marks_in_force
from tafl_desktop.core.variants import find_variant
from tafl_desktop.printing.board_draw import rim_for
from tafl_desktop.printing.maker.solids import BOARD_THICKNESS, GROOVE_DEPTH
from tafl_desktop.printing.pieces_sheet import spares

S = 25.0  # mm a square


def square_centres(variant_id: str, square: float = S) -> dict[int, tuple[float, float]]:
    """Each square's centre in mm on the printed plate (x right, y up from the board's corner),
    from the board geometry the window draws."""
    g = find_variant(variant_id).geometry
    rim = rim_for(square)
    height = g.extent[1] * square + 2 * rim
    out = {}
    for i in range(g.size):
        x, y, w, h = g.cell_rect(i)  # cell units, y down
        out[i] = (rim + (x + w / 2) * square, height - (rim + (y + h / 2) * square))
    return out


def split(path) -> tuple[trimesh.Trimesh, list[trimesh.Trimesh]]:
    mesh = trimesh.load(str(path), force="mesh")
    assert mesh.is_watertight and mesh.is_winding_consistent and mesh.is_volume
    parts = mesh.split(only_watertight=True)
    board = max(parts, key=lambda m: m.volume)
    return board, [m for m in parts if m is not board]


def loops(board: trimesh.Trimesh, z: float) -> list[np.ndarray]:
    """The closed outlines of the board's cross-section at height z, each as its points (x, y),
    joined from the plane's cut segments by their shared ends."""
    segments = trimesh.intersections.mesh_plane(board, [0, 0, 1], [0, 0, z])[:, :, :2]
    ends: dict[tuple[float, float], list[int]] = {}

    def key(p: np.ndarray) -> tuple[float, float]:
        return round(float(p[0]), 4), round(float(p[1]), 4)

    for k, (a, b) in enumerate(segments):
        ends.setdefault(key(a), []).append(k)
        ends.setdefault(key(b), []).append(k)
    used: set[int] = set()
    out = []
    for start in range(len(segments)):
        if start in used:
            continue
        used.add(start)
        pts = [segments[start][0], segments[start][1]]
        here = key(segments[start][1])
        while True:
            nxt = next((k for k in ends[here] if k not in used), None)
            if nxt is None:
                break
            used.add(nxt)
            a, b = segments[nxt]
            far = b if key(a) == here else a
            pts.append(far)
            here = key(far)
        out.append(np.asarray(pts))
    return out


def hole_centres(board: trimesh.Trimesh, z: float) -> list[tuple[float, float, float]]:
    """The round holes cut through the plane z: (x, y, diameter) of every small closed ring of
    the board's cross-section there (the plate's own outline is far larger)."""
    out = []
    for pts in loops(board, z):
        c = pts.mean(axis=0)
        d = 2 * np.hypot(*(pts - c).T).mean()
        if d < S * 0.9:
            out.append((float(c[0]), float(c[1]), float(d)))
    return out


def top_at(board: trimesh.Trimesh, x: float, y: float) -> float:
    """The height of the board's top surface at (x, y): the highest triangle above that point."""
    tri = board.triangles  # (n, 3, 3)
    a, b, c = tri[:, 0, :2], tri[:, 1, :2], tri[:, 2, :2]
    v0, v1, p = b - a, c - a, np.array([x, y]) - a
    den = v0[:, 0] * v1[:, 1] - v1[:, 0] * v0[:, 1]
    ok = np.abs(den) > 1e-12  # walls seen edge on have no area from above
    u = np.where(ok, (p[:, 0] * v1[:, 1] - v1[:, 0] * p[:, 1]) / np.where(ok, den, 1), -1)
    v = np.where(ok, (v0[:, 0] * p[:, 1] - p[:, 0] * v0[:, 1]) / np.where(ok, den, 1), -1)
    inside = ok & (u >= -1e-9) & (v >= -1e-9) & (u + v <= 1 + 1e-9)
    z = tri[:, 0, 2] + u * (tri[:, 1, 2] - tri[:, 0, 2]) + v * (tri[:, 2, 2] - tri[:, 0, 2])
    return float(z[inside].max())


def test_brandubh_peg_board_has_a_blind_hole_at_every_square_centre(tmp_path):
    path = make(tmp_path, "brandubh", "stl", "--parts", "pieces,board", "--square-mm", "25", "--hole-mm", "5",
                in_process=True)
    board, pieces = split(path)
    g = find_variant("brandubh").geometry
    assert (g.width, g.height, g.size) == (7, 7, 49)
    side = 7 * S + 2 * rim_for(S)
    assert board.extents == pytest.approx([side, side, BOARD_THICKNESS], abs=1e-3)
    assert board.euler_number == 2  # pockets, not through holes: one closed plate
    # halfway down the holes: one 5 mm hole per square, each on its square's centre
    holes = hole_centres(board, BOARD_THICKNESS / 2)
    assert len(holes) == g.size
    assert all(d == pytest.approx(5.0, abs=0.1) for _x, _y, d in holes)
    centres = list(square_centres("brandubh").values())
    for x, y, _d in holes:
        nearest = min(np.hypot(x - cx, y - cy) for cx, cy in centres)
        assert nearest < 0.05
    # and every square has its own hole (no square missed, none drilled twice)
    matched = {min(range(len(centres)), key=lambda k: np.hypot(x - centres[k][0], y - centres[k][1]))
               for x, y, _d in holes}
    assert len(matched) == g.size
    # blind: the bottom 1.5 mm is whole
    assert hole_centres(board, 1.0) == []
    # Tafl's knob and crown cannot lie on the plate, so the pieces get a socket underneath and
    # loose pegs come with them: 4.7 mm (the 5 mm hole less 0.3 mm play), one per piece
    counts = {"t": 8, "T": 4, "K": 1}
    n = sum(k + spares(k) for k in counts.values())
    pegs = [m for m in pieces if m.extents[0] < 5.0]
    assert len(pegs) == n and len(pieces) == 2 * n
    for m in pegs:
        assert m.extents[:2] == pytest.approx([4.7, 4.7], abs=0.05)
        # as long as the board's hole is deep and the shallowest socket
        assert m.extents[2] == pytest.approx(4.0 + 4.0, abs=0.01)
    for m in pieces:
        assert m.bounds[0][2] == pytest.approx(0.0, abs=1e-6)
        if m.extents[0] > 5.0:
            # a socket 4.8 mm across under each piece: the section 1 mm up has a ring
            rings = sorted(d for _x, _y, d in hole_centres(m, 1.0))
            assert rings[0] == pytest.approx(4.8, abs=0.1) and rings[1:] == [pytest.approx(22.0, abs=0.1)]
            assert [d for _x, _y, d in hole_centres(m, 4.5) if d < 10] == []


def test_throne_and_corners_are_engraved_and_the_lines_are_grooves(tmp_path):
    path = make(tmp_path, "brandubh", "stl", "--parts", "board", "--holes", "none", in_process=True)
    board, pieces = split(path)
    assert pieces == []
    v = find_variant("brandubh")
    g, marks = v.geometry, marks_in_force(v)
    centres = square_centres("brandubh")
    special = marks.throne | marks.corner
    assert len(marks.throne) == 1 and len(marks.corner) == 4
    groove = BOARD_THICKNESS - GROOVE_DEPTH
    for i in range(g.size):
        cx, cy = centres[i]
        # a point a fifth of a square from the centre, clear of the cross and the throne's symbol
        probe = top_at(board, cx + S * 0.2, cy + S * 0.02)
        if i in special:
            assert probe == pytest.approx(groove, abs=1e-3), g.name(i)
        else:
            assert probe == pytest.approx(BOARD_THICKNESS, abs=1e-3), g.name(i)
    # a line between two squares is a groove; so is the frame around them
    (ax, ay), (bx, _by) = centres[g.index(2, 2)], centres[g.index(3, 2)]
    assert top_at(board, (ax + bx) / 2, ay + S * 0.2) == pytest.approx(groove, abs=1e-3)
    rim = rim_for(S)
    assert top_at(board, rim, ay) == pytest.approx(groove, abs=1e-3)
    # the corner square keeps its cross standing: the square's centre is at full height
    corner = centres[min(marks.corner)]
    assert top_at(board, *corner) == pytest.approx(BOARD_THICKNESS, abs=1e-3)


def test_dimples_instead_of_holes(tmp_path):
    path = make(tmp_path, "brandubh", "3mf", "--parts", "pieces,board", "--holes", "engrave", "--hole-mm", "8",
                in_process=True)
    model = read_3mf(path)
    assert model["warnings"] == 0 and all(o["manifold"] for o in model["objects"].values())
    assert "Peg board" in {o["name"] for o in model["objects"].values()}
    stl = make(tmp_path, "brandubh", "stl", "--parts", "pieces,board", "--holes", "engrave", "--hole-mm", "8",
               in_process=True)
    board, pieces = split(stl)
    # dimples 1.5 mm deep: 8 mm rings just under the top, none lower
    assert len(hole_centres(board, BOARD_THICKNESS - 1.0)) == 49
    assert hole_centres(board, BOARD_THICKNESS - 2.0) == []
    # a dimple holds a round-bottomed piece: no pegs on the pieces
    assert all(m.bounds[0][2] == pytest.approx(0.0, abs=1e-6) for m in pieces)
    assert max(m.extents[0] for m in pieces) == pytest.approx(22.0, abs=0.05)


def test_holes_without_the_peg_board_are_refused_in_one_line(tmp_path):
    done = run_main("print", "brandubh", "--format", "3mf", "--hole-mm", "5", "--out", str(tmp_path / "x.3mf"))
    assert done.returncode != 0
    assert done.stderr.strip().count("\n") == 0
    assert "peg board" in done.stderr and "--parts pieces,board" in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_holes_too_large_for_the_squares_are_refused(tmp_path):
    done = run_main("print", "brandubh", "--format", "stl", "--parts", "board", "--square-mm", "10",
                    "--hole-mm", "9", "--out", str(tmp_path / "x.stl"))
    assert done.returncode != 0 and "do not fit" in done.stderr
    assert list(tmp_path.iterdir()) == []
