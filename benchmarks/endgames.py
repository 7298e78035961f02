"""Won-looking endgames: does the engine convert them?  (issue 44 item 1)

The suite (``benchmarks/endgame_suite.json``) holds positions where one side is far ahead: taken
from decisive real games (``shared/reference/games``: Brandubh, Copenhagen) and from self-play
(Tablut, the Fox games, Dablot) some plies before the end, kept when a search scores the
eventual winner at least ``--margin`` units ahead (100 = about one soldier) without a forced result
found yet, plus the Copenhagen endgame of issue 44 that was drawn by shuffling.

``play`` plays each position out, the engine against itself, with a node budget per move (the
figures do not depend on the machine or its load) or ``--time`` seconds a move, for at most 100
plies, and counts the games the side ahead wins.  ``collect`` rebuilds the suite.  Mini-Dablot
keeps its own margin (``MARGIN``) and self-play pairing (``SELFPLAY``): see there why.

    PYTHONPATH=. python benchmarks/endgames.py play [--nodes 100000] [--python-nodes 5000] [--time 1]
        [--plies 100] [--only GAMES] [--lines 'line 37,seed 5'] [--weights FILE] [--dablot 'mop_up=0']
        [--jobs 2] [--out FILE] [--json]
    PYTHONPATH=. python benchmarks/endgames.py collect [--only dablot_mini] [--jobs 2] [--dablot 'mop_up=0']
    PYTHONPATH=. python benchmarks/endgames.py tally benchmarks/results/endgames_*.json [--json]

``tally`` adds up the games already played: per position, how often the side ahead won over every
results file given, and so how many conversions one run of the suite may be expected to give.  One
run of 38 games swings by three or four positions; the tally over many runs says which positions
are converted now and then and which almost never.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from tafl_desktop.ai.engine import make_searcher
from tafl_desktop.ai.evaluation import full_width_sides
from tafl_desktop.ai.evaluation_tafl import load_weights
from tafl_desktop.ai.search import MATE_BOUND, SearchLimits
from tafl_desktop.core.game import Game, Side
from tafl_desktop.core.variants import find_variant

SUITE = Path(__file__).with_name("endgame_suite.json")
GAMES_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "reference" / "games"
#: The issue's endgame: 22 attackers against the king and 3 defenders, walled in at a5.
ISSUE_POSITION = {
    "game": "copenhagen", "options": {"repetition": "mover_loses"}, "to_move": "attackers", "ahead": "attackers",
    "position": "/5t5/3t1t5/T6t3/10T/t2t7/tt1t3tt2/K1t6t1/tt9/1tt1T6/8t2/3t1tt2t1/",
    "source": "issue 44: drawn at a 200-ply cap by shuffling at 1 s a move",
}
#: Real-game files, the rules their games were played under (as the replay tests read them).
REAL: dict[str, tuple[str, dict[str, Any]]] = {
    "brandubh": ("brandubh.csv", {"repetition": "allowed", "king_capture": "weak_near_throne", "encirclement": True}),
    "copenhagen": ("copenhagen.csv", {"repetition": "allowed"}),
}
#: Self-play pairings per game (strong, weak level, the levels' node budgets scaled by): the winner
#: is usually far ahead well before the end.
SELFPLAY: dict[str, tuple[str, str, float]] = {
    "tablut": ("medium", "easy", 10.0), "fox_geese_13": ("medium", "easy", 10.0),
    "fox_hounds": ("medium", "easy", 10.0),
    # Medium against Easy at ten times their budgets gave no Mini-Dablot position: those games are
    # mostly drawn at the 300-ply cap (benchmarks/results/README.md: 3 of 4) and take hours in the
    # Python search; against Beginner they are decided, in minutes.
    "dablot_mini": ("medium", "beginner", 0.25),
}
#: A game's own margin where its armies are small: in Mini-Dablot (13 pieces a side, the game
#: decided by taking the leader) the winner led by 2.5 to 3.5 soldiers a dozen plies before the
#: end in the games looked at, never by six; three soldiers is where the mop-up counts.
MARGIN = {"dablot_mini": 300, "dablot": 300}


def _rules(entry: dict[str, Any]) -> Any:
    v = find_variant(entry["game"])
    return (v.with_options(entry["options"]) if entry.get("options") else v).make_rules()


#: Dablot terms ``collect`` scores with (``--dablot``): the suite is kept by the evaluation as it
#: was, not by the term it is meant to measure.
SCORE_DABLOT: dict[str, int] = {}


def _score(rules: Any, pos: Any, nodes: int) -> int:
    """The searched score for the side to move."""
    searcher = _searcher(rules, {"game": ""}, None, SCORE_DABLOT or None)
    res = searcher.search(pos, SearchLimits(time=0, depth=64, nodes=nodes, threads=1))
    return res.score


def _candidate(rules: Any, game: Game, back: int, winner: Side, margin: int, nodes: int) -> dict[str, Any] | None:
    ply = len(game.plies) - back
    if ply < 10:
        return None
    pos = game.position_at(ply)
    if rules.outcome(pos) is not None:
        return None
    side = rules.side_to_move(pos)
    score = _score(rules, pos, nodes)
    winner_score = score if side == winner else -score
    if not margin <= winner_score < MATE_BOUND:
        return None
    return {"position": rules.position_text(pos), "to_move": Side(side).key, "ahead": winner.key,
            "score": winner_score}


def collect(margin: int, per_game: int, nodes: int, games_dir: Path = GAMES_DIR,
            only: set[str] | None = None, seeds: int = 40, jobs: int = 1) -> list[dict[str, Any]]:
    """The suite: the issue's position, then per game up to ``per_game`` positions (``only``: of
    these games, without the issue's position)."""
    suite: list[dict[str, Any]] = [] if only else [dict(ISSUE_POSITION)]
    for vid, (name, options) in REAL.items():
        if only and vid not in only:
            continue
        rules = find_variant(vid).with_options(options).make_rules()
        found = 0
        for number, raw in enumerate((games_dir / name).read_text().splitlines(), 1):
            if found >= per_game or not raw.strip():
                continue
            moves_text, _a, _b, result = raw.rsplit(",", 3)
            if result.strip() not in ("Black", "White") or "timeout" in moves_text:
                continue
            game = Game(rules)
            try:
                for token in moves_text.split():
                    game.play_text(token.split("x")[0])
            except Exception:
                continue
            if len(game.plies) < 24:
                continue
            winner = Side.ATTACKERS if result.strip() == "Black" else Side.DEFENDERS
            # a resigned game's last position is one the loser gave up; a finished one, 16 plies back
            got = _candidate(rules, game, 16 if game.outcome is not None else 0, winner, margin, nodes)
            if got:
                suite.append({"game": vid, "options": options, **got, "source": f"{name} line {number}"})
                found += 1
                print(f"{vid}: {found} (line {number}, {got['score']})", file=sys.stderr)
    for vid, (strong, weak, scale) in SELFPLAY.items():
        if only and vid not in only:
            continue
        variant = find_variant(vid)
        rules = variant.make_rules()
        found = 0
        for first in range(1, seeds + 1, jobs):
            if found >= per_game:
                break
            batch = [(vid, strong, weak, seed, scale) for seed in range(first, min(first + jobs, seeds + 1))]
            for seed, pair, record in _selfplay(batch, jobs):
                if found >= per_game or record["winner"] is None:
                    continue
                game = Game(rules)
                for text in record["moves"]:
                    game.play_text(text)
                if len(game.plies) < 30:
                    continue
                got = _candidate(rules, game, 12, Side.parse(record["winner"]), MARGIN.get(vid, margin), nodes)
                if got:
                    suite.append({"game": vid, "options": {}, **got,
                                  "source": f"selfplay {pair[0]}-{pair[1]} seed {seed}"})
                    found += 1
                    print(f"{vid}: {found} (seed {seed}, {got['score']})", file=sys.stderr)
    return suite


def _selfplay_one(job: tuple[str, str, str, int, float]) -> tuple[int, tuple[str, str], dict[str, Any]]:
    """One self-play game of ``collect`` (the stronger level takes each side in turn by seed)."""
    from tafl_desktop.ai.selfplay import play_game

    vid, strong, weak, seed, scale = job
    pair = (strong, weak) if seed % 2 else (weak, strong)
    return seed, pair, play_game(find_variant(vid), *pair, seed=seed, time_scale=scale)


SelfplayJob = tuple[str, str, str, int, float]


def _selfplay(batch: list[SelfplayJob], jobs: int) -> list[tuple[int, tuple[str, str], dict[str, Any]]]:
    if jobs <= 1:
        return [_selfplay_one(job) for job in batch]
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(jobs) as pool:
        return list(pool.map(_selfplay_one, batch))


def _searcher(rules: Any, entry: dict[str, Any], weights: Path | None, dablot: dict[str, int] | None) -> Any:
    """Today's searcher for the entry's game, or one with the weights asked for: a Tafl weights
    file (``weights``) or Dablot terms (``dablot``: name -> value over today's)."""
    family = getattr(rules, "family", "")
    if family == "dablot" and dablot:
        return make_searcher(rules, weights=dablot)
    return make_searcher(rules, weights=load_weights(weights, entry["game"]) if weights and family == "tafl" else None)


def play_out(entry: dict[str, Any], nodes: int, plies: int, python_nodes: int,
             weights: Path | None = None, seconds: float = 0.0,
             dablot: dict[str, int] | None = None, selective: bool = False) -> dict[str, Any]:
    """The engine against itself from ``entry``'s position: who won, in how many plies
    (``weights``: a Tafl weights file to play with instead of today's; ``dablot``: Dablot terms
    to change; ``seconds``: a time a move instead of a node budget; ``selective``: search as
    Expert does, late quiet moves a ply shallower first, except for a side the game's evaluator
    names in ``full_width_sides``)."""
    rules = _rules(entry)
    start = rules.parse_position(entry["position"], Side.parse(entry["to_move"]))
    game = Game(rules, start)
    searcher = _searcher(rules, entry, weights, dablot)
    keys = [rules.position_key(game.position)]
    if getattr(searcher, "engine", "python") != "native":
        nodes = python_nodes
    if seconds > 0:
        limits = SearchLimits(time=seconds, depth=64, nodes=0, threads=1)
    else:
        limits = SearchLimits(time=0, depth=64, nodes=nodes, threads=1)
    searched: list[int] = []
    depths: list[int] = []
    t0 = time.perf_counter()
    full_width = full_width_sides(searcher)
    while not game.over and len(game.plies) < plies:
        side = int(rules.side_to_move(game.position))
        move_limits = replace(limits, selective=selective and side not in full_width)
        res = searcher.search(game.position, move_limits, keys)
        if res.move is None:
            break
        searched.append(res.nodes)
        depths.append(res.depth)
        game.play(res.move)
        keys.append(rules.position_key(game.position))
    out = game.outcome
    winner = out.winner.key if out and out.winner is not None else None
    row: dict[str, Any] = {
        "game": entry["game"], "source": entry["source"], "ahead": entry["ahead"], "winner": winner,
        "reason": out.reason if out else "ply_cap", "plies": len(game.plies),
        "engine": getattr(searcher, "engine", "python"), "seconds": round(time.perf_counter() - t0, 1)}
    if selective:
        row["selective"] = True
    if seconds > 0:
        row["time_per_move"] = seconds
    else:
        row["nodes"] = nodes
    if searched:
        row["median_nodes_per_move"] = int(statistics.median(searched))
        row["median_depth"] = statistics.median(depths)
    return row


def _dablot_terms(text: str) -> dict[str, int]:
    """``--dablot``'s 'name=value,...' as Dablot weights to change (an unknown name or a value
    that is not a whole number is refused)."""
    from tafl_desktop.ai.evaluation_dablot import DablotWeights

    names = set(DablotWeights().to_dict())
    terms: dict[str, int] = {}
    for item in (t.strip() for t in text.split(",")):
        if not item:
            continue
        name, eq, value = item.partition("=")
        name = name.strip()
        if not eq or name not in names:
            raise ValueError(f"--dablot: {item!r} is not name=value with a Dablot term ({', '.join(sorted(names))})")
        try:
            terms[name] = int(value)
        except ValueError:
            raise ValueError(f"--dablot: {value.strip()!r} is not a whole number") from None
    return terms


def _play_one(args: tuple[Any, ...]) -> dict[str, Any]:
    return play_out(*args)


def tally(files: list[Path]) -> dict[str, Any]:
    """Per position (game and source), the games the side ahead won over ``files`` (results
    written by ``play --out`` or ``--json``), and the sum of the positions' rates: what one run of
    those positions may be expected to convert.  A file that is not such a result is refused
    with its name (``ValueError``), not skipped: a tally silently missing a run would mislead."""
    per: dict[tuple[str, str], list[bool]] = {}
    for f in files:
        try:
            data = json.loads(f.read_text(encoding="utf-8"))
            games = data["games"]
            rows = [(str(g["game"]), str(g["source"]), g["winner"] == g["ahead"]) for g in games]
        except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"{f}: not an endgames.py result ({type(exc).__name__})") from None
        for game, source, won in rows:
            per.setdefault((game, source), []).append(won)
    rates = {key: sum(w) / len(w) for key, w in per.items()}
    positions = [{"game": g, "source": s, "won": sum(w), "played": len(w), "rate": round(rates[g, s], 3)}
                 for (g, s), w in sorted(per.items())]
    by_game: dict[str, float] = {}
    for (game, _source), rate in rates.items():
        by_game[game] = by_game.get(game, 0.0) + rate
    return {"files": len(files), "positions": positions,
            "expected": {g: round(v, 2) for g, v in sorted(by_game.items())},
            "expected_all": round(sum(by_game.values()), 2)}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--margin", type=int, default=600, help="the winner's searched lead, 100 = a soldier")
    c.add_argument("--per-game", type=int, default=6)
    c.add_argument("--nodes", type=int, default=50_000)
    c.add_argument("--seeds", type=int, default=40, help="self-play games tried per game at most")
    c.add_argument("--only", default="", help="collect these games only (comma-separated ids) and add them")
    c.add_argument("--jobs", type=int, default=1, help="self-play games played at once")
    c.add_argument("--dablot", default="", help="Dablot terms to score with, e.g. 'mop_up=0' (as play's)")
    c.add_argument("--games-dir", type=Path, default=GAMES_DIR, help="the real-game files (shared/reference/games)")
    pl = sub.add_parser("play")
    pl.add_argument("--nodes", type=int, default=100_000, help="positions searched per move")
    pl.add_argument("--python-nodes", type=int, default=5_000,
                    help="positions per move where the Python search plays (the Fox games, Dablot)")
    pl.add_argument("--plies", type=int, default=100)
    pl.add_argument("--only", default="", help="games to play (comma-separated ids), all if empty")
    pl.add_argument("--lines", default="",
                    help="positions to play by their source's end (comma-separated, e.g. 'line 37,seed 5')")
    pl.add_argument("--weights", type=Path, default=None,
                    help="a Tafl weights file (a copy of resources/ai/tafl_evaluation.toml) to play with")
    pl.add_argument("--dablot", default="",
                    help="Dablot terms to change, e.g. 'mop_up=0' (comma-separated name=value)")
    pl.add_argument("--time", type=float, default=0.0,
                    help="seconds a move (both engines) instead of the node budgets")
    pl.add_argument("--selective", action="store_true",
                    help="search as Expert does: late quiet moves a ply shallower first (not for a side "
                         "the game searches full width, the Fox games' hunters)")
    pl.add_argument("--jobs", type=int, default=1, help="positions played at once")
    pl.add_argument("--out", type=Path, default=None, help="write the JSON here, rewritten after each game")
    pl.add_argument("--json", action="store_true")
    t = sub.add_parser("tally")
    t.add_argument("files", nargs="+", type=Path, help="results of play (--out or --json)")
    t.add_argument("--json", action="store_true")
    a = p.parse_args()
    if a.cmd == "tally":
        try:
            result = tally(a.files)
        except ValueError as exc:
            p.error(str(exc))
        if a.json:
            print(json.dumps(result, indent=1))
            return
        for r in result["positions"]:
            print(f"{r['game']:13} {r['source'][:44]:44} {r['won']:3} of {r['played']:3}")
        for g, v in result["expected"].items():
            print(f"expected per run: {g} {v}")
        print(f"expected per run: all {result['expected_all']} of {len(result['positions'])} "
              f"(over {result['files']} files)")
        return
    try:
        dablot = _dablot_terms(a.dablot)
    except ValueError as exc:
        p.error(str(exc))
    if a.cmd == "collect":
        SCORE_DABLOT.update(dablot)
        only = {g for g in a.only.split(",") if g}
        suite = collect(a.margin, a.per_game, a.nodes, a.games_dir, only, a.seeds, a.jobs)
        if only and SUITE.exists():
            suite = [e for e in json.loads(SUITE.read_text()) if e["game"] not in only] + suite
        SUITE.write_text(json.dumps(suite, indent=1) + "\n")
        print(f"{len(suite)} positions -> {SUITE}")
        return
    suite = json.loads(SUITE.read_text())
    only = {g for g in a.only.split(",") if g}
    lines = [t.strip() for t in a.lines.split(",") if t.strip()]
    chosen = [e for e in suite
              if (not only or e["game"] in only) and (not lines or any(e["source"].endswith(t) for t in lines))]
    jobs = [(e, a.nodes, a.plies, a.python_nodes, a.weights, a.time, dablot or None, a.selective) for e in chosen]
    budget: dict[str, Any] = ({"time_per_move": a.time} if a.time > 0
                              else {"nodes": a.nodes, "python_nodes": a.python_nodes})
    if a.selective:
        budget["selective"] = True
    done: dict[int, dict[str, Any]] = {}

    def summary() -> dict[str, Any]:
        rows = [done[i] for i in sorted(done)]
        return {**budget, "plies": a.plies, "weights": str(a.weights) if a.weights else None,
                "dablot": dablot or None, "converted": sum(r["winner"] == r["ahead"] for r in rows),
                "positions": len(rows), "of": len(chosen), "games": rows}

    def record(i: int, row: dict[str, Any]) -> None:
        done[i] = row
        print(json.dumps(row), file=sys.stderr, flush=True)  # progress, one game a line
        if a.out:
            a.out.write_text(json.dumps(summary(), indent=1) + "\n")

    if a.jobs > 1:
        from concurrent.futures import ProcessPoolExecutor, as_completed

        with ProcessPoolExecutor(a.jobs) as pool:
            futures = {pool.submit(_play_one, job): i for i, job in enumerate(jobs)}
            for f in as_completed(futures):
                record(futures[f], f.result())
    else:
        for i, job in enumerate(jobs):
            record(i, _play_one(job))
    result = summary()
    rows = result["games"]
    if a.json:
        print(json.dumps(result, indent=1))
        return
    for r in rows:
        mark = "won " if r["winner"] == r["ahead"] else "LOST" if r["winner"] else "draw"
        print(f"{mark} {r['game']:13} {r['source'][:40]:40} {r['reason']:14} {r['plies']:3} plies "
              f"{r['seconds']:6.1f} s")
    won = [r["plies"] for r in rows if r["winner"] == r["ahead"]]
    per = f"{a.time} s a move" if a.time > 0 else f"{a.nodes} nodes a move"
    print(f"converted {result['converted']} of {len(rows)} within {a.plies} plies at {per}"
          + (f" (median {statistics.median(won)} plies)" if won else ""))

if __name__ == "__main__":
    main()
