"""The native Dablot prover against the Python rules, which define Dablot (``core/dablot.py``).

The native side only sees the lattice and the toggles the Python rules compiled, so these tests
compare what it makes of them: the positions after every legal move (a multiset, one per move,
including each prefix of a jump chain, its captures, ranks, retreat marks, promotion and the
decided result) in positions from random games and composed endgames, under every toggle it
plays; and the prover's verdicts against the Python prover's.  The rules themselves are pinned
to their sources in ``test_dablot*.py``.
"""

from __future__ import annotations

import random

import pytest

from tafl_desktop.ai.prover import NativeProver, Prover, SearchBudgetExceeded, make_prover
from tafl_desktop.core.dablot import LEADER, OFFICER, SOLDIER, SON, DablotPosition, cell
from tafl_desktop.core.game import Side
from tafl_desktop.core.variants import find_variant
from tafl_desktop.native import dablot as native_dablot

needs_native = pytest.mark.skipif(native_dablot.unsupported(find_variant("dablot").make_rules()) is not None,
                                  reason="the native engine is not built")

#: Every toggle the native prover plays, one at a time and some together.
SETTINGS = [
    {},
    {"chain_jumps": False},
    {"compulsory_capture": "soldiers"},
    {"ever_onward": True},
    {"promotion": True},
    {"promotion": True, "officer_material": True},
    {"four_ranks": True, "promotion": True},
    {"leader_captured_loses": False, "bare_leader_loses": False},
    {"ever_onward": True, "compulsory_capture": "soldiers", "chain_jumps": False},
]


def _rules(name: str, changes: dict):
    return find_variant(name).with_options(changes).make_rules()


def _python_successors(rules, pos):
    out = []
    for m in rules.legal_moves(pos):
        child = rules.play(pos, m)[0]
        out.append(native_dablot.position_tuple(child))
    return sorted((tuple(c), s, r if r is not None else -2) for c, s, r in out)


def _native_successors(core, pos):
    crossing = native_dablot.position_tuple(pos)
    return sorted((tuple(c), s, r if r is not None else -2) for c, s, r in core.successors(crossing))


def _composed(rules, rng: random.Random) -> DablotPosition:
    """A random endgame: a few pieces of every kind (marked soldiers too) on random points."""
    cells = [0] * rules.N
    points = rng.sample(range(rules.N), min(rules.N, rng.randint(4, 14)))
    for i, p in enumerate(points):
        side = i % 2
        kind = rng.choice((SOLDIER, SOLDIER, SOLDIER, OFFICER, SON, LEADER))
        cells[p] = cell(side, kind, kind == SOLDIER and rng.random() < 0.2)
    return DablotPosition(tuple(cells), rng.randrange(2))


def _positions(rules, rng: random.Random, games: int = 4):
    """Positions along random games (captures favoured, so the armies thin) and composed ones."""
    for _ in range(games):
        pos = rules.initial_position()
        for _ply in range(rng.randint(10, 80)):
            moves = rules.legal_moves(pos)
            if not moves or rules.outcome(pos) is not None:
                break
            jumps = [m for m in moves if rules.is_jump(m)]
            pos = rules.play(pos, rng.choice(jumps if jumps and rng.random() < 0.7 else moves))[0]
            yield pos
    for _ in range(40):
        yield _composed(rules, rng)


@needs_native
@pytest.mark.parametrize("name", ["dablot", "dablot_mini"])
@pytest.mark.parametrize("changes", SETTINGS, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()) or "preset")
def test_the_positions_after_every_move_are_the_python_rules(name, changes):
    rules = _rules(name, changes)
    core = native_dablot.prover_core(rules)
    rng = random.Random(hash((name, tuple(sorted(changes.items())))) & 0xFFFF)
    seen = 0
    for pos in _positions(rules, rng):
        assert _native_successors(core, pos) == _python_successors(rules, pos), rules.position_text(pos)
        assert core.has_moves(native_dablot.position_tuple(pos)) == bool(rules.legal_moves(pos))
        seen += 1
    assert seen > 60


@needs_native
@pytest.mark.parametrize("changes", [{}, {"compulsory_capture": "soldiers", "four_ranks": True}])
def test_the_native_prover_agrees_with_the_python_prover(changes):
    rules = _rules("dablot_mini", changes)
    rng = random.Random(29)
    compared = won = 0
    for _ in range(120):
        pos = _composed(rules, rng)
        if rules.outcome(pos) is not None:
            continue
        side = rules.side_to_move(pos)
        for plies in (1, 3):
            try:
                expected = Prover(rules, side, max_nodes=20_000).wins(pos, plies)
            except SearchBudgetExceeded:
                continue
            got = NativeProver(rules, side).wins(pos, plies)
            assert got == expected, (plies, rules.position_text(pos))
            compared += 1
            won += expected
    assert compared > 100 and 10 < won < compared  # both answers are exercised


@needs_native
def test_the_prover_is_native_for_dablot_unless_a_setting_or_the_user_says_otherwise(monkeypatch):
    rules = find_variant("dablot").make_rules()
    assert isinstance(make_prover(rules, Side(0)), NativeProver)
    assert type(make_prover(rules, Side(0), engine="python")) is Prover
    monkeypatch.setenv("TAFL_ENGINE", "python")
    assert type(make_prover(rules, Side(0))) is Prover
    monkeypatch.delenv("TAFL_ENGINE")
    for changes in ({"ambush": True}, {"action_points": True}, {"captureless_draw": 40}):
        other = _rules("dablot", changes)
        assert native_dablot.unsupported(other) is not None
        assert type(make_prover(other, Side(0))) is Prover
        with pytest.raises(ValueError, match="cannot play these rules"):
            native_dablot.prover_core(other)


@needs_native
def test_a_bad_position_is_one_line_not_a_crash():
    rules = find_variant("dablot").make_rules()
    core = native_dablot.prover_core(rules)
    good = native_dablot.position_tuple(rules.initial_position())
    for bad in ((good[0][:-1], 0, None), (good[0], 2, None), ([99] * rules.N, 0, None), (good[0], 0, 7)):
        with pytest.raises(ValueError):
            core.wins(bad, 0, 3)
    with pytest.raises(ValueError):
        core.wins(good, 5, 3)


@needs_native
def test_a_bad_board_is_refused_in_one_line():
    import tafl_native

    ok = {"chain_jumps": True, "soldiers_must_capture": False, "ever_onward": False, "promotion": False,
          "officer_material": False, "leader_captured_loses": True, "bare_leader_loses": True}
    two = ([[1], [0]], [[], []], [0, 1], [1, 2, 2, 3], [[False, True], [True, False]])
    assert tafl_native.DablotProver(*two, ok).has_moves(([1, 0], 0, None))
    bad_boards = [
        ([[5], [0]], *two[1:]),  # a step off the board
        (two[0], [[(1, 9)], []], *two[2:]),  # a jump landing off the board
        (two[0], two[1], [0], *two[3:]),  # a row missing
        ([], [], [], [1, 2, 2, 3], [[], []]),  # no points
        ([[]] * 200, [[]] * 200, [0] * 200, [1, 2, 2, 3], [[False] * 200] * 2),  # too many points
    ]
    for board in bad_boards:
        with pytest.raises(ValueError):
            tafl_native.DablotProver(*board, ok)
    for settings in ({k: v for k, v in ok.items() if k != "promotion"}, dict(ok, promotion="yes")):
        with pytest.raises(ValueError, match="promotion"):
            tafl_native.DablotProver(*two, settings)
