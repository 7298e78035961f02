"""Rule texts speak of each variant's own sides ("the fox", "the officers"), in good grammar.

The Fox-game toggles are declared once for the family; their texts name the sides by placeholders
that each preset's side names fill (tafl_desktop/core/side_words.py).  Side names and counts come
from the preset files, which cite hunt-games.md 2.1 (13 geese, one fox) and 4.3 (24 rebels, two
officers).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tafl_desktop.core.game import Outcome, Side
from tafl_desktop.core.rulebook import rules_text
from tafl_desktop.core.side_words import fill, side_words, singular
from tafl_desktop.core.variants import find_variant, presets

LEFTOVER = re.compile(r"\{(?!n\})[^}]*\}")


def every_text(variant) -> list[str]:
    """Every label, help text and sentence the variant's schema can show, under every value."""
    out = []
    for spec in variant.schema:
        out += [spec.label, spec.help, spec.sentence_on, spec.sentence_off]
        out += [t for c in spec.choices for t in (c.label, c.sentence)]
    return out


@pytest.mark.parametrize("vid", presets())
def test_no_placeholder_is_left_in_any_preset(vid):
    v = find_variant(vid)
    for text in every_text(v) + [rules_text(v)]:
        assert not LEFTOVER.search(text), f"{vid}: {text!r}"
    for reason in ("hunters_captured", "flock_depleted", "broke_through", "trapped", "king_captured"):
        assert "{" not in Outcome(Side.DEFENDERS, reason).describe(v)


def test_fox_and_geese_sentences_name_the_fox_and_the_geese():
    text = rules_text(find_variant("fox_geese_13"))
    assert "The fox wins when fewer than 6 geese remain." in text
    assert "The fox captures by a short jump" in text
    assert "the many" not in text and "hunter" not in text


def test_asalto_sentences_agree_with_two_officers():
    text = rules_text(find_variant("asalto"))
    assert "The officers win when fewer than 9 rebels remain." in text
    assert "An officer captures by a short jump" in text
    assert "every officer that could have captured is removed (huffed)" in text


def test_a_changed_toggle_changes_the_worded_sentence():
    v = find_variant("fox_geese_13").with_options({"first_move": "hunters", "hunter_win_below": 4})
    text = rules_text(v)
    assert "The fox moves first." in text
    assert "The fox wins when fewer than 4 geese remain." in text


def test_outcomes_and_turn_text_agree_with_the_side():
    fox, asalto = find_variant("fox_geese_13"), find_variant("asalto")
    assert Outcome(Side.DEFENDERS, "flock_depleted").describe(fox) == \
        "Fox wins: too few geese are left to trap the fox."
    assert Outcome(Side.ATTACKERS, "trapped").describe(fox) == "Geese win: the fox cannot move."
    assert Outcome(Side.DEFENDERS, "flock_depleted").describe(asalto) == \
        "Officers win: too few rebels are left to trap the officers."
    assert fox.begins_text(Side.ATTACKERS) == "Geese begin"
    assert find_variant("fox_hounds").begins_text(Side.DEFENDERS) == "Fox begins"
    assert Outcome(Side.ATTACKERS, "king_captured").describe() == "Attackers win: the king was captured."


def test_word_helpers():
    assert singular("Foxes") == "fox" and singular("Officers") == "officer" and singular("Fox") == "fox"
    w = side_words(("Sheep", "Foxes"), 2)
    assert fill("{A_hunter} jumps; {n} {many} left", w) == "A fox jumps; {n} sheep left"
    assert side_words(("Rebels", "Officers"), 2)["a_hunter"] == "an officer"


def test_board_text_names_the_kind_of_board():
    assert find_variant("copenhagen").board_text == "11x11 board"
    assert find_variant("fox_geese_13").board_text == "33-point cross"
    assert find_variant("fox_hounds").board_text == "8x8 checkerboard"
    assert find_variant("dablot").board_text == "72-point lattice"


def test_halatafl_board_without_diagonals_says_nothing_of_diagonals():
    """Halatafl is drawn with orthogonal lines only (resources/variants/halatafl.toml, after Arsac,
    hunt-games.md 4.1): the diagonals toggle cannot matter there, so no sheet mentions it."""
    hala, fox = find_variant("halatafl"), find_variant("fox_geese_13")
    assert "diagonal" not in rules_text(hala)
    assert not hala.schema.fits_board("diagonals")
    assert fox.schema.fits_board("diagonals") and "diagonal lines" in rules_text(fox)


def test_side_names_from_a_file_cannot_break_the_rule_text(tmp_path):
    """A shared variant file whose side names hold braces or markup is refused with a message;
    and a name that reaches the texts by another road never breaks a sentence."""
    from dataclasses import replace

    from tafl_desktop.core.variants import VariantError, load_variant

    text = Path(find_variant("fox_geese_13").path).read_text()
    for bad in ('["Geese{0}", "Fox"]', '["<b>Geese</b>", "Fox"]', '["Geese", "' + "F" * 31 + '"]'):
        path = tmp_path / "bad.toml"
        path.write_text(text.replace('sides = ["Geese", "Fox"]', f"sides = {bad}"))
        with pytest.raises(VariantError, match="'sides' must be"):
            load_variant(path)
    path.write_text(text.replace('sides = ["Geese", "Fox"]', 'sides = ["Gæss", "Ræv"]'))
    assert "The ræv wins when fewer than 6 gæss remain." in rules_text(load_variant(path))
    odd = replace(find_variant("fox_geese_13"), sides=("Geese{0}", "Fox"))
    assert "fewer than 6 geese0 remain" in rules_text(odd)
