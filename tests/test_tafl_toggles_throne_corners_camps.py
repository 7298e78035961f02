"""Tafl toggles of the special squares: throne_hostile, throne_passable, throne_reentry, corners_hostile,
camps (camps_hostile, camp_reentry, camp_crossing).

Hand-made positions; each test cites the rule source it pins (shared/reference/sources 000..004,
tafl-rules.md, docs/ARCHITECTURE.md §4).
"""

from __future__ import annotations

import pytest
from tafl_helpers import game_from, move, position, rules_for, targets

from tafl_desktop.core.game import IllegalMove, Outcome, Side

CAPTURED = Outcome(Side.ATTACKERS, "king_captured")

# -------------------------------------------------------------------------------------- throne_hostile
# Tablut 9x9, throne e5.  The piece on d5 is sandwiched between c5 (the mover) and the throne.
THRONE_CASES = {
    "attacker_beside_empty_throne": ("Kh2 td5 Tc8 ta1", "defenders"),
    "defender_beside_empty_throne": ("Kh2 Td5 tc8 ta1", "attackers"),
    "defender_beside_throned_king": ("Ke5 Td5 tc8 ta1", "attackers"),
    "attacker_beside_throned_king": ("Ke5 td5 Tc8 ta1", "defenders"),  # king_armed = no: the king is no anvil
}
THRONE_TABLE = {  # the throne_hostile values under which d5 is captured
    "attacker_beside_empty_throne": {"attackers", "empty_all", "always"},
    "defender_beside_empty_throne": {"empty_all", "always"},
    "defender_beside_throned_king": {"always"},
    "attacker_beside_throned_king": {"attackers", "empty_all", "always"},
}


@pytest.mark.parametrize("mode", ["never", "attackers", "empty_all", "always"])
@pytest.mark.parametrize("case", sorted(THRONE_CASES))
def test_throne_hostile(mode, case):
    """source 002: 'The corner and centre squares also act like friendly pieces ... Note that the central
    square only functions as capture square when it's empty. (In an alternative variant, it needn't be
    empty to function as capture square.)'; source 003: 'if the throne square is occupied then a King's
    man cannot be captured against it'; Copenhagen (tafl-rules.md 2.2): 'hostile to attackers always, to
    defenders when empty'."""
    rules = rules_for("tablut", throne_hostile=mode, king_armed="no")
    board, mover = THRONE_CASES[case]
    _, caps = move(rules, position(rules, board, mover), "c8-c5")
    assert caps == ({"d5"} if mode in THRONE_TABLE[case] else set())


def test_the_king_against_the_empty_throne_follows_throne_hostile():
    """source 002 (Tablut: the king is captured like a soldier off the throne, the empty centre being a
    capture square) -- with throne_hostile = attackers the empty throne no longer helps against him."""
    for mode, captured in (("empty_all", True), ("always", True), ("attackers", False), ("never", False)):
        rules = rules_for("tablut", throne_hostile=mode, king_capture="custodial")
        new, _ = move(rules, position(rules, "Kd5 tc8 ta1"), "c8-c5")
        assert (new.result == CAPTURED) is captured, mode


# ------------------------------------------------------------------------------------- throne_passable
# Tablut: a piece on e3 moves up the e-file across the empty throne e5.


def _up_the_file(rules, board):
    return {t for t in targets(rules, position(rules, board, "defenders"), "e3") if t[0] == "e" and t > "e3"}


@pytest.mark.parametrize(("mode", "soldier_up"), [
    ("everyone", {"e4", "e6", "e7", "e8", "e9"}),
    ("king", {"e4"}),
    ("nobody", {"e4"}),
])
def test_throne_passable_for_soldiers(mode, soldier_up):
    """source 001: 'In Tablut the soldiers may move over the Konakis but in Hnefatafl such moves are
    forbidden.'  Soldiers never stop on it: 'Only the King can stand on the Konakis'."""
    rules = rules_for("tablut", throne_passable=mode)
    assert _up_the_file(rules, "Kb2 Te3 ta1") == soldier_up
    pos = position(rules, "Kb2 te3 Ta1")
    assert "e5" not in targets(rules, pos, "e3")


@pytest.mark.parametrize(("mode", "king_up"), [
    ("everyone", {"e4", "e6", "e7", "e8", "e9"}),
    ("king", {"e4", "e6", "e7", "e8", "e9"}),
    ("nobody", {"e4"}),
])
def test_throne_passable_for_the_king_without_reentry(mode, king_up):
    """docs/ARCHITECTURE.md §4 'empty throne passable: nobody / king only / everyone' (LU Tablut: nobody passes
    the castle; DC Brandubh: only the king may pass), with throne_reentry off so he cannot stop there."""
    rules = rules_for("tablut", throne_passable=mode, throne_reentry=False)
    assert _up_the_file(rules, "Ke3 Tb2 ta1") == king_up


@pytest.mark.parametrize(("mode", "king_up"), [
    ("everyone", {"e4", "e5", "e6", "e7", "e8", "e9"}),
    ("king", {"e4", "e5", "e6", "e7", "e8", "e9"}),
    pytest.param("nobody", {"e4", "e5"}),
])
def test_throne_passable_for_the_king_with_reentry(mode, king_up):
    """tafl_options throne_passable 'nobody: No piece may pass over the empty throne' / 'king: Only the king
    may pass'.  With re-entry on the king may stop on the throne, but under 'nobody' not cross it."""
    rules = rules_for("tablut", throne_passable=mode, throne_reentry=True)
    assert _up_the_file(rules, "Ke3 Tb2 ta1") == king_up


# -------------------------------------------------------------------------------------- throne_reentry


@pytest.mark.parametrize("reentry", [True, False])
def test_throne_reentry(reentry):
    """source 000 (full tablut): 'once vacated, neither the King's throne square nor the enemy base camps
    can be re-entered by any piece'; Copenhagen (tafl-rules.md 2.2): the king may re-enter."""
    rules = rules_for("tablut", throne_reentry=reentry)
    pos = position(rules, "Kc5 Tb2 ta1", "defenders")
    assert ("e5" in targets(rules, pos, "c5")) is reentry
    assert {"d5", "f5"} <= targets(rules, pos, "c5")  # he may still pass over it (throne_passable = everyone)
    if not reentry:
        assert "may not stop on the throne e5" in rules.explain_illegal(pos, rules.parse_move(pos, "c5-e5"))


def test_king_leaves_the_throne_and_may_or_may_not_come_back():
    """source 000 through a game: the king steps off the throne, then tries to return."""
    for reentry in (True, False):
        rules = rules_for("tablut", throne_reentry=reentry)
        game = game_from(rules, "Ke5 Tb2 ta1", "defenders")
        game.play_text("e5-d5")
        game.play_text("a1-a2")
        if reentry:
            game.play_text("d5-e5")
        else:
            with pytest.raises(IllegalMove, match="throne"):
                game.play_text("d5-e5")


# ------------------------------------------------------------------------------------- corners_hostile


@pytest.mark.parametrize("hostile", [True, False])
def test_corners_hostile(hostile):
    """source 001: '... between the moved piece and another of the player's pieces or a corner square, the
    surrounded enemy piece is removed'; source 002: 'The corner and centre squares also act like friendly
    pieces'."""
    rules = rules_for("brandubh", corners_hostile=hostile)

    def expect(sq):
        return {sq} if hostile else set()

    _, caps = move(rules, position(rules, "Kd4 tb1 Tc5", "defenders"), "c5-c1")
    assert caps == expect("b1")
    _, caps = move(rules, position(rules, "Kd4 Ta2 tc3"), "c3-a3")
    assert caps == expect("a2")
    new, _ = move(rules, position(rules, "Kb1 tc5 tg4"), "c5-c1")  # double-weak king off the throne
    assert (new.result == CAPTURED) is hostile


# ----------------------------------------------------------------------------------------------- camps
# tablut_camps: camps a4 a5 a6 b5 / d1 e1 f1 e2 / i4 i5 i6 h5 / d9 e9 f9 e8; throne e5; edge escape;
# preset: camps_hostile = all, camp_reentry = false, camp_crossing = nobody.


@pytest.mark.parametrize("camps", [True, False])
def test_camps_are_closed_to_defenders_and_the_king(camps):
    """source 000 (full tablut): the attackers' base camps; tafl_options camps: 'defenders and the king may
    not stop on them' (tafl-rules.md 2.2: PT/AG camps)."""
    rules = rules_for("tablut_camps", camps=camps)
    pos = position(rules, "Kc4 Tc6 tg2", "defenders")
    assert targets(rules, pos, "c6") & {"a6", "b6"} == ({"b6"} if camps else {"a6", "b6"})
    assert targets(rules, pos, "c4") & {"a4", "b4"} == ({"b4"} if camps else {"a4", "b4"})
    pos = position(rules, "Kc4 Tc5 tg2", "defenders")
    assert (targets(rules, pos, "c5") & {"a5", "b5"}) == (set() if camps else {"a5", "b5"})


@pytest.mark.parametrize("reentry", [False, True])
def test_camp_reentry(reentry):
    """source 000: 'once vacated, neither the King's throne square nor the enemy base camps can be
    re-entered by any piece'; tafl-rules.md 2.2 (PT/AG): 'black may move within its camp, cannot
    re-enter'."""
    rules = rules_for("tablut_camps", camp_reentry=reentry)
    pos = position(rules, "Kc7 tc1 te2 tb5 th8")
    right_of_c1 = {t for t in targets(rules, pos, "c1") if t[1] == "1"}
    assert right_of_c1 == ({"d1", "e1", "f1", "g1", "h1", "i1"} if reentry else set()) | {"a1", "b1"}
    # inside its own camp an attacker moves freely, and may leave it
    assert {"e1", "e3", "e4", "d2", "f2"} <= targets(rules, pos, "e2")
    assert {"a5", "b6", "b4"} <= targets(rules, pos, "b5")
    # from outside into another camp: h8 -> e8 along rank 8
    assert ("e8" in targets(rules, pos, "h8")) is reentry


@pytest.mark.parametrize(("crossing", "attacker_right", "defender_right"), [
    ("nobody", set(), set()),
    ("attackers", {"g1", "h1", "i1"}, set()),
    ("everyone", {"g1", "h1", "i1"}, {"g1", "h1", "i1"}),
])
def test_camp_crossing(crossing, attacker_right, defender_right):
    """source 000: 'You may decide to permit movement across one's own territory as well ... I would
    suggest that they may be allowed to cross the squares, but not to stop there.'"""
    rules = rules_for("tablut_camps", camp_crossing=crossing)
    pos = position(rules, "Kc7 tc1 tg8")
    assert {t for t in targets(rules, pos, "c1") if t[1] == "1" and t > "c1"} == attacker_right
    pos = position(rules, "Kc7 Tc1 tg8", "defenders")
    assert {t for t in targets(rules, pos, "c1") if t[1] == "1" and t > "c1"} == defender_right


CAMP_CASES = {
    "defender_against_camp": ("Kc7 Tb4 tc2", "attackers", "c2-c4", "b4"),
    "attacker_against_empty_camp": ("Kc7 tb4 Tc2", "defenders", "c2-c4", "b4"),
    "attacker_against_occupied_camp": ("Kc7 tb4 ta4 Tc2", "defenders", "c2-c4", "b4"),
}
CAMP_TABLE = {
    "defender_against_camp": {"defenders", "all", "always"},
    "attacker_against_empty_camp": {"all", "always"},
    "attacker_against_occupied_camp": {"always"},  # tafl-rules.md 2.2: Ashton camps take 'occupied or not'
}


@pytest.mark.parametrize("mode", ["none", "defenders", "all", "always"])
@pytest.mark.parametrize("case", sorted(CAMP_CASES))
def test_camps_hostile(mode, case):
    """source 000: 'all of these squares effectively count as hostile pieces for the purposes of capture'
    and the house rule 'one's OWN territory is NOT considered hostile ... but the opposing player's is'
    (camps_hostile = defenders)."""
    rules = rules_for("tablut_camps", camps_hostile=mode)
    board, mover, mv, victim = CAMP_CASES[case]
    _, caps = move(rules, position(rules, board, mover), mv)
    assert caps == ({victim} if mode in CAMP_TABLE[case] else set())


@pytest.mark.parametrize(("mode", "captured"), [("none", False), ("defenders", True), ("all", True), ("always", True)])
def test_strong_king_beside_two_camps_falls_to_two(mode, captured):
    """source 000: 'rule variants exist that ... require him to be immobilised by total surrounding. In this
    instance he would be able to be captured by two or three enemies instead of four whilst adjacent to
    his throne or an enemy camp.'  b4 touches the camps a4 and b5."""
    rules = rules_for("tablut_camps", king_capture="strong", camps_hostile=mode)
    new, _ = move(rules, position(rules, "Kb4 tb3 tg4"), "g4-c4")
    assert (new.result == CAPTURED) is captured


@pytest.mark.parametrize("to_camp", [False, True])
def test_camp_to_camp(to_camp):
    """Off: source 000 ('once vacated ... the enemy base camps [cannot] be re-entered') and tafl-rules.md 2.2
    (Ashton: black moves within its camp, never re-enters one).  On: OpenTafl's reading (tafl-rules.md 2.3,
    aforre), where a piece standing on any camp square may reach any camp square.  d1 (camp) up the empty
    d-file to d9 (another camp); from outside no camp is entered either way."""
    rules = rules_for("tablut_camps", camp_to_camp=to_camp)
    pos = position(rules, "Kc7 td1 th8")
    assert ("d9" in targets(rules, pos, "d1")) is to_camp
    assert "e8" not in targets(rules, pos, "h8")
    after, _ = move(rules, pos, "d1-d9") if to_camp else (None, None)
    if to_camp:
        assert rules.square_violations(after) == []  # the camps held as many attackers as before


def test_a_defender_on_a_hostile_corner_does_not_make_it_friendly():
    """Our reading, said on the rule sheet: with corner_entry = defenders (source 004 rule 5) and hostile
    corners, a corner stays hostile while a defender stands on it, as OpenTafl's corh plays it (no source
    ties a corner's hostility to its being empty, as Copenhagen does for the throne)."""
    from tafl_desktop.core.rulebook import rules_text
    from tafl_desktop.core.variants import find_variant

    rules = rules_for("single_step", corners_hostile=True)
    _, caps = move(rules, position(rules, "Ke5 Ta1 Ta2 tb3 th8"), "b3-a3")
    assert caps == {"a2"}
    text = rules_text(find_variant("single_step").with_options({"corners_hostile": True}))
    assert "even while a defender stands on it" in text
    assert "even while a defender" not in rules_text(find_variant("single_step"))


def test_escape_safe_is_refused_where_it_cannot_apply(capsys):
    """escape_safe (source 000, 'full tablut') is about edge or marked escapes; with corner escape the panel
    greys it and the command line refuses it with one line (it would otherwise be accepted and ignored)."""
    from tafl_desktop.cli import main

    assert main(["play", "copenhagen", "--set", "escape_safe=true"]) == 1
    err = capsys.readouterr().err
    assert "escape_safe" in err and "edge or marked" in err and "\n" not in err.strip()
    assert main(["play", "copenhagen", "--set", "escape=edge", "--set", "escape_safe=true", "--json"]) == 0
    capsys.readouterr()
    assert main(["play", "copenhagen", "--set", "escape_safe=false"]) == 0  # the value in force anyway
