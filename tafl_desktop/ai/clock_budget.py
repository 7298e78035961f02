"""When a clocked search stops: its share of the clock, more at critical moments (issue 44 item 3).

Under a clock the computer gets a :class:`~tafl_desktop.core.clock.ThinkPlan`: a soft share and a
hard limit.  The search itself may run to the hard limit (its ``time``); :class:`SoftDeadline`
watches the finished depths and asks it to stop once the share is used, or after a depth that
leaves too little of the share for the next one, as chess engines do.  The share is stretched
where a longer look pays (the best move changed at the last depth: the search is still making up
its mind; the score fell: something went wrong that a deeper look may mend) and shortened where
the best move has stood for several depths, so the time saved on settled moves is there for the
critical ones.  Fixed times per move (hints, benchmarks, the match tool's ``--time``) have no soft
share: they are used to their deadline.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from tafl_desktop.core.game import Move

if TYPE_CHECKING:
    from tafl_desktop.search_contract import SearchResult

#: The share's factor when the best move changed at the last finished depth.
UNSTABLE = 2.0
#: The share's factor when the score fell by at least :data:`FALL` (and by twice that: ``FALL2``).
FALLING, FALLING2 = 1.6, 2.5
FALL, FALL2 = 40, 120
#: The share's factor when the best move has stood for :data:`SETTLED_DEPTHS` depths.
SETTLED = 0.5
SETTLED_DEPTHS = 4
#: A new depth is not begun past this part of the (stretched) share: it would take longer than
#: all the depths before it and be cut off unfinished.
NEXT_DEPTH = 0.6


class SoftDeadline:
    """``on_iteration`` and ``should_stop`` hooks for one clocked search: after each finished
    depth, decide whether the next one is worth starting (see the module's note)."""

    def __init__(self, soft: float, should_stop: Callable[[], bool] | None = None,
                 on_iteration: Callable[[SearchResult], None] | None = None,
                 now: Callable[[], float] = time.perf_counter) -> None:
        self.soft = soft
        self._outer_stop = should_stop
        self._outer_iteration = on_iteration
        self._now = now
        self.t0 = now()
        self.stop = False
        self.last_move: Move | None = None
        self.last_score: int | None = None
        self.settled = 0
        #: The factor applied to the share at the last finished depth (for reports and tests).
        self.factor = 1.0

    def on_iteration(self, res: SearchResult) -> None:
        """A depth finished with ``res`` (a SearchResult): stretch or shorten the share, and stop
        once the time spent is past it."""
        if self._outer_iteration is not None:
            self._outer_iteration(res)
        changed = self.last_move is not None and res.move != self.last_move
        fall = 0 if self.last_score is None else self.last_score - res.score
        self.settled = 0 if changed or self.last_move is None else self.settled + 1
        factor = 1.0
        if changed:
            factor = UNSTABLE
        if fall >= FALL2:
            factor = max(factor, FALLING2)
        elif fall >= FALL:
            factor = max(factor, FALLING)
        if factor == 1.0 and self.settled >= SETTLED_DEPTHS:
            factor = SETTLED
        self.factor = factor
        self.last_move, self.last_score = res.move, res.score
        if self._now() - self.t0 >= NEXT_DEPTH * self.soft * factor:
            self.stop = True

    def should_stop(self) -> bool:
        """True once the (stretched) share is used, even within a depth (its best move so far is
        played), or a finished depth left too little of it for the next, or the caller says stop."""
        if self.stop or self._now() - self.t0 >= self.soft * self.factor:
            self.stop = True
            return True
        return bool(self._outer_stop()) if self._outer_stop is not None else False
