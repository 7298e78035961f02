"""How hard a puzzle is: by N (the plies to the forced end) and by what a weak search needs.

The weak search is the app's own alpha-beta searcher with its evaluation, plainly: no quiescence,
a fresh table, one fixed depth at a time.  A puzzle whose winning move a one-ply look already
prefers (the king runs to the edge, the obvious capture) is easier than one where the searcher
must look as deep as the whole forced line before it prefers the key move: that is the move a
player has to *see*, not just like.  The rating is 1 to 5:

* N = 1: 1;
* N = 3: 2 when a 1-ply search already picks the key move, else 3;
* N = 5 and more: 4 when a search of at most 3 plies picks it, else 5.
"""

from __future__ import annotations

from dataclasses import dataclass

from tafl_desktop.core.game import Move, P, Rules


@dataclass(frozen=True)
class Effort:
    """The shallowest depth at which the weak search picks the key move, and the positions it visited."""

    depth: int
    nodes: int

    def as_dict(self) -> dict[str, int]:
        return {"depth": self.depth, "nodes": self.nodes}


def weak_search_effort(rules: Rules[P], pos: P, key: Move, plies: int) -> Effort:
    """Search ``pos`` at depth 1, 2, ... up to ``plies``; the first depth whose choice is ``key``
    (``plies + 1`` if none is) and the nodes spent up to then."""
    from tafl_desktop.ai.search import Searcher, SearchLimits

    total = 0
    for depth in range(1, plies + 1):
        searcher = Searcher(rules, tt_entries=50_000)
        result = searcher.search(pos, SearchLimits(time=20.0, depth=depth, quiescence=False))
        total += result.nodes
        if result.move == key:
            return Effort(depth, total)
    return Effort(plies + 1, total)


def rating(plies: int, effort: Effort) -> int:
    """1 to 5 from N and the weak search's depth (see the module text)."""
    if plies <= 1:
        return 1
    if plies <= 3:
        return 2 if effort.depth <= 1 else 3
    return 4 if effort.depth <= 3 else 5
