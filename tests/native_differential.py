"""Differential play: the native rules against the core's, move by move (issue 31).

The core (``tafl_desktop.core.tafl``) defines the rules; the native engine must agree with it
after every ply: the same legal-move set and count, the same captured squares, the same position
(pieces, side to move, captureless counter, the result the move decided) and the same outcome.
Games start from each preset's start position under random toggle combinations, and from
random sparse positions (a few pieces, the king anywhere), where forts, edge captures, shield
walls and encirclement come up far more often than in full-board random play.

Used by ``tests/test_native_differential.py`` (a fast sample in the default run, the long run
behind ``-m slow``); ``python tests/native_differential.py PLIES SEED`` runs it by hand.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tafl_desktop.core.game import Side
from tafl_desktop.core.tafl_options import TAFL_OPTIONS
from tafl_desktop.core.variants import VariantError, presets
from tafl_desktop.native.bridge import PYTHON_ONLY, native_fits
from tafl_desktop.native.rules import NativeTaflRules

TAFL_PRESETS = sorted(vid for vid, v in presets().items() if native_fits(v))


def random_variant(rng: random.Random, vid: str):
    """The preset ``vid`` with about half its toggles set to random values the board can honour."""
    variant = presets()[vid]
    for spec in TAFL_OPTIONS:
        if rng.random() < 0.5 or spec.key in PYTHON_ONLY:
            continue
        if spec.kind == "int":
            value = rng.choice([spec.minimum, spec.default, rng.randint(spec.minimum, min(spec.maximum, 40))])
        else:
            value = rng.choice(spec.values())
        try:
            variant = variant.with_options({spec.key: value})
        except VariantError:
            pass  # about squares this board lacks: the core refuses it, so there is nothing to compare
    return variant


def random_board(rng: random.Random):
    """A made-up Tafl board: any size from 5x5 to 19x19 (not always square, so every bitboard
    width of the native engine is used), corners, a throne where the board has a centre, and
    sometimes random walls; a start position of a few pieces (or None when the rules refuse it)."""
    from tafl_desktop.core.geometry import GridGeometry
    from tafl_desktop.core.variants import variant_from_data

    w, h = rng.randint(5, 19), rng.randint(5, 19)
    g = GridGeometry(w, h)
    walls = []
    for _ in range(rng.choice([0, 0, 3, 8])):
        a = rng.randrange(w * h)
        b = rng.choice(g.neighbours(a))
        walls.append(f"{g.name(a)}|{g.name(b)}")
    king = (h // 2) * w + w // 2
    cells = {king: "K"}
    for s in rng.sample(range(w * h), min(w * h - 1, rng.randint(4, 30))):
        if s != king and s not in g.corner_squares:
            cells[s] = rng.choice("tttT")
    data = {"id": "made_up", "name": f"Made-up {w}x{h}", "family": "tafl",
            "board": {"width": w, "height": h, "throne": "centre" if w % 2 and h % 2 else "none",
                      "walls": sorted(set(walls)), "setup": setup_text(w, h, cells)},
            "options": {"escape": rng.choice(["corner", "edge"])}}
    try:
        return variant_from_data(data)
    except VariantError:
        return None


def random_sparse_position(rng: random.Random, rules, kind: str = "any"):
    """A legal position with a few pieces placed at random (None when the rules refuse it).
    ``kind`` "fort": the king on the edge with defenders around him (forts, shield walls);
    "ring": the king's side inside a ring of attackers with a gap or two (encirclement)."""
    n, g = rules.N, rules.geometry
    if kind == "ring":
        a, b = rng.randint(1, max(1, (rules.W - 3) // 2)), rng.randint(1, max(1, (rules.H - 3) // 2))
        cf, cr = rules.W // 2, rules.H // 2
        box = [g.index(f, r) for f in range(cf - a, cf + a + 1) for r in range(cr - b, cr + b + 1)]
        border = [s for s in box if abs(g.file_rank(s)[0] - cf) == a or abs(g.file_rank(s)[1] - cr) == b]
        inside = [s for s in box if s not in border]
        if not inside:
            return None
        att = [s for s in border if rng.random() > 0.12]
        king = rng.choice(inside)
        dfn = rng.sample([s for s in inside if s != king], min(len(inside) - 1, rng.randint(0, 4)))
    elif kind == "fort":
        king = rng.choice([s for s in range(n) if g.is_edge(s) and s not in g.corner_squares])
        kf, kr = g.file_rank(king)
        near = [s for s in range(n) if s != king and abs(g.file_rank(s)[0] - kf) + abs(g.file_rank(s)[1] - kr) <= 2]
        dfn = rng.sample(near, min(len(near), rng.randint(3, 7)))
        far = [s for s in range(n) if s != king and s not in dfn]
        att = rng.sample(far, rng.randint(1, 5))  # few attackers: forts that only material decides too
    else:
        squares = rng.sample(range(n), min(n, 1 + rng.randint(1, 14) + rng.randint(0, 10)))
        king, rest = squares[0], squares[1:]
        cut = rng.randint(1, max(1, len(rest) - 1))
        att, dfn = rest[:cut], rest[cut:]
    cells = {s: "t" for s in att} | {s: "T" for s in dfn} | {king: "K"}
    try:
        return rules.parse_position(setup_text(rules.W, rules.H, cells), rng.choice([Side.ATTACKERS, Side.DEFENDERS]))
    except ValueError:
        return None


def setup_text(w: int, h: int, cells: dict[int, str]) -> str:
    """The position text of a ``w`` x ``h`` board with ``cells`` (square -> "t", "T" or "K")."""
    rows = []
    for r in range(h - 1, -1, -1):
        row, run = "", 0
        for f in range(w):
            ch = cells.get(r * w + f)
            if ch is None:
                run += 1
                continue
            row += (str(run) if run else "") + ch
            run = 0
        rows.append(row + (str(run) if run else ""))
    return "/" + "/".join(rows) + "/"


def state(pos) -> tuple:
    return (pos.att, pos.dfn, pos.king, int(pos.side), pos.quiet, pos.result, pos.attT, pos.dfnT)


@dataclass
class Tally:
    plies: int = 0
    games: int = 0
    captures: int = 0
    endings: Counter = field(default_factory=Counter)


def compare_game(core, native, pos, rng: random.Random, max_plies: int, tally: Tally,
                 observe: Callable[[Any, list, Any, tuple], None] | None = None) -> None:
    """Play random moves from ``pos`` on both engines, asserting agreement after every ply.
    ``observe(pos, legal_moves, move, captures)`` sees every compared ply (to count what a test
    wants exercised)."""
    where = f"{core.variant.id} {core.variant.changed_options()}"
    for count in range(1, 6):
        assert core.repetition_outcome(pos, count) == native.repetition_outcome(pos, count), where
    for _ in range(max_plies):
        text = core.position_text(pos)
        moves = sorted(core.legal_moves(pos))
        assert sorted(native.legal_moves(pos)) == moves, f"{where}: legal moves differ in {text} ({pos.side})"
        assert native.count_moves(pos) == len(moves), f"{where}: move count differs in {text}"
        out = core.outcome(pos)
        assert native.outcome(pos) == out, f"{where}: outcome differs in {text} ({pos.side})"
        if not moves or out is not None:
            tally.endings[out.reason if out else "no_moves"] += 1
            break
        move = rng.choice(moves)
        after, caps = core.play(pos, move)
        n_after, n_caps = native.play(pos, move)
        what = f"{where}: {core.move_text(move)} in {text} ({pos.side})"
        assert sorted(n_caps) == sorted(caps), f"{what}: captures {n_caps} != {caps}"
        assert state(n_after) == state(after), f"{what}: positions differ"
        if observe is not None:
            observe(pos, moves, move, caps)
        tally.plies += 1
        tally.captures += bool(caps)
        pos = after
    else:
        tally.endings["cut"] += 1
    tally.games += 1


def run(plies: int, seed: int, sparse_share: float = 0.35, max_game: int = 250) -> Tally:
    """At least ``plies`` compared plies over random presets, toggles and start positions."""
    rng = random.Random(seed)
    tally = Tally()
    while tally.plies < plies:
        vid = rng.choice(TAFL_PRESETS)
        variant = random_variant(rng, vid) if rng.random() < 0.8 else presets()[vid]
        if rng.random() < 0.15:  # a made-up board, under random toggles
            made = random_board(rng)
            if made is not None:
                variant = made
                for spec in TAFL_OPTIONS:
                    if rng.random() < 0.3 and spec.key not in PYTHON_ONLY:
                        value = rng.choice(spec.values()[:40])
                        try:
                            variant = variant.with_options({spec.key: value})
                        except VariantError:
                            pass
        core = variant.make_rules()
        native = NativeTaflRules(variant)
        start = core.initial_position()
        if rng.random() < sparse_share:
            kind = rng.choice(["any", "fort", "fort", "ring"])  # forts end a game seldom: twice as many
            if kind != "any":
                wanted = {"edge_forts": True, "encirclement": True}
                if kind == "fort":  # a king on the edge has escaped where the whole edge is an escape
                    wanted["escape"] = "corner"
                try:
                    variant = variant.with_options(wanted)
                    core, native = variant.make_rules(), NativeTaflRules(variant)
                except VariantError:
                    pass
            start = random_sparse_position(rng, core, kind) or start
        compare_game(core, native, start, rng, max_game, tally)
    return tally


if __name__ == "__main__":
    result = run(int(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    print(result)
