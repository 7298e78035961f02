"""How long each level holds out on the losing side of a game the other side always wins.

    python benchmarks/hold_out.py fox_hounds --levels beginner,easy,medium,hard --against medium --games 10

Fox and Hounds is won by the hounds with perfect play (the preset's notes: hounds win in 44), so
a match between two levels there says only which level had the hounds.  What still tells the
levels apart is the losing side's resistance: each level plays the fox (the hunters, side 1)
against the same hounds, and the plies the game lasted are reported per game and as a median,
with the fox's wins (a fox that breaks through has out-played the hounds).  The games vary by
the self-play openings' seeded margin (:mod:`tafl_desktop.ai.selfplay`), so the same seed
replays the same games.  One JSON line per level, then a table.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from tafl_desktop.ai.selfplay import play_game


def hold_out(variant: str, level: str, against: str, games: int, seed: int, max_plies: int,
             losing_side: str = "defenders") -> dict:
    """``games`` games of ``level`` on ``losing_side`` against ``against``: plies per game."""
    rows = []
    t0 = time.perf_counter()
    for i in range(games):
        att, dfn = (against, level) if losing_side == "defenders" else (level, against)
        r = play_game(variant, att, dfn, seed * 1000 + i, max_plies=max_plies)
        rows.append({"plies": r["plies"], "winner": r["winner"], "reason": r["reason"]})
    plies = [r["plies"] for r in rows]
    return {
        "variant": variant, "level": level, "side": losing_side, "against": against, "games": games,
        "median_plies": statistics.median(plies), "min_plies": min(plies), "max_plies": max(plies),
        "level_wins": sum(r["winner"] == losing_side for r in rows),
        "draws": sum(r["winner"] is None for r in rows),
        "plies": plies, "reasons": [r["reason"] for r in rows], "seconds": round(time.perf_counter() - t0, 1),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("variant")
    ap.add_argument("--levels", default="beginner,easy,medium,hard")
    ap.add_argument("--against", default="medium", help="the winning side's level, the same for every game")
    ap.add_argument("--side", choices=("attackers", "defenders"), default="defenders",
                    help="the losing side the levels play (Fox and Hounds: the fox, defenders)")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-plies", type=int, default=300)
    a = ap.parse_args(argv)
    rows = []
    for level in a.levels.split(","):
        row = hold_out(a.variant, level.strip(), a.against, a.games, a.seed, a.max_plies, a.side)
        print(json.dumps(row), flush=True)
        rows.append(row)
    print(f"{'level':10} {'median plies':>12} {'min':>5} {'max':>5} {'wins':>5} {'draws':>5}")
    for r in rows:
        print(f"{r['level']:10} {r['median_plies']:>12} {r['min_plies']:>5} {r['max_plies']:>5} "
              f"{r['level_wins']:>5} {r['draws']:>5}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
