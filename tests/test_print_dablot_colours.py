"""Dablot's armies in one colour scheme on screen and in print (issue 36 item 8: "dark/light on
screen but red/yellow in print").

The window draws South (the Saami, side 0) in the theme's dark piece colour and North in its light
one (gui/piece_painter.py); the printed pieces, rank markers and the 3D-printed pieces now use the
same dark and light faces as every other game's printed pieces, and the sheet's legend ("South
dark, North light") says so.  Checked on the rendered PDF page, as a player sees the printout.
"""

from __future__ import annotations

import numpy as np
import pypdfium2
import pytest
from PySide6.QtGui import QColor

from tafl_desktop.core.variants import find_variant
from tafl_desktop.gui.piece_painter import face_colour
from tafl_desktop.gui.themes import THEMES
from tafl_desktop.printing import render_set
from tafl_desktop.printing.maker.options import MakerOptions
from tafl_desktop.printing.maker.parts_3d import marker_groups, piece_groups


def page_pixels(data: bytes, index: int) -> np.ndarray:
    """Page ``index`` of the PDF rendered at 60 dpi as an (h, w, 3) array of 0..255."""
    pdf = pypdfium2.PdfDocument(data)
    try:
        bitmap = pdf[index].render(scale=60 / 72)
        return np.asarray(bitmap.to_pil().convert("RGB"), dtype=np.int16)
    finally:
        pdf.close()


def rgb(colour: QColor) -> np.ndarray:
    return np.array([colour.red(), colour.green(), colour.blue()], dtype=np.int16)


@pytest.mark.parametrize("variant_id", ["dablot", "dablot_mini"])
def test_printed_dablot_pieces_wear_the_screen_s_dark_and_light(variant_id):
    variant = find_variant(variant_id)
    data, report = render_set(variant, parts=["pieces", "markers"])
    wood = THEMES["wood"]  # the window's default theme
    south, north = rgb(face_colour("s", wood)), rgb(face_colour("S", wood))
    assert south.sum() < north.sum()  # the screen: South dark, North light
    seen_south = seen_north = 0
    for i in range(len(pypdfium2.PdfDocument(data))):
        px = page_pixels(data, i)
        flat = px.reshape(-1, 3)
        # no strongly coloured face anywhere (the old red and yellow armies were)
        chroma = flat.max(axis=1) - flat.min(axis=1)
        assert (chroma > 64).mean() < 0.001, f"page {i + 1} has coloured faces"
        seen_south += int((np.abs(flat - south).max(axis=1) <= 16).sum())
        seen_north += int((np.abs(flat - north).max(axis=1) <= 16).sum())
    # whole faces of each army's colour as the screen shows it (a 30 mm token is ~5000 pixels)
    assert seen_south > 20_000 and seen_north > 20_000


def test_the_legend_names_the_screen_s_colours():
    from tafl_desktop.printing.pieces_sheet import _faces_sentence

    variant = find_variant("dablot")
    assert _faces_sentence(variant).startswith(f"{variant.side_names[0]} dark, {variant.side_names[1]} light")


def test_3d_printed_dablot_pieces_are_dark_and_light_like_the_others():
    """The 3MF colours: Dablot's armies as Tafl's attackers (dark) and defenders (light)."""
    tafl = {g.colour for g in piece_groups(find_variant("brandubh"), MakerOptions(format="3mf", parts=("pieces",)))}
    variant = find_variant("dablot_mini")
    opts = MakerOptions(format="3mf", parts=("pieces", "markers"), holes="none")
    colours = {g.colour for g in piece_groups(variant, opts) + marker_groups(variant, opts)}
    assert colours == tafl and len(tafl) == 2
