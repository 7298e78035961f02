"""The levels' ratings: a gauntlet of matches between the levels, fitted to one Elo scale.

    .venv/bin/python benchmarks/level_ratings.py [--games 8] [--copenhagen-games 4] [--fit-only]

Plays, with ``tafl-desktop match`` at each level's own node budget (no ``--time``/``--nodes``: the
levels as a player meets them, their deliberate errors included), every pair of levels one or two
steps apart on Brandubh (``--games`` games a pair) and neighbouring levels on Copenhagen
(``--copenhagen-games``); each opening once with each colour. The match folders live under
``benchmarks/results/level_ratings/VARIANT/A-B`` and are kept in the repository (settings, journal
and every game), so an interrupted run resumes and ``--fit-only`` refits from the games already
played (``--only`` and ``--pair`` play a part).

The ratings are fitted from all results at once (:func:`tafl_desktop.match.ratings.fit_ratings`:
Bradley-Terry maximum likelihood, one virtual draw a pair as the prior) and anchored at
Beginner = 1000; per game and over both games together.  They are written to
``resources/ai/level_ratings.json``, which New Game shows beside each level.

The games run one at a time under ``nice`` (a shared two-core machine); node budgets make the
results the same on any machine, the time taken does not.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tafl_desktop.ai.levels import PLAYER_LEVELS  # noqa: E402
from tafl_desktop.match.ratings import fit_ratings  # noqa: E402
from tafl_desktop.match.runner import read_journal  # noqa: E402

FOLDER = ROOT / "benchmarks" / "results" / "level_ratings"
OUT = ROOT / "resources" / "ai" / "level_ratings.json"
ANCHOR = ("beginner", 1000.0)
COMMAND = "python benchmarks/level_ratings.py"


def pairs(steps: int) -> list[tuple[str, str]]:
    """Levels ``1..steps`` apart, weaker first."""
    lv = list(PLAYER_LEVELS)
    return [(lv[i], lv[i + k]) for k in range(1, steps + 1) for i in range(len(lv) - k)]


#: What is played.  Brandubh: every pair one or two levels apart.  Copenhagen: neighbours only,
#: its games are long; a player whose score stays at or below -600 (six soldiers) for 6 of its
#: moves in a row resigns, so a decided game ends sooner.
PLAN: dict[str, tuple[list[tuple[str, str]], list[str]]] = {
    "brandubh": (pairs(2), []),
    "copenhagen": (pairs(1), ["--resign-score", "600", "--resign-moves", "6"]),
}
# Expert's pairs were once played fewer games, for the time its 5 M-node moves took on a loaded
# machine (15 to 30 minutes a Copenhagen game).  On an idle one a Brandubh game against Expert
# takes one to five minutes and a Copenhagen game one to fifteen: every pair plays its full count.


def play(variant: str, a: str, b: str, games: int, extra: list[str]) -> None:
    folder = FOLDER / variant / f"{a}-{b}"
    cmd = [sys.executable, "-m", "tafl_desktop", "match", variant, "--player", a, "--player", b,
           "--games", str(games), "--out", str(folder), *extra, "--json"]
    print(" ".join(cmd[2:]), flush=True)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    subprocess.run(["nice", *cmd] if os.name == "posix" else cmd, check=True, env=env, stdout=subprocess.DEVNULL)


def results(variant: str) -> list[tuple[str, str, float]]:
    """(first player, second player, first player's score) of every game played on ``variant``."""
    out = []
    for folder in sorted((FOLDER / variant).glob("*-*")):
        settings = json.loads((folder / "match.json").read_text(encoding="utf-8"))
        a, b = settings["players"]
        for entry in read_journal(folder).values():
            first = entry["first_side"]
            score = 0.5 if entry["winner"] is None else 1.0 if entry["winner"] == first else 0.0
            out.append((a, b, score))
    return out


def summary(res: list[tuple[str, str, float]]) -> dict:
    ratings = fit_ratings(res, ANCHOR[0], ANCHOR[1])
    table: dict[str, list[float]] = {}
    for a, b, s in res:
        row = table.setdefault(f"{a}-{b}", [0, 0, 0])
        row[0 if s == 1 else 1 if s == 0.5 else 2] += 1
    return {"ratings": {lv: round(ratings[lv]) for lv in PLAYER_LEVELS if lv in ratings}, "games": len(res),
            "wins_draws_losses": {pair: "-".join(map(str, row)) for pair, row in table.items()}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=8, help="games a pair on Brandubh")
    ap.add_argument("--copenhagen-games", type=int, default=4, help="games a pair on Copenhagen")
    ap.add_argument("--fit-only", action="store_true", help="fit the games already played")
    ap.add_argument("--only", choices=sorted(PLAN), help="play only this game's matches (then fit all)")
    ap.add_argument("--pair", action="append", metavar="A-B", help="play only these pairs (repeatable)")
    args = ap.parse_args()
    counts = {"brandubh": args.games, "copenhagen": args.copenhagen_games}
    if not args.fit_only:
        for variant, (plan, extra) in PLAN.items():
            if args.only in (None, variant):
                for a, b in plan:
                    if args.pair and f"{a}-{b}" not in args.pair:
                        continue
                    play(variant, a, b, counts[variant], extra)
    data: dict = {"format": "tafl-desktop-level-ratings", "anchor": {"level": ANCHOR[0], "rating": ANCHOR[1]},
                  "method": "Bradley-Terry maximum likelihood (Hunter's MM), one virtual draw a pair, all results "
                            "at once", "command": COMMAND, "variants": {}}
    everything = []
    for variant in ("brandubh", "copenhagen"):
        res = results(variant)
        if res:
            data["variants"][variant] = summary(res)
            everything += res
    data["all"] = summary(everything)
    OUT.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(data, indent=1))


if __name__ == "__main__":
    main()
