"""Issue 26, item 3: hosting an external engine that misbehaves, headless and in the window.

A scripted hostile engine (``tests/hostile_engine.py``) floods requests without reading, crashes
while a helper keeps its output open, ignores ``goodbye`` and SIGTERM, or falls silent.  The
promises: no call of the host writes or waits (each under 50 ms, however hostile the engine); a
crash is noticed within a second by the process's exit; ``close()`` returns at once and the
engine's whole process group is gone within seconds; without a game clock a silent engine is
found within the per-move limit; in the real window (offscreen) the event loop never stalls
over 100 ms.  The headless scenarios run in a child Python with a timeout, so a host that blocks
fails the test instead of hanging it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from process_family import alive, family
from timing import within

ROOT = Path(__file__).resolve().parents[1]
HOSTILE = ROOT / "tests" / "hostile_engine.py"

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="process groups are checked through /proc")


#: The longest a call into the host may take.  A call that blocks on the engine (a write into a full
#: pipe, a wait for a child that keeps the output open) takes the scenario's whole life, seconds;
#: one that does not has been seen at 0.14 s on a 2-core machine with other work running (the
#: window's own promise, no event-loop gap over 100 ms, is tested through the window below).
CALL_LIMIT = 0.25

def engine_command(tmp_path: Path, script: dict, name: str = "hostile") -> str:
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(script))
    return f"{sys.executable} {HOSTILE} {path}"


SCENARIO = textwrap.dedent("""
    import json, sys, time
    sys.path.insert(0, {root!r})
    from tafl_desktop.core.game import Game
    from tafl_desktop.core.variants import find_variant
    from tafl_desktop.interop import host
    sys.path.insert(0, {tests!r})
    from process_family import alive, family
    for k, v in {patch!r}.items():
        setattr(host, k, v)
    game = Game(find_variant("brandubh").make_rules())
    slowest = 0.0
    def timed(fn, *a):
        global slowest
        t = time.monotonic()
        try:
            return fn(*a)
        finally:
            slowest = max(slowest, time.monotonic() - t)
    engine = timed(host.HostedEngine, {command!r}, "hostile")
    time.sleep({settle})  # (the engine starts in the background)
    processes = family(engine.process.proc.pid)  # the engine and the helpers it started
    t0 = time.monotonic()
    event = None
    try:
        timed(engine.request_move, game, *{clock!r})
        while time.monotonic() - t0 < {limit}:
            event = timed(engine.poll)
            if event is not None:
                break
            time.sleep(0.01)
    except host.EngineFailure as exc:
        event = host.EngineEvent("failed", text=str(exc))
    found_after = time.monotonic() - t0
    t1 = time.monotonic()
    timed(engine.close)
    close_took = time.monotonic() - t1
    gone_after = None
    while time.monotonic() - t1 < 10:
        if not alive(processes):
            gone_after = time.monotonic() - t1
            break
        time.sleep(0.05)
    exit_time = getattr(engine.process, "exit_time", None)
    print(json.dumps({{"kind": event and event.kind, "text": event and event.text, "found_after": found_after,
                      "slowest_call": slowest, "close_took": close_took, "group_gone_after": gone_after,
                      "processes": len(processes), "exited_at": exit_time and exit_time - t0}}))
""")


def scenario(command: str, clock=(), patch: dict | None = None, limit: float = 10.0, settle: float = 0.5,
             timeout: float = 60) -> dict:
    code = SCENARIO.format(root=str(ROOT), command=command, clock=tuple(clock), patch=patch or {}, limit=limit,
                           settle=settle, tests=str(ROOT / "tests"))
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout)
    assert res.returncode == 0, res.stderr[-3000:]
    return json.loads(res.stdout.strip().splitlines()[-1])


def test_an_engine_that_floods_requests_and_never_reads_blocks_nothing(tmp_path):
    cmd = engine_command(tmp_path, {"read": False, "start": [["say", "hello"], ["flood", "rules", 200_000]]})
    r = scenario(cmd, clock=((30_000, 30_000),))
    assert r["kind"] == "failed" and "requests" in r["text"], r
    within(r["slowest_call"], CALL_LIMIT, f"the slowest host call ({r})")
    within(r["close_took"], CALL_LIMIT, "close")
    assert r["group_gone_after"] is not None, r


def test_an_engine_that_never_reads_is_failed_not_waited_for(tmp_path):
    # requests allowed without limit: the host's replies fill the pipe, then its bounded queue
    cmd = engine_command(tmp_path, {"read": False, "start": [["say", "hello"], ["flood", "rules", 200_000]]})
    r = scenario(cmd, clock=((30_000, 30_000),), patch={"MAX_REQUESTS_PER_MOVE": 10**9})
    assert r["kind"] == "failed" and "does not read" in r["text"], r
    within(r["slowest_call"], CALL_LIMIT, f"the slowest host call ({r})")
    assert r["group_gone_after"] is not None, r


def test_a_crash_is_noticed_by_the_exit_though_a_helper_keeps_the_output_open(tmp_path):
    cmd = engine_command(tmp_path, {"helpers": 2, "start": [["say", "hello"]],
                                    "per_play": [[["sleep", 0.3], ["exit", 3]]]})
    r = scenario(cmd)  # no clock: a minute per move, so only the exit can explain a quick finding
    assert r["kind"] == "failed" and "exit code 3" in r["text"] and "hostile" in r["text"], r
    assert r["found_after"] < 0.3 + 1.0, r  # it exits 0.3 s after play: found within a second of that
    assert r["processes"] == 3, r
    within(r["slowest_call"], CALL_LIMIT, f"the slowest host call ({r})")
    assert r["group_gone_after"] is not None and r["group_gone_after"] < 3, r  # the helpers went too


def test_close_never_blocks_and_ends_an_engine_that_ignores_goodbye_and_sigterm(tmp_path):
    cmd = engine_command(tmp_path, {"ignore_term": True, "ignore_goodbye": True, "helpers": 2,
                                    "start": [["say", "hello"]]})
    r = scenario(cmd, limit=0.3)
    assert r["kind"] is None  # it was thinking, as far as anyone could tell
    assert r["processes"] == 3, r
    within(r["close_took"], CALL_LIMIT, "close")
    assert r["group_gone_after"] is not None and r["group_gone_after"] < 4, r


def test_without_a_clock_a_silent_engine_is_found_within_the_per_move_limit(tmp_path):
    log = tmp_path / "received.txt"
    cmd = engine_command(tmp_path, {"start": [["say", "hello"]], "log": str(log)})
    r = scenario(cmd, patch={"NO_CLOCK_MOVE_SECONDS": 1, "GRACE": 0.5})
    assert r["kind"] == "failed" and "did not answer within its time" in r["text"], r
    assert 1.0 < r["found_after"] < 3.5, r
    # the engine was told its budget in OpenTafl's terms: one overtime period per move
    assert "clock 1000* 1000* 1 1 1 \n" in log.read_text()


def test_floods_of_long_lines_and_status_cost_each_poll_little(tmp_path):
    cmd = engine_command(tmp_path, {"start": [["say", "hello"], ["flood", "x" * 70_000, 40],
                                              ["flood", "status " + "y" * 2000, 3000]],
                                    "per_play": [[["say", "move d2-b2"]]]})
    r = scenario(cmd, clock=((30_000, 30_000),), settle=2.0)
    assert r["kind"] == "move", r
    within(r["slowest_call"], CALL_LIMIT, f"the slowest host call ({r})")


# ------------------------------------------------------------------------------ in the window
def engine_family(external) -> list[int]:
    """The live processes of the window's external engines and of their helpers."""
    return [p for hosted in external._hosted.values() if hosted.process.proc is not None
            for p in family(hosted.process.proc.pid)]


def _gaps(qtbot, until, timeout_ms: int) -> list[int]:
    """Event-loop gaps (ms) measured by a 5 ms timer until ``until()`` holds."""
    from PySide6.QtCore import QElapsedTimer, QTimer

    clock = QElapsedTimer()
    clock.start()
    gaps: list[int] = []
    last = [0]

    def tick() -> None:
        now = clock.elapsed()
        gaps.append(now - last[0])
        last[0] = now

    probe = QTimer()
    probe.timeout.connect(tick)
    probe.start(5)
    try:
        qtbot.waitUntil(until, timeout=timeout_ms)
    finally:
        probe.stop()
    return gaps[3:]


def test_the_window_never_stalls_over_a_tenth_of_a_second_with_a_hostile_engine(qtbot, make_window, tmp_path,
                                                                               dialogs_recorder):
    from tafl_desktop.session.players import EXTERNAL, PlayerSpec

    script = {"helpers": 1, "start": [["say", "hello"]],
              "per_play": [[["flood", "rules", 150], ["flood", "position", 40], ["flood", "x" * 70_000, 20],
                            ["flood", "status " + "z" * 3000, 2000], ["sleep", 1.0], ["exit", 9]]]}
    w = make_window("brandubh")
    c = w.controller
    w.start_game(c.session.variant, (PlayerSpec(EXTERNAL, engine_command(tmp_path, script)), PlayerSpec()))
    w.refresh()
    gaps = _gaps(qtbot, lambda: c.session.game.outcome is not None, 30_000)
    assert c.session.game.outcome.reason == "forfeit"
    longest = max(gaps)
    print(f"\nlongest event-loop gap with a hostile engine: {longest} ms over {len(gaps)} ticks")
    # the idle machine's bound, stretched by the load now (a worker beside three others on two
    # cores once waited 145 ms for its turn); a window blocked on the engine's flood does not shrink
    within(longest / 1000, 0.1, f"the longest event-loop gap (the ten longest: {sorted(gaps)[-10:]} ms)")


def test_a_failed_engine_is_ended_before_the_next_game_and_a_new_game_ends_live_ones(qtbot, make_window,
                                                                                    tmp_path, dialogs_recorder):
    from tafl_desktop.core.variants import find_variant
    from tafl_desktop.session.players import EXTERNAL, PlayerSpec

    cheat = engine_command(tmp_path, {"helpers": 1, "start": [["say", "hello"]],
                                      "per_play": [[["sleep", 2.0], ["say", "move a1-a3"]]]}, "cheat")
    quiet = engine_command(tmp_path, {"helpers": 1, "ignore_term": True, "start": [["say", "hello"]]}, "quiet")
    w = make_window("brandubh")
    c = w.controller
    w.start_game(c.session.variant, (PlayerSpec(EXTERNAL, cheat), PlayerSpec()))
    qtbot.waitUntil(lambda: c.session.engines.external is not None, timeout=10_000)
    external = c.session.engines.external
    qtbot.waitUntil(lambda: len(engine_family(external)) == 2, timeout=10_000)
    failed = engine_family(external)  # the engine and its helper, seen while it thinks
    qtbot.waitUntil(lambda: c.session.game.outcome is not None, timeout=15_000)
    # the engine that played illegally is ended with its helper, with no new game asked for
    qtbot.waitUntil(lambda: not alive(failed), timeout=5_000)

    w.start_game(find_variant("brandubh"), (PlayerSpec(EXTERNAL, quiet), PlayerSpec()))
    qtbot.waitUntil(lambda: len(engine_family(external)) == 2, timeout=10_000)
    live = engine_family(external)  # thinking, with its helper
    t0 = time.monotonic()
    w.start_game(find_variant("brandubh"))  # a new game between humans
    within(time.monotonic() - t0, 0.5, "a new game")  # the window did not wait for the engine to leave
    qtbot.waitUntil(lambda: not alive(live), timeout=6_000)


def test_quitting_the_window_ends_every_engine_group(qtbot, make_window, tmp_path):
    from tafl_desktop.session.players import EXTERNAL, PlayerSpec

    quiet = engine_command(tmp_path, {"helpers": 2, "ignore_term": True, "ignore_goodbye": True,
                                      "start": [["say", "hello"]]})
    w = make_window("brandubh")
    c = w.controller
    w.start_game(c.session.variant, (PlayerSpec(EXTERNAL, quiet), PlayerSpec()))
    engines = c.session.engines
    qtbot.waitUntil(lambda: engines.external is not None and len(engine_family(engines.external)) == 3,
                    timeout=10_000)
    processes = engine_family(engines.external)
    t0 = time.monotonic()
    w.close()
    within(time.monotonic() - t0, 0.5, "closing the window")
    deadline = time.monotonic() + 6
    while time.monotonic() < deadline and alive(processes):
        time.sleep(0.05)
    assert not alive(processes)
    assert os.getpid() in family(os.getppid())  # (only the engines were ended, never this process)
