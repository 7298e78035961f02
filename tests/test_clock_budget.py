"""The computer budgets its clock as chess engines do (issue 44 item 3).

A share of the time left plus most of the increment for an ordinary move; up to three times that
at a critical moment (the best move changing between depths, the score falling); never more than a
quarter of the main time left or three quarters of an overtime period, so it never loses on time.
The clocks are OpenTafl's (tafl-rules.md 2.4: "3600 30/3 3i" = one hour main time, three 30 s
overtimes, a 3 s increment).
"""

from __future__ import annotations

import time

import pytest
from timing import FakeTime

from tafl_desktop.ai.clock_budget import SETTLED, UNSTABLE, SoftDeadline
from tafl_desktop.ai.player import ComputerPlayer
from tafl_desktop.ai.search import SearchResult
from tafl_desktop.core.clock import GameClock, TimeControl
from tafl_desktop.core.game import Game
from tafl_desktop.core.variants import find_variant


@pytest.mark.parametrize("control,side_state,soft,hard", [
    ("60", None, 2.0, 6.0),                       # sudden death: a thirtieth, stretched 3x
    ("60 2i", None, 60 / 30 + 1.6, 3 * (60 / 30 + 1.6)),  # with most of the increment
    ("8", None, 8 / 30, 3 * 8 / 30),
    ("0 4/2", None, 2.0, 3.0),                     # overtime: half a period, at most three quarters
    ("3600 30/3 3i", None, 10.0, 30.0),            # the level's 10 s is the share; 3x at most
])
def test_think_plan_shares_the_clock(control, side_state, soft, hard):
    clock = GameClock(TimeControl.parse(control), FakeTime())
    plan = clock.think_plan(0, 10.0)
    assert plan.soft == pytest.approx(soft)
    assert plan.hard == pytest.approx(hard)


def test_the_hard_limit_never_reaches_the_flag():
    t = FakeTime()
    clock = GameClock(TimeControl.parse("20 1i"), t)
    clock.start(0)
    t.advance(19)  # one second of main time left, plus the increment to come
    plan = clock.think_plan(0, 30.0)
    assert plan.hard <= 0.25 * 1.0 + 0.8 * 1.0 < 1.0 + 1.0
    over = GameClock(TimeControl.parse("0 2/1"), t)
    assert over.think_plan(1, 30.0).hard == pytest.approx(1.5)  # three quarters of the last period


def _it(move, score):
    return SearchResult(move, score, 1, 0, 0.0)


def test_soft_deadline_stops_a_settled_search_early_and_stretches_an_unsettled_one():
    t = FakeTime()
    settled = SoftDeadline(1.0, now=t)
    for _ in range(5):  # the same best move depth after depth
        t.advance(0.05)
        settled.on_iteration(_it((1, 2), 30))
    assert settled.factor == SETTLED and not settled.stop
    t.advance(0.1)  # 0.35 s: a new depth would not end within half the share
    settled.on_iteration(_it((1, 2), 30))
    assert settled.stop and settled.should_stop()

    t = FakeTime()
    unsettled = SoftDeadline(1.0, now=t)
    unsettled.on_iteration(_it((1, 2), 30))
    t.advance(0.5)
    unsettled.on_iteration(_it((3, 4), 20))  # the best move changed: look further
    assert unsettled.factor == UNSTABLE and not unsettled.stop
    t.advance(1.0)  # 1.5 s, within the depth: past the share, not past twice the share
    assert not unsettled.should_stop()
    t.advance(0.5)
    assert unsettled.should_stop()


def test_soft_deadline_stops_within_a_depth_once_the_share_is_used():
    t = FakeTime()
    d = SoftDeadline(1.0, now=t)
    t.advance(0.9)
    assert not d.should_stop()
    t.advance(0.1)
    assert d.should_stop()


def test_soft_deadline_stretches_when_the_score_falls_and_keeps_the_callers_stop():
    t = FakeTime()
    asked = [False]
    d = SoftDeadline(1.0, should_stop=lambda: asked[0], now=t)
    d.on_iteration(_it((1, 2), 100))
    t.advance(1.2)
    d.on_iteration(_it((1, 2), -50))  # the same move, 150 worse: something went wrong
    assert d.factor > 2 and not d.should_stop()
    asked[0] = True
    assert d.should_stop()


def test_a_clocked_game_never_flags_and_uses_its_share():
    # Brandubh, two seconds each, sudden death: the computer plays twenty plies against itself,
    # each move within its plan's hard limit, and neither flag falls
    variant = find_variant("brandubh")
    rules = variant.make_rules()
    clock = GameClock(TimeControl.parse("2"))
    game = Game(rules)
    players = [ComputerPlayer(rules, "expert", seed=s) for s in (1, 2)]
    keys = [rules.position_key(game.position)]
    clock.start(0)
    used = []
    while not game.over and len(game.plies) < 20:
        side = int(rules.side_to_move(game.position))
        plan = clock.think_plan(side, 10.0)
        t0 = time.perf_counter()
        res = players[side].choose(game.position, keys, time_limit=plan.hard, soft_limit=plan.soft)
        used.append(time.perf_counter() - t0)
        assert used[-1] <= plan.hard + 0.25  # the search's own stop check, and the machine's load
        game.play(res.move)
        keys.append(rules.position_key(game.position))
        clock.pressed(side, int(rules.side_to_move(game.position)))
        assert clock.flagged() is None
    assert sum(used) < 4.0


def test_half_a_period_taken_from_the_main_time_costs_no_period():
    # OpenTafl's overtime (tafl-rules.md 2.4: "3600 30/3 3i" is one hour of main time, then three
    # 30 s overtime periods; our clock model: a move made within a period starts the next with a
    # full period again). Every move after the main time may take half a period for nothing, so
    # think_budget gives a move in main time at least that too: the main time is a bonus before the
    # periods, not a budget to stretch. Played to the worst case (every move to its hard limit,
    # from 20 s of main time), no move thinks less than an overtime move, no period is lost.
    t = FakeTime()
    clock = GameClock(TimeControl.parse("20 30/3"), t)
    clock.start(0)
    shares = []
    for _move in range(6):
        plan = clock.think_plan(0, 60.0)
        shares.append(plan.soft)
        t.advance(plan.hard)
        clock.pressed(0, 1)
        clock.pressed(1, 0)  # the opponent answers at once
        assert clock.flagged() is None and clock.sides[0].periods == 3
    assert clock.sides[0].main_ms == 0 and min(shares) == pytest.approx(15.0)
