"""How the computer spends its clock (issue 44 item 3): one game against itself under a clock.

Each move is searched with the clock's plan (``GameClock.think_plan``: the share and the hard
limit); the script prints, per move, the share, the limit, the time taken and why the search
stopped, then the time left on both clocks, and whether a flag fell (it must not).

    PYTHONPATH=. python benchmarks/clock_use.py [brandubh] [--clock "30 0.5i"] [--level expert] [--plies 40] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from tafl_desktop.ai.levels import get_level
from tafl_desktop.ai.player import ComputerPlayer
from tafl_desktop.core.clock import GameClock, TimeControl
from tafl_desktop.core.game import Game
from tafl_desktop.core.variants import find_variant


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("variant", nargs="?", default="brandubh")
    p.add_argument("--clock", default="30 0.5i", help="an OpenTafl time control: main [period/count] [increment i]")
    p.add_argument("--level", default="expert")
    p.add_argument("--plies", type=int, default=40)
    p.add_argument("--json", action="store_true")
    a = p.parse_args()
    rules = find_variant(a.variant).make_rules()
    clock = GameClock(TimeControl.parse(a.clock))
    game = Game(rules)
    players = [ComputerPlayer(rules, a.level, seed=s) for s in (1, 2)]
    keys = [rules.position_key(game.position)]
    level_time = get_level(a.level).time
    rows = []
    clock.start(int(rules.side_to_move(game.position)))
    while not game.over and len(game.plies) < a.plies and clock.flagged() is None:
        side = int(rules.side_to_move(game.position))
        plan = clock.think_plan(side, level_time)
        t0 = time.perf_counter()
        res = players[side].choose(game.position, keys, time_limit=plan.hard, soft_limit=plan.soft)
        took = time.perf_counter() - t0
        game.play(res.move)
        keys.append(rules.position_key(game.position))
        clock.pressed(side, int(rules.side_to_move(game.position)))
        rows.append({"ply": len(game.plies), "side": side, "soft": round(plan.soft, 3), "hard": round(plan.hard, 3),
                     "seconds": round(took, 3), "depth": res.depth, "stopped": res.stopped})
    left = [clock.shown(s)[0] / 1000 for s in (0, 1)]
    report = {"variant": a.variant, "clock": a.clock, "level": a.level, "moves": rows, "left": left,
              "flag": clock.flagged(), "median_share_used": round(statistics.median(
                  r["seconds"] / r["soft"] for r in rows), 2) if rows else None,
              "over_share": sum(r["seconds"] > r["soft"] for r in rows),
              "over_hard": sum(r["seconds"] > r["hard"] for r in rows),
              "max_overrun": round(max((r["seconds"] - r["hard"] for r in rows), default=0.0), 3)}
    if a.json:
        print(json.dumps(report, indent=1))
        return
    for r in rows:
        print(f"{r['ply']:3} {'AD'[r['side']]} share {r['soft']:6.2f} s limit {r['hard']:6.2f} s "
              f"took {r['seconds']:6.2f} s depth {r['depth']:2} {r['stopped']}")
    print(f"left {left[0]:.1f} s / {left[1]:.1f} s; flag: {report['flag']}; median time/share "
          f"{report['median_share_used']}; moves past the share {report['over_share']}, past the limit "
          f"{report['over_hard']} (by {report['max_overrun']} s at most: the search's stop checks)")


if __name__ == "__main__":
    main()
