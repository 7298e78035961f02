"""A witness position for every value of every Tafl option (issue 38 item 5).

The per-value perft test (``test_native_perft``) counts moves from each preset's start, where most
toggles make no difference within three plies, so a native engine that misread one of them would
pass it.  Here every value of every option gets a *witness*: a board, the prerequisites that make
the option apply, a position and a second value of the same option, such that the two values
differ within two plies from that position (in the legal moves, the captures, a position or an
outcome, see :func:`signature`).  ``tests/test_native_option_witnesses.py`` then checks that the
native rules agree with the core on the witness under both values, which also shows that passing
the wrong value to either engine would be caught.

Whole numbers are represented by a few values each (:data:`INT_VALUES`).  The witnesses are found
by search with the core and kept in ``tests/data/option_witnesses.json``; after a rule change:

    PYTHONPATH=. .venv/bin/python tests/option_witnesses.py --write [SECONDS]

(``--fill [SECONDS]`` searches longer for the cases left without one.)
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from tafl_desktop.core.game import Side
from tafl_desktop.core.tafl_options import TAFL_OPTIONS
from tafl_desktop.core.variants import VariantError, presets

DATA = Path(__file__).parent / "data" / "option_witnesses.json"
#: The values of the whole-number options that get a witness (every value of the others does).
INT_VALUES = {"king_speed": (0, 1, 2, 3), "repetition_count": (2, 3, 4, 5), "captureless_draw": (0, 1, 2, 999)}
#: Boards searched, small first (the camp and escape-square options need the two camp boards).
BOARDS = ("brandubh", "tablut_camps", "tablut_competition", "mini_tablut", "copenhagen", "tawlbwrdd", "tablut",
          "alea_evangelii")


def values(spec) -> tuple:
    return INT_VALUES[spec.key] if spec.kind == "int" else tuple(spec.values())


def cases() -> list[tuple[str, Any]]:
    """Every (key, value) to witness: the options the native rules play (those it refuses, and
    leaves to the core, are pinned in their own tests: ``tests/test_tafl_hnefatafl_org.py``)."""
    from tafl_desktop.native.bridge import PYTHON_ONLY

    return [(spec.key, v) for spec in TAFL_OPTIONS if spec.key not in PYTHON_ONLY for v in values(spec)]


def case_key(key: str, value: Any) -> str:
    return f"{key}={json.dumps(value)}"


def prerequisites(key: str) -> dict[str, Any]:
    """Option values under which ``key`` applies (its ``depends_on`` chain, first listed value)."""
    out: dict[str, Any] = {}
    spec = TAFL_OPTIONS[key]
    while spec.depends_on is not None:
        dep, allowed = spec.depends_on
        out[dep] = allowed[0]
        spec = TAFL_OPTIONS[dep]
    return out


def variant(board: str, base: dict[str, Any], key: str, value: Any):
    """The preset with ``base`` and ``key = value`` (None when the board cannot take it)."""
    try:
        return presets()[board].with_options({**base, key: value})
    except VariantError:
        return None


def state(pos) -> tuple:
    return (pos.att, pos.dfn, pos.king, int(pos.side), pos.quiet, pos.result)


def _node(rules, pos) -> tuple:
    """What the rules say about a position itself: its result, outcome, and the repetition rules'
    verdicts for each count of the position so far."""
    return (pos.result, rules.outcome(pos), tuple(rules.repetition_outcome(pos, c) for c in range(1, 6)),
            rules.forbids_repetition(pos))


def signature(rules, pos) -> tuple:
    """Everything the rules decide within two plies of ``pos``: each legal move, its captures, the
    position and outcome after it, and the same for every reply."""
    out: list[Any] = [_node(rules, pos)]
    for m in sorted(rules.legal_moves(pos)):
        after, caps = rules.play(pos, m)
        replies = []
        for m2 in sorted(rules.legal_moves(after)):
            a2, c2 = rules.play(after, m2)
            replies.append((m2, tuple(sorted(c2)), state(a2), _node(rules, a2)))
        out.append((m, tuple(sorted(caps)), state(after), _node(rules, after), tuple(replies)))
    return tuple(out)


def position_of(rules, setup: str | None, side: str | None):
    return rules.initial_position() if setup is None else rules.parse_position(setup, Side.parse(side or ""))


def _candidates(rng: random.Random, rules, budget: int):
    """Positions to try: the start, then positions a few random moves into a game, then sparse
    positions of the three kinds the differential tests use."""
    import native_differential as nd

    yield None, None
    for i in range(budget):
        kind = i % 4
        if kind == 0:
            pos = rules.initial_position()
            for _ in range(rng.randint(1, 30)):
                moves = rules.legal_moves(pos)
                if not moves or rules.outcome(pos) is not None:
                    break
                pos = rules.play(pos, rng.choice(moves))[0]
            if pos.result is not None:
                continue
        else:
            pos = nd.random_sparse_position(rng, rules, ("any", "fort", "ring")[kind - 1])
            if pos is None or pos.result is not None:
                continue
        yield rules.position_text(pos), Side(pos.side).name.lower()


#: Hand-made positions for the options random positions seldom reach (shield walls, Linnaean
#: capture): (board, position, side to move), tried first for every option.
SEEDS = (
    # a3-a1 brackets b1-d1 on the unmarked corner square (issue 38 item 1)
    ("tawlbwrdd", "/11/11/8K2/11/11/11/11/11/t10/1ttt7/1TTTt6/", "attackers"),
    # d5-d2 faces d1 from inside: completes c1-d1 between b1 and e1 without flanking it
    ("tawlbwrdd", "/11/11/5K5/11/11/3t7/11/11/11/2t8/1tTTt6/", "attackers"),
    # d4-d1 flanks b1-c1 against the corner a1
    ("copenhagen", "/11/11/11/11/11/5K5/11/3t7/11/1tt8/1TT8/", "attackers"),
    # the same with the king in the wall
    ("copenhagen", "/11/11/11/5t5/11/11/11/3t7/11/1tt8/1KT8/", "attackers"),
    # b2-d2 takes d3 against the throned king (Linnaean capture)
    ("brandubh", "/7/7/3t3/2tKt2/3T3/1t5/7/", "attackers"),
    # the king on the corner i9, no escape square of the competition's 16 (every other edge square
    # the king can reach there is one of them or a camp)
    ("tablut_competition", "/5t2K/9/9/9/9/9/9/9/9/", "defenders"),
    # c3-c1 takes b1 against the corner a1 a defender stands on, if a held corner stays hostile
    ("copenhagen", "/11/11/11/11/11/5K5/11/11/2t8/11/TT9/", "attackers"),
)


def find(key: str, value: Any, seconds: float, seed: int = 1) -> dict | None:
    """A witness for ``key = value``: the first board and position (searched with the core) where
    the value and another value of the option differ within two plies."""
    spec = TAFL_OPTIONS[key]
    others = [v for v in values(spec) if v != value]
    others.sort(key=lambda v: v != spec.default)  # the default first
    base = prerequisites(key)
    rng = random.Random(seed)
    deadline = time.monotonic() + seconds
    # the first board's random positions, then the hand-made ones, then the other boards
    plan = [(BOARDS[0], None)] + [(b, (st, side)) for b, st, side in SEEDS] + [(b, None) for b in BOARDS[1:]]
    for board, fixed in plan:
        va = variant(board, base, key, value)
        if va is None:
            continue
        ra = va.make_rules()
        pairs = [(o, vb.make_rules()) for o in others if (vb := variant(board, base, key, o)) is not None]
        tries = [fixed] if fixed is not None else _candidates(rng, ra, 400)
        board_deadline = min(deadline, time.monotonic() + seconds / 4)  # leave time for the other boards
        for setup, side in tries:
            if time.monotonic() > board_deadline:
                break
            try:
                pa = position_of(ra, setup, side)
            except ValueError:
                continue
            if len(ra.legal_moves(pa)) > (120 if fixed is not None else 60):
                continue  # keep the test quick: two plies from a crowded position are thousands
            mine = signature(ra, pa)
            for other, rb in pairs:
                try:
                    pb = position_of(rb, setup, side)
                except ValueError:
                    continue
                if signature(rb, pb) != mine:
                    return {"board": board, "base": base, "other": other, "setup": setup, "to_move": side}
    return None


def write(seconds: float) -> None:
    out: dict[str, Any] = {"made_by": "tests/option_witnesses.py --write (searched with the core)", "witnesses": {}}
    missing = []
    for key, value in cases():
        w = find(key, value, seconds)
        out["witnesses"][case_key(key, value)] = w
        print(case_key(key, value), "->", w and (w["board"], w["other"], w["setup"]), flush=True)
        if w is None:
            missing.append(case_key(key, value))
    DATA.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print("no witness:", missing)


def fill(seconds: float) -> None:
    """Search again, longer, for the cases the data file has no witness for (or does not list)."""
    out = json.loads(DATA.read_text(encoding="utf-8"))
    have = out["witnesses"]
    for key, value in cases():
        case = case_key(key, value)
        if have.get(case) is None:
            have[case] = w = find(key, value, seconds, seed=2)
            print(case, "->", w, flush=True)
    for case in set(have) - {case_key(k, v) for k, v in cases()}:
        del have[case]
    DATA.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    if sys.argv[1:2] == ["--write"]:
        write(float(sys.argv[2]) if len(sys.argv) > 2 else 60.0)
    elif sys.argv[1:2] == ["--fill"]:
        fill(float(sys.argv[2]) if len(sys.argv) > 2 else 240.0)
    else:
        print(__doc__)
