"""Random playouts on every preset under random toggle combinations, checking invariants each ply.

- no square holds two pieces, and attackers/defenders/king bitboards agree with their rotated copies;
- pieces only disappear by capture: the count drop equals the captures the move reported;
- the side to move alternates;
- a game ends by a rule: within the ply cap, or else it is still going with moves available;
- undo restores the exact position (and its repetition key), redo replays it.
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tafl_desktop.core.game import Game
from tafl_desktop.core.variants import presets

PRESET_IDS = sorted(presets())


@st.composite
def variant_and_options(draw):
    vid = draw(st.sampled_from(PRESET_IDS))
    changes = {}
    schema = presets()[vid].schema
    for spec in schema:
        if draw(st.booleans()) and schema.fits_board(spec.key):  # toggles the board cannot honour are refused
            values = [v for v in spec.values() if schema.choice_fits(spec.key, v)]
            if spec.kind == "int":
                values = [v for v in values if v <= 40]
            changes[spec.key] = draw(st.sampled_from(values))
    return vid, changes


def check_position(rules, pos) -> None:
    if rules.family == "dablot":
        assert len(pos.cells) == rules.N
        return
    if rules.family == "hunt":
        assert pos.flock & pos.hunters == 0
        assert pos.flock >> rules.N == 0 and pos.hunters >> rules.N == 0
        return
    assert pos.att & pos.dfn == 0
    if pos.king >= 0:
        assert not (pos.att | pos.dfn) >> pos.king & 1
    t_att = t_dfn = 0
    for s in range(rules.N):
        if pos.att >> s & 1:
            t_att |= rules.tbit[s]
        if pos.dfn >> s & 1:
            t_dfn |= rules.tbit[s]
    assert (t_att, t_dfn) == (pos.attT, pos.dfnT)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant_and_options(), st.integers(0, 2**31))
def test_random_playouts_keep_invariants(vo, seed):
    vid, changes = vo
    variant = presets()[vid].with_options(changes)
    rules = variant.make_rules()
    game = Game(rules)
    rng = random.Random(seed)
    cap = 250
    for _ in range(cap):
        if game.over:
            break
        before = game.position
        moves = game.legal_moves()
        assert moves, "a game that is not over has a legal move"
        move = rng.choice(moves)
        ply = game.play(move)
        after = ply.position
        check_position(rules, after)
        if getattr(rules, "actions_per_turn", 0) and after.actions < rules.actions_per_turn:
            assert after.side == before.side  # Action Points: the same side acts again
        else:
            assert after.side == 1 - before.side
        if rules.family == "dablot":
            kinds_before, kinds_after = Counter(rules.pieces(before).values()), Counter(rules.pieces(after).values())
            for leader_or_son in ("k", "K", "p", "P"):  # ranks only rise by promotion
                assert kinds_after[leader_or_son] <= kinds_before[leader_or_son]
            if not rules.opts["promotion"]:
                assert kinds_after["o"] == kinds_after["O"] == 0
        lost = len(rules.pieces(before)) - len(rules.pieces(after))
        assert lost == len(ply.captures) >= 0
        assert len(set(ply.captures)) == len(ply.captures)
    # undo everything, step by step, and play it again (redo walks the session's tree, not a Game)
    plies = list(game.plies)
    positions = [p.position for p in plies]
    keys = [rules.position_key(p) for p in positions]
    n = len(positions)
    for i in range(n - 1, -1, -1):
        game.undo()
        expect = positions[i - 1] if i else game.start
        assert game.position == expect
        assert rules.position_key(game.position) == (keys[i - 1] if i else rules.position_key(game.start))
    for i in range(n):
        game.play(plies[i].move)
        assert game.position == positions[i]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(PRESET_IDS), st.integers(0, 2**31))
def test_games_end_by_a_rule(vid, seed):
    """With the captureless draw on, every random game ends by a rule (repetition counted by Game)."""
    variant = presets()[vid].with_options({"captureless_draw": 60, "repetition": "draw"})
    # (hunt games have a threefold-repetition draw too; Tafl's count defaults to 3)
    game = Game(variant.make_rules())
    rng = random.Random(seed)
    for _ in range(5000):
        if game.over:
            break
        game.play(rng.choice(game.legal_moves()))
    assert game.over, f"{vid}: no end after 5000 plies"
    assert game.outcome.reason in ("king_captured", "king_escaped", "edge_fort", "encircled", "repetition",
                                   "no_moves", "no_captures", "hunters_captured", "flock_depleted",
                                   "broke_through", "pen_filled", "trapped", "all_captured", "leader_captured",
                                   "bare_leader", "turn_limit", "cant_escape")
