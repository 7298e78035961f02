"""The squeeze (issue 44): a side far ahead in Dablot counts the other side's last free steps.

Source 000 (Mini-Dablot and its rule variants): a player who cannot move loses.  In the won-endgame
suite's Mini-Dablot endings the side behind keeps its soldiers where no line lets anyone jump them
and moves only its leader, so the side ahead wins by boxing that leader in and leaving the whole
army without a move; ``DablotWeights.squeeze`` makes each step it takes away count more than the one
before.  Both engines must score it alike (one evaluation, compiled term for term).
"""

from __future__ import annotations

import pytest

from tafl_desktop.ai.evaluation_dablot import MOP_UP_FROM, SQUEEZE_FROM, DablotEvaluator, DablotWeights
from tafl_desktop.core.dablot import side_of
from tafl_desktop.core.game import Side
from tafl_desktop.core.variants import find_variant
from tafl_desktop.native import dablot as native_dablot
from tafl_desktop.native import dablot_search

needs_native = pytest.mark.skipif(dablot_search.unsupported(find_variant("dablot_mini").make_rules()) is not None,
                                  reason="the native engine is not built")

#: Two plies before the end of the engine's own game from the suite's seed-13 ending
#: (benchmarks/endgame_suite.json, 450,000 nodes a move, won by leaving North no move), North to
#: move: North's leader on a2 boxed in by four South soldiers, North's son and two soldiers with two
#: free steps between them; South ten soldiers, son and leader.
BOXED = "south=sa1,sb1,sa3,sb3,sd3,sb4,sa5,sd5,sa7,pb7,kb9,sc9 north=ka2,sa8,pa9,sd9"


def _free_steps(rules, pos, side: int) -> int:
    return sum(1 for p, c in enumerate(pos.cells) if c and side_of(c) == side
               for q in rules.steps[p] if not pos.cells[q])


@pytest.mark.parametrize("to_move", [Side(0), Side(1)])
def test_the_side_behind_short_of_free_steps_scores_the_squeeze_against_it(to_move):
    rules = find_variant("dablot_mini").make_rules()
    pos = rules.parse_position(BOXED, to_move)
    short = SQUEEZE_FROM - _free_steps(rules, pos, 1)
    assert short > 0, "North must be short of free steps here"
    shipped = DablotEvaluator(rules)
    assert shipped.w.squeeze > 0, "the squeeze ships on"
    off = DablotEvaluator(rules, DablotWeights(squeeze=0))
    gain = shipped.w.squeeze * short * short
    sign = 1 if to_move == Side(0) else -1  # evaluate() is the side to move's view; South is ahead
    assert shipped.evaluate(pos) - off.evaluate(pos) == sign * gain


def test_an_even_game_never_meets_the_squeeze():
    """Below a lead of three soldiers nothing changes, so the levels' middle game is as measured."""
    rules = find_variant("dablot_mini").make_rules()
    # the same box, but South's lead cut to three soldiers
    even = BOXED.replace("sd3,sb4,sa5,sd5,sa7,", "")
    pos = rules.parse_position(even, Side(1))
    ev = DablotEvaluator(rules)
    lead = sum(ev.val_t[c] * (1 if side_of(c) == 0 else -1) for c in pos.cells if c)
    assert abs(lead) <= MOP_UP_FROM
    assert SQUEEZE_FROM - _free_steps(rules, pos, 1) > 0
    assert ev.evaluate(pos) == DablotEvaluator(rules, DablotWeights(squeeze=0)).evaluate(pos)


@needs_native
@pytest.mark.parametrize("squeeze", [0, 10, 37])
def test_both_engines_score_the_squeeze_alike(squeeze):
    rules = find_variant("dablot_mini").make_rules()
    ev = DablotEvaluator(rules, DablotWeights(squeeze=squeeze))
    core = dablot_search.NativeDablotSearcher(rules, ev)._core
    # the box, North's leader loose, a box with one side open, South's leader elsewhere
    texts = (BOXED, BOXED.replace("ka2", "ka4"), BOXED.replace("sa3,", ""), BOXED.replace("kb9", "kd7"))
    for text in texts:
        for side in (Side(0), Side(1)):
            pos = rules.parse_position(text, side)
            assert core.evaluate(native_dablot.position_tuple(pos)) == ev.evaluate(pos), text
