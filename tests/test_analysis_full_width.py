"""Analysis, review and the heat map judge a move by the search that would play it.

Expert searches the Fox games' hunters full width (``ComputerPlayer.limits``: a fox has a handful
of moves, and searching the late ones a ply shallower hid his defences; benchmarks/results/README.md).
The analysis board, the review and the heat map use the strongest level's settings, so where the
hunters move they search full width too, and where the flock moves, and in Tafl, selectively.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable
from typing import Any

import pytest

from tafl_desktop.ai.heatmap import heat_map
from tafl_desktop.ai.multipv import analyse
from tafl_desktop.ai.player import ComputerPlayer
from tafl_desktop.ai.search import Searcher, SearchLimits, SearchResult
from tafl_desktop.core.game import Side
from tafl_desktop.core.variants import find_variant


class RecordingSearcher(Searcher[Any]):
    """The Python search, noting whether each search it is asked for is selective."""

    def __init__(self, rules: Any) -> None:
        super().__init__(rules)
        self.selective: list[bool] = []

    def search(self, pos: Any, limits: SearchLimits | None = None, history_keys: Iterable[Hashable] = (),
               should_stop: Callable[[], bool] | None = None, rng: random.Random | None = None,
               on_iteration: Callable[[SearchResult], None] | None = None,
               on_progress: Callable[[int, int], None] | None = None) -> SearchResult:
        assert limits is not None
        self.selective.append(limits.selective)
        return super().search(pos, limits, history_keys, should_stop, rng, on_iteration, on_progress)


def position(vid: str, text: str, to_move: Side) -> tuple[Any, Any]:
    rules = find_variant(vid).make_rules()
    return rules, rules.parse_position(text, to_move)


FOX_GEESE = "hunters=d4 flock=c1,d1,e1,c2,d2,e2,a3,b3,c3,e3,f3,g3,d6"


@pytest.mark.parametrize(("vid", "text", "side", "selective"), [
    ("fox_geese_13", FOX_GEESE, Side.DEFENDERS, False),   # the fox moves: full width
    ("fox_geese_13", FOX_GEESE, Side.ATTACKERS, True),    # the geese: selective
])
def test_analysis_searches_each_side_as_expert_plays_it(vid: str, text: str, side: Side, selective: bool) -> None:
    rules, pos = position(vid, text, side)
    player = ComputerPlayer(rules, "expert", engine="python")
    assert player.limits(side=int(side)).selective is selective  # how Expert plays this side
    rec = RecordingSearcher(rules)
    report = analyse(rules, pos, lines=2, depth=2, searcher=rec)
    assert report.lines and rec.selective
    assert set(rec.selective) == {selective}


def test_analysis_stays_selective_for_both_sides_in_tafl() -> None:
    rules = find_variant("brandubh").make_rules()
    pos = rules.initial_position()
    for _ in range(2):  # attackers to move, then defenders
        rec = RecordingSearcher(rules)
        assert analyse(rules, pos, lines=1, depth=2, searcher=rec).lines
        assert rec.selective and all(rec.selective)
        pos, _caps = rules.play(pos, rules.legal_moves(pos)[0])


def test_the_heat_map_searches_the_fox_full_width_and_the_geese_selectively() -> None:
    for side, selective in ((Side.DEFENDERS, False), (Side.ATTACKERS, True)):
        rules, pos = position("fox_geese_13", FOX_GEESE, side)
        rec = RecordingSearcher(rules)
        heat = heat_map(rules, pos, rec, depth=1)
        assert heat is not None and heat["squares"]
        assert set(rec.selective) == {selective}
