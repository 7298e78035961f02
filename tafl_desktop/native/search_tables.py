"""The Tafl evaluation's tables and weights as plain data for the native search.

Why the tables are computed here and not in Rust: every number the evaluation uses (the king's
distance to the nearest escape square, the guard posts, the squares hostile to him, the walks
his moves take past the throne, corners, camps and walls at his speed) is derived by the Python
evaluator (:class:`~tafl_desktop.ai.evaluation_tafl.TaflEvaluator`) from the core's compiled
rules.  Handing those very numbers over means the native evaluation cannot read a rule
differently; only the arithmetic is written twice, and ``tests/test_native_search.py`` checks
that both give the same score on thousands of positions.  The evaluator is handed in (this
module imports nothing from ``ai/``, which sits above ``native/``); the Rust tests' fixtures are
written by :mod:`tafl_desktop.ai.native_fixtures`.

Bitboards travel as lists of six 64-bit words (little-endian: square 0 is bit 0 of word 0).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tafl_desktop.core.tafl import C_KING, TaflRules

if TYPE_CHECKING:  # handed in from above (ai/ imports native/, not the reverse)
    from tafl_desktop.ai.evaluation_tafl import TaflEvaluator

WORDS = 6
_MASK64 = (1 << 64) - 1


def words(x: int) -> list[int]:
    """A bitboard (a Python int) as six 64-bit words, lowest first."""
    return [(x >> (64 * i)) & _MASK64 for i in range(WORDS)]


def king_walks(rules: TaflRules) -> list[list[list[tuple[int, bool, bool]]]]:
    """Per square, per direction (east, west, north, south): the king's walk as
    ``(square, may stop, walk ends here)``, exactly as ``TaflRules._rays`` walks it (squares he
    may not enter end it; a wall ends it; his speed limit ends it)."""
    W, H, N = rules.W, rules.H, rules.N
    maxd = rules.king_maxdist
    out = []
    for s in range(N):
        blk, nst, end = rules.block[C_KING][s], rules.nostop[C_KING][s], rules.endpoint[C_KING][s]
        f, r = s % W, s // W
        dirs = []
        for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            walk: list[tuple[int, bool, bool]] = []
            prev = s
            d = 1
            while d <= maxd:
                nf, nr = f + df * d, r + dr * d
                if not (0 <= nf < W and 0 <= nr < H):
                    break
                t = nr * W + nf
                if t in blk or (rules.walls and rules._wall(prev, t)):
                    break
                walk.append((t, t not in nst, t in end))
                if t in end:
                    break
                prev = t
                d += 1
            dirs.append(walk)
        out.append(dirs)
    return out


def evaluation_tables(ev: TaflEvaluator) -> dict[str, object]:
    """Everything the native Tafl evaluation needs, from a Python ``TaflEvaluator`` ``ev``."""
    r = ev.rules
    w = ev.w.to_dict()
    return {
        "width": ev.W, "height": ev.H,
        "full": words(ev.full), "escape": words(ev.escape_mask), "king_walls": words(ev.king_walls),
        "not_file_a": words(ev.not_file_a), "not_file_last": words(ev.not_file_last),
        "reach": words(ev.reach_mask), "edge": words(ev.edge_mask),
        "guard": [words(m) for m in ev.guard_masks],
        "adj": [words(m) for m in ev.adj_mask], "near": [words(m) for m in ev.near_mask],
        "ring": [words(m) for m in ev.ring_mask],
        "kdist": list(ev.kdist), "king_host_sq": list(ev.king_host_sq), "king_offboard": list(ev.king_offboard),
        "walks": king_walks(r), "walk_limit": ev.walk_limit,
        "start_defenders": ev.start_defenders, "offset": ev.offset,
        "strong_king": bool(ev.strong_king), "king_wall_risk": bool(ev.king_wall_risk),
        "edge_hostile": bool(ev.edge_hostile), "king_anvil": bool(ev.king_anvil), "captureless": ev.captureless,
        "host_always": [words(m) for m in ev.host_always], "host_empty": [words(m) for m in ev.host_empty],
        "m_east": words(ev.m_east), "m_west": words(ev.m_west), "m_east_edge": words(ev.m_east_edge),
        "m_west_edge": words(ev.m_west_edge), "m_north_edge": words(ev.m_north_edge),
        "m_south_edge": words(ev.m_south_edge),
        "weights": w,
    }
