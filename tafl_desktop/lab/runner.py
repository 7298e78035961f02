"""Run a study: play the games its store does not hold yet, storing each as it finishes.

The jobs go out game-major (game 0 of every cell, then game 1 ...), so a study stopped early
still has every cell's first games, and a live chart fills in evenly.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from tafl_desktop.lab.executors import Backend
from tafl_desktop.lab.store import ResultStore
from tafl_desktop.lab.study import Job


@dataclass(frozen=True)
class Progress:
    """Where a running study stands: games stored of all, and the time left at the current pace."""

    done: int
    total: int
    seconds_left: float | None
    last: dict[str, Any] | None


def pending_jobs(store: ResultStore) -> Iterator[Job]:
    """The games the store lacks, game-major, made as the back-end asks for them."""
    return (j for j in store.study.jobs() if not store.done(j.cell, j.game))


def run_study(store: ResultStore, backend: Backend, on_progress: Callable[[Progress], None] | None = None,
              should_stop: Callable[[], bool] = lambda: False,
              on_game: Callable[[dict[str, Any]], object] | None = None) -> bool:
    """Play every game the store lacks; True when the study is complete, False when stopped.
    ``on_game`` gets each game once it is stored (the game database's sink)."""
    jobs = pending_jobs(store)
    total = len(store.study.cells()) * store.study.games
    started = time.monotonic()
    played = 0

    def got(result: dict[str, Any]) -> None:
        nonlocal played
        store.add(result)
        if on_game is not None:
            on_game(result)
        played += 1
        left = total - store.finished
        pace = (time.monotonic() - started) / played
        if on_progress:
            on_progress(Progress(store.finished, total, pace * left, result))

    if on_progress:
        on_progress(Progress(store.finished, total, None, None))
    return backend.run(jobs, got, should_stop)
