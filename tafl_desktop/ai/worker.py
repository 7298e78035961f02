"""The search in a separate process, so the GUI never stalls: :class:`AIWorker`.

Why a process and not a thread: the search is pure Python, so a thread would hold the GIL and
freeze the event loop.  The process is started with the ``spawn`` method (the only one on
Windows and macOS, and safe with Qt's threads on Linux); in a frozen PyInstaller build the app
must call ``multiprocessing.freeze_support()`` first thing in ``main``.

Protocol (all plain, picklable data):

* the client sends ``(request_id, request dict)`` through a pipe;
* the worker answers ``("info", request_id, dict)`` after each finished iteration (depth, score,
  principal variation: for a "thinking" display) and ``("done", request_id, AIResult)`` at the end;
* a shared integer ``stop_id`` makes the search stop: the search polls it every 256 nodes and
  unwinds when ``stop_id >= request_id`` (a shared int, not an Event, so that stopping request 7
  can never stop request 8 by accident).

How the GUI should use it (no Qt in here; the GUI polls from a QTimer every ~50 ms)::

    worker = AIWorker()                                   # starts the process in the background
    rid = worker.start(variant.to_data(), rules.position_text(pos), pos.side,
                       [rules.position_key(p) for p in game_positions], level="medium")
    ...
    result = worker.poll()        # None while thinking; an AIResult once, for the latest request
    worker.cancel()               # abandon the request (e.g. after undo): its result never arrives
    worker.move_now()             # stop thinking and deliver the best move found so far
    worker.shutdown()             # at exit

A request is identified by the variant as data (``Variant.to_data()``; rebuilt in the worker with
``variant_from_data`` and cached, transposition table included, for the next request), the
position as text (``rules.position_text``) plus the side to move, the game's position keys for
the repetition rule, and optionally ``quiet`` (moves since the last capture, for the captureless
draw toggle).  A position object (``TaflPosition`` pickles) may be passed instead of the text.

Robustness: if the process has died, ``start`` restarts it; if a request runs past its time
budget plus :data:`HANG_GRACE` seconds, or the process is frozen (its heartbeat, a thread counting
a shared integer up every :data:`HEARTBEAT` seconds, stands still for :data:`FROZEN_AFTER`
seconds, whatever the budget), ``poll`` kills the process (SIGKILL, without waiting for it),
restarts it and resubmits the request once, then gives up with an ``AIResult`` whose ``error``
says what happened.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import time
import traceback
from collections.abc import Hashable, Iterable
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from tafl_desktop.ai.levels import HINT_LEVEL, get_level, untimed_ceiling

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.sharedctypes import Synchronized

    from tafl_desktop.core.game import Position, Rules, Side
    from tafl_desktop.search_contract import Searcher, SearchResult

#: Seconds past a request's budget after which the worker is declared hung.
HANG_GRACE = 5.0
#: The worker's heartbeat: a thread in it counts up every HEARTBEAT seconds, while its search runs.
HEARTBEAT = 0.2
#: A heartbeat that stands still this long means a frozen process (stopped, swapped out for ever,
#: stuck in the kernel), noticed whatever the request's budget.  Generous, as a loaded two-core
#: machine may hold a niced process back for a while.
FROZEN_AFTER = 3.0
#: Budget assumed for the worker's start-up (imports) when judging a hang.
STARTUP_GRACE = 20.0
MODES = ("move", "hint", "eval", "analyse", "review")
#: Modes served by :mod:`tafl_desktop.ai.analysis_service` (multi-line analysis, game review).
STUDY_MODES = ("analyse", "review")


@dataclass
class AIResult:
    """The answer to one request.  Scores: see :mod:`tafl_desktop.ai.analysis`."""

    request_id: int
    mode: str
    level: str
    move: tuple[int, ...] | None = None
    move_text: str = ""
    score: int = 0
    defenders_score: int = 0
    defenders_win_chance: float = 0.5
    mate_in: int | None = None
    depth: int = 0
    nodes: int = 0
    seconds: float = 0.0
    pv: list[str] = field(default_factory=list)
    stopped: str = ""
    error: str = ""
    #: An analysis request's answer (see :mod:`tafl_desktop.ai.analysis_service`).
    data: dict[str, Any] = field(default_factory=dict)
    #: The search engine that answered ("native" or "python"; see :mod:`tafl_desktop.ai.engine`).
    engine: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


# ---------------------------------------------------------------------------------- worker side
class _Engine:
    """Worker-side state: compiled rules and searchers per variant, kept between requests."""

    def __init__(self, stop_id: Synchronized[int], conn: Connection) -> None:
        self.stop_id = stop_id
        self.conn = conn
        self.cache: dict[str, tuple[Rules[Position], Searcher[Position]]] = {}

    def rules_for(self, variant_data: dict[str, Any]) -> tuple[Rules[Position], Searcher[Position]]:
        from tafl_desktop.ai.engine import make_searcher
        from tafl_desktop.core.variants import variant_from_data

        key = json.dumps(variant_data, sort_keys=True, default=str)
        hit = self.cache.get(key)
        if hit is None:
            if len(self.cache) >= 3:
                self.cache.pop(next(iter(self.cache)))
            rules = variant_from_data(variant_data).make_rules()
            hit = (rules, make_searcher(rules))
            self.cache[key] = hit
        return hit

    def handle(self, rid: int, req: dict[str, Any]) -> AIResult:
        from tafl_desktop.ai import analysis
        from tafl_desktop.core.game import Side

        mode = req.get("mode", "move")
        level = req.get("level", "medium")
        rules, searcher = self.rules_for(req["variant"])
        position = req["position"]
        if isinstance(position, str):
            side = req["to_move"]
            side = Side.parse(side) if isinstance(side, str) else Side(int(side))
            pos = rules.parse_position(position, side)
            quiet = int(req.get("quiet", 0) or 0)
            if quiet and hasattr(pos, "quiet"):  # a position parsed just now: its count is set once
                setattr(pos, "quiet", quiet)  # noqa: B010 (the Position protocol reads it only)
        else:
            pos = position
        history = [tuple(k) if isinstance(k, list) else k for k in req.get("history", ())]
        stop_id = self.stop_id

        def should_stop() -> bool:
            return stop_id.value >= rid

        def info(res: SearchResult) -> None:
            a = analysis.to_analysis(rules, pos, res)
            self.conn.send(("info", rid, {"depth": a.depth, "score": a.score, "defenders_score": a.defenders_score,
                                          "nodes": a.nodes, "seconds": a.seconds, "pv": a.pv}))

        if mode in STUDY_MODES:
            from tafl_desktop.ai import analysis_service

            data = analysis_service.handle(self, rid, req, rules, pos, history, should_stop)
            return AIResult(request_id=rid, mode=mode, level=level, data=data, engine=data.get("engine", ""))
        t = req.get("time")
        if mode == "move":
            a = analysis.best_move(rules, pos, level, history, should_stop, seed=req.get("seed"),
                                   searcher=searcher, on_iteration=info, time_limit=t, soft_limit=req.get("soft"))
        elif mode == "hint":
            a = analysis.hint(rules, pos, history, should_stop, time_limit=t, searcher=searcher, on_iteration=info)
        else:
            a = analysis.evaluate(rules, pos, history, should_stop,
                                  time_limit=t if t is not None else analysis.EVAL_TIME, searcher=searcher)
        return AIResult(request_id=rid, mode=mode, level=level, engine=searcher.engine, **asdict(a))


def _beat(counter: Synchronized[int]) -> None:
    """The heartbeat thread: a running process counts up, a frozen one does not."""
    while True:
        counter.value += 1
        time.sleep(HEARTBEAT)


def _worker_main(conn: Connection, stop_id: Synchronized[int], heartbeat: Synchronized[int] | None = None) -> None:
    """Process entry point (module level, so ``spawn`` can import it)."""
    if heartbeat is not None:
        import threading

        threading.Thread(target=_beat, args=(heartbeat,), name="tafl-ai-heartbeat", daemon=True).start()
    if hasattr(os, "nice"):
        try:
            os.nice(5)  # on a two-core machine the window's own process keeps the upper hand
        except OSError:
            pass
    engine = _Engine(stop_id, conn)
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        rid, req = msg
        try:
            result = engine.handle(rid, req)
        except Exception as exc:  # report, never die: the client would only see a hang
            result = AIResult(request_id=rid, mode=req.get("mode", "move"), level=str(req.get("level", "")),
                              error=f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=4)}")
        try:
            conn.send(("done", rid, result))
        except (BrokenPipeError, OSError):
            return


# ---------------------------------------------------------------------------------- client side
class AIWorker:
    """Client of the search process: start a request, poll for its result, cancel, shut down."""

    def __init__(self, start_now: bool = True, hang_grace: float = HANG_GRACE) -> None:
        self._ctx = mp.get_context("spawn")
        self._proc: Any = None
        self._conn: Any = None
        self._stop_id: Any = None
        self._next_id = 0
        self._current: int | None = None
        self._request: dict[str, Any] | None = None
        self._deadline = 0.0
        self._retried = False
        self._moved_now = False
        self.hang_grace = hang_grace
        self.restarts = 0
        #: Latest progress report of the current request (depth, score, pv...), or None.
        self.info: dict[str, Any] | None = None
        if start_now:
            self._launch()

    # -- process management ---------------------------------------------------------------------
    def _launch(self) -> None:
        parent, child = self._ctx.Pipe(duplex=True)
        self._stop_id = self._ctx.RawValue("q", 0)  # a fresh process has no request to stop yet
        self._heartbeat = self._ctx.RawValue("q", 0)
        self._beat_seen = (0, time.monotonic())  # (last count seen, when it was seen to change)
        self._launched_at = time.monotonic()
        proc = self._ctx.Process(target=_worker_main, args=(child, self._stop_id, self._heartbeat), name="tafl-ai",
                                 daemon=True)
        proc.start()
        child.close()
        self._proc, self._conn = proc, parent

    def _kill(self) -> None:
        """End the process at once.  SIGKILL, not SIGTERM: a stopped (frozen) process would keep a
        SIGTERM pending and the window would wait for it; the process holds nothing worth a
        clean exit.  A process not yet gone is reaped when the next one starts."""
        proc, conn = self._proc, self._conn
        self._proc = self._conn = None
        if conn is not None:
            try:
                conn.close()
            except OSError:
                pass
        if proc is not None and proc.is_alive():
            proc.kill()
            proc.join(0.05)

    def frozen(self) -> bool:
        """Has the heartbeat stood still for :data:`FROZEN_AFTER` seconds (after it first beat)?"""
        beat = getattr(self, "_heartbeat", None)
        if beat is None or self._proc is None:
            return False
        now = time.monotonic()
        count = beat.value
        seen, since = self._beat_seen
        if count != seen:
            self._beat_seen = (count, now)
            return False
        return count > 0 and now - since > FROZEN_AFTER

    def restart(self) -> None:
        """Kill the process (if any) and start a fresh one."""
        self._kill()
        self.restarts += 1
        self._launch()

    def is_alive(self) -> bool:
        return self._proc is not None and self._proc.is_alive()

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    @property
    def busy(self) -> bool:
        """Is a request outstanding (its result not yet returned by ``poll``)?"""
        return self._current is not None

    # -- requests -----------------------------------------------------------------------------------
    def start(self, variant_data: dict[str, Any], position_text: str | Position,
              to_move: Side | int | str | None = None, history_keys: Iterable[Hashable] = (),
              level: str = "medium", *, mode: str = "move", quiet: int = 0,
              time_limit: float | None = None, seed: int | None = None,
              extra: dict[str, Any] | None = None) -> int:
        """Submit a request and return its id; a request still running is abandoned.

        ``position_text``: ``rules.position_text(pos)`` (or a position object); ``to_move``: a Side,
        0/1 or "attackers"/"defenders"; ``history_keys``: ``rules.position_key`` of the game's
        positions so far; ``mode``: "move" (play at ``level``), "hint" (strongest settings) or
        "eval" (strongest settings, ``time_limit`` or 1 s), or an analysis mode ("analyse", "review":
        ``extra`` holds their settings, ``time_limit`` is then the whole request's budget).
        ValueError for an unknown level or mode.
        """
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}; modes: {', '.join(MODES)}")
        lv = get_level(level if mode == "move" else HINT_LEVEL)
        if self._current is not None:
            self.cancel()
        if not self.is_alive():
            self.restart()
        self._next_id += 1
        rid = self._next_id
        req = {
            "variant": variant_data, "position": position_text,
            "to_move": int(to_move) if to_move is not None and not isinstance(to_move, str) else to_move,
            "history": [tuple(k) if isinstance(k, list) else k for k in history_keys],
            "level": lv.name if mode == "move" else level, "mode": mode, "quiet": quiet,
            "time": time_limit, "seed": seed, **(extra or {}),
        }
        # without a time limit the level's node budget binds: the search may run to its guard
        budget = time_limit if time_limit is not None else (untimed_ceiling(lv) if mode != "eval" else 1.0)
        self._current, self._request = rid, req
        self._retried = False
        self._moved_now = False
        self.info = None
        self._send(rid, req, budget)
        return rid

    def _send(self, rid: int, req: dict[str, Any], budget: float) -> None:
        now = time.monotonic()
        starting = now - getattr(self, "_launched_at", 0.0) < STARTUP_GRACE
        self._deadline = now + budget + self.hang_grace + (STARTUP_GRACE if starting else 0.0)
        self._budget = budget
        try:
            self._conn.send((rid, req))
        except (BrokenPipeError, OSError, AttributeError):
            self.restart()
            self._conn.send((rid, req))

    def poll(self) -> AIResult | None:
        """Non-blocking: the result of the current request once it is ready, else None.

        Results of abandoned requests are dropped here; progress reports update :attr:`info`.
        """
        conn = self._conn
        while conn is not None:
            try:
                if not conn.poll():
                    break
                kind, rid, payload = conn.recv()
            except (EOFError, OSError):
                break  # the process died: handled below
            if rid != self._current:
                continue
            if kind == "info":
                self.info = payload
                continue
            self._current = self._request = None
            result: AIResult = payload  # the worker sends an AIResult as a request's last word
            return result
        if self._current is None:
            return None
        dead = not self.is_alive()
        if dead or self.frozen() or time.monotonic() > self._deadline:
            return self._recover("the computer player stopped unexpectedly" if dead else
                                 "the computer player did not answer in time")
        return None

    def _recover(self, why: str) -> AIResult | None:
        rid, req = self._current, self._request
        assert rid is not None and req is not None
        self.restart()
        if not self._retried:
            self._retried = True
            self._deadline = time.monotonic() + self._budget + self.hang_grace + STARTUP_GRACE
            self._conn.send((rid, req))
            return None
        self._current = self._request = None
        return AIResult(request_id=rid, mode=req["mode"], level=req["level"], error=f"{why}; it was restarted")

    def wait(self, timeout: float | None = None, interval: float = 0.01) -> AIResult | None:
        """Block until the current result arrives (tests and CLI only: the GUI polls)."""
        end = None if timeout is None else time.monotonic() + timeout
        while True:
            res = self.poll()
            if res is not None or self._current is None:
                return res
            if end is not None and time.monotonic() > end:
                return None
            time.sleep(interval)

    def cancel(self) -> None:
        """Abandon the current request: the search stops at once and its result is dropped."""
        if self._current is None:
            return
        if self._stop_id is not None:
            self._stop_id.value = self._current
        self._current = self._request = None
        self.info = None

    def move_now(self) -> None:
        """Stop thinking: the current request's result (best move so far) arrives at the next polls."""
        if self._current is not None and self._stop_id is not None:
            self._stop_id.value = self._current
            self._moved_now = True

    def shutdown(self, timeout: float = 1.0) -> None:
        """Stop the search and the process; the worker can be started again by ``start``."""
        self.cancel()
        conn, proc = self._conn, self._proc
        if conn is not None:
            try:
                conn.send(None)
            except (BrokenPipeError, OSError):
                pass
        if proc is not None:
            proc.join(timeout)
        self._kill()

    def __enter__(self) -> AIWorker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()

    def __del__(self) -> None:
        try:
            self._kill()
        except Exception:
            pass
