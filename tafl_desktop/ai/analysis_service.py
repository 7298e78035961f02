"""The worker process's study requests: continuous multi-line analysis (with its heat map) and
game review.

:mod:`tafl_desktop.ai.worker` hands requests whose mode is in :data:`MODES` to :func:`handle`, so
the window reaches analysis the same way it reaches a hint: through the worker process, never
searching in its own.  Progress goes back as ``("info", request_id, dict)`` messages.  The worker
keeps only the latest message of a request, so every message carries the whole state so far:

* ``analyse``: ``{"lines": [...], "depth", "nodes", "seconds", "nps", "stopped", "live": {"nodes", "depth",
  "seconds", "nps"}, "heat": {...} | None, "heat_done": [done, total]}``: the lines of the last finished
  depth (each a :class:`~tafl_desktop.ai.multipv.Line` as a dict), the running counters of the
  depth being searched (about ten times a second), and the heat map
  (:mod:`tafl_desktop.ai.heatmap`, when the request asks for it with ``"heat": true``: computed
  first, then the lines);
* ``review``: after every position, ``{"done", "total", "evals"}`` (all evaluations so far, so a
  cancelled review keeps them and a later one resumes from them); the request's ``budget`` is a
  :class:`~tafl_desktop.ai.review.Budget` as JSON (the standard one when absent).

The final answer's ``data`` holds the same dict (the analysis' last state, or every evaluation).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from tafl_desktop.core.game import P, Rules

if TYPE_CHECKING:
    from tafl_desktop.ai.multipv import Report
    from tafl_desktop.ai.worker import _Engine as WorkerState
    from tafl_desktop.search_contract import Searcher

MODES = ("analyse", "review")


def _searcher(engine: WorkerState, rules: Rules[P]) -> Searcher[P]:
    from tafl_desktop.ai.engine import make_searcher

    cache = engine.__dict__.setdefault("_multipv", {})
    s: Searcher[P] | None = cache.get(id(rules))
    if s is None or s.rules is not rules:
        cache.clear()  # one at a time: the table is big
        s = cache[id(rules)] = make_searcher(rules)
        if s.engine == "native":
            # analysis need not be reproducible: every core.  The worker process runs niced
            # (tafl_desktop.ai.worker), so the window's process still gets a core the moment it
            # needs one; keeping a core idle for it halved the board's speed on two cores.
            from tafl_desktop.native.search import default_threads

            s.threads = default_threads()
    return s


def _report_dict(rep: Report) -> dict[str, Any]:
    return {"lines": [asdict(x) for x in rep.lines], "depth": rep.depth, "nodes": rep.nodes,
            "seconds": round(rep.seconds, 3), "nps": round(rep.nodes_per_second), "stopped": rep.stopped}


def _analyse(searcher: Searcher[P], rid: int, req: dict[str, Any], rules: Rules[P], pos: P, history: list[Hashable],
             should_stop: Callable[[], bool], send: Callable[[object], None]) -> dict[str, Any]:
    from tafl_desktop.ai import heatmap, multipv

    state: dict[str, Any] = {"lines": [], "depth": 0, "nodes": 0, "seconds": 0.0, "nps": 0,
                             "live": {"nodes": 0, "depth": 0, "seconds": 0.0}, "heat": None, "heat_done": None,
                             "engine": searcher.engine}

    def push(**changes: object) -> None:
        state.update(changes)
        send(("info", rid, dict(state)))

    if req.get("heat"):
        depth = heatmap.heat_depth(rules, searcher.engine)
        last = [0.0]

        def heat_progress(done: int, total: int) -> None:
            now = time.perf_counter()
            if now - last[0] >= 0.1 or done == total:
                last[0] = now
                push(heat_done=[done, total])

        heat = heatmap.heat_map(rules, pos, searcher, depth, history, should_stop, heat_progress)
        if heat is None:
            return state
        push(heat={"squares": {str(k): v for k, v in heat["squares"].items()},
                   "moves": {str(k): list(m) for k, m in heat["moves"].items()},
                   "best": heat["best"], "depth": heat["depth"], "side": heat["side"]})
        searcher.clear()
    t_lines = time.perf_counter()
    base = state["nodes"]

    def live(nodes: int, depth: int) -> dict[str, Any]:
        seconds = time.perf_counter() - t_lines
        return {"nodes": base + nodes, "depth": depth, "seconds": round(seconds, 3),
                "nps": round(nodes / seconds) if seconds > 0 else 0}

    def iteration(rep: Report) -> None:
        push(**_report_dict(rep), live=live(rep.nodes, rep.depth))

    def progress(nodes: int, depth: int) -> None:
        push(live=live(nodes, depth))

    rep = multipv.analyse(rules, pos, lines=int(req.get("lines", 3)), time_limit=float(req.get("time") or 0),
                          depth=int(req.get("depth", 64)), history_keys=history, should_stop=should_stop,
                          on_iteration=iteration, searcher=searcher, on_progress=progress)
    state.update(_report_dict(rep))
    return state


def handle(engine: WorkerState, rid: int, req: dict[str, Any], rules: Rules[P], pos: P, history: list[Hashable],
           should_stop: Callable[[], bool]) -> dict[str, Any]:
    """Run one study request; return the ``data`` of its final answer."""
    from tafl_desktop.ai import review

    searcher = _searcher(engine, rules)
    send = engine.conn.send
    if req["mode"] == "analyse":
        return _analyse(searcher, rid, req, rules, pos, history, should_stop, send)
    moves = [tuple(m) for m in req.get("moves", ())]
    positions = review.game_positions(rules, pos, moves)
    known = {int(k): v for k, v in (req.get("known") or {}).items()}
    total = len(positions)
    budget_data = req.get("budget")
    budget = review.Budget.from_json(budget_data) if budget_data else review.default_budget(rules, searcher.engine)

    def progress(done: int, evals: dict[int, Any]) -> None:
        send(("info", rid, {"done": done, "total": total, "evals": dict(evals)}))

    evals = review.evaluate_positions(rules, positions, budget, known, should_stop, progress, searcher)
    return {"done": len(evals), "total": total, "evals": evals, "engine": searcher.engine,
            "budget": budget.to_json()}
