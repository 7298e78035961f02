"""Levels play the same on any machine (issue 44 item 4).

Without a clock a level's node budget is the binding limit, whatever the machine's speed: a level
whose nominal time is far too short for its budget still searches its whole budget (the old time
ceiling stopped it early, and a busy machine played a weaker game).  With a clock (the engine
protocol's host) the time still binds.  New Game says how long each chosen level thinks on this
computer: measured once, cached, never guessed.
"""

from __future__ import annotations

import json
import time

import pytest
from timing import allowed

from tafl_desktop.ai import levels, think_time
from tafl_desktop.ai.analysis import best_move
from tafl_desktop.ai.engine import native_search_available
from tafl_desktop.ai.levels import UNTIMED_CEILING, Level, get_level
from tafl_desktop.ai.player import ComputerPlayer
from tafl_desktop.core.variants import find_variant

#: Budgets that take this box well over their level's nominal 0.1 s, but under the guard (1 s).
BUDGETS = {"python": 3_000, "native": 100_000}


def _engines():
    return ["python"] + (["native"] if native_search_available() else [])


@pytest.fixture
def slow_level(monkeypatch):
    """A level named 'tight' whose nominal time is much shorter than its node budget takes."""

    def make(engine: str) -> Level:
        n = BUDGETS[engine]
        # a time far below what the budget takes on any machine, and a guard far above it, so
        # that only the node budget can end an untimed search however fast or busy the machine
        lv = Level("tight", "Tight", time=0.002, depth=64, nodes=n, native_nodes=n)
        monkeypatch.setattr("tafl_desktop.ai.player.UNTIMED_CEILING", 100_000.0)
        monkeypatch.setitem(levels.LEVELS, "tight", lv)
        monkeypatch.setenv("TAFL_ENGINE", engine)
        return lv

    return make


@pytest.mark.parametrize("engine", _engines())
def test_without_a_clock_the_node_budget_binds_and_the_move_is_the_same(engine, slow_level):
    lv = slow_level(engine)
    rules = find_variant("copenhagen").make_rules()
    pos = rules.initial_position()
    # the path a game without a clock takes (the worker calls best_move without a time limit)
    first = best_move(rules, pos, "tight", seed=5)
    again = best_move(rules, pos, "tight", seed=5)
    assert first.nodes >= lv.nodes, (first.nodes, first.seconds)
    assert first.seconds > lv.time, "the budget must take longer than the level's time for the test to mean much"
    assert (first.move, first.nodes, first.depth) == (again.move, again.nodes, again.depth)


def test_with_a_clock_the_time_still_binds(slow_level):
    lv = slow_level("python")
    rules = find_variant("copenhagen").make_rules()
    timed = ComputerPlayer(rules, lv, seed=1, timed=True)  # the engine protocol's host keeps a clock
    assert timed.limits().time == pytest.approx(lv.time)
    res = timed.choose(rules.initial_position())
    assert res.nodes < lv.nodes and res.stopped == "time"
    # an explicit budget (a clock's share, a hint) replaces the node budget
    clocked = ComputerPlayer(rules, lv, seed=1).choose(rules.initial_position(), time_limit=0.004)
    assert clocked.nodes < lv.nodes


def test_every_playing_levels_guard_is_far_past_its_time():
    rules = find_variant("brandubh").make_rules()
    for name in levels.PLAYER_LEVELS:
        lim = ComputerPlayer(rules, name).limits()
        assert lim.time == pytest.approx(get_level(name).time * UNTIMED_CEILING), name
        assert lim.nodes > 0, name


def test_the_worker_waits_for_an_untimed_move_past_the_levels_time():
    from tafl_desktop.ai.worker import AIWorker

    worker = AIWorker(start_now=False)
    try:
        sent = []
        worker._send = lambda rid, req, budget: sent.append(budget)  # the budget its hang check uses
        worker.is_alive = lambda: True
        worker.start(find_variant("brandubh").to_data(), "x", 0, level="expert")
        worker._current = None
        worker.start(find_variant("brandubh").to_data(), "x", 0, level="expert", time_limit=3.0)
    finally:
        worker._current = None
    assert sent == [pytest.approx(get_level("expert").time * UNTIMED_CEILING), 3.0]


# ---------------------------------------------------------------------------- measured, cached
def test_a_level_is_measured_once_and_then_read_from_the_cache(tmp_path, monkeypatch):
    variant = find_variant("brandubh")
    assert think_time.cached(tmp_path, variant, "easy") is None
    calls = []
    real = think_time.measure
    monkeypatch.setattr(think_time, "measure", lambda *a, **k: calls.append(a) or real(*a, **k))
    first = think_time.measured(tmp_path, variant, "easy")
    second = think_time.measured(tmp_path, variant, "easy")
    assert first is not None and first == pytest.approx(second, abs=0.001) and len(calls) == 1
    entry = next(iter(json.loads((tmp_path / think_time.CACHE_NAME).read_text())["times"].values()))
    assert entry["level"] == "easy" and entry["nodes"] >= 1
    # other rules are another figure; so is another machine
    assert think_time.cached(tmp_path, variant.with_options({"repetition": "draw"}), "easy") is None
    monkeypatch.setattr(think_time, "machine_tag", lambda: "another machine")
    assert think_time.cached(tmp_path, variant, "easy") is None


def test_an_unreadable_cache_is_measured_again_and_replaced(tmp_path):
    (tmp_path / think_time.CACHE_NAME).write_text("{not json")
    variant = find_variant("brandubh")
    assert think_time.cached(tmp_path, variant, "beginner") is None
    assert think_time.measured(tmp_path, variant, "beginner") is not None
    assert think_time.cached(tmp_path, variant, "beginner") is not None


def test_a_stopped_measurement_is_not_kept(tmp_path):
    variant = find_variant("brandubh")
    assert think_time.measured(tmp_path, variant, "expert", should_stop=lambda: True) is None
    assert think_time.cached(tmp_path, variant, "expert") is None


# ---------------------------------------------------------------------------------- New Game
def _dialog(qtbot, monkeypatch, folder, players):
    from tafl_desktop.gui import think_times
    from tafl_desktop.gui.new_game_dialog import NewGameDialog

    monkeypatch.setattr(think_times, "default_folder", lambda: str(folder))
    dlg = NewGameDialog(find_variant("brandubh"), players, computer=True)
    qtbot.addWidget(dlg)
    dlg.show()
    return dlg


def test_new_game_says_how_long_each_chosen_level_thinks_here(qtbot, gui_settings, tmp_path, monkeypatch):
    from tafl_desktop.session.players import COMPUTER, PlayerSpec

    variant = find_variant("brandubh")
    think_time.store(tmp_path, variant, "hard", 7.25, 1_500_000)  # measured before: read, not measured again
    dlg = _dialog(qtbot, monkeypatch, tmp_path, (PlayerSpec(COMPUTER, "hard"), PlayerSpec(COMPUTER, "medium")))
    label = dlg.think_times
    assert label.isVisible()
    assert "Hard: about 7.2 s a move on this computer" in label.text()
    qtbot.waitUntil(lambda: not label.measuring(), timeout=round(allowed(60.0) * 1000))
    qtbot.waitUntil(lambda: "Medium: measuring" not in label.text(), timeout=round(allowed(5.0) * 1000))
    medium = think_time.cached(tmp_path, variant, "medium")
    assert medium is not None
    assert "Medium:" in label.text() and "on this computer" in label.text().splitlines()[1]
    # two human players: nothing to say
    for chooser in dlg.choosers:
        chooser.kind.setCurrentIndex(0)
    assert not label.isVisible()
    dlg.grab().save(str(tmp_path / "new_game_think_times.png"))


def test_closing_new_game_stops_a_measurement(qtbot, gui_settings, tmp_path, monkeypatch):
    from tafl_desktop.session.players import COMPUTER, HUMAN, PlayerSpec

    dlg = _dialog(qtbot, monkeypatch, tmp_path, (PlayerSpec(COMPUTER, "expert"), PlayerSpec(HUMAN)))
    assert "Expert: measuring how long it thinks on this computer..." in dlg.think_times.text()
    thread = dlg.think_times._thread
    assert thread is not None and thread.is_alive()
    t0 = time.monotonic()
    dlg.reject()
    thread.join(timeout=allowed(10.0))
    assert not thread.is_alive(), f"still measuring {time.monotonic() - t0:.1f} s after the dialog closed"
    assert think_time.cached(tmp_path, find_variant("brandubh"), "expert") is None


# ------------------------------------------------------------------- the time given (item 3)
@pytest.mark.parametrize("engine", _engines())
def test_a_fixed_time_per_move_is_used_to_its_deadline(engine):
    """An iteration predicted not to finish is started anyway: the search stops at the deadline
    with the best move so far (it used to stop early, leaving 38-71 % of its time unused)."""
    from tafl_desktop.ai.engine import make_searcher
    from tafl_desktop.ai.search import SearchLimits

    seconds = 0.4
    for vid in ("brandubh", "tablut", "copenhagen"):
        rules = find_variant(vid).make_rules()
        pos = rules.initial_position()
        res = make_searcher(rules, engine).search(pos, SearchLimits(time=seconds, depth=64, threads=1))
        assert res.stopped == "time", (vid, res.stopped)
        assert res.seconds >= 0.95 * seconds, (vid, res.seconds, res.depth)
        assert res.move in rules.legal_moves(pos)


def test_a_measurement_that_fails_says_so_once(qtbot, gui_settings, tmp_path, monkeypatch):
    from tafl_desktop.gui.think_times import ThinkTimeLabel
    from tafl_desktop.session.players import COMPUTER, PlayerSpec

    calls = []
    monkeypatch.setattr(ThinkTimeLabel, "_measure_apart", lambda self, v, lv: calls.append(lv))  # no figure
    dlg = _dialog(qtbot, monkeypatch, tmp_path, (PlayerSpec(COMPUTER, "easy"), PlayerSpec(COMPUTER, "easy")))
    label = dlg.think_times
    qtbot.waitUntil(lambda: "could not be measured" in label.text(), timeout=round(allowed(5.0) * 1000))
    assert label.text() == "Easy: its think time could not be measured on this computer"
    dlg.choosers[1].level.setCurrentIndex(dlg.choosers[1].level.findData("easy"))
    dlg._show_think_times()
    assert calls == ["easy"] and not label.measuring()
