"""The native Dablot search against the Python one, whose rules and evaluation define it.

The native search walks the Python rules' own lattice and scores with the Python evaluator's
tables and weights, term for term; these tests hold the two to the same moves (in the same order,
each jump chain its own move), the same static scores (with the mop-up and the ending's hunt in
play) and the same forcing facts (a leader to take, a win in one, the only parries to a threat
on our leader), in positions from random games and composed endgames under every toggle the
native side plays.  Then the search as a player meets it: the strong levels play natively, the
weak ones keep the Python search they were measured with, a won ending is converted, and bad
input gets one line.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from tafl_desktop.ai.engine import make_searcher, resolve
from tafl_desktop.ai.evaluation_dablot import DablotEvaluator, DablotWeights
from tafl_desktop.ai.evaluation_tafl import FORCED, QUIET, TERMINAL, WIN_NOW
from tafl_desktop.ai.player import ComputerPlayer
from tafl_desktop.ai.search import SearchLimits
from tafl_desktop.core.game import Game, Side
from tafl_desktop.core.variants import find_variant
from tafl_desktop.native import dablot as native_dablot
from tafl_desktop.native import dablot_search
from tests.test_native_dablot import SETTINGS, _positions, _rules

needs_native = pytest.mark.skipif(dablot_search.unsupported(find_variant("dablot").make_rules()) is not None,
                                  reason="the native engine is not built")

KIND = {QUIET: "quiet", WIN_NOW: "win_now", FORCED: "forced", TERMINAL: "terminal"}


@needs_native
@pytest.mark.parametrize("name", ["dablot", "dablot_mini"])
@pytest.mark.parametrize("changes", SETTINGS, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()) or "preset")
def test_moves_scores_and_forcing_facts_are_the_python_ones(name, changes):
    rules = _rules(name, changes)
    # today's weights, and the ending's terms turned up so that they decide scores
    evaluators = [DablotEvaluator(rules), DablotEvaluator(rules, DablotWeights(mop_up=8, hunt=40, mobility=5))]
    cores = [dablot_search.NativeDablotSearcher(rules, ev)._core for ev in evaluators]
    rng = random.Random(len(name) * 1000 + len(changes))
    kinds: set[str] = set()
    seen = 0
    for pos in _positions(rules, rng, games=6):
        crossing = native_dablot.position_tuple(pos)
        where = rules.position_text(pos)
        legal = [tuple(m) for m in rules.legal_moves(pos)] if pos.result is None else []
        assert [tuple(m) for m in cores[0].moves(crossing)] == legal, where
        for ev, core in zip(evaluators, cores, strict=True):
            assert core.evaluate(crossing) == ev.evaluate(pos), where
        if pos.result is not None:
            continue
        kind, arg = evaluators[0].tactics(pos)
        native_kind, native_moves = cores[0].tactics(crossing)
        assert native_kind == KIND[kind], where
        if kind == WIN_NOW:
            assert tuple(native_moves[0]) == tuple(arg), where
        elif kind == FORCED:
            assert [tuple(m) for m in native_moves] == [tuple(m) for m in arg], where
        kinds.add(native_kind)
        seen += 1
    assert seen > 60
    assert "quiet" in kinds
    if rules.opts["leader_captured_loses"]:  # threats to a leader: the forcing facts are exercised too
        assert len(kinds) >= 2


def _mini(text: str, to_move: str):
    rules = find_variant("dablot_mini").make_rules()
    return rules, rules.parse_position(text, Side(("south", "north").index(to_move)))


@needs_native
def test_only_the_strong_levels_play_natively():
    rules = find_variant("dablot_mini").make_rules()
    assert resolve(rules) == "native"
    engines = {lv: ComputerPlayer(rules, lv, seed=1).engine for lv in ("beginner", "easy", "medium", "hard", "expert")}
    assert engines == {"beginner": "python", "easy": "python", "medium": "python", "hard": "native",
                       "expert": "native"}
    assert resolve(rules, "python") == "python"
    assert type(make_searcher(rules, "python")).__name__ == "Searcher"


@needs_native
def test_a_refused_rule_keeps_the_python_search_and_says_why():
    rules = _rules("dablot_mini", {"ambush": True})
    assert resolve(rules) == "python"
    assert ComputerPlayer(rules, "hard", seed=1).engine == "python"
    with pytest.raises(ValueError, match="ambush"):
        resolve(rules, "native")


@needs_native
def test_the_search_finds_the_python_searchs_best_move_in_a_quiet_position():
    """Same evaluation, same algorithm: at a small fixed depth the two agree on the score."""
    rules = find_variant("dablot_mini").make_rules()
    game = Game(rules)
    for _ in range(2):
        game.play(rules.legal_moves(game.position)[0])
    native = make_searcher(rules)
    python = make_searcher(rules, "python")
    lim = SearchLimits(time=0, depth=3, nodes=0, quiescence=False, threads=1)
    a = native.search(game.position, lim)
    b = python.search(game.position, lim)
    assert a.score == b.score and a.depth == b.depth == 3
    assert a.move in [tuple(m) for m in rules.legal_moves(game.position)]


@needs_native
def test_hard_converts_a_forced_win_the_prover_certifies():
    """A Mini-Dablot ending South wins in 9 plies and not in 7 (the native prover says so, and
    the Python prover agrees on the shorter bound): Hard, searching natively, wins it, and soon."""
    from tafl_desktop.ai.prover import NativeProver, Prover

    rules, pos = _mini("south=sc3,sd3,kd5,pa6,sb8 north=sb2,sb3,pb5,ka8", "south")
    assert NativeProver(rules, Side(0)).wins(pos, 9)
    assert not NativeProver(rules, Side(0)).wins(pos, 7)
    assert not Prover(rules, Side(0), max_nodes=500_000).wins(pos, 5)
    game = Game(rules, pos)
    hard = ComputerPlayer(rules, "hard", seed=3)
    keys = [rules.position_key(game.position)]
    while not game.over and len(game.plies) < 30:
        res = hard.choose(game.position, keys) if game.position.side == 0 else \
            ComputerPlayer(rules, "expert", seed=4).choose(game.position, keys)
        game.play(res.move)
        keys.append(rules.position_key(game.position))
    assert game.over and game.outcome.winner == Side(0), rules.position_text(game.position)
    assert len(game.plies) <= 15


@needs_native
@pytest.mark.parametrize("position, message", [
    (([0] * 5, 0, None), "cells"),
    (([99] * 32, 0, None), "0 to 16"),
    (([0] * 32, 7, None), "side"),
    (([0] * 32, 0, 5), "result"),
])
def test_a_bad_position_is_one_line(position, message):
    rules = find_variant("dablot_mini").make_rules()
    core = make_searcher(rules)._core
    with pytest.raises((ValueError, OverflowError)) as err:
        core.search(position, {"nodes": 100}, [])
    assert "\n" not in str(err.value)


@needs_native
def test_an_illegal_move_from_outside_is_one_line():
    rules = find_variant("dablot_mini").make_rules()
    searcher = make_searcher(rules)
    crossing = native_dablot.position_tuple(rules.initial_position())
    for bad in ([0, 31], [9, 12, 15], [200, 3], []):
        with pytest.raises(ValueError, match="not legal") as err:
            searcher._core.search(crossing, {"nodes": 100}, [], None, None, [bad])
        assert "\n" not in str(err.value)
        with pytest.raises(ValueError, match="not legal"):
            searcher._core.pv(crossing, bad)


@needs_native
@pytest.mark.parametrize("tables_change", [
    {"dist": [[0]]}, {"to_go": [[0], [0]]}, {"mop_up_full": 0}, {"jumped_from": [[(999, 1)]] * 32},
    {"weights": {"tempo": 10}},
])
def test_bad_evaluation_tables_are_refused_in_one_line(tables_change):
    import tafl_native

    rules = find_variant("dablot_mini").make_rules()
    tables = {**native_dablot.evaluation_tables(DablotEvaluator(rules)), **tables_change}
    with pytest.raises(ValueError) as err:
        tafl_native.DablotSearch(*native_dablot.lattice(rules), native_dablot.settings(rules), tables)
    assert "\n" not in str(err.value) and "tables" in str(err.value)


@needs_native
def test_the_analyse_command_searches_dablot_natively():
    """The real command line, as a player runs it: the best lines of the Mini-Dablot start."""
    out = subprocess.run([sys.executable, "-m", "tafl_desktop", "analyse", "dablot_mini", "--nodes", "200000",
                          "--lines", "2", "--json"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["engine"] == "native"
    assert len(data["lines"]) == 2 and data["lines"][0]["moves"]


@needs_native
def test_changed_weights_reach_both_engines():
    """``make_searcher(weights=...)`` (the endgame suite's ``--dablot``) changes the evaluation the
    same way in the native and the Python search."""
    rules, pos = _mini("south=sc3,sd3,kd5,pa6,sb8 north=sb2,sb3,pb5,ka8", "south")
    native = make_searcher(rules, weights={"mop_up": 8, "mobility": 9})
    python = make_searcher(rules, "python", weights={"mop_up": 8, "mobility": 9})
    assert native.engine == "native" and python.engine == "python"
    changed = native.evaluate(pos)
    assert changed == python.ev.evaluate(pos) != make_searcher(rules).evaluate(pos)
    with pytest.raises(ValueError, match="Dablot"):
        make_searcher(find_variant("fox_geese_13").make_rules(), weights={"goose": 1})


@needs_native
def test_the_hunt_of_a_side_far_ahead_scores_the_same_in_both_engines():
    """The shut-in ending of the won-endgame suite (tests/test_dablot_mop_up.py), its back row
    opened, and South's leader walked towards North's: the hunt term (from a lead of three
    soldiers, prey only what could be taken where it stands) scores alike in both engines."""
    from tests.test_dablot_mop_up import SHUT_IN

    rules = find_variant("dablot_mini").make_rules()
    ev = DablotEvaluator(rules)
    core = dablot_search.NativeDablotSearcher(rules, ev)._core
    for text in (SHUT_IN, SHUT_IN.replace(",sc9", ""), SHUT_IN.replace("kd7", "kc5"),
                 SHUT_IN.replace("kd7", "kb7").replace(",sc9", "")):
        for side in (Side(0), Side(1)):
            pos = rules.parse_position(text, side)
            assert core.evaluate(native_dablot.position_tuple(pos)) == ev.evaluate(pos), text
            assert ev.evaluate(pos) != DablotEvaluator(rules, DablotWeights(hunt=0)).evaluate(pos)
