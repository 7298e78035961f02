"""Strength benchmarks built on self-play: the level ladder and the random-mover floor.

    python -m tafl_desktop.ai.ladder ladder --variants copenhagen,tablut,brandubh --games 10
    python -m tafl_desktop.ai.ladder floor --levels easy,medium --games 20

    python -m tafl_desktop.ai.ladder depth --variants copenhagen --positions 9 --level expert

``depth``: the level's search from the start and from positions of a medium-vs-medium game
(every 10th ply), reporting depth, full-width depth, nodes and nodes per second, with medians.
``ladder``: each level against the one below, half the games with each side, so a level must
win with the attackers *and* with the defenders.  ``floor``: each level against the uniform
random mover, half the games per side.  Both print one JSON line per pairing and a table.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from tafl_desktop.ai.levels import PLAYER_LEVELS
from tafl_desktop.ai.selfplay import run_selfplay
from tafl_desktop.core.variants import find_variant, presets


def pairing(variant_id: str, strong: str, weak: str, games: int, jobs: int, seed: int, time_scale: float,
            max_plies: int) -> dict[str, Any]:
    """``games`` games of ``strong`` against ``weak``: half with the attackers, half with the defenders."""
    v = find_variant(variant_id)
    half = max(1, games // 2)
    a = run_selfplay(v, half, strong, weak, jobs, seed, max_plies=max_plies, time_scale=time_scale)
    d = run_selfplay(v, games - half if games > 1 else 1, weak, strong, jobs, seed + 7, max_plies=max_plies,
                     time_scale=time_scale)
    played = a["games"] + d["games"]
    wins = a["attackers_wins"] + d["defenders_wins"]
    losses = a["defenders_wins"] + d["attackers_wins"]
    return {
        "variant": variant_id, "strong": strong, "weak": weak, "games": played,
        "strong_wins": wins, "weak_wins": losses, "draws": played - wins - losses,
        "strong_win_rate": round(wins / played, 3),
        "as_attackers": f"{a['attackers_wins']}/{a['games']}", "as_defenders": f"{d['defenders_wins']}/{d['games']}",
        "average_length": round((a["average_length"] * a["games"] + d["average_length"] * d["games"]) / played, 1),
        "nodes_per_second": round((a["nodes_per_second"] + d["nodes_per_second"]) / 2),
        "reasons": {k: a["reasons"].get(k, 0) + d["reasons"].get(k, 0) for k in {*a["reasons"], *d["reasons"]}},
        "seconds": round(a["seconds"] + d["seconds"], 1),
    }


def depth_report(variant_id: str, level: str, positions: int, seed: int) -> dict[str, Any]:
    """How deep and how fast ``level`` searches on ``positions`` positions of a ``variant_id`` game."""
    from statistics import median

    from tafl_desktop.ai.player import ComputerPlayer
    from tafl_desktop.core.game import Game

    rules = find_variant(variant_id).make_rules()
    game = Game(rules)
    mover = ComputerPlayer(rules, "medium", seed=seed)
    sample = [game.position]
    while len(sample) < positions and not game.over and len(game.plies) < 300:
        chosen = mover.choose(game.position, [rules.position_key(p.position) for p in game.plies]).move
        assert chosen is not None  # the game is not over
        game.play(chosen)
        if len(game.plies) % 10 == 0 and not game.over:
            sample.append(game.position)
    rows = []
    for pos in sample:
        res = ComputerPlayer(rules, level, seed=seed).choose(pos)
        rows.append({"depth": res.depth, "full_width_depth": res.full_width_depth, "nodes": res.nodes,
                     "seconds": round(res.seconds, 2), "nps": round(res.nodes_per_second)})
    return {
        "variant": variant_id, "level": level, "positions": len(rows),
        "median_depth": median(r["depth"] for r in rows),
        "min_full_width_depth": min(r["full_width_depth"] for r in rows),
        "median_full_width_depth": median(r["full_width_depth"] for r in rows),
        "median_nodes_per_second": median(r["nps"] for r in rows),
        "median_seconds": median(r["seconds"] for r in rows),
        "rows": rows,
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tafl_desktop.ai.ladder")
    p.add_argument("what", choices=("ladder", "floor", "depth"))
    p.add_argument("--positions", type=int, default=9)
    p.add_argument("--level", default="expert")
    p.add_argument("--variants", default="copenhagen,tablut,brandubh",
                   help="comma list; 'all' = every Tafl preset, 'everything' = every preset")
    p.add_argument("--levels", default=",".join(PLAYER_LEVELS))
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--time-scale", type=float, default=1.0)
    p.add_argument("--max-plies", type=int, default=300)
    a = p.parse_args(argv)
    if a.variants in ("all", "everything"):
        variants = [k for k, v in presets().items() if a.variants == "everything" or v.traits.opentafl]
    else:
        variants = a.variants.split(",")
    levels = a.levels.split(",")
    if a.what == "depth":
        for vid in variants:
            print(json.dumps(depth_report(vid, a.level, a.positions, a.seed)), flush=True)
        return 0
    rows = []
    for vid in variants:
        if a.what == "ladder":
            pairs = [(levels[i], levels[i - 1]) for i in range(1, len(levels))]
        else:
            pairs = [(lv, "random") for lv in levels]
        for strong, weak in pairs:
            t = time.perf_counter()
            row = pairing(vid, strong, weak, a.games, a.jobs, a.seed, a.time_scale, a.max_plies)
            row["seconds"] = round(time.perf_counter() - t, 1)
            rows.append(row)
            print(json.dumps(row), flush=True)
    print(f"{'variant':18} {'pairing':20} {'win%':>6} {'as att':>7} {'as def':>7} {'draws':>5} {'plies':>6}")
    for r in rows:
        print(f"{r['variant']:18} {r['strong'] + '>' + r['weak']:20} {100 * r['strong_win_rate']:6.0f} "
              f"{r['as_attackers']:>7} {r['as_defenders']:>7} {r['draws']:5} {r['average_length']:6.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
