"""The Fox games' native rules against the Python rules, which define them (``core/hunt.py``).

The native side sees only the steps, jumps, marked points and toggles the Python rules compiled;
these tests compare what it makes of them: the legal moves in order (each jump chain, huffing's
removals, the longest-capture and compulsory-capture rules) and the position after each (the
pieces, the side to move, the count of moves without a capture and the result) in positions from
random games on every Fox-game preset and under every toggle value that changes the moves or the
result.  The rules themselves are pinned to their sources in ``test_hunt_rules.py``.
"""

from __future__ import annotations

import random

import pytest

from tafl_desktop.core.variants import find_variant
from tafl_desktop.native import hunt as native_hunt

needs_native = pytest.mark.skipif(native_hunt.unsupported(find_variant("fox_geese_13").make_rules()) is not None,
                                  reason="the native engine is not built")

PRESETS = ["fox_geese_13", "fox_geese_15", "fox_geese_17", "fox_geese_diagonals", "fox_hounds", "asalto",
           "halatafl"]
#: Toggle values that change the moves or the result, each on a preset where it shows.
CHANGES = [
    ("fox_geese_13", {"multi_jump": "single"}),
    ("fox_geese_13", {"multi_jump": "compulsory"}),
    ("fox_geese_13", {"compulsory_capture": "enforce"}),
    ("fox_geese_13", {"compulsory_capture": "huff"}),
    ("fox_geese_13", {"max_capture": True, "hunter_win_below": 9}),
    ("fox_geese_13", {"no_moves": "draw", "flock_backwards": False, "captureless_draw": 12}),
    ("fox_geese_13", {"diagonals": "everyone", "repetition": "draw"}),
    ("asalto", {"compulsory_capture": "off", "multi_jump": "compulsory"}),
    ("halatafl", {"max_capture": False, "compulsory_capture": "huff"}),
    ("fox_hounds", {"breakthrough": False, "captures": True, "hunter_win_below": 1}),
]


def _decided(result):
    return None if result is None else (-1 if result.winner is None else int(result.winner))


def _compare(rules, games: int, seed: int) -> int:
    core = native_hunt.rules_core(rules)
    rng = random.Random(seed)
    seen = 0
    for _ in range(games):
        pos = rules.initial_position()
        for _ply in range(rng.randint(20, 160)):
            crossing = native_hunt.position_tuple(pos)
            legal = [tuple(m) for m in rules.legal_moves(pos)]
            where = rules.position_text(pos)
            assert [tuple(m) for m in core.moves(crossing)] == legal, where
            assert core.has_moves(crossing) == bool(legal), where
            if not legal:
                break
            for move in legal:
                child = rules.play(pos, move)[0]
                got = core.play(crossing, list(move))
                assert got == (child.flock, child.hunters, child.side, child.quiet, _decided(child.result)), \
                    (where, move)
            seen += 1
            jumps = [m for m in legal if rules.is_jump(m)]
            pos = rules.play(pos, rng.choice(jumps if jumps and rng.random() < 0.5 else legal))[0]
            if pos.result is not None:
                break
    return seen


@needs_native
@pytest.mark.parametrize("name", PRESETS)
def test_moves_and_their_positions_are_the_python_rules_on_every_preset(name):
    assert _compare(find_variant(name).make_rules(), games=8, seed=len(name)) > 150


@needs_native
@pytest.mark.parametrize("name, changes", CHANGES, ids=lambda x: x if isinstance(x, str) else
                         ",".join(f"{k}={v}" for k, v in x.items()))
def test_moves_and_their_positions_are_the_python_rules_under_every_toggle(name, changes):
    assert _compare(find_variant(name).with_options(changes).make_rules(), games=6, seed=7) > 100


@needs_native
def test_bad_positions_and_moves_are_one_line():
    rules = find_variant("fox_geese_13").make_rules()
    core = native_hunt.rules_core(rules)
    start = native_hunt.position_tuple(rules.initial_position())
    for bad in [(1 << 40, 1, 0, 0, None), (1, 1, 0, 0, None), (1, 2, 5, 0, None), (1, 2, 0, 0, 7)]:
        with pytest.raises(ValueError) as err:
            core.moves(bad)
        assert "\n" not in str(err.value)
    with pytest.raises(ValueError, match="not legal"):
        core.play(start, [0, 32])
    with pytest.raises((ValueError, OverflowError)):
        core.moves((-1, 2, 0, 0, None))
