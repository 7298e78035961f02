"""The Fox games' rules in ``tafl_native``: the first step of their native search.

Built from the Python rules' own steps, jumps, marked points and toggles (one geometry, one rule
book), and checked against them move for move (``tests/test_native_hunt.py``).  The evaluation
and the search over these moves are to follow; until then the Fox games are searched in Python.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tafl_desktop.core.hunt import HuntPosition, HuntRules

try:  # built by `make` (maturin); without a Rust toolchain it is simply absent
    import tafl_native as _native
except ImportError:  # pragma: no cover - exercised on machines without the module
    _native = None  # type: ignore[assignment]  # typed as the module; None where it is not built

#: The most points a board may have natively (the crate's limit).
MAX_POINTS = 128


def unsupported(rules: HuntRules) -> str | None:
    """Why ``rules`` cannot be played natively here (None: they can)."""
    if _native is None or not hasattr(_native, "HuntRules"):
        return "the native engine is not built"
    if rules.N > MAX_POINTS:
        return f"the board has more than {MAX_POINTS} points"
    return None


def settings(rules: HuntRules) -> dict[str, Any]:
    """The toggles as the native rules take them."""
    o = rules.opts
    return {
        "captures": bool(o["captures"]), "multi_jump": str(o["multi_jump"]),
        "compulsory_capture": str(o["compulsory_capture"]), "max_capture": bool(o["max_capture"]),
        "hunter_win_below": int(o["hunter_win_below"]), "breakthrough": bool(o["breakthrough"]),
        "fill_pen": bool(o["fill_pen"]), "no_moves_draw": o["no_moves"] == "draw",
        "repetition_draw": o["repetition"] == "draw", "captureless": int(rules.captureless),
    }


def rules_core(rules: HuntRules) -> Any:
    """The native rules of ``rules`` (a ValueError naming why not, where they cannot be)."""
    reason = unsupported(rules)
    if reason is not None:
        raise ValueError(f"the native Fox-game rules cannot play these rules: {reason}")
    steps = [[list(s) for s in rules.steps[side]] for side in (0, 1)]
    return _native.HuntRules(steps, [list(j) for j in rules.jumps], rules.home_mask, rules.pen_mask,
                             settings(rules))


def position_tuple(pos: HuntPosition) -> tuple[int, int, int, int, int | None]:
    """A core HuntPosition as it crosses: the bitboards, side to move, moves since a capture, and
    the result when decided (the winner, -1 for a draw)."""
    result = pos.result
    decided = None if result is None else (-1 if result.winner is None else int(result.winner))
    return pos.flock, pos.hunters, int(pos.side), int(pos.quiet), decided
