"""Native search against the Python search, side by side in one run (issue 31's benchmarks).

    .venv/bin/python benchmarks/native_search.py [--positions 12] [--seconds 1.0] [--json]

* Search speed: nodes per second of one search of ``--seconds`` on each of ``--positions``
  Copenhagen middle-game positions (ply 24 of the longest real games in
  ``shared/reference/games/copenhagen.csv``), native with one and with two threads, Python with
  one; medians.
* Analysis board: the seconds the three-line analysis (the window's default) needs to finish
  depth 8 on the same positions, native (all cores) and Python (capped at ``--cap`` seconds).

Medians of one run on whatever machine runs it; a busy machine gives lower figures for both.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from tafl_desktop.ai.multipv import analyse
from tafl_desktop.ai.search import Searcher, SearchLimits
from tafl_desktop.core.game import Game, IllegalMove
from tafl_desktop.core.variants import find_variant
from tafl_desktop.study.sources import REAL_GAME_FILES, default_games_dir, read_record_lines


def middle_games(count: int, ply: int = 24) -> tuple:
    """Rules and ``count`` positions at ``ply`` of the longest decided real Copenhagen games."""
    folder = default_games_dir()
    if folder is None:
        raise SystemExit("the real games are not found (set TAFL_GAMES_DIR)")
    name, toggles = REAL_GAME_FILES["copenhagen"]
    rules = find_variant("copenhagen").with_options(toggles).make_rules()
    games = sorted(read_record_lines(folder / name), key=lambda g: -len(g[1]))
    out = []
    for _number, moves, _result in games:
        game = Game(rules)
        try:
            for text in moves[:ply]:
                game.play_text(text)
        except IllegalMove:
            continue
        if not game.over:
            out.append(game.position)
        if len(out) == count:
            break
    return rules, out


def speed(searcher, positions, seconds: float, threads: int = 1) -> float:
    rates = []
    for pos in positions:
        lim = SearchLimits(time=seconds, depth=64, threads=threads)
        res = searcher.search(pos, lim)
        rates.append(res.nodes / max(res.seconds, 1e-9))
    return statistics.median(rates)


def time_to_depth(rules, positions, make, depth: int, cap: float) -> tuple[float, int]:
    """Median seconds until a three-line analysis finished ``depth`` (``cap`` when it did not),
    and how many positions reached it."""
    times = []
    reached = 0
    for pos in positions:
        s = make()
        t0 = time.perf_counter()
        done: list[float] = []

        def seen(rep, t0=t0, done=done):
            if rep.depth >= depth and not done:
                done.append(time.perf_counter() - t0)

        analyse(rules, pos, lines=3, time_limit=cap, depth=depth, on_iteration=seen, searcher=s)
        if done:
            reached += 1
        times.append(done[0] if done else cap)
    return statistics.median(times), reached


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--positions", type=int, default=12)
    p.add_argument("--seconds", type=float, default=1.0)
    p.add_argument("--cap", type=float, default=20.0, help="Python's time cap for depth 8 (s)")
    p.add_argument("--json", action="store_true")
    a = p.parse_args()
    from tafl_desktop.native.search import NativeSearcher, default_threads

    rules, positions = middle_games(a.positions)
    native1 = speed(NativeSearcher(rules), positions, a.seconds, 1)
    native2 = speed(NativeSearcher(rules), positions, a.seconds, 2)
    python1 = speed(Searcher(rules), positions[: max(3, a.positions // 4)], a.seconds)

    def native_make():
        s = NativeSearcher(rules)
        s.threads = default_threads()
        return s

    nat_t, nat_n = time_to_depth(rules, positions, native_make, 8, 30.0)
    py_t, py_n = time_to_depth(rules, positions[:3], lambda: Searcher(rules), 8, a.cap)
    out = {
        "positions": len(positions),
        "native_nodes_per_second_1_thread": round(native1),
        "native_nodes_per_second_2_threads": round(native2),
        "two_threads_speedup": round(native2 / native1, 2),
        "python_nodes_per_second": round(python1),
        "native_over_python": round(native1 / python1, 1),
        "analysis_depth8_seconds_native": round(nat_t, 2),
        "analysis_depth8_reached_native": f"{nat_n}/{len(positions)}",
        "analysis_depth8_seconds_python": round(py_t, 2),
        "analysis_depth8_reached_python": f"{py_n}/3 (cap {a.cap:g} s)",
    }
    print(json.dumps(out, indent=None if a.json else 2))


if __name__ == "__main__":
    main()
