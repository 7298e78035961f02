"""How steep is the winning-chance curve?  Fitted to real games, as lichess fitted its own.

    .venv/bin/python benchmarks/win_chance_fit.py [--every 4] [--json]

The review turns the engine's score into the mover's winning chance with a logistic,
``1 / (1 + exp(-score / SCALE))`` (:data:`tafl_desktop.ai.analysis.WIN_SCALE`), and classes a move
by how much of that chance it gave away.  How many score units make the chance move by how much is
a fact about the game, not a matter of taste: this script reads the real games in
``shared/reference/games`` (Copenhagen 11x11 and Brandubh 7x7, decided games only), takes every
``--every``-th position from ply 6 on, scores it with the static evaluation (defenders' view), and
finds the scale that makes the games' results most likely (maximum likelihood, one parameter; no
offset, so that an even score stays 50 %).  Lichess derived its chess curve the same way from its
games (https://lichess.org/page/accuracy: "The equation is based on real game data").

One run, whatever machine: the figures do not depend on its speed.
"""

from __future__ import annotations

import argparse
import json
import math

from scipy.optimize import minimize_scalar

from tafl_desktop.ai.evaluation import make_evaluator
from tafl_desktop.core.game import Game, IllegalMove
from tafl_desktop.core.real_games import REAL_GAME_FILES, default_games_dir, read_record_lines
from tafl_desktop.core.variants import find_variant

RESULTS = {"White": 1, "Black": 0}  # the records' names: White = defenders, Black = attackers


def samples(name: str, every: int) -> list[tuple[float, int]]:
    """(defenders' static score, 1 if the defenders won) for positions of ``name``'s real games."""
    file_name, options = REAL_GAME_FILES[name]
    folder = default_games_dir()
    if folder is None:
        raise SystemExit("the real games (shared/reference/games) are not beside this checkout")
    variant = find_variant(name).with_options(options) if options else find_variant(name)
    rules = variant.make_rules()
    ev = make_evaluator(rules)
    out = []
    for _line, moves, result in read_record_lines(folder / file_name):
        if result not in RESULTS:
            continue
        game = Game(rules)
        for i, text in enumerate(moves):
            try:
                game.play_text(text)
            except IllegalMove:
                break
            if rules.outcome(game.position) is not None:
                break
            if i >= 6 and i % every == 0:
                out.append((float(ev.defenders_score(game.position)), RESULTS[result]))
    return out


def fit(data: list[tuple[float, int]]) -> float:
    """The scale that maximises the likelihood of the results (scores clipped to +-3000)."""
    def loss(scale: float) -> float:
        total = 0.0
        for s, won in data:
            z = max(-3000.0, min(3000.0, s)) / scale
            p = 1.0 / (1.0 + math.exp(-z))
            p = min(1 - 1e-9, max(1e-9, p))
            total -= math.log(p if won else 1 - p)
        return total
    return float(minimize_scalar(loss, bounds=(50, 3000), method="bounded").x)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--every", type=int, default=4, help="take every N-th position of a game (4)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    per = {name: samples(name, args.every) for name in REAL_GAME_FILES}
    pooled = [x for data in per.values() for x in data]
    report = {name: {"positions": len(data), "scale": round(fit(data))} for name, data in per.items()}
    report["pooled"] = {"positions": len(pooled), "scale": round(fit(pooled))}
    if args.json:
        print(json.dumps(report))
        return
    for name, r in report.items():
        print(f"{name:11} {r['positions']:6} positions  scale {r['scale']}")


if __name__ == "__main__":
    main()
