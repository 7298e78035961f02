"""Native search against the Python search, side by side in one run (issue 31's benchmarks).

    .venv/bin/python benchmarks/native_search.py [--positions 12] [--seconds 1.0] [--json] [--speed-only]

* Search speed: nodes per second of one search of ``--seconds`` on each of ``--positions``
  Copenhagen middle-game positions (ply 24 of the longest real games in
  ``shared/reference/games/copenhagen.csv``), native with one and with two threads, Python with
  one; medians, per second of wall time (and, for one thread, per second of processor time,
  which a busy machine disturbs less).  Two threads are also given per processor second: their
  ratio to one thread's says how much of each core's work the second thread keeps (Lazy SMP's
  shared table and duplicated work), which a machine busy with other work cannot show in wall time.
  ``--speed-only`` stops here.
* Analysis board: the seconds the analysis needs to finish depth 8 on the same positions, with
  one line and with three (the window's default), native (all cores) and Python (capped at
  ``--cap`` seconds, three positions).

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
from tafl_desktop.core.real_games import REAL_GAME_FILES, default_games_dir, read_record_lines
from tafl_desktop.core.variants import find_variant


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


def one_speed(make, pos, seconds: float, threads: int = 1) -> tuple[float, float]:
    """Nodes per wall second and per processor second of one search (Expert's selective search)."""
    lim = SearchLimits(time=seconds, depth=64, threads=threads, selective=True)
    cpu = time.process_time()
    res = make().search(pos, lim)
    cpu = time.process_time() - cpu
    return res.nodes / max(res.seconds, 1e-9), res.nodes / max(cpu, 1e-9)


def speed(make, positions, seconds: float, threads: int = 1) -> tuple[float, float]:
    """Median nodes per wall second and per processor second over ``positions``."""
    rates = [one_speed(make, pos, seconds, threads) for pos in positions]
    return statistics.median(r[0] for r in rates), statistics.median(r[1] for r in rates)


def thread_speeds(make, positions, seconds: float) -> tuple[tuple[float, float], tuple[float, float]]:
    """:func:`speed` with one and with two threads, the two searched one after the other on each
    position: a machine whose speed drifts (a virtual machine's neighbours on the same memory)
    then disturbs both alike, where two separate passes measured them at different moments."""
    one, two = [], []
    for pos in positions:
        one.append(one_speed(make, pos, seconds, 1))
        two.append(one_speed(make, pos, seconds, 2))
    med = statistics.median
    return (med(r[0] for r in one), med(r[1] for r in one)), (med(r[0] for r in two), med(r[1] for r in two))


def time_to_depth(rules, positions, make, depth: int, cap: float, lines: int = 3) -> tuple[float, float, int]:
    """Median wall seconds and processor seconds until an analysis of ``lines`` lines finished
    ``depth`` (``cap`` when it did not), and how many positions reached it."""
    times, cpus = [], []
    reached = 0
    for pos in positions:
        s = make()
        t0, c0 = time.perf_counter(), time.process_time()
        done: list[tuple[float, float]] = []

        def seen(rep, t0=t0, c0=c0, done=done):
            if rep.depth >= depth and not done:
                done.append((time.perf_counter() - t0, time.process_time() - c0))

        analyse(rules, pos, lines=lines, time_limit=cap, depth=depth, on_iteration=seen, searcher=s)
        if done:
            reached += 1
        times.append(done[0][0] if done else cap)
        cpus.append(done[0][1] if done else cap)
    return statistics.median(times), statistics.median(cpus), reached


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--positions", type=int, default=12)
    p.add_argument("--seconds", type=float, default=1.0)
    p.add_argument("--cap", type=float, default=20.0, help="Python's time cap for depth 8 (s)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--speed-only", action="store_true", help="search speed only (no analysis-board timings)")
    a = p.parse_args()
    from tafl_desktop.ai.engine import native_searcher
    from tafl_desktop.native.search import default_threads

    rules, positions = middle_games(a.positions)
    (native1, native1_cpu), (native2, native2_cpu) = thread_speeds(lambda: native_searcher(rules), positions, a.seconds)
    python1, python1_cpu = speed(lambda: Searcher(rules), positions[: max(3, a.positions // 4)], a.seconds)
    out = {
        "positions": len(positions),
        "native_nodes_per_second_1_thread": round(native1),
        "native_nodes_per_cpu_second_1_thread": round(native1_cpu),
        "native_nodes_per_second_2_threads": round(native2),
        "native_nodes_per_cpu_second_2_threads": round(native2_cpu),
        "two_threads_speedup": round(native2 / native1, 2),
        "two_threads_cpu_efficiency": round(native2_cpu / native1_cpu, 2),
        "python_nodes_per_second": round(python1),
        "python_nodes_per_cpu_second": round(python1_cpu),
        "native_over_python": round(native1 / python1, 1),
    }
    if a.speed_only:
        print(json.dumps(out, indent=None if a.json else 2))
        return

    def native_make():
        s = native_searcher(rules)
        s.threads = default_threads()
        return s

    nat1_t, _, nat1_n = time_to_depth(rules, positions, native_make, 8, 30.0, lines=1)
    nat3_t, _, nat3_n = time_to_depth(rules, positions, native_make, 8, 30.0, lines=3)
    # one thread: its processor time is what an idle core would take, however busy the machine
    _, cpu1, _ = time_to_depth(rules, positions, lambda: native_searcher(rules), 8, 60.0, lines=1)
    _, cpu3, _ = time_to_depth(rules, positions, lambda: native_searcher(rules), 8, 60.0, lines=3)
    py_t, _, py_n = time_to_depth(rules, positions[:3], lambda: Searcher(rules), 8, a.cap)
    out |= {
        "analysis_threads": default_threads(),
        "analysis_depth8_seconds_native_1_line": round(nat1_t, 2),
        "analysis_depth8_reached_native_1_line": f"{nat1_n}/{len(positions)}",
        "analysis_depth8_seconds_native_3_lines": round(nat3_t, 2),
        "analysis_depth8_reached_native_3_lines": f"{nat3_n}/{len(positions)}",
        "analysis_depth8_cpu_seconds_native_1_thread_1_line": round(cpu1, 2),
        "analysis_depth8_cpu_seconds_native_1_thread_3_lines": round(cpu3, 2),
        "analysis_depth8_seconds_python_3_lines": round(py_t, 2),
        "analysis_depth8_reached_python_3_lines": f"{py_n}/3 (cap {a.cap:g} s)",
    }
    print(json.dumps(out, indent=None if a.json else 2))


if __name__ == "__main__":
    main()
