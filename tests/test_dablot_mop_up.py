"""A side far ahead in Dablot makes progress (issue 44 item 1): the evaluation's mop-up term.

Dablot's evaluation had no reason to approach once no capture was in sight: a Hard Mini-Dablot side
leading 8 pieces to 4 shuffled to the 300-ply cap (``benchmarks/results/README.md``).  Dablot has
no draw by repetition or by a captureless run by default (``core/dablot_options.py``: repetition
"allowed", ``captureless_draw`` 0), so only the cap ends such a game.  The
``mop_up`` weight (``DablotWeights``) counts, for the side ahead by :data:`MOP_UP_FROM` or more,
how far the enemy pieces are from a piece that may take them and how much room they have.  The
rules it relies on (``shared/reference/hunt-games.md`` 1.1, ``core/dablot.py``): a piece takes only
pieces of equal or lower rank (soldier 1, son 2, leader 3), by a jump along a line; taking the
leader, or leaving him alone, wins.  The term ships off (weight 0) until a match measures it; these
tests switch it on at the weight the won-endgame suite tried.
"""

from __future__ import annotations

import random

import pytest

from tafl_desktop.ai.evaluation_dablot import MOP_UP_FROM, MOP_UP_FULL, DablotEvaluator, DablotWeights
from tafl_desktop.core.dablot import DablotPosition, DablotRules
from tafl_desktop.core.game import Side
from tafl_desktop.core.variants import find_variant

SOUTH, NORTH = Side.ATTACKERS, Side.DEFENDERS  # side 0 moves first and is South (core/dablot.py)
#: Mini-Dablot, South far ahead: leader, son and six soldiers against the leader and three soldiers.
AHEAD = "south=kc1,pb3,sa1,sb1,sd1,sa2,sc2,sd3 north=ka9,sb9,sd9,sc8"
#: The weight the won-endgame suite tried; the term ships off (0) until a match measures it.
TRIED = 8


def _pair(vid: str = "dablot_mini") -> tuple[DablotRules, DablotEvaluator, DablotEvaluator]:
    rules = find_variant(vid).make_rules()
    assert isinstance(rules, DablotRules)
    return rules, DablotEvaluator(rules, DablotWeights(mop_up=TRIED)), DablotEvaluator(rules, DablotWeights(mop_up=0))


def _lead(ev: DablotEvaluator, cells: tuple[int, ...]) -> int:
    """South's material lead as the evaluation counts it (the pieces' values by rank)."""
    return sum(ev.val_t[c] * (1 if ev.side_t[c] == 0 else -1) for c in cells if c)


def _term(on: DablotEvaluator, off: DablotEvaluator, pos: DablotPosition) -> int:
    """The mop-up's share of the score, South's view (the weights differ in it alone)."""
    return on.south_score(pos) - off.south_score(pos)


def _playout_positions(rules: DablotRules, seed: int, plies: int,
                       start: DablotPosition | None = None) -> list[DablotPosition]:
    """Positions of a random game (seeded), from ``start`` or the initial position."""
    rng = random.Random(seed)
    pos = start if start is not None else rules.initial_position()
    out = [pos]
    for _ in range(plies):
        if rules.outcome(pos) is not None:
            break
        pos, _caps = rules.play(pos, rng.choice(rules.legal_moves(pos)))
        out.append(pos)
    return out


def test_the_term_ships_off_and_nothing_else_ends_a_shuffle():
    # off until a match measures it (benchmarks/README.md): the levels keep their measured play
    assert DablotWeights().mop_up == 0 and MOP_UP_FROM < MOP_UP_FULL
    for vid in ("dablot_mini", "dablot"):
        rules, _on, _off = _pair(vid)
        assert rules.opts["repetition"] == "allowed" and not rules.opts["captureless_draw"]


@pytest.mark.parametrize("vid", ["dablot_mini", "dablot"])
def test_the_mop_up_is_silent_without_a_lead(vid):
    # the start and every position of random games where neither side leads by MOP_UP_FROM score the
    # same with the term on as off: an even game never meets it
    rules, on, off = _pair(vid)
    same = 0
    for seed in range(6):
        for pos in _playout_positions(rules, seed, 40):
            if abs(_lead(on, pos.cells)) <= MOP_UP_FROM:
                assert on.evaluate(pos) == off.evaluate(pos), rules.position_text(pos)
                same += 1
    assert same > 100


def test_closing_in_on_the_last_pieces_pays_the_side_ahead():
    # South's soldier d3 steps to d5 in two moves, towards North's soldiers; nothing is taken and
    # nothing can be: the term rises by the weight per step it shortens the nearest hunter's walk
    rules, on, off = _pair()
    far = rules.parse_position(AHEAD, NORTH)
    assert MOP_UP_FROM < _lead(on, far.cells) < MOP_UP_FULL  # inside the ramp
    closer = rules.parse_position(AHEAD.replace("sd3", "sd5"), NORTH)
    assert off.south_score(far) < off.south_score(closer) + 100  # the rest of the evaluation hardly cares
    assert _term(on, off, closer) > _term(on, off, far) > 0
    # and it is South's alone: the same with the sides' roles swapped counts for North
    swapped = rules.parse_position("south=ka1,sb1,sd1,sc2 north=kc9,pb7,sa9,sb9,sd9,sa8,sc8,sd7", SOUTH)
    assert _term(on, off, swapped) < 0


def test_the_term_never_pays_the_side_behind():
    # in random games from the far-ahead ending, whoever leads, the term counts for the leader or not
    # at all (the side behind is not rewarded for chasing)
    rules, on, off = _pair()
    start = rules.parse_position(AHEAD, NORTH)
    seen = 0
    for seed in range(6):
        for pos in _playout_positions(rules, seed, 30, start):
            lead, term = _lead(on, pos.cells), _term(on, off, pos)
            assert term * lead >= 0 and (term == 0 or abs(lead) > MOP_UP_FROM), rules.position_text(pos)
            seen += term != 0
    assert seen > 50


def test_a_capture_by_the_side_ahead_never_lowers_the_term():
    # from far-ahead endings, every capture the side ahead can make raises (or keeps) its mop-up
    # share: a taken piece counts as one at no distance with no room
    rules, on, off = _pair()
    start = rules.parse_position(AHEAD, SOUTH)
    captures = 0
    for seed in range(12):
        for pos in _playout_positions(rules, seed, 30, start):
            lead = _lead(on, pos.cells)
            if abs(lead) <= MOP_UP_FROM or rules.outcome(pos) is not None:
                continue
            ahead = 0 if lead > 0 else 1
            if pos.side != ahead:
                continue
            sign = 1 if ahead == 0 else -1
            before = sign * _term(on, off, pos)
            for move in rules.legal_moves(pos):
                nxt, caps = rules.play(pos, move)
                if caps and nxt.result is None:
                    assert sign * _term(on, off, nxt) >= before, (rules.position_text(pos), rules.move_text(move))
                    captures += 1
    assert captures > 20


#: The won-endgame suite's Mini-Dablot position "selfplay medium-beginner seed 7"
#: (benchmarks/endgame_suite.json), South far ahead: North's soldiers on c8, b9, c9 and d9 cannot
#: be jumped from any line while they stand there (b9: a9 over it lands on c9, held; c8: c7 over it
#: lands on d9 and d7 over it on c9, held; the back row has no point beyond it), so North moves only
#: its leader and South can win only by taking him (only a leader takes a leader, hunt-games.md 1.1).
SHUT_IN = "south=sa1,sb1,sc1,sa2,sb2,sc2,sb3,sc3,sd3,sa5,pc7,kd7,sa9 north=kb5,sc8,sb9,sc9,sd9"


def _hunt_share(rules: DablotRules, pos: DablotPosition) -> int:
    """The hunt term's share of South's score (the weights differ in it alone)."""
    on, off = DablotEvaluator(rules), DablotEvaluator(rules, DablotWeights(hunt=0))
    return on.south_score(pos) - off.south_score(pos)


def test_far_ahead_the_leader_hunts_the_enemy_leader_not_shut_in_soldiers():
    """In the suite's shut-in endings the side ahead (18 pieces on the board, more than half the
    army) had no term pulling it anywhere and shuffled to the cap; now the hunt counts from a lead
    of MOP_UP_FROM, and its prey is what could be taken where it stands: the enemy leader for
    South's leader, nothing for the son (the soldiers are shut in, the leader outranks him)."""
    rules = find_variant("dablot_mini").make_rules()
    assert isinstance(rules, DablotRules)
    pos = rules.parse_position(SHUT_IN, SOUTH)
    ev = DablotEvaluator(rules)
    assert _lead(ev, pos.cells) > MOP_UP_FROM and sum(1 for c in pos.cells if c) * 2 > ev.start_total
    leader, prey = rules.geometry.parse_square("d7"), rules.geometry.parse_square("b5")
    expected = ev.w.hunt * ((ev.far - ev.dist[leader][prey]) + ev.far)
    assert _hunt_share(rules, pos) == expected
    # a step nearer the enemy leader is worth a step of the term
    nearer = rules.parse_position(SHUT_IN.replace("kd7", "kc5"), SOUTH)
    assert _hunt_share(rules, nearer) - _hunt_share(rules, pos) == ev.w.hunt * (
        ev.dist[leader][prey] - ev.dist[rules.geometry.parse_square("c5")][prey])
    # open the back row (c9 gone): b9 and c8 can be jumped again and are the son's prey
    opened = rules.parse_position(SHUT_IN.replace(",sc9", ""), SOUTH)
    son = rules.geometry.parse_square("c7")
    loose = [rules.geometry.parse_square(q) for q in ("b9", "c8")]
    nearest = {piece: min(ev.dist[piece][q] for q in targets)
               for piece, targets in ((leader, [*loose, prey]), (son, loose))}
    assert _hunt_share(rules, opened) == ev.w.hunt * sum(ev.far - d for d in nearest.values())


def test_without_a_lead_the_hunt_waits_for_half_the_army_gone():
    # an even game never meets it before the ending: the start and a trade of soldiers score nothing
    rules = find_variant("dablot_mini").make_rules()
    assert isinstance(rules, DablotRules)
    assert _hunt_share(rules, rules.initial_position()) == 0
