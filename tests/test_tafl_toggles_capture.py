"""Tafl capture rules and their toggles: custodial basics, edge_hostile, shield_wall (+ flank, corners,
king spared), strict_custodian, immobilisation, linnaean_capture.

Hand-made positions; each test cites the rule source it pins (shared/reference/sources 000..004,
tafl-rules.md).
"""

from __future__ import annotations

import pytest
from tafl_helpers import game_from, move, piece_on, position, rules_for

from tafl_desktop.core.game import Outcome, Side
from tafl_desktop.core.variants import find_variant, variant_from_data

CAPTURED = Outcome(Side.ATTACKERS, "king_captured")

# ------------------------------------------------------------------------------------ custodial basics


def test_custodial_capture_between_mover_and_a_friend():
    """source 004 rule 7: 'A piece is captured when the opponent moves to occupy two opposite sides of it
    along a row or column.'"""
    rules = rules_for("tawlbwrdd")  # no throne, no corners
    _, caps = move(rules, position(rules, "Kc9 Te5 td5 tf2"), "f2-f5")
    assert caps == {"e5"}
    _, caps = move(rules, position(rules, "Kc9 te5 Td5 Tf2", "defenders"), "f2-f5")
    assert caps == {"e5"}


def test_several_pieces_captured_by_one_move():
    """source 001: 'It is possible to capture several pieces in a single move.'"""
    rules = rules_for("tawlbwrdd")
    pos = position(rules, "Kc9 Te6 Tg6 Tf7 td6 th6 tf8 tf2")
    new, caps = move(rules, pos, "f2-f6")
    assert caps == {"e6", "g6", "f7"}
    assert all(piece_on(rules, new, s) is None for s in ("e6", "g6", "f7"))
    assert new.quiet == 0


def test_a_piece_may_move_safely_between_two_enemies_and_is_taken_only_by_a_fresh_move():
    """source 004 rule 8: 'A piece may safely move between two enemies. If the enemy wishes to capture
    it, one of the enemy pieces must be moved away and back again to effect the capture.'"""
    rules = rules_for("single_step")  # defenders first, one-square moves
    game = game_from(rules, "Kh2 Td4 tc5 te5", "defenders")
    assert game.play_text("d4-d5").captures == ()
    assert piece_on(rules, game.position, "d5") == "T"
    assert game.play_text("e5-f5").captures == ()
    game.play_text("h2-h3")
    ply = game.play_text("f5-e5")
    assert {rules.geometry.name(s) for s in ply.captures} == {"d5"}


def test_the_king_too_may_move_between_two_enemies_with_a_custodial_king():
    """source 001: 'Captures are only made when the move forces capturing, so a piece may be placed safely
    between two opponent pieces' -- Papillon's Escape captures the king like any piece (source 004)."""
    rules = rules_for("papillons_escape")
    new, caps = move(rules, position(rules, "Kd4 tc5 te5 ta9", "defenders"), "d4-d5")
    assert caps == set() and new.result is None


def test_captures_are_made_only_by_the_side_that_moves():
    """source 001: 'Captures are only made when the move forces capturing'; source 003: 'For the capture to
    happen the trap needs to be closed by an enemy move.'  The king leaving his throne makes the empty
    throne hostile to his own man on d5 (throne_hostile = empty_all), yet that man survives until an
    attacker closes the trap again."""
    rules = rules_for("tablut")
    game = game_from(rules, "Ke5 Td5 tc5 ta1", "defenders")
    assert game.play_text("e5-e7").captures == ()
    assert piece_on(rules, game.position, "d5") == "T"
    assert game.play_text("a1-a2").captures == ()  # an unrelated attacker move takes nothing either
    game.play_text("e7-f7")
    game.play_text("c5-c6")
    game.play_text("f7-f8")
    ply = game.play_text("c6-c5")
    assert {rules.geometry.name(s) for s in ply.captures} == {"d5"}


# ---------------------------------------------------------------------------------------- edge_hostile


@pytest.mark.parametrize("hostile", [True, False])
def test_edge_hostile_alea_rim_is_a_capturing_partner(hostile):
    """source 002: 'In Alea Evangelii the rules are different ... The whole periphery functions as capture
    square.'  Without it (source 000): 'The edge of the board is not considered to be hostile for such
    captures.'"""
    rules = rules_for("alea_evangelii", edge_hostile=hostile)
    assert rules_for("alea_evangelii").opts["edge_hostile"] is True  # the preset's value

    def expect(sq):
        return {sq} if hostile else set()

    _, caps = move(rules, position(rules, "Kj10 Tc1 tc5"), "c5-c2")
    assert caps == expect("c1")
    _, caps = move(rules, position(rules, "Kj10 ts7 Tp7 tc5", "defenders"), "p7-r7")
    assert caps == expect("s7")
    _, caps = move(rules, position(rules, "Kj10 Ta1 tb5"), "b5-b1")  # Alea has no corner squares
    assert caps == expect("a1")


# ----------------------------------------------------------------------------------------- shield_wall
# Copenhagen (11x11, corners a1/k1/a11/k11), bottom edge.
WALL = "Kf6 Td1 Te1 Tf1 td2 te2 tf2 tc1 tg5"


@pytest.mark.parametrize("on", [True, False])
def test_shield_wall_captures_a_faced_row_bracketed_at_both_ends(on):
    """source 003: 'A line of warriors can be captured in a shield wall formation ... The line needs to
    run along the edge of the board, and has to be surrounded by enemy men.'  Copenhagen (tafl-rules.md
    2.2 table: shield wall yes); Fetlar: no."""
    rules = rules_for("copenhagen", shield_wall=on)
    _, caps = move(rules, position(rules, WALL), "g5-g1")
    assert caps == ({"d1", "e1", "f1"} if on else set())


def test_shield_wall_needs_every_piece_faced():
    """source 003: the line 'has to be surrounded by enemy men' -- e1 is not faced, nothing falls."""
    rules = rules_for("copenhagen")
    _, caps = move(rules, position(rules, WALL.replace(" te2", "")), "g5-g1")
    assert caps == set()


def test_shield_wall_on_a_side_edge_and_by_the_defenders():
    """source 003 / Copenhagen: any edge, either side may capture a shield wall."""
    rules = rules_for("copenhagen")
    _, caps = move(rules, position(rules, "Kf6 Ta4 Ta5 tb4 tb5 ta3 tc6"), "c6-a6")
    assert caps == {"a4", "a5"}
    _, caps = move(rules, position(rules, "Kf6 td1 te1 Td2 Te2 Tc1 Tf5 tj9", "defenders"), "f5-f1")
    assert caps == {"d1", "e1"}


@pytest.mark.parametrize("flank", [True, False])
def test_shield_wall_flank(flank):
    """tafl-rules.md 5.9: 'must be the flanking move (CY wording, OT default swf:y, DC shield_wall_nope)
    vs any closing move (OT swf:n)'.  Here both ends are already bracketed and the last facing attacker
    arrives on e2."""
    rules = rules_for("copenhagen", shield_wall_flank=flank)
    _, caps = move(rules, position(rules, "Kf6 Td1 Te1 Tf1 td2 tf2 tc1 tg1 te5"), "e5-e2")
    assert caps == (set() if flank else {"d1", "e1", "f1"})
    _, caps = move(rules, position(rules, WALL), "g5-g1")  # a flanking move captures either way
    assert caps == {"d1", "e1", "f1"}


@pytest.mark.parametrize("corners", [True, False])
def test_shield_wall_corners(corners):
    """Copenhagen (tafl-rules.md 2.2: 'corner may close'; OpenTafl sw:s vs sw:w): the corner a1 stands in
    for one bracketing piece."""
    rules = rules_for("copenhagen", shield_wall_corners=corners)
    _, caps = move(rules, position(rules, "Kf6 Tb1 Tc1 tb2 tc2 td5"), "d5-d1")
    assert caps == ({"b1", "c1"} if corners else set())


@pytest.mark.parametrize("spared", [True, False])
def test_shield_wall_king_spared(spared):
    """Copenhagen (tafl-rules.md 2.2): 'king may be part of it but is not captured'."""
    rules = rules_for("copenhagen", shield_wall_king_spared=spared)
    new, caps = move(rules, position(rules, "Ke1 Td1 Tf1 td2 te2 tf2 tc1 tg5"), "g5-g1")
    if spared:
        assert caps == {"d1", "f1"} and new.result is None and piece_on(rules, new, "e1") == "K"
    else:
        assert caps == {"d1", "e1", "f1"} and new.result == CAPTURED


@pytest.mark.parametrize(("armed", "captures"), [
    ("yes", True), ("no", False), ("anvil", True),
    pytest.param("hammer", False),
])
def test_shield_wall_standing_king_as_bracket_follows_king_armed(armed, captures):
    """tafl_options king_armed: 'hammer -- can capture by moving, but is no partner for a capture';
    'anvil -- can be the standing partner of a capture'.  The king on c1 brackets the attackers' row."""
    rules = rules_for("copenhagen", king_armed=armed)
    _, caps = move(rules, position(rules, "Kc1 td1 te1 Td2 Te2 Tf5 tj9", "defenders"), "f5-f1")
    assert caps == ({"d1", "e1"} if captures else set())


@pytest.mark.parametrize(("armed", "captures"), [
    ("yes", True), ("no", False), ("hammer", True),
    pytest.param("anvil", False),
])
def test_shield_wall_moving_king_as_bracket_follows_king_armed(armed, captures):
    """tafl_options king_armed (tafl-rules.md 2.1, OpenTafl ka): the king moves f5-f1 to close the row."""
    rules = rules_for("copenhagen", king_armed=armed)
    _, caps = move(rules, position(rules, "Kf5 Tc1 td1 te1 Td2 Te2 tj9", "defenders"), "f5-f1")
    assert caps == ({"d1", "e1"} if captures else set())


# ------------------------------------------------------------------------------------ strict_custodian
# Mini Tablut 7x7 (throne d4, corners), custodial king, preset strict_custodian = soldiers.


@pytest.mark.parametrize(("strict", "dies"), [("off", False), ("soldiers", True), ("everyone", True)])
def test_strict_custodian_soldier_moving_between_two_enemies(strict, dies):
    """source 000 (mini tablut): 'Capture is by the strict custodian method for regular soldiers - he may NOT
    rest between two opposing soldiers and be considered safe ... he must not stop, otherwise he will be
    captured.'  Off: source 004 rule 8."""
    rules = rules_for("mini_tablut_open", strict_custodian=strict)
    new, caps = move(rules, position(rules, "Kf6 tb3 td3 Tc5", "defenders"), "c5-c3")
    assert caps == ({"c3"} if dies else set())
    assert piece_on(rules, new, "c3") == (None if dies else "T")
    new, caps = move(rules, position(rules, "Kf6 Tb3 Td3 tc5"), "c5-c3")  # an attacker alike
    assert caps == ({"c3"} if dies else set())


@pytest.mark.parametrize(("strict", "dies"), [("off", False), ("soldiers", False), ("everyone", True)])
def test_strict_custodian_king_bare_faced_cheek(strict, dies):
    """source 000: 'The King may rest between enemy soldiers if it is his turn, as per the "bare-faced
    cheek" rule variant' (soldiers); 'everyone' makes the king die there too (custodial king)."""
    rules = rules_for("mini_tablut_open", strict_custodian=strict)
    new, _ = move(rules, position(rules, "Kc5 tb3 td3 Tf6", "defenders"), "c5-c3")
    assert (new.result == CAPTURED) is dies


def test_strict_custodian_everyone_still_uses_the_kings_capture_rule():
    """source 000 + source 001: a strong king stepping between two attackers is not 'captured' (he needs
    four), but stepping off the throne into three attackers and the now empty, hostile throne is."""
    rules = rules_for("mini_tablut_open", strict_custodian="everyone", king_capture="strong")
    new, _ = move(rules, position(rules, "Kc5 tb3 td3 Tf6", "defenders"), "c5-c3")
    assert new.result is None
    new, _ = move(rules, position(rules, "Kd4 tb4 tc5 tc3 Tf6", "defenders"), "d4-c4")
    assert new.result == CAPTURED


@pytest.mark.parametrize("strict", ["soldiers", "everyone"])
def test_strict_custodian_counts_hostile_squares(strict):
    """source 000: 'certain squares may also count as hostile soldiers, both for immobilisation or by the
    custodian capture method' -- a defender stopping between an attacker and the empty throne dies."""
    rules = rules_for("mini_tablut_open", strict_custodian=strict)
    _, caps = move(rules, position(rules, "Kf6 tb4 Tc6", "defenders"), "c6-c4")
    assert caps == {"c4"}


def test_strict_custodian_the_movers_own_capture_comes_first():
    """Reading pinned (source 000 is silent): the move's own captures are made first, so a soldier that
    takes one of the two enemies beside it does not stand between two enemies any more."""
    rules = rules_for("mini_tablut_open")
    new, caps = move(rules, position(rules, "Kf6 Tb3 Td3 ta3 tc5"), "c5-c3")
    assert caps == {"b3"} and piece_on(rules, new, "c3") == "t"


# ------------------------------------------------------------------------------------- immobilisation


@pytest.mark.parametrize("on", [True, False])
def test_immobilisation_against_the_rim(on):
    """source 000: 'ANY piece can be captured by IMMOBILISATION ... The edge of the board prevents any
    further movement ... and may therefore count as a lost liberty.'  Custodial capture alone does not
    take a1 (the edge is not hostile)."""
    rules = rules_for("tawlbwrdd", immobilisation=on)  # a1 is an ordinary square here
    _, caps = move(rules, position(rules, "Kf6 Ta1 tb1 ta5"), "a5-a2")
    assert caps == ({"a1"} if on else set())
    _, caps = move(rules, position(rules, "Kf6 ta1 Tb1 Ta5", "defenders"), "a5-a2")
    assert caps == ({"a1"} if on else set())


def test_immobilisation_friends_do_not_take_liberties():
    """source 000: 'A friendly soldier cannot be considered to block another piece's liberty.'"""
    rules = rules_for("tawlbwrdd", immobilisation=True)
    _, caps = move(rules, position(rules, "Kf6 Ta1 Tb1 ta5"), "a5-a2")
    assert caps == set()


def test_immobilisation_counts_hostile_squares():
    """source 000: 'certain squares may also count as hostile soldiers, both for immobilisation ...' --
    b1 beside the corner a1 loses its last liberty to the attacker arriving on b2 (no custodial pair)."""
    on = rules_for("copenhagen", immobilisation=True, shield_wall=False)
    off = rules_for("copenhagen", shield_wall=False)
    board = "Kf6 Tb1 tc1 tb5"
    assert move(on, position(on, board), "b5-b2")[1] == {"b1"}
    assert move(off, position(off, board), "b5-b2")[1] == set()


@pytest.mark.parametrize("on", [True, False])
def test_immobilisation_takes_the_strong_king_on_the_edge(on):
    """source 000: 'Other Tafl games do not allow the King to be captured but insist he is fully
    immobilised' and the edge counts as a lost liberty; Copenhagen's strong king otherwise cannot be
    captured on the edge."""
    rules = rules_for("copenhagen", immobilisation=on)
    new, _ = move(rules, position(rules, "Ka5 ta4 ta6 tc5 tj9"), "c5-b5")
    assert (new.result == CAPTURED) is on


# ----------------------------------------------------------------------------------- linnaean_capture


@pytest.mark.parametrize("on", [True, False])
def test_linnaean_capture_against_the_occupied_throne(on):
    """tafl-rules.md 2.1 (OpenTafl linc:y, hnefatafl-rs linnaean_capture; on in their Tablut presets): a
    defender beside the throned king, whose other three sides are attackers, is taken against the throne."""
    rules = rules_for("tablut", linnaean_capture=on)
    new, caps = move(rules, position(rules, "Ke5 Te4 td5 tf5 te6 te1"), "e1-e3")
    assert caps == ({"e4"} if on else set())
    assert new.result is None  # the king himself still needs four


def test_linnaean_capture_needs_the_king_surrounded_on_the_other_three_sides():
    rules = rules_for("tablut", linnaean_capture=True)
    _, caps = move(rules, position(rules, "Ke5 Te4 td5 te6 te1 ta9"), "e1-e3")
    assert caps == set()
    _, caps = move(rules, position(rules, "Kd2 Te4 td5 tf5 te6 te1"), "e1-e3")  # throne empty: it's hostile
    assert caps == {"e4"}


# king_armed with the other capture rules: the king as a moving piece (hammer) or a standing one (anvil)
KING_MOVES_IMMOBILISE = ("Ka5 ta1 Tb1 tj9", "a5-a2")  # the king takes a1's last liberty by moving
KING_STANDS_IMMOBILISE = ("Ka2 ta1 Tb5 tj9", "b5-b1")  # the king on a2 is one of the walls


@pytest.mark.parametrize(("armed", "by_moving", "by_standing"), [
    ("yes", True, True),
    ("no", False, False),
    pytest.param("hammer", True, False),
    pytest.param("anvil", False, True),
])
def test_immobilisation_follows_king_armed(armed, by_moving, by_standing):
    """source 000 (immobilisation: every liberty taken by enemies, hostile squares or the rim) with
    tafl_options king_armed: 'hammer -- can capture by moving, but is no partner for a capture';
    'anvil -- can be the standing partner of a capture, but cannot capture by moving'."""
    data = find_variant("tawlbwrdd").to_data()
    data["board"]["corners"] = ["k11"]  # one far corner to escape to, so a1 is a plain square and a5 no exit
    rules = variant_from_data(data).with_options(
        {"immobilisation": True, "king_armed": armed, "escape": "corner"}).make_rules()
    for (board, mv), expected in ((KING_MOVES_IMMOBILISE, by_moving), (KING_STANDS_IMMOBILISE, by_standing)):
        _, caps = move(rules, position(rules, board, "defenders"), mv)
        assert caps == ({"a1"} if expected else set()), (armed, board)


@pytest.mark.parametrize(("armed", "dies"), [("yes", True), ("no", False), ("hammer", False), ("anvil", True)])
def test_strict_custodian_standing_king_is_a_partner_only_when_anvil(armed, dies):
    """source 000 strict custodian with tafl_options king_armed: an attacker stopping between the king and
    a defender dies only if the standing king may be a capture partner."""
    rules = rules_for("mini_tablut_open", king_armed=armed)  # strict_custodian = soldiers
    _, caps = move(rules, position(rules, "Kb3 Td3 tc5 Tf6"), "c5-c3")
    assert caps == ({"c3"} if dies else set())
