"""Position hashing for the transposition table, and the measurement that chose it.

Classic engines keep an incremental Zobrist hash: XOR a random number in and out for each
piece that moves or is captured.  In CPython each XOR and table lookup is a bytecode round
trip, while ``hash()`` of a tuple of ints runs in C.  Measured on Copenhagen positions
(``python -m tafl_desktop.ai.zobrist``): hashing the position key tuple costs about 180 ns,
updating a Zobrist hash incrementally from the move and its captures about 330 ns (the loop
overhead subtracted).  So the table is keyed by ``hash(position key)``: a 64-bit int, cheap to
store (a tuple of the bitboards would cost ~200 bytes per entry), computed from the bitboards
alone (ints and tuples of ints hash the same in every process, unlike str), and needing no
cooperation from the rules core (which has no incremental hash).

A 64-bit key can collide; the search therefore never trusts a table move without finding it in
the legal move list first, which bounds the damage of a collision to a wrong score.

:func:`zobrist_table` and :func:`zobrist_full` remain for the measurement and for a future core
with an incremental hash.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from tafl_desktop.core.game import P, Rules

if TYPE_CHECKING:
    from tafl_desktop.core.tafl import TaflPosition


def _tafl_hash(pos: TaflPosition) -> int:
    """``hash(rules.position_key(pos))`` of a Tafl position without the method call."""
    return hash((pos.att, pos.dfn, pos.king, pos.side))


#: Families whose positions have a faster hash than their rules' ``position_key`` (by family
#: name, as the registry in ``core.families`` asks layers with code of their own to keep it).
FAST_HASHES: dict[str, Callable[[TaflPosition], int]] = {"tafl": _tafl_hash}


def key_hasher(rules: Rules[P]) -> Callable[[P], int]:
    """A function position -> 64-bit hash, the fastest one this family allows."""
    fast = FAST_HASHES.get(getattr(rules, "family", ""))
    if fast is not None:  # the family's own hash, of its own positions
        return cast("Callable[[P], int]", fast)
    key = rules.position_key

    def generic_hash(pos: P) -> int:
        return hash(key(pos))
    return generic_hash


def zobrist_table(squares: int, kinds: int = 3, seed: int = 20240601) -> list[list[int]]:
    """Random 64-bit numbers per (piece kind, square), reproducible from ``seed``."""
    rng = random.Random(seed)
    return [[rng.getrandbits(64) for _ in range(squares)] for _ in range(kinds)]


def zobrist_full(table: list[list[int]], side_key: int, att: int, dfn: int, king: int, side: int) -> int:
    """Zobrist hash of a Tafl position from scratch (bit by bit: the slow path)."""
    h = side_key if side else 0
    for kind, bb in ((0, att), (1, dfn)):
        while bb:
            low = bb & -bb
            h ^= table[kind][low.bit_length() - 1]
            bb ^= low
    if king >= 0:
        h ^= table[2][king]
    return h


def measure(variant_id: str = "copenhagen", samples: int = 200_000) -> dict[str, float]:
    """Nanoseconds per hash: tuple hash versus incremental Zobrist update (both minus loop cost)."""
    from tafl_desktop.core.tafl import TaflRules
    from tafl_desktop.core.variants import find_variant

    rules = find_variant(variant_id).make_rules()
    if not isinstance(rules, TaflRules):
        raise ValueError(f"{variant_id} is not a Tafl game: Zobrist hashing is measured on Tafl boards")
    rng = random.Random(1)
    pos = rules.initial_position()
    steps = []
    for _ in range(60):
        moves = rules.legal_moves(pos)
        if not moves:
            break
        move = rng.choice(moves)
        nxt, caps = rules.play(pos, move)
        steps.append((pos, move, nxt, caps))
        pos = nxt
    table = zobrist_table(rules.N)
    side_key = random.Random(2).getrandbits(64)
    n = len(steps)

    t = time.perf_counter()
    for i in range(samples):
        p, m, q, c = steps[i % n]
    base = time.perf_counter() - t

    t = time.perf_counter()
    for i in range(samples):
        p, m, q, c = steps[i % n]
        hash((q.att, q.dfn, q.king, q.side))
    tuple_cost = time.perf_counter() - t - base

    t = time.perf_counter()
    h0 = 0
    for i in range(samples):
        p, m, q, c = steps[i % n]
        kind = 2 if m[0] == p.king else p.side
        h = h0 ^ table[kind][m[0]] ^ table[kind][m[1]] ^ side_key
        for s in c:
            h ^= table[1 - p.side][s]
    zob_cost = time.perf_counter() - t - base
    return {"tuple_hash_ns": tuple_cost / samples * 1e9, "incremental_zobrist_ns": zob_cost / samples * 1e9}


if __name__ == "__main__":
    print(measure())
