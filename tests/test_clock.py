"""The clock model (tafl_desktop.core.clock) against a fake time source: sudden death, Fischer
increment, OpenTafl-style overtime periods (tafl-rules.md 2.4: OpenTafl's time-control tag
"3600 30/3 3i" = one hour main time, three 30 s overtimes, 3 s increment), pause, the computer's
think budget, and the saved state."""

from __future__ import annotations

import pytest
from timing import FakeTime

from tafl_desktop.core.clock import GameClock, TimeControl, format_ms


def test_opentafl_time_control_strings_round_trip():
    tc = TimeControl.parse("3600 30/3 3i")
    assert tc == TimeControl(3_600_000, 3_000, 30_000, 3)
    assert tc.text() == "3600 30/3 3i" and tc.kind == "overtime"
    assert TimeControl.parse("300").kind == "sudden_death"
    assert TimeControl.parse("600 5i").kind == "fischer"
    for bad in ("", "abc", "300 5x", "300 30/", "0"):
        with pytest.raises(ValueError):
            TimeControl.parse(bad)


def test_sudden_death_flag_falls_for_the_side_to_move_only():
    t = FakeTime()
    clock = GameClock(TimeControl.parse("60"), t)
    clock.start(0)
    t.advance(20)
    clock.pressed(0, 1)
    assert clock.shown(0) == (40_000, 0, False)
    t.advance(59.9)
    assert clock.flagged() is None and clock.shown(1)[0] == 100
    t.advance(0.2)
    assert clock.flagged() == 1
    assert clock.shown(0)[0] == 40_000  # the other side's time never ran


def test_fischer_increment_is_added_after_each_move():
    t = FakeTime()
    clock = GameClock(TimeControl.parse("60 5i"), t)
    clock.start(0)
    t.advance(2)
    clock.pressed(0, 1)
    assert clock.shown(0)[0] == 63_000
    t.advance(1)
    clock.pressed(1, 0)
    assert clock.shown(1)[0] == 64_000


def test_action_points_turn_gets_one_increment():
    t = FakeTime()
    clock = GameClock(TimeControl.parse("60 5i"), t)
    clock.start(0)
    t.advance(1)
    clock.pressed(0, 0)  # an action, the same side goes on
    t.advance(1)
    clock.pressed(0, 1)
    assert clock.shown(0)[0] == 63_000


def test_overtime_periods_reset_on_a_move_and_are_used_up_when_they_run_out():
    t = FakeTime()
    clock = GameClock(TimeControl.parse("10 30/3"), t)
    clock.start(0)
    t.advance(25)  # 10 s main time, then 15 s of the first period
    assert clock.shown(0) == (15_000, 3, True)
    clock.pressed(0, 1)
    assert clock.shown(0) == (30_000, 3, True)  # a move within the period: a full period again
    clock.pressed(1, 0)
    t.advance(31)  # the first period runs out: the second begins
    assert clock.shown(0) == (29_000, 2, True)
    t.advance(29 + 30 - 0.5)
    assert clock.flagged() is None and clock.shown(0) == (500, 1, True)
    t.advance(1)
    assert clock.flagged() == 0


def test_pause_stops_the_running_side():
    t = FakeTime()
    clock = GameClock(TimeControl.parse("60"), t)
    clock.start(0)
    t.advance(10)
    clock.pause()
    t.advance(1000)
    assert clock.flagged() is None and clock.shown(0)[0] == 50_000
    clock.start(0)
    t.advance(5)
    assert clock.shown(0)[0] == 45_000


def test_think_budget_is_a_share_of_the_clock():
    t = FakeTime()
    clock = GameClock(TimeControl.parse("60 2i"), t)
    assert clock.think_budget(0, 10.0) == pytest.approx(60 / 30 + 1.6)
    assert clock.think_budget(0, 1.0) == 1.0  # never more than the level's own time
    over = GameClock(TimeControl.parse("0 4/2"), t)
    assert over.think_budget(1, 10.0) == pytest.approx(2.0)  # half a period


def test_state_round_trips_and_bad_states_are_refused():
    t = FakeTime()
    tc = TimeControl.parse("10 30/3 2i")
    clock = GameClock(tc, t)
    clock.start(0)
    t.advance(12)
    clock.pressed(0, 1)
    t.advance(3)
    text = clock.state_text()
    back = GameClock.restore(tc, text, t)
    assert back.state_text() == text and back.running is None
    assert back.shown(0) == clock.shown(0) and back.shown(1) == clock.shown(1)
    for bad in ("1 2 3", "a b c d e f g", "1 2 3 4 5 6 9", "1 9 3 4 1 6 -1"):
        with pytest.raises(ValueError):
            GameClock.restore(tc, bad, t)


def test_clock_readings():
    assert format_ms(3_909_000) == "1:05:09"
    assert format_ms(299_400) == "4:59"
    assert format_ms(7_349) == "0:07.3"
