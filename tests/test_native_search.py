"""The native search keeps the promises of the Python one, faster (issue 31).

* The native evaluation gives the Python evaluator's score on every position of many random games
  across presets and option combinations (both read ``resources/ai/tafl_evaluation.toml``).
* It finds the forced results the rules make (Tuichi, ``sources/001_aff201641af936c8.txt`` lines
  35-37: two open paths to corners cannot both be closed in one move), and an exhaustive proof
  agrees with the distance it reports.
* At a node limit on one thread the same search gives the same move, score and node count.
* It stops when asked (the worker's cancel), and a failure inside it is one line, not a crash.

Skipped where the native module is not built (a machine without a Rust toolchain).
"""

from __future__ import annotations

import random
import time

import pytest
from timing import within

from tafl_desktop.ai.engine import make_searcher, native_search_available, resolve
from tafl_desktop.ai.evaluation_tafl import TaflEvaluator, check_weights, file_weights, load_weights
from tafl_desktop.ai.prover import Prover
from tafl_desktop.ai.search import MATE_BOUND, Searcher, SearchLimits
from tafl_desktop.core.game import Side
from tafl_desktop.core.variants import find_variant

native = pytest.mark.skipif(not native_search_available(), reason="the native engine is not built")

#: Presets and option changes: every board width the native engine has (7x7 to 19x19), and the
#: options the evaluation reads (king capture, armed king, escapes, hostile edge and squares,
#: camps, walls, speed limits, captureless draws, shield walls).
CASES = [
    ("brandubh", {}),
    ("brandubh", {"king_capture": "weak_near_throne", "king_armed": "no", "escape": "edge"}),
    ("copenhagen", {}),
    ("copenhagen", {"edge_hostile": True, "king_speed": 3, "captureless_draw": 40}),
    ("copenhagen", {"shield_wall": True, "shield_wall_king_spared": False, "corners_hostile": False}),
    ("tablut", {}),
    ("tablut_camps", {}),
    ("mini_tablut", {}),
    ("single_step", {}),
    ("alea_evangelii", {}),
    ("large_hnefatafl", {}),
    ("tawlbwrdd", {"king_armed": "anvil"}),
    ("tablut", {"throne_hostile": "always", "king_capture": "strong"}),
]


def _rules(variant: str, options: dict):
    v = find_variant(variant)
    try:
        v = v.with_options(options) if options else v
    except ValueError as exc:  # an option this preset's board cannot have
        pytest.skip(str(exc))
    return v.make_rules()


@native
@pytest.mark.parametrize("variant,options", CASES)
def test_native_evaluation_equals_the_python_evaluator(variant, options):
    from tafl_desktop.native.search import NativeSearcher

    rules = _rules(variant, options)
    ev = TaflEvaluator(rules)
    ns = NativeSearcher(rules, TaflEvaluator(rules), table_bits=10)
    rng = random.Random(hash(variant) % 1000 + len(options))
    checked = 0
    for _game in range(12):
        pos = rules.initial_position()
        for _ply in range(150):
            if pos.result is not None:
                break
            assert ns.evaluate(pos) == ev.evaluate(pos), rules.position_text(pos)
            checked += 1
            moves = rules.legal_moves(pos)
            if not moves:
                break
            pos, _ = rules.play(pos, rng.choice(moves))
    assert checked > 200


@native
@pytest.mark.parametrize("text,side", [
    ("/11/11/11/11/11/1t9/4K6/11/11/t10/1T9/", Side.DEFENDERS),  # e5-k5 or e5-e11: two paths at once
    ("/11/11/11/5t5/11/11/11/11/11/2K8/11/", Side.DEFENDERS),  # c2-c1 (or c11): two corners in sight
])
def test_native_proves_a_tuichi_and_the_proof_agrees(text, side):
    rules = find_variant("copenhagen").make_rules()
    pos = rules.parse_position(text, side)
    res = make_searcher(rules, "native").search(pos, SearchLimits(time=0, depth=8))
    assert res.mate_in == 3, res
    # the exhaustive prover: the move wins within the two remaining plies whatever the reply
    after, _ = rules.play(pos, res.move)
    prover = Prover(rules, side)
    assert prover.wins(after, 2)
    assert rules.escape_routes(after)  # the king sees a corner at once


@native
def test_native_sees_a_tuichi_against_it_as_lost():
    rules = find_variant("copenhagen").make_rules()
    pos = rules.parse_position("/4K6/11/11/5t5/11/11/11/11/t10/t10/11/", Side.ATTACKERS)
    res = make_searcher(rules, "native").search(pos, SearchLimits(time=0, depth=6))
    assert res.score <= -MATE_BOUND


@native
def test_native_blocks_the_one_route():
    rules = find_variant("copenhagen").make_rules()
    pos = rules.parse_position("/2K1t6/2T8/11/11/11/1t9/11/11/6T4/tt9/11/", Side.ATTACKERS)
    res = make_searcher(rules, "native").search(pos, SearchLimits(time=0, depth=5))
    assert rules.move_text(res.move) == "b6-b11"


@native
@pytest.mark.parametrize("variant", ["brandubh", "copenhagen", "alea_evangelii"])
def test_node_limit_gives_the_same_search_twice(variant):
    rules = find_variant(variant).make_rules()
    rng = random.Random(5)
    pos = rules.initial_position()
    for _ in range(12):
        pos, _ = rules.play(pos, rng.choice(rules.legal_moves(pos)))
    lim = SearchLimits(time=0, depth=64, nodes=30_000, threads=1)
    a = make_searcher(rules, "native").search(pos, lim)
    b = make_searcher(rules, "native").search(pos, lim)
    assert a.stopped == "nodes"
    assert (a.move, a.score, a.depth, a.nodes, a.pv) == (b.move, b.score, b.depth, b.nodes, b.pv)


@native
def test_should_stop_ends_a_native_search_at_once():
    import time

    rules = find_variant("copenhagen").make_rules()
    calls = []

    def stop() -> bool:
        calls.append(1)
        return len(calls) > 3

    t0 = time.perf_counter()
    res = make_searcher(rules, "native").search(rules.initial_position(), SearchLimits(time=60, depth=64),
                                                should_stop=stop)
    assert res.stopped == "cancelled"
    assert res.move in rules.legal_moves(rules.initial_position())
    within(time.perf_counter() - t0, 5, "the stopped search")


@native
def test_a_failure_inside_the_native_search_is_one_line():
    from tafl_desktop.native.search import NativeSearcher

    rules = find_variant("brandubh").make_rules()
    ns = NativeSearcher(rules, TaflEvaluator(rules), table_bits=10)
    with pytest.raises(RuntimeError) as info:
        ns._core._panic_for_test()
    assert "\n" not in str(info.value) and "native" in str(info.value)
    # the searcher still works after it
    assert ns.search(rules.initial_position(), SearchLimits(time=0, depth=2)).move is not None


@native
def test_native_and_python_agree_on_the_forced_results_of_shallow_searches():
    """Where both engines prove a result at a small depth, they prove the same one."""
    rules = find_variant("brandubh").make_rules()
    rng = random.Random(11)
    agreed = tried = 0
    while agreed < 6 and tried < 400:
        pos = rules.initial_position()
        for _ply in range(rng.randrange(10, 40)):
            if rules.outcome(pos) is not None:
                break
            pos, _ = rules.play(pos, rng.choice(rules.legal_moves(pos)))
        if rules.outcome(pos) is not None:
            continue
        tried += 1
        lim = SearchLimits(time=0, depth=3, quiescence=False)
        b = make_searcher(rules, "native").search(pos, lim)
        if b.mate_in is None:
            continue
        a = Searcher(rules).search(pos, lim)
        assert a.mate_in == b.mate_in, rules.position_text(pos)
        agreed += 1
    assert agreed > 5


def test_engine_choice():
    tafl = find_variant("brandubh").make_rules()
    fox = find_variant("fox_geese_13").make_rules()
    assert resolve(fox, "python") == "python" and make_searcher(fox, "python").engine == "python"
    assert resolve(tafl, "python") == "python"
    assert make_searcher(tafl, "python").engine == "python"
    with pytest.raises(ValueError, match="--engine"):
        resolve(tafl, "fast")
    if native_search_available():
        assert resolve(tafl) == "native" and make_searcher(tafl).engine == "native"
        # the Fox games have a native search too (their strong levels, analysis and hints)
        assert resolve(fox, "native") == "native" and make_searcher(fox).engine == "native"


# ---------------------------------------------------------------------------- the weights file
def test_the_shipped_weights_file_has_every_term():
    w = file_weights()
    assert w["attacker"] > 0 and set(w) == set(TaflEvaluator(find_variant("brandubh").make_rules()).w.to_dict())


@pytest.mark.parametrize("text,message", [
    ("[weights]\nattacker = 'many'\n", "whole number"),
    ("[weights]\nattacker = true\n", "whole number"),
    ("[weights]\nqueen = 900\n", "not a term"),
    ("[weights]\nattacker = 1e400\n", "whole number"),
    ("weights = 3\n", "table"),
    ("[weights\n", "cannot be read"),
    ("[weights]\nattacker = 100\n", "missing"),
    ("[weights]\nattacker = 99999999999\n", "whole number"),
])
def test_a_broken_weights_file_is_refused_in_one_line(tmp_path, text, message):
    f = tmp_path / "w.toml"
    f.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=message) as info:
        load_weights(f)
    assert "\n" not in str(info.value)


def test_weights_file_that_is_binary_or_missing(tmp_path):
    f = tmp_path / "w.toml"
    f.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(ValueError, match="cannot be read"):
        load_weights(f)
    with pytest.raises(ValueError, match="cannot be read"):
        load_weights(tmp_path / "absent.toml")
    with pytest.raises(ValueError, match="table"):
        check_weights([1, 2], "x")


# ---------------------------------------------------------------------------- in the worker process
@native
def test_the_worker_plays_hints_and_analyses_with_the_native_engine():
    from tafl_desktop.ai.worker import AIWorker

    v = find_variant("copenhagen")
    rules = v.make_rules()
    pos = rules.initial_position()
    with AIWorker() as w:
        w.start(v.to_data(), rules.position_text(pos), pos.side, [rules.position_key(pos)], level="medium")
        res = w.wait(60)
        assert res is not None and not res.error and res.engine == "native"
        assert res.move in rules.legal_moves(pos)
        w.start(v.to_data(), rules.position_text(pos), pos.side, mode="analyse", time_limit=1.0,
                extra={"lines": 3, "time": 1.0})
        res = w.wait(60)
        assert res is not None and not res.error and res.data["engine"] == "native"
        assert len(res.data["lines"]) == 3 and res.data["depth"] >= 4
        # a cancelled deep search stops at once, and the worker answers the next request
        w.start(v.to_data(), rules.position_text(pos), pos.side, level="expert", time_limit=120.0)
        deadline = time.monotonic() + 30
        while w.info is None and time.monotonic() < deadline:
            w.poll()
            time.sleep(0.02)
        w.cancel()
        w.start(v.to_data(), rules.position_text(pos), pos.side, mode="hint", time_limit=0.5)
        t0 = time.monotonic()
        res = w.wait(30)
        assert res is not None and not res.error and res.move in rules.legal_moves(pos)
        within(time.monotonic() - t0, 10, "the worker's move")


# ---------------------------------------------------------------------------- puzzle proofs
@native
@pytest.mark.parametrize("variant", ["brandubh", "copenhagen"])
def test_native_and_python_provers_settle_the_same_puzzles(variant):
    """The shipped puzzles' positions and positions a few plies before them: both provers find the
    same unique win (or none) with the same first move, length and solution tree."""
    from tafl_desktop.ai.prover import NativeProver, Prover, prove_unique
    from tafl_desktop.core.paths import resources_dir
    from tafl_desktop.study.puzzles import PuzzleSet

    pset = PuzzleSet.load(resources_dir() / "puzzles" / f"{variant}.json")
    compared = 0
    for pz in pset.puzzles[:6 if variant == "brandubh" else 3]:
        rules = find_variant(pz["variant"]).with_options(pz.get("options") or {}).make_rules()
        pos = rules.parse_position(pz["position"], Side.parse(pz["to_move"]))
        py = prove_unique(rules, pos, 3, max_nodes=200_000, engine="python")
        nat = prove_unique(rules, pos, 3, max_nodes=200_000, engine="native")
        assert (py is None) == (nat is None)
        if py is not None:
            assert (py.plies, py.first, py.tree) == (nat.plies, nat.first, nat.tree)
            compared += 1
        # the AND/OR answer on each reply, too
        side = rules.side_to_move(pos)
        a, b = Prover(rules, side), NativeProver(rules, side)
        for m in rules.legal_moves(pos)[:4]:
            child = rules.play(pos, m)[0]
            assert a.wins(child, 2) == b.wins(child, 2)
    assert compared >= 2


@pytest.mark.parametrize("variant", ["brandubh", "copenhagen"])
def test_the_rust_tests_fixture_is_current(variant):
    """``cargo test`` checks the native evaluation against ``tafl_native/tests/data``: those files
    must hold what the Python evaluator computes now (rewrite them with
    ``python -m tafl_desktop.ai.native_fixtures``)."""
    import json

    from tafl_desktop.ai.native_fixtures import FIXTURE_VARIANTS, fixture
    from tafl_desktop.core.paths import resources_dir

    assert variant in FIXTURE_VARIANTS
    path = resources_dir().parent / "tafl_native" / "tests" / "data" / f"eval_{variant}.json"
    stored = json.loads(path.read_text(encoding="utf-8"))
    assert stored == json.loads(json.dumps(fixture(variant)))


@native
def test_the_native_search_keeps_the_defenders_no_repeat_rule():
    """hnefatafl.org's rule (tafl-rules.md 2.2): the defenders may not recreate a board.  The king's
    only move would repeat one, so he has none, and with Copenhagen's 'cannot move, loses' the
    native search, like the game, finds no move and a lost position; with a second way out it
    plays that one."""
    from tafl_helpers import game_from, rules_for

    rules = rules_for("copenhagen", repetition="defenders_no_repeat")
    game = game_from(rules, "Ka6 ta5 ta7 tc6 tk9", "defenders")
    for text in ("a6-b6", "k9-k8", "b6-a6", "k8-k9"):
        game.play_text(text)
    keys = [rules.position_key(game.position_at(i)) for i in range(len(game.plies) + 1)]
    res = make_searcher(rules, "native").search(game.position, SearchLimits(time=0, depth=4), keys)
    assert res.move is None and res.score <= -MATE_BOUND
    freer = game_from(rules, "Ka6 ta5 ta7 tc5 tk9", "defenders")  # b6-c6 opens a second way
    for text in ("a6-b6", "k9-k8", "b6-a6", "k8-k9"):
        freer.play_text(text)
    keys = [rules.position_key(freer.position_at(i)) for i in range(len(freer.plies) + 1)]
    res = make_searcher(rules, "native").search(freer.position, SearchLimits(time=0, depth=4), keys)
    assert res.move is not None and res.move in freer.legal_moves()


@native
@pytest.mark.parametrize("variant", ["copenhagen", "brandubh"])
def test_analysis_lines_are_as_long_as_the_depth_searched(variant):
    """Each line the analysis board shows goes as deep as its depth (or to the end of the game,
    or to a repeated position): with two threads sharing the table, a line read from the table
    alone used to break off after one or two moves at depth 8, leaving nothing to click."""
    from tafl_desktop.ai.multipv import analyse

    rules = find_variant(variant).make_rules()
    rng = random.Random(11)
    pos = rules.initial_position()
    for _ in range(6):
        pos, _ = rules.play(pos, rng.choice(rules.legal_moves(pos)))
    reports = []
    analyse(rules, pos, lines=3, time_limit=1.5, engine="native", on_iteration=reports.append)
    assert reports and reports[-1].depth >= 5
    for rep in reports:
        for line in rep.lines:
            if line.result_in is not None or len(line.moves) >= rep.depth:
                continue
            # shorter only where the line comes back to a position it passed
            p, keys = pos, [rules.position_key(pos)]
            for t in line.moves:
                p = rules.play(p, rules.parse_move(p, t))[0]
                keys.append(rules.position_key(p))
            assert len(set(keys)) < len(keys), (rep.depth, line.moves)
