"""Tafl toggles of the king: escape, king_armed, king_capture, king_edge_capture.

Hand-made positions; each test cites the rule source it pins (shared/reference/sources 000..004,
tafl-rules.md, docs/ARCHITECTURE.md §4).
"""

from __future__ import annotations

import pytest
from tafl_helpers import move, piece_on, position, rules_for, targets

from tafl_desktop.core.game import Outcome, Side
from tafl_desktop.core.variants import find_variant, variant_from_data

CAPTURED = Outcome(Side.ATTACKERS, "king_captured")
ESCAPED = Outcome(Side.DEFENDERS, "king_escaped")

# ---------------------------------------------------------------------------------------------- escape


def test_escape_corner_king_wins_on_a_corner_not_on_the_edge():
    """source 001: 'The Swedes win the game if their King reaches any of the corner squares'; source 004
    rule 9."""
    rules = rules_for("copenhagen")
    pos = position(rules, "Kc3 tj9", "defenders")
    new, _ = move(rules, pos, "c3-c1")
    assert new.result is None  # an edge square is not enough
    new, _ = move(rules, position(rules, "Ka3 tj9", "defenders"), "a3-a1")
    assert new.result == ESCAPED


def test_escape_edge_king_wins_on_any_edge_square():
    """source 003: "If 'edge win' (Tablut, Tawlbwrdd) the King wins if he can reach an edge square";
    source 002 (Alea Evangelii): 'If the white King reaches the rim the game is won.'"""
    rules = rules_for("copenhagen", escape="edge")
    new, _ = move(rules, position(rules, "Kc3 tj9", "defenders"), "c3-c1")
    assert new.result == ESCAPED
    alea = rules_for("alea_evangelii")
    new, _ = move(alea, position(alea, "Kc5 tp15", "defenders"), "c5-a5")
    assert new.result == ESCAPED


def test_soldiers_may_not_stop_on_a_corner():
    """source 001: 'Only the King can stand on the Konakis and the corner squares'; source 004 rule 5:
    'Attacking pieces may not sit on a corner square.'"""
    rules = rules_for("copenhagen")
    pos = position(rules, "Kf6 Ta3 tc1", "defenders")
    assert targets(rules, pos, "a3") == {"a2", "a4", "a5", "a6", "a7", "a8", "a9", "a10"} | {
        f"{f}3" for f in "bcdefghijk"}
    pos = position(rules, "Kf6 Ta3 tc1", "attackers")
    assert "a1" not in targets(rules, pos, "c1") and "b1" in targets(rules, pos, "c1")


def _marked_variant(escape: str):
    data = find_variant("tablut").to_data()
    data["board"]["escape_squares"] = ["c1", "g1", "a3", "i7", "c9"]
    data["options"]["escape"] = escape
    return variant_from_data(data, "marked-test").make_rules()


def test_escape_marked_only_the_marked_squares_win():
    """tafl-rules.md 2.1 (escape: PT/AG Ashton Tablut -- '16 marked edge squares only'; OpenTafl cor: lists)."""
    rules = _marked_variant("marked")
    new, _ = move(rules, position(rules, "Kc4 th8", "defenders"), "c4-c1")
    assert new.result == ESCAPED
    new, _ = move(rules, position(rules, "Kd4 th8", "defenders"), "d4-d1")
    assert new.result is None  # d1 is on the edge but not marked
    edge = _marked_variant("edge")
    new, _ = move(edge, position(edge, "Kd4 th8", "defenders"), "d4-d1")
    assert new.result == ESCAPED


# ------------------------------------------------------------------------------------------ king_armed
# Hammer: the king moves f8-f5 next to the attacker on e5, a defender waits on d5.
# Anvil: a defender moves f8-f5, the king waits on d5.
HAMMER = ("Kf8 Td5 te5 ta11", "f8-f5")
ANVIL = ("Kd5 Tf8 te5 ta11", "f8-f5")


@pytest.mark.parametrize(("armed", "hammer_captures", "anvil_captures"), [
    ("yes", True, True),
    ("no", False, False),
    ("hammer", True, False),
    ("anvil", False, True),
])
def test_king_armed(armed, hammer_captures, anvil_captures):
    """tafl-rules.md 2.1 (OpenTafl ka:y|n|h|a, AbstractPlay power armed|unarmed|hammer-only|anvil-only);
    source 001: 'If moving a piece (either an ordinary soldier or the king) ends up surrounding ...'."""
    rules = rules_for("tawlbwrdd", king_armed=armed)  # no throne, no corners: nothing else is hostile
    for (board, mv), expected in ((HAMMER, hammer_captures), (ANVIL, anvil_captures)):
        _, caps = move(rules, position(rules, board, "defenders"), mv)
        assert caps == ({"e5"} if expected else set()), (armed, board)


# ---------------------------------------------------------------------------------------- king_capture
# Tablut 9x9, throne e5 (empty unless the king is on it), throne_hostile = empty_all.
KING_CASES = {
    # far from the throne, two attackers in a row
    "two_far": ("Kc7 tb7 td2 ta1", "d2-d7"),
    # beside the throne, two attackers in the column that misses the throne
    "two_beside": ("Kd5 td6 tb4 ta1", "b4-d4"),
    # beside the throne, one attacker against the empty throne
    "one_and_throne": ("Kd5 tb5 ta1", "b5-c5"),
    # beside the throne: three attackers and the throne
    "three_and_throne": ("Kd5 tc5 td6 tb4 ta1", "b4-d4"),
    # on the throne: two attackers
    "two_on_throne": ("Ke5 td5 tf2 ta1", "f2-f5"),
    # on the throne: four attackers
    "four_on_throne": ("Ke5 td5 tf5 te6 tb4 ta1", "b4-e4"),
}
KING_TABLE = {
    # which king_capture values capture the king in each case
    "two_far": {"custodial", "double_weak", "weak_near_throne"},
    "two_beside": {"custodial", "double_weak"},
    "one_and_throne": {"custodial", "double_weak"},
    "three_and_throne": {"custodial", "double_weak", "weak_near_throne", "strong"},
    "two_on_throne": {"custodial"},
    "four_on_throne": {"custodial", "double_weak", "weak_near_throne", "strong"},
}


@pytest.mark.parametrize("mode", ["custodial", "double_weak", "weak_near_throne", "strong"])
@pytest.mark.parametrize("case", sorted(KING_CASES))
def test_king_capture(mode, case):
    """source 001 (four ways to capture the king); source 002: 'The same capture rules applies also to the
    King, except when it is positioned on the centre square, when it must be surrounded on all four sides.
    If the King is positioned on any of the four squares adjacent to the centre, it must be surrounded on
    three sides, plus the centre square'; source 003: strong / weak / double weak king ('Under double weak
    king rules ... captured custodially ... one step from the throne'); docs/ARCHITECTURE.md §4."""
    rules = rules_for("tablut", king_capture=mode)
    board, mv = KING_CASES[case]
    new, caps = move(rules, position(rules, board), mv)
    if mode in KING_TABLE[case]:
        assert new.result == CAPTURED and new.king == -1
        assert rules.geometry.name(rules.geometry.parse_square(board.split()[0][1:])) in caps
    else:
        assert new.result is None and new.king >= 0


def test_king_is_only_captured_by_an_attacker_move():
    """source 003: 'In all cases the capture has to be made with an enemy move'; source 001: a piece may
    be placed safely between two opponent pieces -- the king included (custodial king)."""
    rules = rules_for("tablut", king_capture="custodial")
    new, caps = move(rules, position(rules, "Kc8 tb7 td7 ta1", "defenders"), "c8-c7")
    assert new.result is None and caps == set()


def test_custodial_king_not_captured_by_a_move_on_the_other_line():
    """source 001: captures are made by the moving piece ('If moving a piece ... ends up surrounding');
    the king standing between b7 and d7 is not taken by an attacker arriving on c6."""
    rules = rules_for("tablut", king_capture="custodial")
    new, _ = move(rules, position(rules, "Kc7 tb7 td7 th6 ta1"), "h6-c6")
    assert new.result is None


# ----------------------------------------------------------------------------------- king_edge_capture


@pytest.mark.parametrize("edge", [False, True])
def test_king_edge_capture_three_on_the_edge(edge):
    """source 001: 'The King is captured when it stands on the edge of the board and the three adjacent
    squares ... are occupied by Muscovites.'  Copenhagen (tafl-rules.md 2.2): the king cannot be
    captured on the edge -- the default."""
    rules = rules_for("copenhagen", king_edge_capture=edge)
    new, _ = move(rules, position(rules, "Ke1 td1 tf1 te4 tj9"), "e4-e2")
    assert (new.result == CAPTURED) is edge


@pytest.mark.parametrize(("edge", "corners_hostile", "captured"), [
    (False, True, False), (True, True, True), (True, False, False)])
def test_king_edge_capture_two_beside_a_corner(edge, corners_hostile, captured):
    """source 001: 'The King is captured when it stands on the edge of the board near the corner and the
    two adjacent squares ... are occupied by Muscovites.' (the corner counts only when hostile)."""
    rules = rules_for("copenhagen", king_edge_capture=edge, corners_hostile=corners_hostile)
    new, _ = move(rules, position(rules, "Kb1 tc1 tb4 tj9"), "b4-b2")
    assert (new.result == CAPTURED) is captured


def test_the_king_may_stop_on_the_throne_and_corners_soldiers_may_not():
    """source 001: 'Only the King can stand on the Konakis and the corner squares.'"""
    rules = rules_for("copenhagen")
    pos = position(rules, "Kf3 Tc6 tj9", "defenders")
    assert "f6" in targets(rules, pos, "f3")
    assert "f6" not in targets(rules, pos, "c6") and "g6" in targets(rules, pos, "c6")
    assert piece_on(rules, pos, "f6") is None


def test_single_step_presets_follow_source_004():
    """source 004 rule 6: 'The king is captured by surrounding him with four pieces'; 'In Papillon's Escape,
    the king needs only to reach the edge of the board, and is captured in the same manner as other
    pieces.'"""
    rules = rules_for("single_step")
    new, _ = move(rules, position(rules, "Ke5 td5 tf5 te7 tb2", "attackers"), "e7-e6")
    assert new.result is None  # three are not enough
    new, _ = move(rules, position(rules, "Ke5 td5 tf5 te4 te7", "attackers"), "e7-e6")
    assert new.result == CAPTURED
    pap = rules_for("papillons_escape")
    new, _ = move(pap, position(pap, "Ke5 td5 tf4 tb2", "attackers"), "f4-f5")
    assert new.result == CAPTURED
    new, _ = move(pap, position(pap, "Kb5 tf4 th2", "defenders"), "b5-a5")
    assert new.result == ESCAPED
