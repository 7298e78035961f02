"""Issue 38: tests that see every option, and the issue's command lines as a user runs them.

Item 5: the per-value perft test cannot see most Tafl options (they change nothing within three
plies of the start).  ``tests/option_witnesses.py`` keeps, for every value of every option, a
witness position where that value and a second value of the same option differ within two plies
(legal moves, captures, positions or outcomes).  On each witness the native rules must agree with
the core under both values, and the two values must still differ, so a native (or core) engine
handed the wrong value would be caught.  The rules behind the issue's other items are pinned from
their sources in ``test_tafl_rules_fidelity_iv.py`` (run on both engines).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import option_witnesses as ow
import pytest

from tafl_desktop import native
from tafl_desktop.core.tafl_options import TAFL_OPTIONS

WITNESSES: dict = json.loads(ow.DATA.read_text(encoding="utf-8"))["witnesses"]

needs_native = pytest.mark.skipif(not native.available(), reason=f"native engine: {native.unavailable_reason()}")


def test_every_value_of_every_option_has_a_witness():
    """Every key of the schema, every choice and both booleans, the listed whole numbers: none missing."""
    assert {key for key, _value in ow.cases()} == set(TAFL_OPTIONS.keys()) - set(native.bridge.PYTHON_ONLY)
    assert sorted(WITNESSES) == sorted(ow.case_key(k, v) for k, v in ow.cases())
    assert [case for case, w in WITNESSES.items() if w is None] == []


@needs_native
@pytest.mark.parametrize("case", sorted(WITNESSES))
def test_native_and_core_agree_on_the_witness_under_both_values(case):
    from tafl_desktop.native.rules import NativeTaflRules

    key, text = case.split("=", 1)
    value, w = json.loads(text), WITNESSES[case]
    seen = {}
    for v in (value, w["other"]):
        variant = ow.variant(w["board"], w["base"], key, v)
        assert variant is not None, f"{w['board']} no longer takes {key}={v}"
        core, nat = variant.make_rules(), NativeTaflRules(variant)
        seen[json.dumps(v)] = (ow.signature(core, ow.position_of(core, w["setup"], w["to_move"])),
                               ow.signature(nat, ow.position_of(nat, w["setup"], w["to_move"])))
    (core_v, nat_v), (core_o, nat_o) = seen[json.dumps(value)], seen[json.dumps(w["other"])]
    assert core_v != core_o, f"the witness no longer tells {key}={value} from {key}={w['other']}"
    assert nat_v == core_v, f"native differs from the core with {key}={value}"
    assert nat_o == core_o, f"native differs from the core with {key}={w['other']}"
    # so an engine handed the other value would disagree with one handed this one
    assert nat_o != core_v and core_o != nat_v


def _play(*args: str) -> dict:
    """``tafl-desktop play ... --json`` in a subprocess (this checkout's code: PYTHONPATH is passed on)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    done = subprocess.run([sys.executable, "-m", "tafl_desktop", "play", *args, "--json"], capture_output=True,
                          text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_issue_command_lines_now_give_the_rules():
    """The issue's own commands: the wall b1-d1 is taken on the corner square, the sealed pocket does not
    stop the exit fort, and the competition's first move e3-a3 leaves a4 standing."""
    wall = _play("tawlbwrdd", "--set", "shield_wall=true", "--position", "/11/11/8K2/11/11/11/11/11/t10/1ttt7/1TTTt6/",
                 "--to-move", "attackers", "--moves", "a3-a1")
    assert sorted(wall["captures"][0]) == ["b1", "c1", "d1"]
    fort = _play("copenhagen", "--position", "/11/11/11/11/11/8t2/11/6T3T/6TTTT1/6TTT1T/6T2K1/", "--to-move",
                 "defenders", "--moves", "g1-f1")
    assert (fort["result"], fort["reason"]) == ("defenders", "edge_fort")
    camp = _play("tablut_competition", "--moves", "e3-a3")
    assert camp["captures"] == [[]]
