"""Native perft equals the core's: depth 4 on every Tafl preset, and depth 3 for every value of
every Tafl option on Brandubh and Copenhagen (and on the two camp boards, for the camp options).

The core is the one source of truth.  Its counts at depth 4 on the 11x11 and larger boards take
minutes in Python, so they are kept in ``tests/data/native_perft.json`` and the default run
compares the native counts with them (and a live sample with the core itself); the slow test
re-derives the whole file from the core:

    QT_QPA_PLATFORM=offscreen .venv/bin/python -m pytest -m slow tests/test_native_perft.py

After a rule change, ``.venv/bin/python tests/test_native_perft.py --write`` recomputes the file
with the core (about half an hour: Alea Evangelii's depth 4 alone is 65 million Python moves).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tafl_desktop import native
from tafl_desktop.core.playout import perft
from tafl_desktop.core.tafl_options import TAFL_OPTIONS
from tafl_desktop.core.variants import VariantError, presets

DATA = Path(__file__).parent / "data" / "native_perft.json"
PRESET_DEPTH = 4
OPTION_DEPTH = 3
OPTION_BOARDS = ("brandubh", "copenhagen", "tablut_camps", "tablut_competition")
#: Presets whose depth 4 the default run checks live against the core (quick in Python).
LIVE_DEPTH_4 = ("ard_ri", "brandubh", "mini_tablut", "mini_tablut_open", "papillons_escape", "single_step")
#: Native depth 4 takes long here (19x19): checked at depth 3 live by default, at depth 4 when slow.
SLOW_NATIVE = ("alea_evangelii",)
TAFL_PRESETS = sorted(vid for vid, v in presets().items() if native.bridge.native_fits(v))

needs_native = pytest.mark.skipif(not native.available(), reason=f"native engine: {native.unavailable_reason()}")


def option_values(spec) -> list:
    """Every value of a toggle; for the numbers every value up to 18 (the king's range), the
    repetition counts, and the captureless limits 0, 1, 2 and the maximum."""
    if spec.kind != "int":
        return spec.values()
    return sorted({v for v in spec.values() if v <= 18} | {spec.maximum})


def option_cases() -> list[tuple[str, str, object]]:
    return [(board, spec.key, value) for board in OPTION_BOARDS for spec in TAFL_OPTIONS
            if spec.key not in native.bridge.PYTHON_ONLY for value in option_values(spec)]


def case_key(board: str, key: str, value: object) -> str:
    return f"{board} {key}={json.dumps(value)}"


def variant_of(board: str, key: str, value: object):
    """The board's preset with one toggle set, or None when the core refuses it on that board."""
    try:
        return presets()[board].with_options({key: value})
    except VariantError:
        return None


def core_perft(variant, depth: int) -> int:
    rules = variant.make_rules()
    return perft(rules, rules.initial_position(), depth)


def native_perft(variant, depth: int) -> int:
    rules = native.make_rules(variant, "native")
    return rules.perft(rules.initial_position(), depth)


def core_table() -> dict:
    """Everything the data file holds, computed by the core (slow)."""
    presets_counts = {vid: core_perft(presets()[vid], PRESET_DEPTH) for vid in TAFL_PRESETS}
    options = {}
    for board, key, value in option_cases():
        v = variant_of(board, key, value)
        options[case_key(board, key, value)] = None if v is None else core_perft(v, OPTION_DEPTH)
    return {"made_by": "tests/test_native_perft.py --write (the core's perft)", "preset_depth": PRESET_DEPTH,
            "presets": presets_counts, "option_depth": OPTION_DEPTH, "options": options}


def stored() -> dict:
    return json.loads(DATA.read_text(encoding="utf-8"))


# ------------------------------------------------------------------------------- default run
def test_the_data_file_covers_every_preset_and_every_option_value():
    data = stored()
    assert sorted(data["presets"]) == TAFL_PRESETS
    assert sorted(data["options"]) == sorted(case_key(*c) for c in option_cases())
    refused = [k for k, v in data["options"].items() if v is None]
    assert "brandubh camps=true" in refused and "copenhagen escape=\"marked\"" in refused
    assert len(refused) < len(data["options"]) // 4


@needs_native
@pytest.mark.parametrize("vid", [v for v in TAFL_PRESETS if v not in SLOW_NATIVE])
def test_native_perft_4_equals_the_cores_count(vid):
    assert native_perft(presets()[vid], PRESET_DEPTH) == stored()["presets"][vid]


@needs_native
@pytest.mark.parametrize("vid", SLOW_NATIVE)
def test_native_perft_3_of_the_largest_board_equals_the_core_live(vid):
    assert native_perft(presets()[vid], 3) == core_perft(presets()[vid], 3)


@needs_native
@pytest.mark.parametrize("vid", LIVE_DEPTH_4)
def test_native_perft_4_equals_the_core_live(vid):
    assert native_perft(presets()[vid], PRESET_DEPTH) == core_perft(presets()[vid], PRESET_DEPTH)


@needs_native
@pytest.mark.parametrize("board", OPTION_BOARDS)
def test_native_perft_3_for_every_option_value_equals_the_cores(board):
    counts = stored()["options"]
    checked = 0
    for b, key, value in option_cases():
        if b != board:
            continue
        expected = counts[case_key(b, key, value)]
        v = variant_of(b, key, value)
        assert (v is None) == (expected is None), f"{key}={value}: the core now refuses or accepts it"
        if v is not None:
            assert native_perft(v, OPTION_DEPTH) == expected, f"{board} {key}={value}"
            checked += 1
    assert checked > 60


@needs_native
def test_a_live_sample_of_option_values_equals_the_core():
    """A few option values where the rules differ most, recomputed by the core now."""
    for board, key, value in [("brandubh", "king_capture", "strong"), ("brandubh", "strict_custodian", "everyone"),
                              ("brandubh", "immobilisation", True), ("brandubh", "edge_hostile", True),
                              ("brandubh", "movement", "single_step"), ("tablut_camps", "camp_crossing", "everyone")]:
        v = variant_of(board, key, value)
        assert native_perft(v, OPTION_DEPTH) == core_perft(v, OPTION_DEPTH), f"{board} {key}={value}"


# ---------------------------------------------------------------------------------- slow run
@pytest.mark.slow
def test_the_stored_counts_are_the_cores():
    """Re-derive every stored count with the core's perft (about half an hour)."""
    table, data = core_table(), stored()
    assert table["options"] == data["options"]
    assert table["presets"] == data["presets"]


@needs_native
@pytest.mark.slow
@pytest.mark.parametrize("vid", SLOW_NATIVE)
def test_native_perft_4_of_the_largest_board_equals_the_cores_count(vid):
    assert native_perft(presets()[vid], PRESET_DEPTH) == stored()["presets"][vid]


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        DATA.write_text(json.dumps(core_table(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    else:
        print(__doc__)


@needs_native
def test_perft_honours_the_defenders_no_repeat_rule_along_each_line_as_the_core_does():
    """hnefatafl.org: "If the defender would repeat a board position, the move is not allowed";
    perft counts no such move (the core's playout.perft), so at depth 4 from a position with the
    attackers to move, a defenders' move back to the starting board is missing from the count."""
    from tafl_desktop.core.game import Side

    base = presets()["brandubh"]
    counts = {}
    for rule in ("allowed", "defenders_no_repeat"):
        variant = base.with_options({"repetition": rule})
        core = variant.make_rules()
        start = core.parse_position("/7/1t5/3T3/3K1t1/7/2T2t1/7/", Side.ATTACKERS)
        counts[rule] = (perft(core, start, 4), native.make_rules(variant, "native").perft(start, 4))
        assert counts[rule][0] == counts[rule][1], rule
    assert counts["defenders_no_repeat"][0] < counts["allowed"][0]
