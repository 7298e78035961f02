"""Copenhagen exit forts, judged from the rule (issue "Rules fidelity II", item 1).

The rule (Copenhagen rules, aagenielsen.dk copenhagen_rules.php, section "Exit forts", as quoted in
tafl-rules.md 2.2 and dcampbell24/hnefatafl website/src/rules.md): "The defenders also win if the king
has contact with the board edge, is able to move, and it is impossible for the attackers to break the
fort."  Its two diagrams, on the bottom edge of the 11x11 board:

    fort 1:  2 . . . . T T . . .       fort 2:  3 . . . . T T . . .
             1 # . . T K . T . .                2 . . . . T . T . .
               a b c d e f g h                  1 # . . . T K T . .

Each test plays the move that completes a fort (or one gap short of it) on all four edges, by
rotating the board a quarter turn at a time.
"""

from __future__ import annotations

import json

import pytest
from tafl_helpers import move, pieces, rules_for

from tafl_desktop.cli import main
from tafl_desktop.core.game import Outcome, Side

FORT = Outcome(Side.DEFENDERS, "edge_fort")
N = 11
FAR_ATTACKERS = "tf7 tc8 th8"  # attackers out in the open, so any leak of the king's space meets them


def turn(square: str, quarter_turns: int) -> str:
    """``square`` of the 11x11 board turned clockwise by 90 degrees ``quarter_turns`` times."""
    f, r = ord(square[0]) - ord("a"), int(square[1:]) - 1
    for _ in range(quarter_turns % 4):
        f, r = r, N - 1 - f
    return f"{chr(ord('a') + f)}{r + 1}"


def turned(spec: str, k: int) -> str:
    return " ".join(tok[0] + turn(tok[1:], k) for tok in spec.split())


def after(rules, spec: str, last_move: str, k: int):
    """The position after the defenders' ``last_move`` from the piece list ``spec``, both turned ``k`` times."""
    pos = rules.parse_position(pieces(rules, turned(spec, k)), Side.DEFENDERS)
    a, b = last_move.split("-")
    new, _ = move(rules, pos, f"{turn(a, k)}-{turn(b, k)}")
    return new


FORT_1 = ("Ke1 Td1 Te2 Tf2 Tg5 " + FAR_ATTACKERS, "g5-g1")
FORT_1_GAP = ("Ke1 Td1 Tf2 Tg5 " + FAR_ATTACKERS, "g5-g1")  # e2 missing: the king's space runs out
FORT_2 = ("Kf1 Te1 Tg1 Te2 Tg2 Tf3 Te7 " + FAR_ATTACKERS, "e7-e3")  # e3 holds f3 from outside
FORT_2_GAP = ("Kf1 Te1 Tg1 Te2 Tg2 Tf3 Te7 " + FAR_ATTACKERS, "e7-e4")  # f3 can be taken from e3 and g3


@pytest.mark.parametrize("k", range(4))
@pytest.mark.parametrize("walls", [True, False])
def test_copenhagen_fort_diagrams_win_on_every_edge(k, walls):
    """Copenhagen rules, 'Exit forts', both diagrams: a fort is found in the position after the defenders'
    move that completes it, on each edge, with shield walls on and off (every wall piece touches the king's
    space, so no shield wall can take it)."""
    rules = rules_for("copenhagen", shield_wall=walls)
    for spec, last in (FORT_1, FORT_2):
        assert after(rules, spec, last, k).result == FORT, (spec, k)


@pytest.mark.parametrize("k", range(4))
def test_the_same_shapes_with_one_gap_are_no_fort(k):
    """Copenhagen rules: 'impossible for the attackers to break the fort'.  Fort 1 without e2 lets the
    attackers in; fort 2 without its outside piece e3 leaves f3 to be captured between e3 and g3."""
    rules = rules_for("copenhagen")
    for spec, last in (FORT_1_GAP, FORT_2_GAP):
        assert after(rules, spec, last, k).result is None, (spec, k)


def test_fort_two_deep_needs_its_outer_defender_to_be_safe_too():
    """Copenhagen rules, fort 2: the piece outside the ring (e3) counts because it can never be captured
    itself (e2 below it, f3 beside it); the same piece standing where it could be taken counts for nothing."""
    rules = rules_for("copenhagen")
    assert after(rules, *FORT_2, 0).result == FORT
    # d3 instead of e3 does not touch f3: f3 is again open to e3 + g3
    assert after(rules, "Kf1 Te1 Tg1 Te2 Tg2 Tf3 Td7 " + FAR_ATTACKERS, "d7-d3", 0).result is None


@pytest.mark.parametrize("k", range(4))
def test_a_fort_closed_by_a_corner_counts(k):
    """Copenhagen rules: corners are restricted squares no attacker may enter; a fort whose space reaches a
    corner is closed there (the king's space does not run on past the corner)."""
    rules = rules_for("copenhagen")
    spec = "Kc1 Tb2 Tc2 Td5 " + FAR_ATTACKERS + " ta5"  # ta5 stands on the far side of the corner a1
    assert after(rules, spec, "d5-d1", k).result == FORT
    # with b2 missing the space runs up the b-file to the attackers: no fort
    assert after(rules, "Kc1 Tc2 Td5 " + FAR_ATTACKERS + " ta5", "d5-d1", k).result is None


def test_no_fort_when_an_attacker_is_inside_or_the_king_cannot_move():
    """Copenhagen rules: 'is able to move' and a fort of the king's men only."""
    rules = rules_for("copenhagen")
    assert after(rules, "Ke1 td1 Te2 Tf2 Tg5 " + FAR_ATTACKERS, "g5-g1", 0).result is None
    assert after(rules, "Ke1 Td1 Te2 Tf5 " + FAR_ATTACKERS, "f5-f1", 0).result is None


def test_fort_found_by_the_cli_as_a_defenders_win(capsys):
    """The contract of `tafl-desktop play ... --json`: the fort ends the game as result defenders, reason
    edge_fort (Copenhagen rules, fort 2)."""
    rules = rules_for("copenhagen")
    text = pieces(rules, FORT_2[0])
    code = main(["play", "copenhagen", "--position", text, "--to-move", "defenders", "--moves", "e7-e3", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["result"] == "defenders" and out["reason"] == "edge_fort"


def test_forts_off_means_no_fort():
    """Fetlar (tafl-rules.md 2.2: exit fort 'no'): the same fort wins nothing with the toggle off."""
    rules = rules_for("copenhagen", edge_forts=False)
    assert after(rules, *FORT_2, 0).result is None


# -- material: a fort the attackers left cannot break (issue "Rules and exchange fidelity III", item 1) --
LONE = "/11/11/11/11/8tTT/8TK1/9TT/11/11/11/11/"  # i7 the only attacker; j6-k6 puts the king on the edge


def test_a_fort_against_a_lone_attacker_is_unbreakable(capsys):
    """Copenhagen rules, 'Exit forts': the defenders win when 'it is impossible for the attackers to break
    the fort'.  With one attacker left no custodial capture can be made away from hostile squares (it takes
    two), so i6, open to i7 and i5, cannot fall: hnefatafl.org judges the fort by the material left the
    same way.  The issue's command, through the real CLI."""
    code = main(["play", "copenhagen", "--position", LONE, "--to-move", "defenders", "--moves", "j6-k6", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and (out["result"], out["reason"]) == ("defenders", "edge_fort")


def test_a_second_attacker_anywhere_breaks_that_fort():
    """The same shape with one more attacker, far away on b2: i6 can now be taken between i7 and i5, so the
    fort is breakable and the game goes on (the count is what decided it, not the shape)."""
    rules = rules_for("copenhagen")
    two = "/11/11/11/11/8tTT/8TK1/9TT/11/11/1t9/11/"
    pos = rules.parse_position(two, Side.DEFENDERS)
    assert move(rules, pos, "j6-k6")[0].result is None
    assert move(rules, rules.parse_position(LONE, Side.DEFENDERS), "j6-k6")[0].result == FORT


@pytest.mark.parametrize("k", range(4))
def test_a_lone_attacker_still_captures_against_a_corner(k):
    """Copenhagen rules: the corners are hostile to all.  The king's space c1, b1, b2 reaches the corner
    a1; the ring piece a2 can be taken from a3 against the corner by one attacker, so the fort is breakable
    even when a single attacker is left.  With a3 held as well, a2 is safe and the fort wins."""
    rules = rules_for("copenhagen")
    assert after(rules, "Kc1 Ta2 Tb3 Tc2 Td5 tk6", "d5-d1", k).result is None
    assert after(rules, "Kc1 Ta2 Ta3 Tb3 Tc2 Td5 tk6", "d5-d1", k).result == FORT
