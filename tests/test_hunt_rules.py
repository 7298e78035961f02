"""The Fox games, pinned with small positions.  "HG x.y" cites shared/reference/hunt-games.md."""

from __future__ import annotations

from collections import Counter

import pytest

from tafl_desktop.core.game import Game, Side
from tafl_desktop.core.geometry import checkerboard, cross_board, dablot_lattice
from tafl_desktop.core.variants import find_variant

FLOCK, HUNTERS = Side(0), Side(1)


def setup(vid: str, position: str, to_move: Side, **changes):
    rules = find_variant(vid).with_options(changes).make_rules()
    return rules, rules.parse_position(position, to_move)


def texts(rules, moves) -> set[str]:
    return {rules.move_text(m) for m in moves}


def degrees(g) -> list[tuple[int, int]]:
    deg: Counter = Counter()
    for a, b, _ in g.lines:
        deg[a] += 1
        deg[b] += 1
    return sorted(Counter(deg.values()).items())


# -- boards (HG 2.1, 1.2, 1.8, 3) ------------------------------------------------------------------
def test_cross_board_counts():
    # HG 2.1: 33 points; 52 orthogonal edges; alternating diagonals add 20 (72), with these degrees
    plain, english = cross_board("none"), cross_board("alternating")
    assert plain.size == english.size == 33
    assert len(plain.lines) == 52 and degrees(plain) == [(2, 8), (3, 12), (4, 13)]
    assert len(english.lines) == 72 and degrees(english) == [(3, 20), (4, 4), (7, 4), (8, 5)]
    assert len(english.neighbours(english.parse_point("d4"))) == 8  # the centre is a hub


def test_dablot_lattice_counts():
    # HG 1.2: 72 points, 191 edges; degrees 3 x4, 5 x18, 8 x20, 4 x30.  HG 1.8: the 4x5 'child' board
    g = dablot_lattice()
    assert g.size == 72 and len(g.lines) == 191
    assert degrees(g) == [(3, 4), (4, 30), (5, 18), (8, 20)]
    child = dablot_lattice(4, 5)
    assert child.size == 32 and len(child.lines) == 79


def test_checkerboard_is_dark_squares():
    g = checkerboard(8)
    assert g.size == 32 and "a1" in g.names and "b1" not in g.names


# -- Fox and Geese -----------------------------------------------------------------------------------
def test_fox_geese_13_setup():
    # HG 2.2: 13 geese on the bottom arm and row 3, fox on d4; HG 2.3: geese move first (our default)
    rules = find_variant("fox_geese_13").make_rules()
    pos = rules.initial_position()
    pieces = rules.pieces(pos)
    assert sorted(rules.geometry.name(p) for p, k in pieces.items() if k == "h") == ["d4"]
    assert sum(1 for k in pieces.values() if k == "f") == 13
    assert rules.side_to_move(pos) == FLOCK


def test_fox_captures_by_short_jump_and_may_chain():
    # HG 2.5: the fox jumps an adjacent goose onto the empty point beyond; repeated jumps are possible
    rules, pos = setup("fox_geese_13", "hunters=d4 flock=d3,c1,e1,a3,b3,c3,e3,f3,g3,c2", HUNTERS)
    moves = texts(rules, rules.legal_moves(pos))
    assert "d4xd2" in moves
    rules, pos = setup("fox_geese_13", "hunters=d7 flock=d6,d4,c3,a3,b3,e3,f3,g3,c1,e1", HUNTERS)
    moves = texts(rules, rules.legal_moves(pos))
    assert {"d7xd5", "d7xd5xd3"} <= moves
    after, caps = rules.play(pos, rules.parse_move(pos, "d7xd5xd3"))
    assert sorted(rules.geometry.name(c) for c in caps) == ["d4", "d6"]


def test_single_jump_toggle():
    # HG 2.5: Ludii's plain game allows a single hop only
    rules, pos = setup("fox_geese_13", "hunters=d7 flock=d6,d4,c3,a3,b3,e3,f3,g3,c1,e1", HUNTERS,
                       multi_jump="single")
    moves = texts(rules, rules.legal_moves(pos))
    assert "d7xd5" in moves and "d7xd5xd3" not in moves


def test_compulsory_continuation():
    # HG 4.1 (Halatafl): repeated jumps are compulsory
    rules, pos = setup("fox_geese_13", "hunters=d7 flock=d6,d4,c3,a3,b3,e3,f3,g3,c1,e1", HUNTERS,
                       multi_jump="compulsory")
    moves = texts(rules, rules.legal_moves(pos))
    assert "d7xd5xd3" in moves and "d7xd5" not in moves


def test_compulsory_capture_enforced():
    # HG 2.5 (Winther: the fox 'must jump over it and capture it')
    rules, pos = setup("fox_geese_13", "hunters=d4 flock=d3,a3,b3,c3,e3,f3,g3,c1,e1", HUNTERS,
                       compulsory_capture="enforce")
    assert texts(rules, rules.legal_moves(pos)) == {"d4xd2", "d4xd2xb4", "d4xd2xf4"}  # and may go on
    rules, pos = setup("fox_geese_13", "hunters=d4 flock=d3,a3,b3,c3,e3,f3,g3,c1,e1", HUNTERS)
    assert "d4-d5" in texts(rules, rules.legal_moves(pos))


def test_geese_never_capture():
    rules, pos = setup("fox_geese_13", "hunters=d4 flock=d3,a3,b3,c3,e3,f3,g3,c1,e1", FLOCK)
    assert all(not rules.is_jump(m) for m in rules.legal_moves(pos))


def test_geese_may_not_move_backwards_in_15_geese_game():
    # source 000: the 15-geese game prohibits backward moves; HG 2.4
    pos_text = "hunters=a5 flock=d4,c1,d1,e1,c2,d2,e2,a3,b3,c3,e3,f3,g3"

    def d4_targets(**changes):
        rules, pos = setup("fox_geese_15", pos_text, FLOCK, **changes)
        return {rules.geometry.name(t) for t in rules.moves_from(pos, rules.geometry.parse_point("d4"))}

    assert d4_targets() == {"c4", "e4", "c5", "d5", "e5"}
    assert "d3" in d4_targets(flock_backwards=True)


def test_geese_no_sideways_in_17_geese_game():
    # source 000: 17 geese: no backwards and no sideways moves
    rules, pos = setup("fox_geese_17", "hunters=a5 flock=d4,c1", FLOCK, hunter_win_below=1)
    targets = {rules.geometry.name(t) for t in rules.moves_from(pos, rules.geometry.parse_point("d4"))}
    assert "c4" not in targets and "e4" not in targets and "d5" in targets


def test_fox_wins_when_too_few_geese_remain():
    # HG 2.6: the fox wins with 5 or fewer geese left (our 13-geese default: fewer than 6)
    rules, pos = setup("fox_geese_13", "hunters=d4 flock=d3,a3,g3,c1,e1,c5", HUNTERS)
    after, _ = rules.play(pos, rules.parse_move(pos, "d4xd2"))
    assert after.result is not None and (after.result.winner, after.result.reason) == (HUNTERS, "flock_depleted")
    rules, pos = setup("fox_geese_13", "hunters=d4 flock=d3,a3,g3,c1,e1,c5", HUNTERS, hunter_win_below=5)
    after, _ = rules.play(pos, rules.parse_move(pos, "d4xd2"))
    assert after.result is None


def test_geese_win_by_trapping_the_fox():
    # HG 2.6: the geese win when the fox cannot move.  Fox in the corner c7, hemmed in (no jump beyond).
    rules, pos = setup("fox_geese_13", "hunters=c7 flock=d7,c6,d6,e7,e6,c5,e5,d5", HUNTERS)
    g = Game(rules, pos)
    assert g.outcome is not None and (g.outcome.winner, g.outcome.reason) == (FLOCK, "trapped")


def test_breakthrough_toggle():
    # source 000 / HG 3: the fox wins by getting behind the geese to their home row
    rules, pos = setup("fox_geese_15", "hunters=d2 flock=a3,b3,c3,e3,f3,g3,a4", HUNTERS)
    after, _ = rules.play(pos, rules.parse_move(pos, "d2-d1"))
    assert after.result is not None and after.result.reason == "broke_through"
    rules, pos = setup("fox_geese_15", "hunters=d2 flock=a3,b3,c3,e3,f3,g3,a4", HUNTERS, breakthrough=False)
    assert rules.play(pos, rules.parse_move(pos, "d2-d1"))[0].result is None


def test_diagonals_for_the_fox_only():
    # source 000: on the board with extra diagonals the geese keep to the orthogonal lines
    rules, pos = setup("fox_geese_diagonals", "hunters=a5 flock=d4,c1,d1,e1,c2,d2,e2,a3", FLOCK)
    geese = {rules.geometry.name(t) for t in rules.moves_from(pos, rules.geometry.parse_point("d4"))}
    assert geese == {"c4", "e4", "d5", "d3"}  # no c5/e5/c3/e3: the diagonals are the fox's alone
    rules, pos = setup("fox_geese_diagonals", "hunters=d4 flock=c1,d1,e1,c2,d2,e2,a3", HUNTERS)
    fox = {rules.geometry.name(t) for t in rules.moves_from(pos, rules.geometry.parse_point("d4"))}
    assert {"c5", "e5", "c3", "e3"} <= fox


# -- Fox and Hounds (HG 3) ---------------------------------------------------------------------------
def test_hounds_step_forward_only_and_fox_both_ways():
    rules = find_variant("fox_hounds").make_rules()
    pos = rules.initial_position()
    assert rules.side_to_move(pos) == HUNTERS  # the fox moves first
    fox = {rules.geometry.name(t) for t in rules.moves_from(pos, rules.geometry.parse_point("d8"))}
    assert fox == {"c7", "e7"}
    pos = rules.parse_position("hunters=d4 flock=c3,e3,a1,g1", FLOCK)
    c3 = {rules.geometry.name(t) for t in rules.moves_from(pos, rules.geometry.parse_point("c3"))}
    assert c3 == {"b4"}  # d4 is the fox; never backwards to b2/d2
    pos = rules.parse_position("hunters=d4 flock=c3,e5,a1,g1", HUNTERS)
    assert all(not rules.is_jump(m) for m in rules.legal_moves(pos))  # no captures
    fox = {rules.geometry.name(t) for t in rules.moves_from(pos, rules.geometry.parse_point("d4"))}
    assert fox == {"c5", "e3"}


def test_fox_wins_on_reaching_the_hounds_row_and_loses_when_trapped():
    rules = find_variant("fox_hounds").make_rules()
    pos = rules.parse_position("hunters=b2 flock=e5,g5,e3,g3", HUNTERS)
    after, _ = rules.play(pos, rules.parse_move(pos, "b2-a1"))
    assert after.result is not None and (after.result.winner, after.result.reason) == (HUNTERS, "broke_through")
    pos = rules.parse_position("hunters=a7 flock=b6,c5,e5,g5", HUNTERS)
    assert Game(rules, pos).outcome == rules.outcome(pos)
    trapped = rules.parse_position("hunters=h8 flock=g7,a1,c1,e1", HUNTERS)
    out = rules.outcome(trapped)
    assert out is not None and (out.winner, out.reason) == (FLOCK, "trapped")


# -- Asalto (HG 4.3) -------------------------------------------------------------------------------
def test_asalto_huffing_removes_the_officer_who_declined():
    rules, pos = setup("asalto", "hunters=c6,e6 flock=c5,a3,b3,d3,e3,f3,g3,a4,b4,c4,d4,e4,f4,g4,c1,d1,e1", HUNTERS)
    caps = rules.capture_moves(pos)
    assert "c6xc4" not in texts(rules, caps)  # c4 occupied: no landing
    rules, pos = setup("asalto", "hunters=c6,e6 flock=c5,a3,b3,d3,e3,f3,g3,a4,b4,d4,e4,f4,g4,c1,d1,e1", HUNTERS)
    assert "c6xc4" in texts(rules, rules.capture_moves(pos))
    after, caps = rules.play(pos, rules.parse_move(pos, "e6-e7"))  # a plain step although c6 could capture
    assert [rules.geometry.name(c) for c in caps] == ["c6"]
    assert rules.pieces(after).get(rules.geometry.parse_point("c6")) is None


def test_asalto_rebels_win_by_filling_the_fortress():
    # HG 4.3: the rebels win by occupying all 9 fortress points
    position = "hunters=a4,g4 flock=c5,e5,c6,d6,e6,c7,d7,e7,d4,b3"
    rules, pos = setup("asalto", position, FLOCK)
    after, _ = rules.play(pos, rules.parse_move(pos, "d4-d5"))
    assert after.result is not None and (after.result.winner, after.result.reason) == (FLOCK, "pen_filled")
    rules, pos = setup("asalto", position, FLOCK, fill_pen=False)
    assert rules.play(pos, rules.parse_move(pos, "d4-d5"))[0].result is None


def test_asalto_officers_win_below_nine_rebels():
    # HG 4.3: the officers win when fewer than 9 rebels remain (the fortress can no longer be filled)
    rules, pos = setup("asalto", "hunters=d4,g4 flock=d3,a3,b3,c1,d1,e1,a5,b5,g3", HUNTERS)
    after, _ = rules.play(pos, rules.parse_move(pos, "d4xd2"))
    assert after.result is not None and (after.result.winner, after.result.reason) == (HUNTERS, "flock_depleted")


# -- Halatafl (HG 4.1) -------------------------------------------------------------------------------
def test_halatafl_capture_and_continuation_compulsory():
    rules = find_variant("halatafl").make_rules()
    pos = rules.parse_position("hunters=c5,e5 flock=c4,c2,a3,b3,d3,e3,f3,g3,a4,b4,d1,e1,d2,e2,f4,g4", HUNTERS)
    moves = texts(rules, rules.legal_moves(pos))
    # c5 jumps c4 to c3 and must go on over c2 to c1; stopping at c3 is not allowed, nor a quiet move
    assert moves == {"c5xc3xc1"}


def test_max_capture_toggle():
    # HG 4.1 (Arsac): if several capture routes exist, the longest must be taken
    position = "hunters=c5,e5 flock=c4,c2,e4,a3,b3,f3,g3,a4,b4,d1,e1,d2,f4,g4"
    rules, pos = setup("halatafl", position, HUNTERS, multi_jump="optional", compulsory_capture="off")
    moves = texts(rules, rules.legal_moves(pos))
    assert {"c5xc3", "c5xc3xc1", "e5xe3", "c5-d5"} <= moves
    rules, pos = setup("halatafl", position, HUNTERS, multi_jump="optional", compulsory_capture="off",
                       max_capture=True)
    assert texts(rules, rules.legal_moves(pos)) == {"c5xc3xc1"}


def test_sheep_move_forward_or_sideways_only():
    rules = find_variant("halatafl").with_options({"hunter_win_below": 1}).make_rules()
    pos = rules.parse_position("hunters=a5,g5 flock=d4,c1", FLOCK)
    d4 = {rules.geometry.name(t) for t in rules.moves_from(pos, rules.geometry.parse_point("d4"))}
    assert d4 == {"c4", "e4", "d5"}  # orthogonal board, never back to d3


def test_hunt_positions_round_trip_and_bad_positions():
    rules = find_variant("fox_geese_13").make_rules()
    pos = rules.initial_position()
    assert rules.parse_position(rules.position_text(pos), FLOCK) == pos
    for bad in ("hunters=z9", "flock=a3", "hunters=d4 flock=d4", "geese=a3 hunters=d4", "hunters=d4,d4"):
        with pytest.raises(ValueError):
            rules.parse_position(bad, FLOCK)


# -- jump chains: only a piece may not be jumped twice (issue "Rules and exchange fidelity III", item 3) --
RING = "hunters=c5 flock=c4,b3,a4,b4,d1,e1,d2,e2,f3,g3"


def test_a_chain_may_land_again_on_a_point_it_has_visited():
    """HG 4.3 (WP-AS): "Multiple jumps are allowed, changing direction between jumps, but the same piece
    cannot be jumped twice"; HG 2.5 (WP-FOX): "Repeated jumps are possible".  Nothing else limits a chain,
    so c5xc3xa3xa5xc3 (c3 landed on twice, four different geese taken) is a legal move, and the geese lose
    those four pieces; going on to c5 would need c4 jumped again."""
    rules, pos = setup("fox_geese_13", RING, HUNTERS)
    moves = texts(rules, rules.legal_moves(pos))
    assert "c5xc3xa3xa5xc3" in moves and "c5xc3xa3xa5xc3xc5" not in moves
    game = Game(rules, pos)
    ply = game.play_text("c5xc3xa3xa5xc3")
    assert {rules.geometry.name(p) for p in ply.captures} == {"c4", "b3", "a4", "b4"}


def test_a_chain_may_end_where_it_began():
    """The same source reading: the fox's own starting point is free once he leaves it.  Four geese round
    the square c3-e5 let him jump round it and come back to c5, taking all four."""
    rules, pos = setup("fox_geese_13", "hunters=c5 flock=c4,d3,e4,d5,a3,a4,a5,b3,b5,f3,f5,g3,g4", HUNTERS)
    assert "c5xc3xe3xe5xc5" in texts(rules, rules.legal_moves(pos))
    after, caps = rules.play(pos, rules.parse_move(pos, "c5xc3xe3xe5xc5"))
    assert len(caps) == 4 and rules.position_text(after).startswith("hunters=c5 ")


def test_jump_chain_refusals_say_what_is_wrong(capsys):
    """A refused chain is explained truly: jumping the same piece twice is named as such (the only limit the
    sources give); a leg over an empty point says there is nothing to jump; the fox's own start is no
    obstacle.  Through the real CLI."""
    from tafl_desktop.cli import main

    def refusal(moves: str) -> str:
        code = main(["play", "fox_geese_13", "--position", RING, "--to-move", "fox", "--moves", moves])
        assert code == 2
        return capsys.readouterr().err

    assert "cannot be jumped twice" in refusal("c5xc3xc5")
    assert "cannot be jumped twice" in refusal("c5xc3xa3xa5xc3xc5")
    assert "no piece of the other side on d3" in refusal("c5xc3xe3")
    assert "occupied" not in refusal("c5xc3xc5")
