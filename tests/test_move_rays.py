"""The precomputed move rays (TaflRules._rays) give exactly the moves of a square-by-square walk.

The walk below is the rule as the sources state it: a piece moves along its row or column over
empty squares (source 002, Copenhagen rules 2; source 004 for one-square moves), never onto or
through a square closed to it (throne, corners, camps as each preset's toggles say), and may
cross some squares it may not stop on (the empty throne, other camps where crossing is allowed).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tafl_desktop.core.tafl import C_ATT, C_DEF, C_KING
from tafl_desktop.core.variants import find_variant

PRESETS = ["copenhagen", "tablut_camps", "single_step", "alea_evangelii", "brandubh"]
RULES = {vid: find_variant(vid).make_rules() for vid in PRESETS}


def walk(rules, c: int, li: int, i: int, occ: int) -> list[tuple[int, int]]:
    squares = rules.rows[li][1] if li < rules.H else rules.cols[li - rules.H][1]
    s = squares[i]
    maxd = rules.king_maxdist if c == C_KING else rules.maxdist
    out = []
    for step in (1, -1):
        j, d = i + step, 1
        while 0 <= j < len(squares) and d <= maxd:
            t = squares[j]
            if occ >> j & 1 or t in rules.block[c][s]:
                break
            if t not in rules.nostop[c][s]:
                out.append((s, t))
            if t in rules.endpoint[c][s]:
                break
            j += step
            d += 1
    return out


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(PRESETS), st.sampled_from([C_ATT, C_DEF, C_KING]), st.integers(0, 37),
       st.integers(0, 18), st.integers(0, (1 << 19) - 1))
def test_rays_match_a_square_by_square_walk(vid, c, li, i, occ):
    rules = RULES[vid]
    li %= rules.H + rules.W
    n = rules.W if li < rules.H else rules.H
    i %= n
    occ = (occ & ((1 << n) - 1)) | (1 << i)  # the mover stands on its own square
    assert list(rules._origin_moves(c, li, i, occ)) == walk(rules, c, li, i, occ)
