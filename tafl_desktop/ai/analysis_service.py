"""The worker process's analysis requests: continuous multi-line analysis and game review.

:mod:`tafl_desktop.ai.worker` hands requests whose mode is in :data:`MODES` to :func:`handle`, so
the window reaches analysis the same way it reaches a hint: through the worker process, never
searching in its own.  Progress goes back as ``("info", request_id, dict)`` messages:

* ``analyse``: after every finished depth, ``{"lines": [...], "depth", "nodes", "seconds", "nps"}``
  (each line a :class:`~tafl_desktop.ai.multipv.Line` as a dict);
* ``review``: after every position, ``{"done", "total", "evals"}`` (all evaluations so far, so a
  cancelled review keeps them and a later one resumes from them).

The final answer's ``data`` holds the same dict (the analysis' last report, or every evaluation).
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

MODES = ("analyse", "review")


def _searcher(engine: Any, rules: Any) -> Any:
    from tafl_desktop.ai.engine import make_searcher

    cache = engine.__dict__.setdefault("_multipv", {})
    s = cache.get(id(rules))
    if s is None or s.rules is not rules:
        cache.clear()  # one at a time: the table is big
        s = cache[id(rules)] = make_searcher(rules)
        if s.engine == "native":  # analysis need not be reproducible: use every core
            from tafl_desktop.native.search import default_threads

            s.threads = default_threads()
    return s


def _report_dict(rep: Any) -> dict[str, Any]:
    return {"lines": [asdict(x) for x in rep.lines], "depth": rep.depth, "nodes": rep.nodes,
            "seconds": round(rep.seconds, 3), "nps": round(rep.nodes_per_second)}


def handle(engine: Any, rid: int, req: dict[str, Any], rules: Any, pos: Any, history: list[Any],
           should_stop: Any) -> dict[str, Any]:
    """Run one analysis request; return the ``data`` of its final answer."""
    from tafl_desktop.ai import multipv, review

    searcher = _searcher(engine, rules)
    send = engine.conn.send
    if req["mode"] == "analyse":
        rep = multipv.analyse(rules, pos, lines=int(req.get("lines", 3)), time_limit=float(req.get("time") or 0),
                              depth=int(req.get("depth", 64)), history_keys=history, should_stop=should_stop,
                              on_iteration=lambda r: send(("info", rid, _report_dict(r))), searcher=searcher)
        return {**_report_dict(rep), "engine": searcher.engine}
    moves = [tuple(m) for m in req.get("moves", ())]
    positions = review.game_positions(rules, pos, moves)
    known = {int(k): v for k, v in (req.get("known") or {}).items()}
    total = len(positions)

    def progress(done: int, evals: dict[int, Any]) -> None:
        send(("info", rid, {"done": done, "total": total, "evals": dict(evals)}))

    evals = review.evaluate_positions(rules, positions, float(req.get("per_position", review.REVIEW_TIME)),
                                      known, should_stop, progress, searcher)
    return {"done": len(evals), "total": total, "evals": evals, "engine": searcher.engine}
