"""The explorer's engine column: the score of each move listed, computed off the window's thread.

Why a thread of its own (with its own database connection): a search of a few thousand
positions is slow beside a lookup, and neither the board nor the explorer's counts may wait for
it.  The moves of the position shown are scored one by one, the most played first; each score
is sent to the dock as it arrives (``scored``).  A score the database holds already (keyed by
the rules, the folded position the move leads to and the budget: :mod:`tafl_desktop.gamedb.scores`)
is sent at once; a new one is searched, stored and sent.  When the position shown changes, the
moves of the old one still waiting are dropped.
"""

from __future__ import annotations

import queue
import threading
from typing import TYPE_CHECKING, Any, cast

from PySide6.QtCore import QObject, Signal

from tafl_desktop.core.game import P, Rules

if TYPE_CHECKING:
    from tafl_desktop.search_contract import Searcher


class _Signals(QObject):
    #: request number, the move's text, (MoveScore, side to move after the move)
    scored = Signal(int, str, object)


class ScoreWorker:
    """Scores the moves of the latest request (older ones are dropped) on its own thread."""

    def __init__(self, path: Any = None) -> None:
        self.path = path
        self.signals = _Signals()
        self._jobs: queue.Queue[tuple[int, Any] | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._latest = 0
        #: Searches run since the worker started (tests: a cached score runs none).
        self.searched = 0
        self._searchers: dict[int, tuple[Rules[Any], Searcher[Any]]] = {}

    def ask(self, number: int, rules: Any, pos: Any, moves: list[str]) -> None:
        """Score ``moves`` (texts on the board as it stands) played from ``pos``."""
        self._latest = number
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._run, name="tafl-explorer-scores", daemon=True)
            self._thread.start()
        self._jobs.put((number, (rules, pos, moves)))

    def stop(self) -> None:
        self._latest = -1
        if self._thread is not None and self._thread.is_alive():
            self._jobs.put(None)
            self._thread.join(5)

    def _run(self) -> None:
        from tafl_desktop.gamedb.library import default_path
        from tafl_desktop.gamedb.store import GameDb, GameDbError

        db = None
        try:
            while True:
                job = self._jobs.get()
                if job is None:
                    return
                number, request = job
                if number != self._latest:
                    continue  # a newer position is shown
                try:
                    if db is None:
                        db = GameDb(self.path or default_path())
                    self._score(db, number, *request)
                except GameDbError:
                    continue  # the counts say what is wrong with the database; no score is no harm
                except Exception:  # noqa: BLE001 - a score is extra: the thread stays for the next position
                    continue
        finally:
            if db is not None:
                db.close()

    def _searcher(self, rules: Rules[P]) -> Searcher[P]:
        from tafl_desktop.ai.engine import make_searcher

        hit = self._searchers.get(id(rules))
        if hit is None or hit[0] is not rules:
            if len(self._searchers) > 8:
                self._searchers.clear()
            hit = self._searchers[id(rules)] = (rules, make_searcher(rules))
        return cast("Searcher[P]", hit[1])  # kept with the very rules object: the same position type

    def _score(self, db: Any, number: int, rules: Any, pos: Any, moves: list[str]) -> None:
        from tafl_desktop.gamedb.scores import budget_for, score_after

        budget = budget_for(rules)
        folding = db.folding(rules)
        after: list[tuple[str, Any, int]] = []
        for text in moves:
            next_pos, _captures = rules.play(pos, rules.parse_move(pos, text))
            after.append((text, next_pos, folding.fold(next_pos).key))
        held = db.scores(folding.rules_key, [key for _t, _p, key in after], budget)
        cached = set(held)
        for text, next_pos, key in after:
            if key in cached:
                self.signals.scored.emit(number, text, (held[key], int(rules.side_to_move(next_pos))))
        for text, next_pos, key in after:
            if key in cached:
                continue
            score = held.get(key)  # a move and its mirror image lead to one position: searched once
            if score is None:
                if number != self._latest:
                    return
                score = held[key] = score_after(rules, next_pos, self._searcher(rules), budget)
                self.searched += 1
                db.store_score(folding.rules_key, key, budget, score)
            self.signals.scored.emit(number, text, (score, int(rules.side_to_move(next_pos))))
