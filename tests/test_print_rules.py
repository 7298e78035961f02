"""The rule sheet: built from the schema, so toggles change its text; diagrams checked by the engine."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from tafl_desktop.core.game import Side
from tafl_desktop.core.variants import find_variant, presets
from tafl_desktop.printing import render_set
from tafl_desktop.printing.diagrams import rule_diagrams


def _rules_text(variant) -> str:
    data, report = render_set(variant, parts=["rules"])
    reader = PdfReader(io.BytesIO(data))
    # pypdf breaks lines where the PDF does; join them for sentence checks
    return " ".join(" ".join(p.extract_text().split()) for p in reader.pages)


def test_escape_toggle_changes_the_sentence() -> None:
    v = find_variant("copenhagen")
    corner = _rules_text(v)
    edge = _rules_text(v.with_options({"escape": "edge"}))
    corner_sentence = v.schema["escape"].sentence("corner")
    edge_sentence = v.schema["escape"].sentence("edge")
    assert corner_sentence in corner and edge_sentence not in corner
    assert edge_sentence in edge and corner_sentence not in edge
    assert "changed from the preset" in edge and "Any edge square" in edge
    assert "changed from the preset" not in corner


def test_every_active_toggle_sentence_is_printed_and_inactive_ones_are_not() -> None:
    v = find_variant("copenhagen")
    text = _rules_text(v)
    for spec in v.schema:
        sentence = " ".join(spec.sentence(v.options[spec.key]).split())
        if not sentence:
            continue
        if v.schema.is_active(spec.key, v.options):
            assert sentence in text, spec.key
        elif sentence not in " ".join(v.schema[k].sentence(v.options[k]) for k in v.schema.keys() if k != spec.key):
            assert sentence not in text, spec.key


def test_sources_and_starting_position_are_on_the_sheet() -> None:
    v = find_variant("tablut")
    text = _rules_text(v)
    assert "Starting position" in text and "Sources" in text
    for source in v.sources:
        assert " ".join(source.split())[:40] in text


@pytest.mark.parametrize("variant_id", sorted(presets()))
def test_every_diagram_is_what_the_engine_does(variant_id: str) -> None:
    """Independently of the builder, replay each Tafl diagram on its real board."""
    v = find_variant(variant_id)
    diagrams = rule_diagrams(v)
    if v.family in ("tafl", "hunt"):
        assert diagrams, "a rule sheet without pictures"
    if v.family != "tafl":
        return
    rules = v.make_rules()
    g = v.geometry
    for d in diagrams:
        pieces = dict(d.pieces)
        if "K" not in pieces.values():  # the builder parks the king off-picture; do the same
            f0, r0, w, h = d.window
            spare = next(s for s in range(g.size) if not g.is_edge(s) and s not in pieces
                         and not (f0 - 1 <= g.file_rank(s)[0] <= f0 + w and r0 - 1 <= g.file_rank(s)[1] <= r0 + h)
                         and s not in g.marked("throne") | g.marked("corner") | g.marked("camp")
                         and all(n not in pieces for n in g.neighbours(s)))
            pieces[spare] = "K"
        rows = []
        for r in range(g.height - 1, -1, -1):
            row, run = "", 0
            for f in range(g.width):
                p = pieces.get(g.index(f, r))
                if p is None:
                    run += 1
                else:
                    row += (str(run) if run else "") + p
                    run = 0
            rows.append(row + (str(run) if run else ""))
        pos = rules.parse_position("/".join(rows), d.mover)
        move = d.moves[0]
        assert move in [tuple(m) for m in rules.legal_moves(pos)], d.title
        after, taken = rules.play(pos, move)
        if d.escape:
            assert after.result is not None and after.result.winner == Side.DEFENDERS, d.title
        else:
            assert set(taken) == set(d.captured), d.title


def test_king_capture_toggle_changes_the_pictures() -> None:
    v = find_variant("copenhagen")
    strong = [d.title for d in rule_diagrams(v)]
    weak = [d.title for d in rule_diagrams(v.with_options({"king_capture": "custodial"}))]
    assert "King beside the throne" in strong and "King beside the throne" not in weak
    king = next(d for d in rule_diagrams(v) if d.title == "King captured")
    assert sum(1 for p in king.pieces.values() if p == "t") == 4
    king2 = next(d for d in rule_diagrams(v.with_options({"king_capture": "custodial"})) if d.title == "King captured")
    assert sum(1 for p in king2.pieces.values() if p == "t") == 2


def test_hostile_square_pictures_follow_the_toggles() -> None:
    v = find_variant("copenhagen")
    titles = {d.title for d in rule_diagrams(v)}
    assert {"Throne hostile to attackers", "Empty throne hostile to defenders", "Corner hostile"} <= titles
    off = {d.title for d in rule_diagrams(v.with_options({"throne_hostile": "never", "corners_hostile": False}))}
    assert not any("hostile" in t.lower() for t in off)
    rim = {d.title for d in rule_diagrams(find_variant("alea_evangelii"))}
    assert "Hostile rim" in rim


def test_dablot_rank_picture_does_not_deny_the_ambush() -> None:
    """Source 000, Dablot variant 5 (Ambush): lower-ranked pieces that jump one enemy in one turn take it when
    their ranks add up to its own, so with Ambush on the rank diagram may not say 'a soldier can never take
    the son, and only a leader takes a leader'; without it, that is the rule and the caption says so.  The
    printed sheet carries the caption in force."""
    plain = next(d for d in rule_diagrams(find_variant("dablot")) if d.title == "Rank")
    assert "can never take the son" in plain.caption and "only a leader takes a leader" in plain.caption
    ambush = find_variant("dablot").with_options({"ambush": True})
    rank = next(d for d in rule_diagrams(ambush) if d.title == "Rank")
    assert "never" not in rank.caption and "only a leader" not in rank.caption and "Ambush" in rank.caption
    text = _rules_text(ambush)
    assert "a single soldier cannot take the son" in text and "can never take the son" not in text
