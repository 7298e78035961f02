"""A proven result and the depth the player asked for (issue 42, item 3): brandubh-0005 analysed
to depth 9 printed "win in 2 moves ... depth 2" and nothing else, read as "it only looked 2 deep".

What the search does now (``tafl_desktop.ai.search.settled``, the same rule in the native search):
deepening stops short of the depth asked only when every line asked for is a proven result that no
deeper search can change (a proven result in ``k`` plies after a full-width depth of at least
``k - 1``: anything faster would have been found), and then says so ("Proven at depth 2, so no
deeper search can change this line"); a line that is only an evaluation, or a proven win that a
deeper search could still make faster, keeps the search going to the depth asked.

brandubh-0005 is the shipped puzzle (resources/puzzles/brandubh.json): the attackers take the king
in three plies.  The long win is six plies before the shipped puzzle brandubh-0012 in its game
(resources/games/brandubh.csv, line 25): the defenders escape in eleven plies.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from tafl_desktop.ai.engine import native_search_available
from tafl_desktop.ai.multipv import analyse
from tafl_desktop.ai.search import MATE, Searcher, settled
from tafl_desktop.core.game import Side
from tafl_desktop.core.variants import find_variant

PUZZLE_0005 = ("/3t3/1t5/2K1T2/t1T2Tt/1t1t1t1/2t4/7/", "attackers")
LONG_WIN = ("/7/2tt3/1T5/3KTtt/T6/1t1tt2/7/", "defenders")
ENGINES = ["python", pytest.param("native", marks=pytest.mark.skipif(not native_search_available(),
                                                                     reason="the native engine is not built"))]


def _analyse_cli(position: tuple[str, str], *args: str) -> str:
    res = subprocess.run([sys.executable, "-m", "tafl_desktop", "analyse", "brandubh", "--position", position[0],
                          "--to-move", position[1], *args], capture_output=True, text=True, timeout=240)
    assert res.returncode == 0, res.stderr
    return res.stdout


def test_settled_is_a_proven_result_nothing_deeper_can_change():
    assert settled([((0, 1), MATE - 3)], 1, 2)  # a win in 3 plies: one in 1 or 2 would have shown at depth 2
    assert not settled([((0, 1), MATE - 7)], 1, 2)  # a win in 7 found at depth 2: a faster one may exist
    assert settled([((0, 1), MATE - 7)], 1, 6)
    assert not settled([((0, 1), MATE - 3), ((0, 2), 120)], 2, 2)  # the second line is a guess
    assert settled([((0, 1), MATE - 3), ((0, 2), -(MATE - 2))], 2, 2)  # a loss in 2 after a depth of 2
    assert not settled([((0, 1), MATE - 3), ((0, 2), -(MATE - 4))], 2, 2)  # a loss in 4 may come sooner
    assert not settled([], 1, 2)


@pytest.mark.parametrize("engine", ENGINES)
def test_one_proven_line_stops_the_search_and_says_why(engine):
    out = _analyse_cli(PUZZLE_0005, "--depth", "9", "--lines", "1", "--engine", engine)
    lines = out.splitlines()
    assert lines[0].startswith("1. The attackers win in 2 moves (+99,997, depth 2): d3-d5 ")
    assert lines[1] == "Proven at depth 2, so no deeper search can change this line."


@pytest.mark.parametrize("engine", ENGINES)
def test_the_other_lines_are_searched_to_the_depth_asked(engine):
    """With three lines the best is proven at depth 2 but the two others are evaluations: the search
    goes on to the depth asked (4 with the slower Python search) and claims no proof."""
    depth = "9" if engine == "native" else "4"
    out = _analyse_cli(PUZZLE_0005, "--depth", depth, "--lines", "3", "--engine", engine)
    lines = out.splitlines()
    assert lines[0].startswith(f"1. The attackers win in 2 moves (+99,997, depth {depth}): d3-d5 ")
    assert all(f", depth {depth}): " in line for line in lines[:3])
    assert "Proven" not in out


def test_a_proven_win_a_deeper_search_could_shorten_is_searched_deeper():
    """The eleven-ply escape is proven at a depth that leaves room for a faster one: the search goes
    on to the depth asked instead of stopping at the first proof (Python search, in process)."""
    rules = find_variant("brandubh").make_rules()
    pos = rules.parse_position(LONG_WIN[0], Side.DEFENDERS)
    proven_at: list[int] = []

    def iteration(rep) -> None:
        if rep.lines and rep.lines[0].result_in is not None:
            proven_at.append(rep.depth)

    rep = analyse(rules, pos, lines=1, time_limit=0, depth=6, searcher=Searcher(rules), on_iteration=iteration)
    assert proven_at and proven_at[0] < 6 and rep.depth == 6 and rep.stopped == "depth"
    line = rep.lines[0]
    assert line.winner == "defenders" and line.result_in is not None and 9 <= line.result_in <= 11
