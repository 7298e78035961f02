"""Issue 44 item 3, measured with issue 45's match tool: under a clock a search player of a match
budgets it as the window's computer does (``GameClock.think_plan``: a share of the time left plus
most of the increment, stretched at critical moments, shortened when the best move has settled,
:mod:`tafl_desktop.ai.clock_budget`), and ``native:clock=flat`` plays the way it did before that
budgeting (every move one flat share, used to its end), so an SPRT at equal clocks can measure what
the budgeting is worth.  Brandubh keeps the searches short.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from timing import within

from tafl_desktop.core.clock import ThinkPlan
from tafl_desktop.core.game import Game
from tafl_desktop.core.variants import find_variant
from tafl_desktop.game_loop import Budget, TimeControl, _budget
from tafl_desktop.match.players import PlayerError, make_agent, parse_player

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, "-m", "tafl_desktop", "match", *args], capture_output=True, text=True,
                          timeout=timeout, env=env, cwd=ROOT)


def test_the_clock_option_is_read_and_a_wrong_value_is_one_line():
    assert parse_player("native").clock == "plan"
    assert parse_player("native:clock=flat").clock == "flat"
    assert parse_player("python:nodes=500,clock=plan").clock == "plan"
    with pytest.raises(PlayerError, match="plan or flat"):
        parse_player("native:clock=fast")
    proc = run("brandubh", "--player", "native:clock=fast", "--player", "native", "--tc", "5+0.1")
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "plan or flat" in lines[0], proc.stderr


def test_a_clocked_move_carries_the_windows_plan():
    # 20 s sudden death + 0.2 s: the share is a thirtieth of the time left plus most of the increment
    # (as GameClock.think_budget gives it), the hard limit three times that
    budget = _budget(TimeControl(base=20, increment=0.2), [12.0, 20.0], 0)
    assert budget.plan is not None
    assert budget.plan.soft == pytest.approx(12 / 30 + 0.16)
    assert budget.plan.hard == pytest.approx(3 * (12 / 30 + 0.16))
    assert budget.seconds == pytest.approx(budget.plan.soft)  # the flat share is the same share
    assert _budget(TimeControl(move=0.5), [0.0, 0.0], 0).plan is None  # a fixed time a move: no plan


def _think_seconds(spec: str, budget: Budget) -> float:
    rules = find_variant("brandubh").make_rules()
    agent = make_agent(parse_player(spec), rules, seed=1)
    game = Game(rules)
    t0 = time.perf_counter()
    reply = agent.think(game, budget)
    assert reply.move is not None
    return time.perf_counter() - t0


def test_the_plan_stops_at_its_share_and_the_flat_share_is_used_to_its_end():
    # a share of 0.1 s and a hard limit of 1 s: the opening's best move settles, so the plan stops
    # near its share (at most 2.5 times it at a critical moment); the flat player thinks the
    # clock's share it was given (here the full second) to its end
    budget = Budget(seconds=1.0, clock_ms=(20_000, 20_000), plan=ThinkPlan(soft=0.1, hard=1.0))
    planned = _think_seconds("native", budget)
    flat = _think_seconds("native:clock=flat", budget)
    within(planned, 0.6, "the planned search (a share of 0.1 s)")  # the bound grows with the machine's load
    assert flat >= 0.9, flat


def test_a_clocked_match_plays_the_plan_against_the_flat_share_without_a_flag(tmp_path):
    out = tmp_path / "m"
    proc = run("brandubh", "--player", "native", "--player", "native:clock=flat", "--tc", "3+0.05",
               "--games", "2", "--max-plies", "12", "--out", str(out), "--json")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["players"] == ["native", "native:clock=flat"]
    assert report["wins"] + report["draws"] + report["losses"] == 2
    assert report["failures"] == []  # no game lost on time by either budget


@pytest.mark.parametrize("level", ["beginner", "expert"])
def test_a_level_under_a_clock_budgets_it_as_the_window_does(level):
    """A level player of a match is asked for its move with the budget the window's session gives
    the computer at that level on the same clock (its share capped by the level's time, the hard
    limit for critical moments), not the flat share of the clock.  60 s + 1 s with 42 s left: the
    clock's share is 42/30 + 0.8 = 2.2 s; Beginner's 0.3 s caps it, Expert's 15 s does not."""
    from tafl_desktop.core.clock import TimeControl as ClockControl
    from tafl_desktop.search_contract import SearchResult
    from tafl_desktop.session.players import COMPUTER
    from tafl_desktop.session.players import PlayerSpec as SessionPlayer
    from tafl_desktop.session.session import GameSession
    from tafl_desktop.session.source import GameSource

    variant = find_variant("brandubh")
    rules = variant.make_rules()
    agent = make_agent(parse_player(level), rules, seed=1)
    asked: list[tuple[float | None, float | None]] = []

    def choose(pos, keys=(), should_stop=None, margin=None, on_iteration=None, time_limit=None, soft_limit=None):
        asked.append((time_limit, soft_limit))
        return SearchResult(rules.legal_moves(pos)[0], 0, 1, 1, 0.0)

    agent.player.choose = choose  # the budget it is asked with, not a search
    budget = _budget(TimeControl(base=60, increment=1), [42.0, 60.0], 0)
    assert agent.think(Game(rules), budget).move is not None
    window = GameSession(GameSource.new(variant, (SessionPlayer(COMPUTER, level), SessionPlayer()),
                                        time_control=ClockControl(60_000, 1000)), now=lambda: 0.0)
    assert window.clock is not None
    window.clock.sides[0].main_ms = 42_000
    plan = window.think_plan(0, level)
    assert plan is not None and asked == [(pytest.approx(plan.hard), pytest.approx(plan.soft))]
    assert (plan.soft < budget.seconds) == (level == "beginner")  # the level's time caps the share
