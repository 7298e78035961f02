"""The window and the printed set draw each side alike: a player who prints the set and plays
along on screen sees the same side dark, and the same leader symbol, in both.

Leader symbols from source 000 (Dablot page): the Swedes' leader wears a crown, the Saami
leader a four-pointed hat.
"""

from __future__ import annotations

import pytest

pytest.importorskip("PySide6")

from tafl_desktop.core.variants import find_variant  # noqa: E402
from tafl_desktop.gui.piece_painter import look  # noqa: E402
from tafl_desktop.printing.markers import armies_for_variant  # noqa: E402
from tafl_desktop.printing.symbols import DARK_KINDS  # noqa: E402


@pytest.mark.parametrize("vid", ["dablot", "dablot_mini"])
def test_dablot_sides_and_leaders_match(vid):
    v = find_variant(vid)
    south, north = armies_for_variant(v)
    for letter in "srop":
        assert look(letter)[0] == south.dark, letter
        assert look(letter.upper())[0] == north.dark, letter.upper()
    assert look("k") == (south.dark, south.symbol) == (True, "hat")
    assert look("K") == (north.dark, north.symbol) == (False, "crown")


@pytest.mark.parametrize("letter", ["t", "T", "K", "f", "h"])
def test_tafl_and_fox_pieces_are_dark_on_both_or_neither(letter):
    assert look(letter)[0] == (letter in DARK_KINDS)
