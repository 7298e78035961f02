"""The rules in force speak only of squares the board has.

A toggle about corner squares (corners hostile, a corner closing a shield wall) or the throne
means nothing on a board without them, so the rule text (CLI, rules viewer, printed rule sheet)
leaves it out and the options panel marks it as not in use.  The schema says so per toggle
(``needs_mark``) and ``variant.schema`` is the family's schema bound to the variant's board.

Before this, Tablut's rule sheet said "The corner squares act as capturing partners against any
piece." although its board has no corner squares (its king escapes to the edge), and Tawlbwrdd's
listed three throne rules for a board with no throne.
"""

from __future__ import annotations

import io

from pypdf import PdfReader

from tafl_desktop.core.rulebook import rules_text
from tafl_desktop.core.variants import FAMILIES, find_variant, variant_from_data

CORNER_SENTENCES = ("The corner squares act as capturing partners against any piece.",
                    "The corner squares do not take part in captures.",
                    "A corner square may stand in for one of the bracketing pieces.")
THRONE_SENTENCES = ("The throne acts as a capturing partner",
                    "over the empty throne",
                    "The king may return to the throne.")


def rule_part(text: str) -> str:
    """The rule sentences only: description, sources and notes may well mention corners (as
    history, or the other reading of a source)."""
    return text.split("\nBoard\n", 1)[1].split("\nSources\n")[0]


def test_tablut_edge_escape_board_has_no_corner_rules():
    """source 003: "If 'edge win' (Tablut, Tawlbwrdd) the King wins if he can reach an edge square";
    the preset's board has a throne and no corner squares, so no corner rule is in force."""
    v = find_variant("tablut")
    assert not v.geometry.marked("corner") and v.options["corners_hostile"] is True  # the stored value
    text = rule_part(rules_text(v))
    assert not any(s in text for s in CORNER_SENTENCES)
    assert "corner" not in text.lower()
    assert "The throne acts as a capturing partner" in text  # the throne is there
    assert not v.schema.is_active("corners_hostile", v.options)
    # the family's schema knows no board: there the toggle still counts (a board may have corners)
    assert FAMILIES["tafl"].schema.is_active("corners_hostile", v.options)


def test_corner_board_keeps_its_corner_rules():
    """source 002: "The corner and centre squares also act like friendly pieces" (capture against
    the corners); Copenhagen's corners also close a shield wall (Copenhagen rules, tafl-rules.md 2.2)."""
    v = find_variant("copenhagen")
    text = rule_part(rules_text(v))
    assert CORNER_SENTENCES[0] in text and CORNER_SENTENCES[2] in text
    assert v.schema.is_active("corners_hostile", v.options)
    assert v.schema.is_active("shield_wall_corners", v.options)


def test_no_throne_no_corners_no_throne_or_corner_rules():
    """Tawlbwrdd in Bell's layout (tafl-rules.md 1.5; OpenTafl's Tawlbwrdd has no throne or corners)
    and Papillon's Escape (source 004 names no throne): neither board has throne or corner squares."""
    for vid in ("tawlbwrdd", "papillons_escape"):
        v = find_variant(vid)
        text = rule_part(rules_text(v))
        assert not any(s in text for s in CORNER_SENTENCES + THRONE_SENTENCES), vid
        assert "Special squares" not in text, vid  # the whole section goes when nothing is left in it
        for key in ("throne_hostile", "throne_passable", "throne_reentry", "corners_hostile"):
            assert not v.schema.is_active(key, v.options), (vid, key)


def test_single_step_has_corners_but_no_throne():
    """source 004: the king wins on a corner; 'It names no throne, so the centre is an ordinary square'
    (preset notes).  Corner rules stay, throne rules go."""
    text = rule_part(rules_text(find_variant("single_step")))
    assert "The corner squares do not take part in captures." in text
    assert not any(s in text for s in THRONE_SENTENCES)


def _copenhagen_board(corners: str) -> dict:
    data = find_variant("copenhagen").to_data()
    data["board"]["corners"] = corners
    data["options"].update({"escape": "edge", "shield_wall": True, "king_edge_capture": True})
    return data


def test_a_clause_about_corners_is_dropped_on_a_board_without_them():
    """source 001 (edge counts against the king): three attackers on the edge, two beside a hostile
    corner -- the second half only where there are corners.  A user's Copenhagen without corner
    squares (escape to the edge) also loses the corner clause of the shield wall (Copenhagen rules)."""
    with_corners = rule_part(rules_text(variant_from_data(_copenhagen_board("corners"))))
    without = rule_part(rules_text(variant_from_data(_copenhagen_board("none"))))
    assert "three attackers capture him on the edge, and two beside a hostile corner" in with_corners
    assert "The board edge counts as an attacker against the king: three attackers capture him on the edge." in without
    assert "corner" not in without.lower()
    assert "A row of two or more pieces along the edge" in without  # the shield wall itself stays


def test_printed_rule_sheet_follows_the_board():
    """The rule sheet PDF uses the same sentences (source 003: Tablut is an 'edge win' game)."""
    from tafl_desktop.printing import render_set

    data, _report = render_set(find_variant("tablut"), parts=["rules"])
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(data)).pages)
    assert "The throne acts as a capturing partner" in text
    assert not any(s in text for s in CORNER_SENTENCES)


def test_rules_viewer_and_options_panel_use_the_board(qtbot):
    """The window's rules viewer leaves the corner rule out, and the options panel greys it out
    (with a tooltip), for Tablut (source 003, edge win) but not for Copenhagen."""
    from tafl_desktop.gui.options_panel import OptionsPanel
    from tafl_desktop.gui.rules_viewer import rules_html

    tablut, copenhagen = find_variant("tablut"), find_variant("copenhagen")
    assert "Corners hostile" not in rules_html(tablut) and "Corners hostile" in rules_html(copenhagen)
    panel = OptionsPanel()
    qtbot.addWidget(panel)
    panel.set_schema(tablut.schema, dict(tablut.options), dict(tablut.preset_options))
    assert not panel.row("corners_hostile").editor.isEnabled()
    assert panel.row("throne_hostile").editor.isEnabled()
    panel.set_schema(copenhagen.schema, dict(copenhagen.options), dict(copenhagen.preset_options))
    assert panel.row("corners_hostile").editor.isEnabled()
