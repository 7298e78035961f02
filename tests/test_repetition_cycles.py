"""Who must break a repetition cycle, under each repetition rule, in both searches (issue 44 item 2).

The rules (``shared/reference/tafl-rules.md`` section 2, the repetition row, and its list item 7):
a threefold repetition is a draw (Fetlar, OpenTafl's default ``tfr:d``), loses for the side that
completes it (OpenTafl ``tfr:w``, the rule it plays on Brandubh), wins for it (``tfr:l``), or loses
for the defenders whoever completes it (Copenhagen: "perpetual repetition loses for the defenders").

If both sides went on cycling, the position repeated first would be the first to reach the count,
made by the same side each time.  So a repeat tells the search who will have to leave the cycle:
under ``mover_loses`` the side repeating, under ``mover_wins`` its opponent, under
``defenders_lose`` the defenders.  The obliged side should leave at once (while its exits are
still what they are) even when every exit costs material; the other side should repeat.  Before,
a repeat counted 150 units either way, so a side a few soldiers behind stayed in the cycle it
would have to break later (the issue: our attackers shadowed the king in a cycle they had
started, and breaking it late let the king into a corner).

Each case: a Brandubh position from a seeded random game, a four-ply cycle played (the side to
move ``x`` and back, the other side ``y`` and back), the same position again with the side to
move able to start the cycle's second round with ``x``.
"""

from __future__ import annotations

import pytest

from tafl_desktop.ai.engine import native_search_available
from tafl_desktop.ai.search import CYCLE_BREAK, Searcher, SearchLimits
from tafl_desktop.core.game import Side
from tafl_desktop.core.variants import find_variant

#: The old lean of a repeat (both engines until issue 44).
OLD_LEAN = 150

#: (rule, position, side to move, x, y, must the side to move repeat with x?)
CASES = [
    # the attackers repeated first: they must leave; every exit costs them over 1.5 soldiers
    ("mover_loses", "/2t4/t1T1T2/4T2/1K2t2/T1ttt2/6t/7/", Side.ATTACKERS, (18, 11), (37, 38), False),
    # the attackers repeating would win: the defenders must leave, so the attackers repeat
    ("mover_wins", "/4t2/1t2t2/3T3/t2K1tt/3T3/4Tt1/3t3/", Side.ATTACKERS, (36, 29), (24, 22), True),
    # any cycle loses for the defenders: they leave it, though behind, ...
    ("defenders_lose", "/7/1t1t3/1t2T1t/4t2/2tK1t1/T2t3/7/", Side.DEFENDERS, (7, 14), (29, 1), False),
    # ... and the attackers, ahead, repeat rather than play on
    ("defenders_lose", "/1t1t3/7/t1t4/t2K1t1/5T1/2Tt1T1/2t4/", Side.ATTACKERS, (2, 4), (9, 7), True),
    # a repeat is a draw: the side ahead leaves the cycle (no credit for shuffling)
    ("draw", "/4t2/3t3/2T4/tt1KT1t/5t1/1t1t3/7/", Side.ATTACKERS, (10, 9), (25, 18), False),
    ("allowed", "/4t2/3t3/2T4/tt1KT1t/5t1/1t1t3/7/", Side.ATTACKERS, (10, 9), (25, 18), False),
]

ENGINES = ["python", pytest.param("native", marks=pytest.mark.skipif(
    not native_search_available(), reason="the native engine is not built"))]


def _searcher(engine: str, rules):
    if engine == "python":
        return Searcher(rules)
    from tafl_desktop.ai.engine import native_searcher

    return native_searcher(rules, table_bits=14)


def _cycle(rules, text: str, side: Side, x, y):
    """The position after the cycle x, y, x back, y back, and the game's position keys."""
    pos = rules.parse_position(text, side)
    line = [pos]
    for m in (x, y, (x[1], x[0]), (y[1], y[0])):
        nxt, caps = rules.play(line[-1], m)
        assert not caps and nxt.result is None
        line.append(nxt)
    assert rules.position_key(line[-1]) == rules.position_key(pos)
    return line[-1], [rules.position_key(p) for p in line]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("rule,text,side,x,y,repeat", CASES)
def test_the_side_obliged_to_break_a_cycle_leaves_it_at_once(engine, rule, text, side, x, y, repeat):
    rules = find_variant("brandubh").with_options({"repetition": rule}).make_rules()
    root, keys = _cycle(rules, text, side, x, y)
    res = _searcher(engine, rules).search(root, SearchLimits(time=0, depth=3, nodes=0, threads=1), keys)
    if repeat:
        # the opponent must break the cycle: repeating is worth more than any other move
        assert res.move == x and res.score == CYCLE_BREAK
        return
    assert res.move != x
    if rule in ("mover_loses", "defenders_lose"):
        # the exit taken costs more than the old lean: the old search stayed in the cycle
        assert -CYCLE_BREAK < res.score < -OLD_LEAN
    else:
        assert res.score > 0  # the side ahead keeps its lead rather than a draw


@pytest.mark.parametrize("engine", ENGINES)
def test_without_the_cycle_in_the_game_the_move_is_an_ordinary_one(engine):
    # the same position with no history: x is judged on the board alone (not a cycle's verdict)
    rule, text, side, x, _y, _ = CASES[1]
    rules = find_variant("brandubh").with_options({"repetition": rule}).make_rules()
    pos = rules.parse_position(text, side)
    res = _searcher(engine, rules).search(pos, SearchLimits(time=0, depth=3, nodes=0, threads=1))
    assert res.move != x and abs(res.score) < CYCLE_BREAK
