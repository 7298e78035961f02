"""The search process: answers, cancels promptly, survives being killed or hung.

Each test starts its own spawned worker (about half a second of imports) and shuts it down.
"""

from __future__ import annotations

import os
import signal
import sys
import time

import pytest
from timing import within

from tafl_desktop.ai.worker import AIWorker
from tafl_desktop.core.game import Side
from tafl_desktop.core.variants import find_variant


@pytest.fixture
def copenhagen():
    v = find_variant("copenhagen")
    rules = v.make_rules()
    return v.to_data(), rules, rules.initial_position()


@pytest.fixture
def worker():
    w = AIWorker()
    yield w
    w.shutdown()


def test_move_request_returns_a_legal_move(worker, copenhagen):
    data, rules, pos = copenhagen
    rid = worker.start(data, rules.position_text(pos), pos.side, [rules.position_key(pos)], level="easy")
    res = worker.wait(60)
    assert res is not None and res.request_id == rid and not res.error
    assert res.move in rules.legal_moves(pos)
    assert res.move_text == rules.move_text(res.move)
    assert worker.poll() is None and not worker.busy


def test_poll_does_not_block(worker, copenhagen):
    data, rules, pos = copenhagen
    worker.start(data, rules.position_text(pos), "attackers", level="expert", time_limit=3.0)
    t = time.monotonic()
    for _ in range(50):
        worker.poll()
    within(time.monotonic() - t, 0.5, "50 polls")
    worker.cancel()


def test_cancel_mid_search_is_prompt_and_drops_the_result(worker, copenhagen):
    data, rules, pos = copenhagen
    old = worker.start(data, rules.position_text(pos), Side.ATTACKERS, level="expert", time_limit=60.0)
    deadline = time.monotonic() + 30
    while worker.info is None and time.monotonic() < deadline:  # wait until it is really searching
        worker.poll()
        time.sleep(0.02)
    worker.cancel()
    t = time.monotonic()
    new = worker.start(data, rules.position_text(pos), Side.ATTACKERS, level="beginner")
    res = worker.wait(30)
    assert res is not None and res.request_id == new != old
    within(time.monotonic() - t, 2.0, "the new search")  # the 60-second search let go at once


def test_move_now_delivers_the_best_move_so_far(worker, copenhagen):
    data, rules, pos = copenhagen
    worker.start(data, rules.position_text(pos), Side.ATTACKERS, mode="hint", time_limit=60.0)
    time.sleep(1.5)
    t = time.monotonic()
    worker.move_now()
    res = worker.wait(30)
    within(time.monotonic() - t, 2.0, "move now")
    assert res is not None and res.move in rules.legal_moves(pos) and res.stopped == "cancelled"
    assert res.depth >= 1


def test_killed_worker_is_restarted_on_the_next_request(worker, copenhagen):
    data, rules, pos = copenhagen
    worker.start(data, rules.position_text(pos), Side.ATTACKERS, level="easy")
    assert worker.wait(60) is not None
    pid = worker.pid
    os.kill(pid, signal.SIGKILL if hasattr(signal, "SIGKILL") else signal.SIGTERM)
    worker._proc.join(5)
    assert not worker.is_alive()
    worker.start(data, rules.position_text(pos), Side.ATTACKERS, level="easy")
    res = worker.wait(60)
    assert res is not None and not res.error and res.move in rules.legal_moves(pos)
    assert worker.pid != pid and worker.restarts >= 1


def test_worker_dying_mid_request_is_restarted_and_the_request_resubmitted(worker, copenhagen):
    data, rules, pos = copenhagen
    # Expert with a 5 s budget cannot finish before the kill; wait for its first progress report
    # so the process is known to be mid-search (not still importing, not already done).
    worker.start(data, rules.position_text(pos), Side.ATTACKERS, level="expert", time_limit=5.0)
    deadline = time.monotonic() + 30
    while worker.info is None and time.monotonic() < deadline:
        assert worker.poll() is None
        time.sleep(0.02)
    assert worker.info is not None
    os.kill(worker.pid, signal.SIGKILL if hasattr(signal, "SIGKILL") else signal.SIGTERM)
    res = worker.wait(60)
    assert res is not None and not res.error and res.move in rules.legal_moves(pos)
    assert worker.restarts >= 1


@pytest.mark.skipif(sys.platform == "win32", reason="SIGSTOP simulates a hang on POSIX only")
def test_hung_worker_is_replaced():
    v = find_variant("brandubh")
    rules = v.make_rules()
    pos = rules.initial_position()
    w = AIWorker(hang_grace=1.0)
    try:
        w.start(v.to_data(), rules.position_text(pos), pos.side, level="easy", time_limit=0.3)
        assert w.wait(60) is not None
        w._launched_at = 0.0  # past start-up: judge the next request by its budget alone
        os.kill(w.pid, signal.SIGSTOP)
        t = time.monotonic()
        w.start(v.to_data(), rules.position_text(pos), pos.side, level="easy", time_limit=0.3)
        res = w.wait(60)
        assert res is not None and not res.error and res.move in rules.legal_moves(pos)
        assert w.restarts >= 1
        within(time.monotonic() - t, 30, "the restarted worker's move")
    finally:
        w.shutdown()


def test_position_objects_history_and_eval_mode(worker, copenhagen):
    data, rules, pos = copenhagen
    worker.start(data, pos, pos.side, [rules.position_key(pos)], mode="eval", time_limit=0.5)
    res = worker.wait(60)
    assert res is not None and not res.error
    assert 0.0 <= res.defenders_win_chance <= 1.0 and res.mode == "eval"


def test_bad_requests_fail_cleanly(worker, copenhagen):
    data, rules, pos = copenhagen
    with pytest.raises(ValueError, match="levels:"):
        worker.start(data, rules.position_text(pos), 0, level="godlike")
    worker.start(data, "/this/is/not/a/board/", 0, level="easy")
    res = worker.wait(60)
    assert res is not None and res.error and res.move is None
    worker.start(data, rules.position_text(pos), 0, level="easy")  # still serving
    res = worker.wait(60)
    assert res is not None and not res.error
