"""The native Dablot prover: the puzzle miner's forced-win questions settled in ``tafl_native``.

The Python prover settles 1,500 to 5,000 Dablot positions a second (fewer the more pieces), too
few to find the rare three-move wins among composed endgames; the native one (about 450,000 on
composed endgames) walks the same moves (built from the
Python rules' own lattice, ranks and toggles, so there is one geometry and one rule book) and
is checked against them move for move (``tests/test_native_dablot.py``).

Only rule settings whose every move is one step or one piece's jump chain are played natively:
Ambush (several pieces in one move), Action Points (several moves in one turn) and the draw after
a count of moves without a capture (a counter the proof table does not key on) stay with the
Python prover, as does a board of more than 128 points.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from tafl_desktop.core.dablot import LEADER, OFFICER, SOLDIER, SON, DablotPosition, DablotRules, cell

if TYPE_CHECKING:
    from tafl_native import DablotProver

try:  # built by `make` (maturin); without a Rust toolchain it is simply absent
    import tafl_native as _native
except ImportError:  # pragma: no cover - exercised on machines without the module
    _native = None  # type: ignore[assignment]  # typed as the module; None where it is not built

#: The most points a board may have natively (the crate's limit).
MAX_POINTS = 128

_CORES: weakref.WeakKeyDictionary[DablotRules, DablotProver] = weakref.WeakKeyDictionary()


def unsupported(rules: DablotRules) -> str | None:
    """Why ``rules`` (a Dablot rules object) cannot be proved natively here (None: it can)."""
    if _native is None or not hasattr(_native, "DablotProver"):
        return "the native engine is not built"
    opts = rules.opts
    for name in ("ambush", "action_points"):
        if opts.get(name):
            return f"{name} is on"
    if int(opts.get("captureless_draw") or 0):
        return "the draw without captures is on"
    if rules.N > MAX_POINTS:
        return f"the board has more than {MAX_POINTS} points"
    return None


def prover_core(rules: DablotRules) -> DablotProver:
    """The native prover for ``rules`` (one per rules object, kept while the rules live)."""
    core = _CORES.get(rules)
    if core is None:
        reason = unsupported(rules)
        if reason is not None:
            raise ValueError(f"the native Dablot prover cannot play these rules: {reason}")
        core = _CORES[rules] = _native.DablotProver(*lattice(rules), settings(rules))
    return core


def position_tuple(pos: DablotPosition) -> tuple[list[int], int, int | None]:
    """A core DablotPosition as it crosses: cells, side to move, and the result when decided
    (the winner, -1 for a draw)."""
    result = pos.result
    decided = None if result is None else (-1 if result.winner is None else int(result.winner))
    return list(pos.cells), int(pos.side), decided


def lattice(rules: DablotRules) -> tuple[list[list[int]], list[list[tuple[int, int]]], list[int], list[int],
                                         list[list[bool]]]:
    """The board as the native classes take it: steps, jumps, rows, ranks and far rows, all from
    the Python rules (one geometry, one rule book)."""
    rows = [int(y) for _x, y in rules.geometry.coords]
    far = [[p in rules.far_row[side] for p in range(rules.N)] for side in (0, 1)]
    ranks = [rules.rank(cell(0, kind)) for kind in (SOLDIER, OFFICER, SON, LEADER)]
    return [list(s) for s in rules.steps], [list(j) for j in rules.jumps], rows, ranks, far


def settings(rules: DablotRules) -> dict[str, bool]:
    """The rule toggles the native classes play, as booleans."""
    opts = rules.opts
    return {
        "chain_jumps": bool(opts["chain_jumps"]),
        "soldiers_must_capture": opts["compulsory_capture"] == "soldiers",
        "ever_onward": bool(opts["ever_onward"]),
        "promotion": bool(opts["promotion"]),
        "officer_material": bool(opts["officer_material"]),
        "leader_captured_loses": bool(opts["leader_captured_loses"]),
        "bare_leader_loses": bool(opts["bare_leader_loses"]),
        "repetition_draw": opts.get("repetition") == "draw",
    }


#: The weights the native evaluation reads by name (the pieces' values arrive as ``value``).
NATIVE_WEIGHTS = ("backed", "advance", "space", "mobility", "trade", "hunt", "mop_up", "bare", "cash", "tempo",
                  "squeeze")


def evaluation_tables(ev: Any) -> dict[str, Any]:
    """The Python evaluator's tables and weights as the native search takes them (``ev`` is a
    ``DablotEvaluator``, handed in from ``ai/``: this module imports nothing from there)."""
    weights = ev.w.to_dict()
    start, full = ev.mop_up_gate
    return {
        "value": list(ev.val_t), "rank": list(ev.rank_t),
        "soldier_jumps": [[list(j) for j in side] for side in ev.soldier_jumps],
        "jumped_from": [list(j) for j in ev.jumped_from], "to_go": [list(r) for r in ev.to_go],
        "depth_rows": ev.depth_rows, "dist": ev.dist, "far": ev.far, "walk": ev.walk, "far_walk": ev.far_walk,
        "start_total": ev.start_total, "mop_up_cap": ev.mop_up_cap, "mop_up_from": start, "mop_up_full": full,
        "onward": ev.onward, "promotion": ev.promotion, "officer_material": ev.officer_material,
        "leader_loses": ev.leader_loses, "bare_loses": ev.bare_loses, "squeeze_from": ev.squeeze_from,
        "weights": {k: int(weights[k]) for k in NATIVE_WEIGHTS},
    }
