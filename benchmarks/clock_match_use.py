"""Time per move of the match tool's search players under a clock: the clock budgeting against the flat share.

Plays ``--pairs`` openings (seeded random ``--opening-plies`` moves), each with both colours,
between ``native`` (under a clock: ``GameClock.think_plan``'s share, stretched at critical moments,
shortened when the best move has settled) and ``native:clock=flat`` (the share of the time left
used to its end, the way before the budgeting), with the match tool's own game loop, and prints per
player the seconds per move (median), the part of the flat share a move used (median), the clock's
time used per game (mean) and the flags.  It measures the time; the SPRT in benchmarks/README.md
measures the strength.

    PYTHONPATH=. python benchmarks/clock_match_use.py [brandubh] [--tc 10+0.1] [--pairs 4] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

from tafl_desktop.core.game import Game, Side
from tafl_desktop.core.variants import find_variant
from tafl_desktop.match.loop import TimeControl, play_game
from tafl_desktop.match.players import Budget, make_agent, parse_player
from tafl_desktop.match.runner import random_openings

PLAYERS = ("native", "native:clock=flat")


class Timed:
    """An agent that notes the time each of its moves took against the flat share it was offered."""

    def __init__(self, agent: Any, rows: list[dict]) -> None:
        self.agent, self.rows, self.label = agent, rows, agent.label

    def think(self, game: Game, budget: Budget) -> Any:
        t0 = time.monotonic()
        reply = self.agent.think(game, budget)
        self.rows.append({"seconds": time.monotonic() - t0, "share": budget.seconds})
        return reply

    def finish(self, game: Game) -> None:
        self.agent.finish(game)

    def close(self) -> None:
        self.agent.close()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("variant", nargs="?", default="brandubh")
    p.add_argument("--tc", default="10+0.1", help="BASE+INC seconds")
    p.add_argument("--pairs", type=int, default=4)
    p.add_argument("--opening-plies", type=int, default=4)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--json", action="store_true")
    a = p.parse_args()
    base, inc = (float(x) for x in a.tc.split("+"))
    tc = TimeControl(base=base, increment=inc)
    rules = find_variant(a.variant).make_rules()
    rows: dict[str, list[dict]] = {name: [] for name in PLAYERS}
    used: dict[str, list[float]] = {name: [] for name in PLAYERS}
    flags = {name: 0 for name in PLAYERS}
    plies = []
    for i, opening in enumerate(random_openings(rules, a.pairs, a.opening_plies, a.seed)):
        for first in (Side.ATTACKERS, Side.DEFENDERS):
            game = Game(rules)
            for text in opening:
                game.play_text(text)
            sides = {first: PLAYERS[0], first.other: PLAYERS[1]}
            before = {name: len(rows[name]) for name in PLAYERS}
            agents = {side: Timed(make_agent(parse_player(name), rules, seed=100 * i + int(side)), rows[name])
                      for side, name in sides.items()}
            result = play_game(game, agents, tc)
            plies.append(result.plies)
            for name in PLAYERS:
                used[name].append(sum(r["seconds"] for r in rows[name][before[name]:]))
            if result.ending == "timeout" and result.failed:
                flags[sides[Side.ATTACKERS if result.failed == "attackers" else Side.DEFENDERS]] += 1
    report: dict[str, Any] = {"variant": a.variant, "tc": a.tc, "games": len(plies),
                              "plies_median": statistics.median(plies)}
    for name in PLAYERS:
        r = rows[name]
        report[name] = {"moves": len(r), "seconds_median": round(statistics.median(x["seconds"] for x in r), 3),
                        "share_used_median": round(statistics.median(x["seconds"] / x["share"] for x in r), 2),
                        "clock_used_per_game": round(statistics.mean(used[name]), 2), "flags": flags[name]}
    print(json.dumps(report, indent=1) if a.json else "\n".join(
        f"{name}: {v['moves']} moves, {v['seconds_median']} s a move (median), {v['share_used_median']} of the "
        f"flat share, {v['clock_used_per_game']} s of the clock a game, {v['flags']} flags"
        for name, v in report.items() if isinstance(v, dict)))


if __name__ == "__main__":
    main()
