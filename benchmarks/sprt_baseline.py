"""This checkout's engine against another checkout's (the baseline), at equal node budgets, by SPRT.

The match tool (``tafl-desktop match``) plays engines of one code base against each other; to
measure a change to the engine itself, the baseline's code must run beside ours.  This script
starts the baseline in a child process (its own ``PYTHONPATH``: a checkout of the project, with
its own native module if it has one) that answers positions with moves, and plays game pairs (each
opening once with each colour) between it and this checkout's ``native:nodes=N`` player (Expert's
search at a node budget, one thread: the same game again on any machine).  The verdict uses the
match tool's statistics (pentanomial LLR, ``tafl_desktop.match.stats``).

    PYTHONPATH=. python benchmarks/sprt_baseline.py brandubh --baseline /path/to/checkout \\
        [--baseline-site DIR] [--nodes 10000] [--sprt 0,10] [--max-pairs 200] [--json]

Openings: seeded random first moves (``--opening-plies``, 2 by default), the same for both players.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tafl_desktop.core.game import Game
from tafl_desktop.core.variants import find_variant
from tafl_desktop.match import stats
from tafl_desktop.match.players import Budget, make_agent, parse_player

#: The baseline's side: one JSON request a line, one move text a line back.
SERVER = r"""
import json, sys
from tafl_desktop.core.game import Game
from tafl_desktop.core.variants import find_variant
from tafl_desktop.match.players import Budget, make_agent, parse_player
for line in sys.stdin:
    req = json.loads(line)
    rules = find_variant(req["variant"]).make_rules()
    game = Game(rules)
    for t in req["moves"]:
        game.play_text(t)
    agent = make_agent(parse_player("native:nodes=%d" % req["nodes"]), rules, req["seed"])
    reply = agent.think(game, Budget())
    sys.stdout.write(json.dumps({"move": rules.move_text(reply.move) if reply.move else None}) + "\n")
    sys.stdout.flush()
"""


class Baseline:
    """The baseline's engine in a child process."""

    def __init__(self, path: str, site: str = "") -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (path, site) if p)
        self.proc = subprocess.Popen([sys.executable, "-c", SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     env=env, text=True, cwd=path)

    def move(self, variant: str, moves: list[str], nodes: int, seed: int) -> str:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps({"variant": variant, "moves": moves, "nodes": nodes, "seed": seed}) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the baseline's engine stopped")
        return json.loads(line)["move"]

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait(timeout=30)


def opening(rules: Any, plies: int, rng: random.Random) -> list[str]:
    game = Game(rules)
    while len(game.plies) < plies and not game.over:
        game.play(rng.choice(game.legal_moves()))
    return game.move_texts()


def play(variant: str, base: Baseline, nodes: int, moves: list[str], ours_side: int, max_plies: int,
         seed: int) -> float:
    """One game; our points (1, 1/2, 0)."""
    rules = find_variant(variant).make_rules()
    game = Game(rules)
    for t in moves:
        game.play_text(t)
    ours = make_agent(parse_player(f"native:nodes={nodes}"), rules, seed)
    while not game.over and len(game.plies) < max_plies:
        side = int(rules.side_to_move(game.position))
        if side == ours_side:
            reply = ours.think(game, Budget())
            assert reply.move is not None
            game.play(reply.move)
        else:
            game.play_text(base.move(variant, game.move_texts(), nodes, seed))
    out = game.outcome
    if out is None or out.winner is None:
        return 0.5
    return 1.0 if int(out.winner) == ours_side else 0.0


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("variant")
    p.add_argument("--baseline", required=True, help="a checkout of the project (its PYTHONPATH)")
    p.add_argument("--baseline-site", default="", help="a folder with the baseline's native module")
    p.add_argument("--nodes", type=int, default=10_000)
    p.add_argument("--sprt", default="0,10", help="elo0,elo1")
    p.add_argument("--alpha", type=float, default=0.05)
    p.add_argument("--beta", type=float, default=0.05)
    p.add_argument("--max-pairs", type=int, default=200)
    p.add_argument("--max-plies", type=int, default=300)
    p.add_argument("--opening-plies", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--minutes", type=float, default=0, help="stop after this long (0: no limit)")
    p.add_argument("--json", action="store_true")
    a = p.parse_args()
    elo0, elo1 = (float(x) for x in a.sprt.split(","))
    rules = find_variant(a.variant).make_rules()
    rng = random.Random(a.seed)
    base = Baseline(str(Path(a.baseline).resolve()), a.baseline_site)
    pairs: list[float] = []
    w = d = lo = 0
    llr, verdict = 0.0, "continue"
    t0 = time.monotonic()
    try:
        for i in range(a.max_pairs):
            moves = opening(rules, a.opening_plies, rng)
            pts = []
            for ours_side in (0, 1):
                r = play(a.variant, base, a.nodes, moves, ours_side, a.max_plies, a.seed * 1000 + i)
                pts.append(r)
                w, d, lo = w + (r == 1.0), d + (r == 0.5), lo + (r == 0.0)
            pairs.append(sum(pts))
            llr = stats.llr_pentanomial(stats.pentanomial(pairs), elo0, elo1)
            verdict = stats.sprt_verdict(llr, a.alpha, a.beta)
            if not a.json:
                print(f"pair {i + 1}: {pts} W-D-L {w}-{d}-{lo} LLR {llr:.2f}", flush=True)
            if verdict != "continue" or (a.minutes and time.monotonic() - t0 > a.minutes * 60):
                break
    finally:
        base.close()
    lower, upper = stats.sprt_bounds(a.alpha, a.beta)
    report = {"variant": a.variant, "nodes": a.nodes, "elo0": elo0, "elo1": elo1, "bounds": [lower, upper],
              "pairs": len(pairs), "wins": w, "draws": d, "losses": lo, "pentanomial": stats.pentanomial(pairs),
              "llr": round(llr, 3), "verdict": verdict, "minutes": round((time.monotonic() - t0) / 60, 1)}
    print(json.dumps(report, indent=1) if a.json else
          f"{a.variant} at {a.nodes} nodes: W-D-L {w}-{d}-{lo}, LLR {llr:.2f} in [{lower:.2f}, {upper:.2f}]: {verdict}")


if __name__ == "__main__":
    main()
