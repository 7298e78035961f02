"""Pieces: round cut-out tokens sized to the board's squares, and fold-over standing pieces.

Counts come from the variant's own starting position (so a user variant with a different army
prints the right number) plus spares for pieces lost or mis-cut.  Tokens are 80% of a square so
they sit inside the lines with room for fingers.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from reportlab.lib.colors import Color
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from tafl_desktop.core.marks import N_pair, number
from tafl_desktop.i18n import _
from tafl_desktop.printing.board_draw import piece_room
from tafl_desktop.printing.cells import CutLayout, CutSheet, Group, flow_cells, intro_text
from tafl_desktop.printing.fonts import FONT
from tafl_desktop.printing.paper import PT, Document, Rect
from tafl_desktop.printing.symbols import DARK_ARMY, LIGHT_ARMY, RankFace, draw_piece, face_colours

TOKEN_SHARE = 0.8  # token diameter / square size


def piece_kinds(variant: Any) -> list[tuple[str, str, str]]:
    """(piece letter, group title, label on a standing piece) in printing order."""
    return _KINDS[variant.family](variant)


def _tafl_kinds(variant: Any) -> list[tuple[str, str, str]]:
    return [("K", _("King"), _("king")), ("T", _("Defenders (the king's side)"), _("defender")),
            ("t", _("Attackers"), _("attacker"))]


def _dablot_kinds(variant: Any) -> list[tuple[str, str, str]]:
    out = []
    for i, side in enumerate(variant.side_names):
        case = str.upper if i == 1 else str.lower
        out += [(case("k"), _("{side}: leader").format(side=side), _("leader")),
                (case("p"), _("{side}: leader's son").format(side=side), _("son")),
                (case("s"), _("{side}: soldiers").format(side=side), _("soldier"))]
        if variant.options.get("promotion"):
            out.append((case("o"), _("{side}: officers, by promotion").format(side=side), _("officer")))
    return out


def _hunt_kinds(variant: Any) -> list[tuple[str, str, str]]:
    many, hunters = variant.side_names
    return [("h", hunters, hunters.lower()), ("f", many, many.lower())]


#: The printed pieces of each family (keyed by ``Family.name``).
_KINDS: dict[str, Callable[[Any], list[tuple[str, str, str]]]] = {
    "tafl": _tafl_kinds, "dablot": _dablot_kinds, "hunt": _hunt_kinds}


def piece_counts(variant: Any) -> dict[str, int]:
    """Pieces of each letter in the starting position (Dablot officers: one per soldier, since
    any soldier may be promoted)."""
    rules = variant.make_rules()
    out: dict[str, int] = {}
    for p in rules.pieces(rules.initial_position()).values():
        out[p] = out.get(p, 0) + 1
    if variant.traits.ranked_pieces and variant.options.get("promotion"):
        for s, o in (("s", "o"), ("S", "O")):
            out[o] = out.get(o, 0) or out.get(s, 0)
    return out


def piece_face(variant: Any) -> Callable[[str], str | RankFace]:
    """Maps a piece letter to what :func:`draw_piece` draws: the letter itself for Tafl and the
    Fox games, a ranked face (army symbol, points) for Dablot."""
    if not variant.traits.ranked_pieces:
        return lambda letter: letter
    from tafl_desktop.printing.markers import armies_for_variant, face_for_letter

    armies = armies_for_variant(variant)
    return lambda letter: face_for_letter(armies, letter)


def spares(count: int) -> int:
    """Spare pieces: one for a king or a pair of hunters, else a tenth of the army (at least two)."""
    if count == 0:
        return 0
    return 1 if count <= 2 else max(2, math.ceil(count / 10))


def token_diameter(variant: Any, square: float, page_body: Rect) -> float:
    """Token size: 80% of the room a piece has on the board, never wider than a page allows."""
    room = square * piece_room(variant.geometry)
    return round(min(room * TOKEN_SHARE, page_body.w - 20, page_body.h - 30), 1)


def _groups(variant: Any, draw_kind) -> list[Group]:
    counts = piece_counts(variant)
    face = piece_face(variant)
    out = []
    for kind, title, label in piece_kinds(variant):
        n = counts.get(kind, 0)
        if not n:
            continue
        extra = 0 if kind in "oO" and variant.traits.ranked_pieces else spares(n)
        out.append(Group(_("{pieces}: {n} + {extra} spare").format(pieces=title, n=n, extra=extra), n + extra,
                         draw_kind(face(kind), label)))
    return out


def token_pages(doc: Document, variant: Any, square: float) -> CutSheet:
    """Round tokens, grouped by kind, with crop ticks; returns the cut squares drawn."""
    d = token_diameter(variant, square, doc.page.body())
    bleed = 1.0 if d >= 10 else 0.6
    layout = CutLayout(d, d, gutter=max(3.0, 2 * bleed + 2.0), bleed=bleed)

    def draw_kind(kind: str | RankFace, _label: str):
        def draw(c: Canvas, r: Rect, _k: int) -> None:
            draw_piece(c, kind, r.x + r.w / 2, r.y + r.h / 2, d / 2, bleed=bleed)
        return draw

    intro = intro_text([
        _("Tokens for {game}: {d} mm across, for {square} mm squares").format(
            game=variant.title, d=number(d), square=number(square)),
        _("Cut along the grey crop marks, then round off the corners (or use a {d} mm circle punch). The faces are "
          "printed a little beyond the cut so no white edge shows.").format(d=number(d)),
        _faces_sentence(variant) + " " + _("Glue the sheet to thin card first for sturdier pieces."),
    ])
    return flow_cells(doc, _("pieces"), _("tokens {d} mm").format(d=number(d)), _groups(variant, draw_kind), layout,
                      intro)


def _faces_sentence(variant: Any) -> str:
    return _FACES[variant.family](variant)


def _dablot_faces(variant: Any) -> str:
    return _("{bottom} dark, {top} light; each piece shows its points, the leaders their army's symbol (the "
             "Swedes' crown, the Saami four-pointed hat).").format(bottom=variant.side_names[0],
                                                                   top=variant.side_names[1])


def _tafl_faces(variant: Any) -> str:
    return _("Attackers are dark, defenders light, the king light with a crown: distinct in black and white too.")


def _hunt_faces(variant: Any) -> str:
    many, hunters = variant.side_names
    if variant.side_count(1) == 1:
        return variant.pair_text(N_pair("The {hunters} is dark with a star, the {many} light: distinct in black and "
                                        "white too."))
    return variant.pair_text(N_pair("The {hunters} are dark with a star, the {many} light: distinct in black and "
                                    "white too."))


#: How the printed faces tell the sides apart, per family.
_FACES: dict[str, Callable[[Any], str]] = {"tafl": _tafl_faces, "dablot": _dablot_faces, "hunt": _hunt_faces}


def standee_size(square: float, body: Rect) -> tuple[float, float, float]:
    """(width, panel height, base tab height) of a standing piece for ``square`` mm squares.

    The piece stands on its two base tabs, which fold out in opposite directions, so its
    footprint (width x 2 tabs) must fit within a square: width 80%, tabs 35% of the width.
    """
    w = min(square, 30.0) * TOKEN_SHARE
    panel, tab = w * 1.25, w * 0.45
    total = 2 * panel + 2 * tab
    k = min(1.0, (body.h - 30) / total, (body.w - 20) / w)
    return round(w * k, 1), round(panel * k, 1), round(tab * k, 1)


def standee_pages(doc: Document, variant: Any, square: float) -> CutSheet:
    """Fold-over standing pieces (a gutter fold: front and upside-down back on one strip)."""
    w, panel, tab = standee_size(square * piece_room(variant.geometry), doc.page.body())
    layout = CutLayout(w, 2 * panel + 2 * tab, gutter=4.0, bleed=1.0)

    def draw_kind(kind: str | RankFace, label: str):
        def draw(c: Canvas, r: Rect, _k: int) -> None:
            _standee(c, kind, label, r, panel, tab)
        return draw

    intro = intro_text([
        _("Standing pieces for {game}: {w} mm wide, for {square} mm squares").format(
            game=variant.title, w=number(w), square=number(square)),
        _("Cut along the crop marks. Fold along the middle dashed line (the top of the piece) and glue front "
          "to back; then fold the two base tabs outwards, one each way, so the piece stands."),
        _("Folding one sheet keeps front and back aligned better than printing on both sides."),
    ])
    return flow_cells(doc, _("standing pieces"), _("{w} mm wide").format(w=number(w)), _groups(variant, draw_kind),
                      layout, intro)


def _standee(c: Canvas, kind: str | RankFace, label: str, r: Rect, panel: float, tab: float) -> None:
    """From the bottom: front base tab, front panel (upright), fold = top of the piece, back
    panel (upside down, so it reads the right way once folded), back base tab."""
    if isinstance(kind, RankFace):
        face, mark = DARK_ARMY if kind.dark else LIGHT_ARMY
    else:
        face, mark = face_colours(kind)
    bleed = 1.0
    c.saveState()
    c.setFillColor(face)
    c.rect((r.x - bleed) * mm, (r.y - bleed) * mm, (r.w + 2 * bleed) * mm, (r.h + 2 * bleed) * mm, stroke=0, fill=1)
    # base tabs a lighter tone of the face, marked "base"
    tint = Color(*(v + (1 - v) * 0.45 for v in (face.red, face.green, face.blue)))
    c.setFillColor(tint)
    c.rect((r.x - bleed) * mm, (r.y - bleed) * mm, (r.w + 2 * bleed) * mm, (tab + bleed) * mm, stroke=0, fill=1)
    c.rect((r.x - bleed) * mm, (r.top - tab) * mm, (r.w + 2 * bleed) * mm, (tab + bleed) * mm, stroke=0, fill=1)
    fold_y = r.y + tab + panel
    for centre_y, angle in ((r.y + tab + panel / 2, 0), (fold_y + panel / 2, 180)):
        c.saveState()
        c.translate((r.x + r.w / 2) * mm, centre_y * mm)
        c.rotate(angle)
        rad = min(r.w, panel) * 0.36
        draw_piece(c, kind, 0, panel * 0.08, rad)
        c.setFillColor(mark)
        size = min(r.w * 0.16, 3.2)
        c.setFont(FONT, size / PT)
        c.drawCentredString(0, (-panel / 2 + size * 0.6) * mm, label)
        c.restoreState()
    # fold lines: dashed, across the piece (folds, not cuts)
    c.setStrokeColor(mark)
    c.setLineWidth(0.2 * mm)
    c.setDash(1.5 * mm, 1.2 * mm)
    for y in (r.y + tab, fold_y, r.top - tab):
        c.line(r.x * mm, y * mm, r.right * mm, y * mm)
    c.restoreState()
