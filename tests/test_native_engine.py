"""The native engine as a module: built where make builds it, fed only the core's validated
objects, in step with the core's option schema and tables, and never able to crash the process
(issue 31: "a panic in Rust becomes a Python exception with one clear line").
"""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest

from tafl_desktop import native
from tafl_desktop.core.tafl import C_ATT, C_DEF, C_KING
from tafl_desktop.core.tafl_options import TAFL_OPTIONS
from tafl_desktop.core.variants import VariantError, find_variant, presets

needs_native = pytest.mark.skipif(not native.available(), reason=f"native engine: {native.unavailable_reason()}")
TAFL_PRESETS = sorted(vid for vid, v in presets().items() if native.bridge.native_fits(v))


def test_the_native_engine_is_built_where_make_test_built_it():
    """`make test` sets TAFL_NATIVE_EXPECTED when cargo is on PATH: then the suite must not
    silently run on the Python engine alone."""
    if os.environ.get("TAFL_NATIVE_EXPECTED") != "1":
        pytest.skip("not run by make test with cargo")
    assert native.available(), native.unavailable_reason()


@needs_native
def test_a_module_built_for_another_processor_is_not_used(monkeypatch):
    """A module compiled for instructions this processor lacks would die of an illegal
    instruction: the bridge asks it first and plays on the Python engine instead."""
    module = native.native_module()
    assert module.cpu_missing() == []  # built here by make, for this processor
    monkeypatch.setattr(module, "cpu_missing", lambda: ["avx2", "bmi2"])
    native.bridge.native_module.cache_clear()
    try:
        assert not native.available()
        assert "lacks avx2, bmi2" in native.unavailable_reason()
        assert native.resolve_engine(None) == "python"
    finally:
        monkeypatch.undo()
        native.bridge.native_module.cache_clear()
    assert native.available()


@needs_native
def test_the_native_engine_knows_exactly_the_cores_option_keys():
    """All but those it leaves to the core (the bridge refuses a variant that uses them)."""
    played = set(TAFL_OPTIONS.keys()) - set(native.bridge.PYTHON_ONLY)
    assert sorted(native.native_module().option_keys()) == sorted(played)


@needs_native
def test_the_native_engine_knows_every_value_of_every_option():
    """Value by value, not only key by key: issue 32 added camps_hostile=always to a key the
    native rules already knew; a module without it must not be handed the value."""
    known = native.native_module().option_values()
    assert native.bridge.schema_gaps(known) == []
    for spec in TAFL_OPTIONS:
        if spec.key in native.bridge.PYTHON_ONLY:
            assert spec.key not in known, spec.key  # left to the core: the bridge refuses it
        elif spec.kind == "choice":
            assert known[spec.key] == spec.values(), spec.key
        elif spec.kind == "int":
            assert known[spec.key] == (spec.minimum, spec.maximum), spec.key
        else:
            assert known[spec.key] == "bool", spec.key


@needs_native
def test_the_native_defaults_are_the_schemas():
    """Issue 41, item 5: the native option struct, its defaults, keys and domains are generated from
    one line a key (``tafl_options!`` in ``tafl_native/src/rules/config.rs``); each default is
    the core schema's (``core/tafl_options.py``), of the same type, for every key it plays."""
    defaults = native.native_module().option_defaults()
    for spec in TAFL_OPTIONS:
        if spec.key in native.bridge.PYTHON_ONLY:
            assert spec.key not in defaults, spec.key
        else:
            assert (defaults[spec.key], type(defaults[spec.key])) == (spec.default, type(spec.default)), spec.key
    assert sorted(defaults) == sorted(native.native_module().option_keys())


def _with_module_changed(monkeypatch, name, value):
    """The bridge's verdict on the built module with one attribute replaced (or removed)."""
    module = native.native_module()
    if value is None:
        monkeypatch.delattr(module, name)
    else:
        monkeypatch.setattr(module, name, value)
    native.bridge.native_module.cache_clear()
    try:
        return native.available(), native.unavailable_reason(), native.resolve_engine(None)
    finally:
        monkeypatch.undo()
        native.bridge.native_module.cache_clear()


@needs_native
def test_a_module_that_lacks_a_value_of_the_schema_is_out_of_date_and_the_python_engine_plays(monkeypatch):
    """A module built before issue 32 knew camps_hostile but not its value "always", nor the key
    camp_to_camp: the app must play such variants on the Python rules, never misread them."""
    known = dict(native.native_module().option_values())
    before_32 = dict(known, camps_hostile=["none", "defenders", "all"])
    del before_32["camp_to_camp"]
    ok, reason, engine = _with_module_changed(monkeypatch, "option_values", lambda: before_32)
    assert (ok, engine) == (False, "python")
    assert reason == ("the native engine is older than the rules (it lacks camps_hostile=always, "
                      "camps_hostile=always_but_middle, camp_to_camp)")
    narrow = dict(known, king_speed=(0, 10))
    ok, reason, _engine = _with_module_changed(monkeypatch, "option_values", lambda: narrow)
    assert not ok and "king_speed=0..18" in reason
    ok, reason, _engine = _with_module_changed(monkeypatch, "option_values", None)
    assert not ok and reason == "the native engine is older than the rules (it lacks option_values)"
    ok, reason, _engine = _with_module_changed(monkeypatch, "option_values", lambda: "garbage")
    assert not ok and reason.endswith("(it lacks first_move, movement, king_speed)")

    def broken():
        raise RuntimeError("broken build")

    ok, reason, _engine = _with_module_changed(monkeypatch, "option_values", broken)
    assert not ok and reason == "the native engine cannot say what it supports (broken build)"
    assert native.available()


@needs_native
@pytest.mark.parametrize("board", ["brandubh", "copenhagen", "tablut_camps", "tablut_competition", "mini_tablut"])
def test_every_value_of_every_option_builds_native_rules(board):
    module = native.native_module()
    built = 0
    for spec in TAFL_OPTIONS:
        if spec.key in native.bridge.PYTHON_ONLY:
            continue  # played by the core only (tests/test_tafl_hnefatafl_org.py)
        values = spec.values() if spec.kind != "int" else [spec.minimum, spec.maximum]
        for value in values:
            try:
                v = presets()[board].with_options({spec.key: value})
            except VariantError:
                continue
            module.TaflRules(native.config_for(v))
            built += 1
    assert built > 50


def core_tables(rules) -> dict:
    """The core's compiled tables in the shape ``tafl_native.TaflRules.tables()`` gives them."""
    full = rules.full

    def mask(squares) -> int:
        return rules._mask(squares)

    def moves(c: int, s: int) -> tuple[int, int]:
        passable = full & ~mask(rules.block[c][s])
        return passable, passable & ~mask(rules.nostop[c][s])

    king_pass, king_stop = moves(C_KING, 0)
    return {
        "escape": rules.escape_mask, "host_always": tuple(rules.host_always), "host_empty": tuple(rules.host_empty),
        "att_closed": rules.att_closed, "never_stop": tuple(rules.never_stop), "wall_trigger": rules.wall_trigger,
        "edge": rules.edge_mask,
        "attacker_moves": [moves(C_ATT, s) for s in range(rules.N)],
        "defender_moves": [moves(C_DEF, s) for s in range(rules.N)],
        "king_moves": (king_pass, king_stop, mask(rules.endpoint[C_KING][0])),
        "maxdist": (rules.maxdist, rules.king_maxdist),
    }


@needs_native
@pytest.mark.parametrize("vid", TAFL_PRESETS)
def test_native_tables_are_the_cores(vid):
    """Hostile squares, escape squares, who may pass or stop where, what a fort may rely on:
    compiled natively from the same variant, equal to the core's, under random toggles too."""
    from native_differential import random_variant

    rng = random.Random(vid)
    for variant in [presets()[vid]] + [random_variant(rng, vid) for _ in range(6)]:
        rules = variant.make_rules()
        got = native.native_module().TaflRules(native.config_for(variant)).tables()
        want = core_tables(rules)
        for key, value in want.items():
            got_value = [tuple(x) for x in got[key]] if isinstance(value, list) else got[key]
            assert got_value == value, f"{vid} {variant.changed_options()}: {key}"


@needs_native
def test_a_panic_becomes_one_line_of_native_error():
    module = native.native_module()
    with pytest.raises(module.NativeError) as err:
        module._panic_for_test()
    text = str(err.value)
    assert text.startswith("native engine failed: deliberate panic for the test")
    assert "\n" not in text
    assert isinstance(err.value, Exception)  # an ordinary exception, not pyo3's BaseException panic


@needs_native
def test_a_panic_neither_crashes_nor_prints_in_a_real_process():
    """After a panic the module goes on working, and nothing reaches stderr."""
    variant = find_variant("brandubh")
    start = native.position_tuple(variant.make_rules().initial_position())
    code = ("import sys, tafl_native\n"
            "try:\n    tafl_native._panic_for_test()\n"
            "except tafl_native.NativeError as e:\n    print('caught:', e)\n"
            f"rules = tafl_native.TaflRules({native.config_for(variant)!r})\n"
            f"print(rules.count_moves({start!r}))\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""
    lines = run.stdout.splitlines()
    assert lines[0].startswith("caught: native engine failed: deliberate panic")
    assert lines[1] == str(len(variant.make_rules().legal_moves(variant.make_rules().initial_position())))


@needs_native
@pytest.mark.parametrize("config, why", [
    ({"width": 7, "height": 7, "options": {"king_capture": "sideways"}}, "king_capture"),
    ({"width": 7, "height": 7, "options": {"no_such_rule": True}}, "unknown option"),
    ({"width": 7, "height": 7, "options": {"captureless_draw": 10**30}}, ""),
    ({"width": 7, "height": 7, "options": {"edge_forts": "yes"}}, "edge_forts"),
    ({"width": 20, "height": 7}, "3..19"),
    ({"width": 7, "height": 7, "walls": [(6, 7)]}, "side-by-side"),
    ({"width": 7, "height": 7, "throne": 49}, "throne"),
    ({"width": 7, "height": 7, "corners": [-1]}, "square"),
    ({"height": 7}, "width"),
])
def test_a_malformed_configuration_is_one_value_error(config, why):
    module = native.native_module()
    with pytest.raises((ValueError, OverflowError, TypeError)) as err:
        module.TaflRules(config)
    assert why in str(err.value)
    assert "\n" not in str(err.value)


@needs_native
@pytest.mark.parametrize("pos, why", [
    ((1, 1, 24, 0, 0, None), "on top of each other"),
    ((1 << 49, 0, 24, 0, 0, None), "off the board"),
    ((0, 0, 49, 0, 0, None), "king"),
    ((1, 0, 0, 0, 0, None), "king"),
    ((-1, 0, 24, 0, 0, None), "non-negative"),
    ((1 << 200, 0, 24, 0, 0, None), "fits the board"),
    ((1, 0, 24, 2, 0, None), "side"),
    ((1, 0, 24, 0, -3, None), "quiet"),
    ((1, 0, 24, 0, 0, (0, "checkmate")), "reason"),
    ((1, 0, 24, 0), "tuple"),
    ("not a position", "tuple"),
])
def test_a_malformed_position_is_one_value_error(pos, why):
    rules = native.native_module().TaflRules(native.config_for(find_variant("brandubh")))
    with pytest.raises(ValueError) as err:
        rules.legal_moves(pos)
    assert why in str(err.value)


@needs_native
def test_an_illegal_move_is_refused_not_played():
    variant = find_variant("brandubh")
    rules = native.native_module().TaflRules(native.config_for(variant))
    start = native.position_tuple(variant.make_rules().initial_position())
    for bad, why in [((24, 25), "not legal"), ((3, 3), "not legal"), ((0, 1), "not legal"), ((3, 99), "off the board"),
                     ((3,), "pair"), ("d7-d5", "pair")]:
        with pytest.raises(ValueError, match=why):
            rules.play(start, bad)
    after, captures = rules.play(start, (45, 47))  # d7-f7
    assert captures == [] and after[3] == 1


@needs_native
def test_hashes_follow_the_pieces_and_the_side_to_move():
    """The incremental Zobrist hash equals a fresh one; the board-only hash ignores the side."""
    variant = find_variant("copenhagen")
    core = variant.make_rules()
    rules = native.native_module().TaflRules(native.config_for(variant))
    rng = random.Random(5)
    pos = core.initial_position()
    seen: dict[tuple, tuple[int, int]] = {}
    for _ in range(60):
        t = native.position_tuple(pos)
        full, board = rules.hashes(t)
        again = rules.hashes((t[0], t[1], t[2], 1 - t[3], t[4], t[5]))
        assert again[1] == board and again[0] != full
        key = core.position_key(pos)
        assert seen.setdefault(key, (full, board)) == (full, board)
        moves = core.legal_moves(pos)
        if not moves or pos.result:
            break
        pos, _ = core.play(pos, rng.choice(moves))
