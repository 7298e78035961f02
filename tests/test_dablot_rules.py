"""Dablot Prejjesne pinned with small positions.

Sources: source 000 (Mini-Dablot: ranks, moves, optional chained captures, the three ways to lose, and the
house-rule variants 1-5) and shared/reference/hunt-games.md section 1 ("HG 1.x": board and setup).
Positions: ``south=...`` / ``north=...`` with a kind letter (s soldier, r marked soldier, o officer,
p son, k leader) before each point; grid rows are odd, centre-point rows even.
"""

from __future__ import annotations

from collections import Counter

from tafl_desktop.core.game import Game, Side
from tafl_desktop.core.variants import find_variant

SOUTH, NORTH = Side(0), Side(1)
FILLER_N = "ka13,sf13"  # keep a north leader and soldier far away so nobody is 'bare' by accident
FILLER_S = "kf1,sa1"


def setup(vid, text, to_move=SOUTH, **changes):
    rules = find_variant(vid).with_options(changes).make_rules()
    return rules, rules.parse_position(text, to_move)


def moves(rules, pos) -> set[str]:
    return {rules.move_text(m) for m in rules.legal_moves(pos)}


def test_full_board_setup():
    # HG 1.1/1.2: 72 points; 30 a side (28 soldiers, son, leader); 12 points empty; kings on a7 and f7
    rules = find_variant("dablot").make_rules()
    pos = rules.initial_position()
    kinds = Counter(rules.pieces(pos).values())
    assert rules.geometry.size == 72
    assert kinds == {"s": 28, "p": 1, "k": 1, "S": 28, "P": 1, "K": 1}
    names = {rules.geometry.name(p): k for p, k in rules.pieces(pos).items()}
    assert names["f7"] == "k" and names["e6"] == "p" and names["a7"] == "K" and names["a8"] == "P"


def test_mini_board_has_source_000_army():
    # source 000: 11 regular men plus a leader and his son a side
    rules = find_variant("dablot_mini").make_rules()
    kinds = Counter(rules.pieces(rules.initial_position()).values())
    assert kinds == {"s": 11, "p": 1, "k": 1, "S": 11, "P": 1, "K": 1}


def test_soldier_cannot_capture_higher_rank_but_son_can():
    # source 000: a man captures only pieces of equal rank; the son captures a man or the enemy son
    rules, pos = setup("dablot", f"south=sc3,{FILLER_S} north=pc4,{FILLER_N}")
    assert "c3xd5" not in moves(rules, pos)
    rules, pos = setup("dablot", f"south=pc3,{FILLER_S} north=pc4,{FILLER_N}")
    assert "c3xd5" in moves(rules, pos)


def test_only_a_leader_takes_a_leader():
    rules, pos = setup("dablot", f"south=pc3,{FILLER_S} north=kc4,sf13")
    assert "c3xd5" not in moves(rules, pos)
    rules, pos = setup("dablot", "south=kc3,sa1 north=kc4,sf13")
    assert "c3xd5" in moves(rules, pos)
    after, caps = rules.play(pos, rules.parse_move(pos, "c3xd5"))
    assert after.result is not None and (after.result.winner, after.result.reason) == (SOUTH, "leader_captured")


def test_chained_captures_optional_and_may_turn():
    # source 000: multiple captures are possible and entirely optional; the captor may change direction
    text = f"south=sc3,{FILLER_S} north=sc5,sc8,{FILLER_N}"
    rules, pos = setup("dablot", text)
    ms = moves(rules, pos)
    assert "c3xc7" in ms and "c3xc7xd9" in ms  # up the line, then turn onto the diagonal over c8
    rules, pos = setup("dablot", text, chain_jumps=False)
    ms = moves(rules, pos)
    assert "c3xc7" in ms and "c3xc7xd9" not in ms


def test_lone_leader_loses():
    # source 000: play continues until ... the leader is the only man left
    rules, pos = setup("dablot", "south=sc3,kf1 north=sc4,ka13")
    after, _ = rules.play(pos, rules.parse_move(pos, "c3xd5"))
    assert after.result is not None and (after.result.winner, after.result.reason) == (SOUTH, "bare_leader")
    rules, pos = setup("dablot", "south=sc3,kf1 north=sc4,ka13", bare_leader_loses=False)
    assert rules.play(pos, rules.parse_move(pos, "c3xd5"))[0].result is None


def test_no_move_loses():
    # source 000: ... or until the opponent is unable to make any move.  North's soldier on a13 is walled in.
    rules, pos = setup("dablot", "south=sa11,sb11,sa12,sb13,sa9,sc13,kf1 north=sa13", NORTH,
                       bare_leader_loses=False)
    out = Game(rules, pos).outcome
    assert out is not None and (out.winner, out.reason) == (SOUTH, "no_moves")


def test_compulsory_capture_for_soldiers_takes_precedence():
    # source 000 variant 1: a soldier able to capture must, before any son/leader capture; first jump only
    rules, pos = setup("dablot", "south=sc3,kc1,sa1 north=sc4,sb2,ka13,sf13", compulsory_capture="soldiers")
    ms = moves(rules, pos)
    assert ms and all(m.startswith("c3x") for m in ms), ms
    rules, pos = setup("dablot", "south=sc3,kc1,sa1 north=sc4,sb2,ka13,sf13")
    assert any(m.startswith("c1x") for m in moves(rules, pos)) and "a1-a3" in moves(rules, pos)


def test_ever_onward():
    # source 000 variant 2a: soldiers may not move backwards, straight or diagonally; higher ranks may
    rules, pos = setup("dablot", f"south=sc5,pe5,{FILLER_S} north={FILLER_N}", ever_onward=True)
    c5 = {rules.geometry.name(t) for t in rules.moves_from(pos, rules.geometry.parse_square("c5"))}
    assert c5 == {"b5", "d5", "b6", "c6", "c7"}  # no c3, b4, c4
    e5 = {rules.geometry.name(t) for t in rules.moves_from(pos, rules.geometry.parse_square("e5"))}
    assert "e3" in e5 and "d4" in e5


def test_promotion_to_officer_and_its_rank():
    # source 000 variant 2b: a soldier reaching the far edge becomes an officer of rank 2
    rules, pos = setup("dablot", "south=sc11,kf1,sa1 north=kf13,pa9,sa13", promotion=True)
    after, _ = rules.play(pos, rules.parse_move(pos, "c11-c13"))
    assert rules.pieces(after)[rules.geometry.parse_square("c13")] == "o"
    rules, pos = setup("dablot", "south=sc11,kf1,sa1 north=kf13,pa9,sa13")
    after, _ = rules.play(pos, rules.parse_move(pos, "c11-c13"))
    assert rules.pieces(after)[rules.geometry.parse_square("c13")] == "s"
    # an officer (rank 2) takes the enemy son (rank 2) ...
    rules, pos = setup("dablot", "south=oc3,kf1,sa1 north=pc4,kf13,sa13", promotion=True)
    assert "c3xd5" in moves(rules, pos)
    # ... but not with four ranks (son 3, officer 2)
    rules, pos = setup("dablot", "south=oc3,kf1,sa1 north=pc4,kf13,sa13", promotion=True, four_ranks=True)
    assert "c3xd5" not in moves(rules, pos)


def test_officer_material():
    # source 000 variant 3: a soldier that ever moves backwards is marked and can no longer be promoted
    rules, pos = setup("dablot", "south=sc11,kf1,sa1 north=kf13,sa13", NORTH, promotion=True,
                       officer_material=True)
    g = Game(rules, pos)
    g.play_text("a13-b13")
    g.play_text("c11-c9")  # a retreat: the soldier is marked
    assert rules.pieces(g.position)[rules.geometry.parse_square("c9")] == "r"
    g.play_text("b13-a13")
    g.play_text("c9-c11")
    g.play_text("a13-b13")
    g.play_text("c11-c13")
    assert rules.pieces(g.position)[rules.geometry.parse_square("c13")] == "r"  # not promoted


def test_four_ranks():
    # source 000: soldier 1, officer 2, son 3, leader 4: the son may take a son, not the leader
    rules, pos = setup("dablot", "south=pc3,kf1,sa1 north=kc4,sf13", four_ranks=True)
    assert "c3xd5" not in moves(rules, pos)


def test_action_points():
    # source 000 variant 4: three actions a turn, steps and captures in any combination
    rules, pos = setup("dablot", f"south=sc3,sd3,{FILLER_S} north={FILLER_N}", action_points=True)
    assert pos.actions == 3 and "end" not in moves(rules, pos)
    g = Game(rules, pos)
    g.play_text("c3-c5")
    assert rules.side_to_move(g.position) == SOUTH and g.position.actions == 2
    assert "end" in moves(rules, g.position)
    g.play_text("d3-d5")
    g.play_text("c5-c7")
    assert rules.side_to_move(g.position) == NORTH and g.position.actions == 3
    # a chain of jumps costs one action per jump: with one action left only single jumps
    rules, pos = setup("dablot", f"south=sc3,{FILLER_S} north=sc5,sc8,{FILLER_N}", action_points=True)
    assert "c3xc7xd9" in moves(rules, pos)
    g = Game(rules, pos)
    g.play_text("a1-a3")
    g.play_text("a3-a5")
    assert "c3xc7" in moves(rules, g.position) and "c3xc7xd9" not in moves(rules, g.position)
    g.play_text("end")  # may end the turn early (here: with no action left it ends anyway)
    assert rules.side_to_move(g.position) == NORTH


def test_ambush():
    # source 000 variant 5: two soldiers jumping the enemy son in one turn take it; planned in full
    text = f"south=sc3,sd3,{FILLER_S} north=pc4,{FILLER_N}"
    rules, pos = setup("dablot", text, ambush=True)
    ms = moves(rules, pos)
    assert {"c3xd5+d3xc5", "d3xc5+c3xd5"} <= ms
    move = rules.parse_move(pos, "c3xd5+d3xc5")
    after, caps = rules.play(pos, move)
    assert [rules.geometry.name(c) for c in caps] == ["c4"]
    rules, pos = setup("dablot", text)
    assert not any("+" in m for m in moves(rules, pos))
    # a single soldier cannot ambush alone: no partial ambush exists as a move
    rules, pos = setup("dablot", f"south=sc3,{FILLER_S} north=pc4,{FILLER_N}", ambush=True)
    assert not any("+" in m for m in moves(rules, pos)) and "c3xd5" not in moves(rules, pos)
    # a son (2) and a soldier (1) ambush the leader (3)
    rules, pos = setup("dablot", f"south=pc3,sd3,{FILLER_S} north=kc4,sf13", ambush=True)
    assert "c3xd5+d3xc5" in moves(rules, pos)
