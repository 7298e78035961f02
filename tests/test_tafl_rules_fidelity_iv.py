"""Issue 38 ("Rules fidelity IV"): two defects both engines shared and the readings no source settles.

Every test here runs once per engine (``[python]`` and ``[native]``, see ``conftest.py``), so the
core and the native rules are held to the same rule, which is cited from its source:

* item 1, shield walls on a board without marked corners: the board's corner square is an ordinary
  square there, so a piece that moves onto it brackets a wall like any other piece (source 003,
  rules table: "The line needs to run along the edge of the board, and has to be surrounded by
  enemy men"; Copenhagen rules, tafl-rules.md 2.2: the wall is taken by "bracketing the whole group
  at both ends", a corner square standing in for a bracket only where the board marks one);
* item 2, exit forts with a sealed empty pocket: Copenhagen rules, tafl-rules.md 2.2 (exit fort:
  "king on edge, able to move, fort unbreakable"): a pocket no attacker can ever reach cannot be
  used to break the fort;
* item 3, readings no source settles, now named options (``strict_custodian_squares``,
  ``edge_hostile_king``, ``corners_hostile_occupied``) or a documented reading (``strict_custodian =
  everyone`` takes the king by the king-capture rule in force), each pinned both ways;
* item 4, the Tablut competition's camps: the competition's referee
  (AGalassi/TablutCompetition, ``GameAshtonTablut.checkCaptureWhite``) takes an attacker against a
  camp square except the four middle squares a5, e1, i5 and e9.
"""

from __future__ import annotations

from tafl_helpers import move, position, rules_for

from tafl_desktop.core.game import Outcome, Side

# -- item 1: a shield wall closed on the board's corner square --------------------------------------------
#: The issue's position on Tawlbwrdd (no marked corners): defenders b1 c1 d1, faced by attackers
#: b2 c2 d2, bracketed by the attacker on e1; a3-a1 brackets the other end on the corner square.
WALL_ON_ROW = "/11/11/8K2/11/11/11/11/11/t10/1ttt7/1TTTt6/"


def test_a_move_onto_an_unmarked_corner_square_closes_a_shield_wall():
    """Source 003 and the Copenhagen rules: a row along the edge, each faced by an enemy, is taken by
    bracketing both ends; on Tawlbwrdd the corner square a1 is an ordinary square, so the attacker
    arriving there is the bracket."""
    rules = rules_for("tawlbwrdd", shield_wall=True)
    pos = rules.parse_position(WALL_ON_ROW, Side.ATTACKERS)
    after, taken = move(rules, pos, "a3-a1")
    assert taken == {"b1", "c1", "d1"}
    assert after.result is None


def test_the_corner_square_closes_a_wall_along_the_column_too():
    """The same rule along the a-file: defenders a2 a3 a4 faced by b2 b3 b4, an attacker on a5;
    c1-a1 arrives on the corner square and takes all three."""
    rules = rules_for("tawlbwrdd", shield_wall=True)
    pos = position(rules, "Kf9 ta5 Ta4 Ta3 Ta2 tb4 tb3 tb2 tc1", "attackers")
    _after, taken = move(rules, pos, "c1-a1")
    assert taken == {"a2", "a3", "a4"}


def test_an_empty_unmarked_corner_square_brackets_nothing():
    """Where the corner square is not hostile (no marked corners), it is no bracket while empty:
    closing the other end (f1-e1) with a1 empty takes nothing."""
    rules = rules_for("tawlbwrdd", shield_wall=True)
    pos = position(rules, "Kf9 Tb1 Tc1 Td1 tb2 tc2 td2 tf1", "attackers")
    _after, taken = move(rules, pos, "f1-e1")
    assert taken == set()


def test_a_defender_on_a_corner_square_brackets_an_attackers_wall():
    """The same for the other side: on Copenhagen with defenders allowed into the corners, a defender
    that moves onto the corner a1 brackets attackers b1 c1 faced by defenders b2 c2 against d1."""
    rules = rules_for("copenhagen", corner_entry="defenders", shield_wall_corners=False)
    pos = position(rules, "Kf6 tb1 tc1 Tb2 Tc2 Td1 Ta4", "defenders")
    _after, taken = move(rules, pos, "a4-a1")
    assert taken == {"b1", "c1"}


# -- item 2: an exit fort with a sealed empty pocket ---------------------------------------------------
#: The issue's position: the king on j1, k3 an empty square walled by defenders k4, j3 and k2.
POCKET = "/11/11/11/11/11/8t2/11/6T3T/6TTTT1/6TTT1T/6T2K1/"
#: The same without k4: the attackers can walk into k3 and take k2 against the corner.
OPEN_POCKET = "/11/11/11/11/11/8t2/11/6T4/6TTTT1/6TTT1T/6T2K1/"
#: The same with an attacker already in the pocket.
MANNED_POCKET = "/11/11/11/11/11/8t2/11/6T3T/6TTTTt/6TTT1T/6T2K1/"


def test_a_sealed_empty_pocket_does_not_break_an_exit_fort():
    """Copenhagen rules (tafl-rules.md 2.2): the defenders win when the king is on the edge, can move,
    and "it is impossible for the attackers to break the fort".  k3 can only be entered past k4, j3
    or k2, and each of those can only be taken from k3: no attacker ever stands there, so g1-f1 closes
    a fort the attackers can never break."""
    rules = rules_for("copenhagen")
    pos = rules.parse_position(POCKET, Side.DEFENDERS)
    after, taken = move(rules, pos, "g1-f1")
    assert taken == set()
    assert after.result == Outcome(Side.DEFENDERS, "edge_fort")


def test_a_pocket_the_attackers_can_reach_still_breaks_the_fort():
    """Without k4 the attackers can reach k3 and take k2 against the hostile corner k1, so the fort can
    be broken; with an attacker already on k3 likewise."""
    rules = rules_for("copenhagen")
    for setup in (OPEN_POCKET, MANNED_POCKET):
        pos = rules.parse_position(setup, Side.DEFENDERS)
        after, _taken = move(rules, pos, "g1-f1")
        assert after.result is None, setup


# -- item 4: the Tablut competition's camps -----------------------------------------------------------
def test_the_middle_of_a_camp_takes_no_attacker_in_the_competition():
    """The competition's referee (GameAshtonTablut.checkCaptureWhite) lets every camp square but a5,
    e1, i5 and e9 take part in capturing an attacker: the first move e3-a3 leaves a4 standing."""
    rules = rules_for("tablut_competition")
    after, taken = move(rules, rules.initial_position(), "e3-a3")
    assert taken == set()
    assert rules.piece_at(after, rules.geometry.parse_square("a4")) == "t"


def test_the_other_camp_squares_still_take_attackers_in_the_competition():
    """The same referee takes an attacker against any other camp square, occupied or not: b4 falls to
    c7-c4 against the camp square a4 (an attacker on it)."""
    rules = rules_for("tablut_competition")
    pos = position(rules, "Ke5 ta4 tb4 Tc7", "defenders")
    _after, taken = move(rules, pos, "c7-c4")
    assert taken == {"b4"}


def test_camps_hostile_always_keeps_the_middle_hostile():
    """The reading without the exemption stays available as ``camps_hostile = always`` (tafl-rules.md
    2.2, AGalassi/TablutCompetition issue #4: camps are capturing partners whoever stands on them)."""
    rules = rules_for("tablut_competition", camps_hostile="always")
    _after, taken = move(rules, rules.initial_position(), "e3-a3")
    assert taken == {"a4"}



# -- item 3: readings no source settles, each now a named option or a documented reading --------------------
def test_strict_custodian_squares_chooses_whether_hostile_squares_count():
    """Source 000: under strict custodian a soldier "may NOT rest between two opposing soldiers", and
    hostile squares "count as hostile pieces for the purposes of capture"; whether they count for the
    strict form no source says, so ``strict_custodian_squares`` names it.  b3-b1 stops the attacker
    between the hostile corner a1 and the defender c1: it dies only when hostile squares count."""
    for squares, died in ((True, {"b1"}), (False, set())):
        rules = rules_for("brandubh", strict_custodian="soldiers", strict_custodian_squares=squares)
        pos = position(rules, "Kd4 Tc1 tb3", "attackers")
        _after, taken = move(rules, pos, "b3-b1")
        assert taken == died, squares


def test_strict_custodian_squares_decides_the_hostile_rim_too():
    """The same choice for the hostile rim (source 002's rim as a capturing partner): a5-a3 stops the
    attacker on the edge with the defender b3 on its inner side; it dies only when the rim counts.
    Between two enemy pieces (d6-d5 between c5 and e5) it dies either way (source 000)."""
    for squares, died in ((True, {"a3"}), (False, set())):
        rules = rules_for("brandubh", strict_custodian="soldiers", strict_custodian_squares=squares,
                          edge_hostile=True)
        _after, taken = move(rules, position(rules, "Kd4 Tb3 ta5", "attackers"), "a5-a3")
        assert taken == died, squares
        _after, taken = move(rules, position(rules, "Kd4 Tc5 Te5 td7", "attackers"), "d7-d5")
        assert taken == {"d5"}, squares


def test_strict_custodian_everyone_takes_the_king_by_the_king_capture_rule_in_force():
    """Source 000 speaks of a king "captured like soldiers" when it denies him the bare-faced cheek;
    with ``strict_custodian = everyone`` the king that stops where the king-capture rule in force would
    take him is captured (as the value's text now says): d2-d3 between the attackers c3 and e3 loses
    the king when two attackers capture him, not when it takes four."""
    for mode, result in (("custodial", Outcome(Side.ATTACKERS, "king_captured")), ("strong", None)):
        rules = rules_for("brandubh", strict_custodian="everyone", king_capture=mode)
        after, _taken = move(rules, position(rules, "Kd2 tc3 te3 tb7", "defenders"), "d2-d3")
        assert after.result == result, mode


def test_corners_hostile_occupied_chooses_whether_a_held_corner_stays_hostile():
    """tafl-rules.md 2.3 (OpenTafl's corh: a hostile corner is hostile whoever stands on it); no source ties
    a corner's hostility to its being empty, so ``corners_hostile_occupied`` names it.  With defenders
    allowed into the corners, c3-c1 takes the defender b1 against the corner a1 a defender stands on only
    when held corners stay hostile; against the empty corner it takes b1 either way."""
    for held, taken_there in ((True, {"b1"}), (False, set())):
        rules = rules_for("copenhagen", corner_entry="defenders", corners_hostile_occupied=held)
        _after, taken = move(rules, position(rules, "Kf6 Ta1 Tb1 tc3", "attackers"), "c3-c1")
        assert taken == taken_there, held
        _after, taken = move(rules, position(rules, "Kf6 Tb1 tc3", "attackers"), "c3-c1")
        assert taken == {"b1"}, held


def test_edge_hostile_king_chooses_whether_the_rim_takes_the_king():
    """Source 002 makes "the whole periphery" a capture square in Alea Evangelii, where the king on the
    rim has already won; whether the rim takes the king elsewhere no source says, so
    ``edge_hostile_king`` names it.  With the king captured by two, c4-c2 takes him on c1 against the
    rim only when the rim counts against him; a soldier on the edge falls to it either way."""
    for against_king, result in ((True, Outcome(Side.ATTACKERS, "king_captured")), (False, None)):
        rules = rules_for("brandubh", edge_hostile=True, edge_hostile_king=against_king, king_capture="custodial")
        after, _taken = move(rules, position(rules, "Kc1 tc4 tb7", "attackers"), "c4-c2")
        assert after.result == result, against_king
        _after, taken = move(rules, position(rules, "Kd4 Te1 te4", "attackers"), "e4-e2")
        assert taken == {"e1"}, against_king


def test_the_rule_sheet_says_which_reading_of_held_corners_is_in_force():
    """The printed rules follow the option: one sentence or the other, never both."""
    from tafl_desktop.core.rulebook import rules_text
    from tafl_desktop.core.variants import find_variant

    held = "A corner acts as a capturing partner even while a defender stands on it."
    empty = "A corner square acts against defenders only while it is empty."
    for value, present, absent in ((True, held, empty), (False, empty, held)):
        text = rules_text(find_variant("copenhagen").with_options(
            {"corner_entry": "defenders", "corners_hostile_occupied": value}))
        assert present in text and absent not in text, value
