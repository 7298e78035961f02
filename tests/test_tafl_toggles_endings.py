"""Tafl toggles that end a game: edge_forts, encirclement, repetition (+ repetition_count), no_moves,
captureless_draw; the same rules through the CLI contract, and malformed variant files.

Hand-made positions; each test cites the rule source it pins (shared/reference/sources 000..004,
tafl-rules.md).
"""

from __future__ import annotations

import json

import pytest
from tafl_helpers import diagram, game_from, move, pieces, position, rules_for

from tafl_desktop.cli import main
from tafl_desktop.core.game import Game, Outcome, Side

FORT = Outcome(Side.DEFENDERS, "edge_fort")
ENCIRCLED = Outcome(Side.ATTACKERS, "encircled")

# ----------------------------------------------------------------------------------------- edge_forts
# Copenhagen 11x11.  The king on e1 with the free square f1 inside d1 e2 f2 g1; the last wall piece
# arrives on g1 from g5.
FORT_BOARD = "Ke1 Td1 Te2 Tf2 Tg5 tj9 tb9"


@pytest.mark.parametrize("on", [True, False])
def test_edge_fort_unbreakable_ring_wins_for_the_defenders(on):
    """source 003: "If the King's men can form a guard around the King on the edge of the board that has an
    internal liberty then the defending side gets the win"; Copenhagen (tafl-rules.md 2.2): 'exit fort:
    king on edge, able to move, fort unbreakable'; Fetlar: no."""
    rules = rules_for("copenhagen", edge_forts=on)
    new, _ = move(rules, position(rules, FORT_BOARD, "defenders"), "g5-g1")
    assert new.result == (FORT if on else None)


def test_edge_fort_that_attackers_could_break_is_no_fort():
    """source 003 / Copenhagen: the fort must be unbreakable.  With f2 inside, the wall piece f3 can be
    captured from e3 and g3, so nothing is won."""
    rules = rules_for("copenhagen")
    new, _ = move(rules, position(rules, "Ke1 Tb1 Te2 Tg2 Tg1 Tf3 tj9 tb9", "defenders"), "b1-d1")
    assert new.result is None
    # the same last move closing the two-square fort of FORT_BOARD does win
    new, _ = move(rules, position(rules, "Ke1 Tb1 Te2 Tf2 Tg1 tj9 tb9", "defenders"), "b1-d1")
    assert new.result == FORT


def test_edge_fort_needs_the_king_able_to_move():
    """source 003: the guard must have 'an internal liberty'; Copenhagen: 'able to move'."""
    rules = rules_for("copenhagen")
    new, _ = move(rules, position(rules, "Ke1 Td1 Te2 Tf5 tj9 tb9", "defenders"), "f5-f1")
    assert new.result is None


def test_edge_fort_must_be_walled_by_defenders_only():
    """Copenhagen (tafl-rules.md 2.2): a fort of the king's men -- an attacker in the wall (d1) is no fort."""
    rules = rules_for("copenhagen")
    new, caps = move(rules, position(rules, "Ke1 td1 Te2 Tf2 Tg5 tj9", "defenders"), "g5-g1")
    assert caps == set() and new.result is None


# --------------------------------------------------------------------------------------- encirclement
RING = """
7 .......
6 ..ttt..
5 .tT..t.
4 .t.KTt.
3 .t...t.
2 ..tt...
1 ....t..
"""


@pytest.mark.parametrize("on", [True, False])
def test_encirclement_closing_the_ring_wins_for_the_attackers(on):
    """Copenhagen (tafl-rules.md 2.2 'encirclement: attackers win'; docs/ARCHITECTURE.md §4: 'attackers win by
    enclosing all defenders')."""
    rules = rules_for("brandubh", encirclement=on)
    new, _ = move(rules, position(rules, RING), "e1-e2")
    assert new.result == (ENCIRCLED if on else None)


def test_encirclement_needs_every_defender_inside():
    """tafl_options encirclement: 'enclose every defender so that none can reach the edge' -- one defender
    outside the ring (on a6) keeps the game going."""
    rules = rules_for("brandubh", encirclement=True)
    board = RING.replace("6 ..ttt..", "6 T.ttt..")
    new, _ = move(rules, position(rules, board), "e1-e2")
    assert new.result is None


def test_encirclement_not_while_a_gap_is_open():
    rules = rules_for("brandubh", encirclement=True)
    new, _ = move(rules, position(rules, RING), "e1-f1")
    assert new.result is None


# ------------------------------------------------------------------------------------------ repetition
# Copenhagen: one attacker and one defender shuttle; the start position recurs every four plies.
SHUTTLE = "Kf6 Tb2 tj9 tb10"
CYCLE_A = ["j9-j8", "b2-b3", "j8-j9", "b3-b2"]  # attackers to move first
CYCLE_D = ["b2-b3", "j9-j8", "b3-b2", "j8-j9"]  # defenders to move first


def _shuttle(rules, first: str, plies: int) -> Game:
    game = game_from(rules, SHUTTLE, first)
    cycle = CYCLE_A if first == "attackers" else CYCLE_D
    for i in range(plies):
        game.play_text(cycle[i % 4])
    return game


def test_repetition_allowed():
    """docs/ARCHITECTURE.md §4: repetition 'allowed' -- nothing happens however often a position recurs."""
    rules = rules_for("copenhagen", repetition="allowed")
    assert _shuttle(rules, "attackers", 16).outcome is None


@pytest.mark.parametrize("count", [2, 3, 4])
def test_repetition_draw_after_repetition_count_occurrences(count):
    """tafl-rules.md 2.2 (Fetlar 2013: 'threefold with same side to move = draw'); repetition_count sets
    how many occurrences make the repetition."""
    rules = rules_for("copenhagen", repetition="draw", repetition_count=count)
    game = _shuttle(rules, "attackers", 4 * (count - 1) - 1)
    assert game.outcome is None
    game.play_text(CYCLE_A[3])
    assert game.outcome == Outcome(None, "repetition")


@pytest.mark.parametrize("first", ["attackers", "defenders"])
def test_repetition_defenders_lose_whoever_repeats(first):
    """source 002: 'If White repeats moves, he loses, too'; Copenhagen (tafl-rules.md 2.2): 'perpetual
    repetition -> defenders lose'; source 003: 'It will be up to defending side to halt any repetition'."""
    rules = rules_for("copenhagen", repetition="defenders_lose")
    game = _shuttle(rules, first, 7)
    assert game.outcome is None
    game.play_text((CYCLE_A if first == "attackers" else CYCLE_D)[3])
    assert game.outcome == Outcome(Side.ATTACKERS, "repetition")


@pytest.mark.parametrize(("first", "winner"), [("attackers", Side.ATTACKERS), ("defenders", Side.DEFENDERS)])
def test_repetition_mover_loses(first, winner):
    """tafl-rules.md 2.1 (OpenTafl tfr:w 'side that completes the 3rd occurrence loses'; hnefatafl-rs
    repetition_rule is_loss).  Attackers first: the defenders' b3-b2 makes the third occurrence; defenders
    first: the attackers' j8-j9 does."""
    rules = rules_for("copenhagen", repetition="mover_loses")
    game = _shuttle(rules, first, 8)
    assert game.outcome == Outcome(winner, "repetition")


def test_repetition_undo_forgets_the_occurrence():
    rules = rules_for("copenhagen", repetition="draw", repetition_count=2)
    game = _shuttle(rules, "attackers", 4)
    assert game.outcome is not None
    game.undo()
    assert game.outcome is None


# -------------------------------------------------------------------------------------------- no_moves
NO_MOVE_ATTACKERS = ("Kf6 tb1 Tc1 Tb2", "attackers")  # b1 is hemmed in by the corner a1, c1 and b2
NO_MOVE_DEFENDERS = ("Ke1 td1 tf1 Te2 td2 tf2 te3", "defenders")  # king and his one man are boxed in


@pytest.mark.parametrize(("board", "stuck"), [NO_MOVE_ATTACKERS, NO_MOVE_DEFENDERS])
@pytest.mark.parametrize("mode", ["loses", "draw"])
def test_no_moves(mode, board, stuck):
    """tafl-rules.md 2.1 / 5.8: no legal move -- 'loses (Copenhagen, DC, BB Brandubh/Copenhagen) vs draw
    (Fetlar 2013, PY, BB Tablut)'."""
    rules = rules_for("copenhagen", no_moves=mode)
    pos = position(rules, board, stuck)
    assert rules.legal_moves(pos) == []
    expected = Outcome(None, "no_moves") if mode == "draw" else Outcome(Side.parse(stuck).other, "no_moves")
    assert rules.outcome(pos) == expected
    assert Game(rules, pos).outcome == expected


def test_no_moves_only_counts_for_the_side_to_move():
    rules = rules_for("copenhagen")
    board, stuck = NO_MOVE_ATTACKERS
    assert rules.outcome(position(rules, board, "defenders")) is None


# ------------------------------------------------------------------------------------- captureless_draw


def test_captureless_draw_after_n_quiet_moves():
    """tafl-rules.md 2.1 'game length: max moves / captureless moves' (hnefatafl-rs
    draw_after_captureless_plays)."""
    rules = rules_for("copenhagen", captureless_draw=3)
    game = game_from(rules, SHUTTLE, "attackers")
    game.play_text("j9-j8")
    game.play_text("b2-b3")
    assert game.outcome is None
    game.play_text("j8-j7")
    assert game.outcome == Outcome(None, "no_captures")
    off = rules_for("copenhagen", captureless_draw=0, repetition="allowed")
    assert _shuttle(off, "attackers", 12).outcome is None


def test_captureless_draw_counter_restarts_after_a_capture():
    """tafl-rules.md 2.1: the count is of moves *without a capture*."""
    rules = rules_for("copenhagen", captureless_draw=2)
    board = "Kf6 Td5 te5 tc8 tj9 Tb2"
    game = game_from(rules, board, "attackers")
    game.play_text("j9-j8")
    assert game.outcome is None
    game.play_text("b2-b3")
    assert game.outcome == Outcome(None, "no_captures")
    game = game_from(rules, board, "attackers")
    assert len(game.play_text("c8-c5").captures) == 1  # d5 falls: the count starts again
    game.play_text("b2-b3")
    assert game.outcome is None
    game.play_text("j9-j8")
    assert game.outcome == Outcome(None, "no_captures")


# ---------------------------------------------------------------------------------------------- the CLI


def _play(capsys, *argv):
    code = main(["play", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_shield_wall_toggle_changes_the_captures(capsys):
    """CLI contract (--position/--to-move/--set/--moves/--json) on source 003's shield wall."""
    rules = rules_for("copenhagen")
    pos = pieces(rules, "Kf6 Td1 Te1 Tf1 td2 te2 tf2 tc1 tg5")
    code, out, _ = _play(capsys, "copenhagen", "--position", pos, "--to-move", "attackers", "--moves", "g5-g1",
                         "--json")
    data = json.loads(out)
    assert code == 0 and sorted(data["captures"][0]) == ["d1", "e1", "f1"]
    assert data["to_move"] == "defenders" and data["result"] is None
    code, out, _ = _play(capsys, "copenhagen", "--position", pos, "--to-move", "attackers",
                         "--set", "shield_wall=false", "--moves", "g5-g1", "--json")
    assert json.loads(out)["captures"] == [[]]


def test_cli_king_capture_toggle_decides_the_result(capsys):
    """source 002: in Tablut the king away from the centre is captured like a soldier; source 003: a strong
    king needs four -- the same move, two results."""
    pos = diagram("""
        9 .........
        8 .........
        7 .tK......
        6 .........
        5 .........
        4 .........
        3 .........
        2 ...t.....
        1 t........
    """)
    base = ("tablut", "--position", pos, "--to-move", "attackers", "--moves", "d2-d7", "--json")
    code, out, _ = _play(capsys, *base)
    data = json.loads(out)
    assert code == 0 and (data["result"], data["reason"]) == ("attackers", "king_captured")
    assert data["captures"] == [["c7"]]
    code, out, _ = _play(capsys, *base, "--set", "king_capture=strong")
    data = json.loads(out)
    assert data["result"] is None and data["captures"] == [[]] and data["to_move"] == "defenders"


def test_cli_edge_fort_and_repetition_results(capsys):
    rules = rules_for("copenhagen")
    code, out, _ = _play(capsys, "copenhagen", "--position", pieces(rules, FORT_BOARD), "--to-move", "defenders",
                         "--moves", "g5-g1", "--json")
    assert (json.loads(out)["result"], json.loads(out)["reason"]) == ("defenders", "edge_fort")
    code, out, _ = _play(capsys, "copenhagen", "--position", pieces(rules, SHUTTLE), "--to-move", "attackers",
                         "--moves", " ".join(CYCLE_A * 2), "--json")
    assert (json.loads(out)["result"], json.loads(out)["reason"]) == ("attackers", "repetition")


def test_cli_move_after_the_end_is_refused(capsys):
    rules = rules_for("copenhagen")
    code, _, err = _play(capsys, "copenhagen", "--position", pieces(rules, FORT_BOARD), "--to-move", "defenders",
                         "--moves", "g5-g1 j9-j8")
    assert code == 2 and "j9-j8" in err and "game is over" in err


# --------------------------------------------------------------------------------- malformed variant files
HEAD = 'id = "x"\nname = "X"\n[board]\nwidth = 7\n'
GOOD_SETUP = 'setup = "/7/7/7/3K3/7/7/7/"\n'


@pytest.mark.parametrize(("text", "needles"), [
    ('id = "x"\nname = "X"\n[board\nwidth = 7\n', ("not valid TOML", "line 3")),
    (HEAD + GOOD_SETUP + '[options]\nking_colour = "red"\n', ("unknown option 'king_colour'",)),
    (HEAD + GOOD_SETUP + "[options]\nking_speed = 40\n", ("'king_speed' = 40", "from 0 to 18")),
    (HEAD + GOOD_SETUP + '[options]\nthrone_hostile = "sometimes"\n', ("'throne_hostile'", "'empty_all'")),
    (HEAD + GOOD_SETUP + "[options]\nshield_wall = 1\n", ("'shield_wall'", "true or false")),
    (HEAD + 'setup = "/7/7/7/3K2/7/7/7/"\n', ("board.setup", "row 4", "covers 6 squares")),
    (HEAD + 'setup = "/7/7/K6/3K3/7/7/7/"\n', ("board.setup", "two kings")),
    (HEAD + 'setup = "/7/7/7/7/7/7/7/"\n', ("board.setup", "no king")),
    (HEAD + 'setup = "/7/7/7/3K3/7/7/7/"\nthrone = "z9"\n', ("board.throne",)),
])
def test_malformed_variant_file_is_rejected_naming_file_and_key(tmp_path, capsys, text, needles):
    """variants.py contract: errors name the file, the key (or the TOML line) and what is allowed; the CLI
    prints one line and exits non-zero."""
    f = tmp_path / "broken_variant.toml"
    f.write_text(text)
    code, out, err = _play(capsys, str(f), "--json")
    assert code == 1 and out == ""
    assert err.startswith("tafl-desktop: ") and err.count("\n") == 1 and "Traceback" not in err
    assert "broken_variant.toml" in err, err
    for needle in needles:
        assert needle in err, (needle, err)


def test_well_formed_variant_file_plays(tmp_path, capsys):
    f = tmp_path / "fine.toml"
    f.write_text(HEAD + 'setup = "/3t3/7/7/3K3/7/7/7/"\n[options]\nescape = "edge"\n')
    code, out, _ = _play(capsys, str(f), "--to-move", "defenders", "--moves", "d4-a4", "--json")
    assert code == 0 and json.loads(out)["reason"] == "king_escaped"
