"""Figures of the game database (issue 39): import speed, the index of the shipped games, lookup
times on a large database, and its size on disk.

    python benchmarks/gamedb_bench.py [--games 100000] [--plies 40] [--db PATH] [--json]

How the large database is built: the 2,275 shipped real games (``ensure_shipped``, timed: the
index of the shipped games), then self-play games until ``--games`` in all: random legal Copenhagen
games of up to ``--plies`` plies (the native engine's moves, played on the rules object without a
game's repetition bookkeeping, random legal moves from a fixed seed; half of them
start with one of the ten most played real openings, so the start's and the openings' counts grow
as a real collection's do), each added through the same ``add_game`` an import uses, source
``selfplay``.  Then:

* import speed: 500 real games written as move-list files and imported as a folder
  (``import_paths``: read, replay by the rules, fold, index), games per second, into the large
  database and into an empty one (``empty_`` figures: the replay's cost without SQLite's inserts
  into an index of millions of positions);
* lookup at the start position (moves with counts and 8 games), median of 200;
* lookup at every position of 1,000 random games of the database: median and p99 (wall-clock,
  and the p99 of the lookups' own CPU time), with the benchmark's sources and with the real
  games alone (the explorer's default filter), and the machine's load average around them;
* the database's size on disk, and per 100,000 games.

Times are wall-clock on the machine as it is (medians; a busy machine makes them noisy); the
import's and the shipped games' CPU seconds (this process's) are given too, which a machine
shared with other work changes less.  A database of an earlier run (``--db``) is taken as it is:
the build adds games only up to ``--games``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tafl_desktop.core.game import Game, Ply  # noqa: E402
from tafl_desktop.core.move_list_text import listed_moves, play_listed  # noqa: E402
from tafl_desktop.core.paths import resources_dir  # noqa: E402
from tafl_desktop.gamedb.library import ensure_shipped, fast_rules, import_paths  # noqa: E402
from tafl_desktop.gamedb.store import Filters, GameDb  # noqa: E402


def _real_lines(count: int) -> list[str]:
    out = []
    for line in (resources_dir() / "games" / "copenhagen.csv").read_text(encoding="utf-8").splitlines():
        moves = " ".join(t for t in line.rsplit(",", 3)[0].split() if t != "timeout")
        if moves:
            out.append(moves)
        if len(out) == count:
            break
    return out


def build(db: GameDb, games: int, plies: int, seed: int = 39) -> dict[str, float]:
    from tafl_desktop.core.variants import find_variant

    started, cpu = time.perf_counter(), time.process_time()
    shipped = ensure_shipped(db)
    shipped_seconds = time.perf_counter() - started
    shipped_cpu = time.process_time() - cpu
    variant = find_variant("copenhagen").with_options({"repetition": "allowed"})
    rules = fast_rules(variant)
    openings = [line.split()[:2] for line in _real_lines(400)]
    start = rules.initial_position()
    rng = random.Random(seed)
    todo = games - db.count()
    started = time.perf_counter()
    added = 0
    while added < todo:
        with db.batch():
            for _ in range(min(1000, todo - added)):
                pos, line = start, []
                if rng.random() < 0.5:
                    for text in rng.choice(openings):
                        move = rules.parse_move(pos, text)
                        pos, caps = rules.play(pos, move)
                        line.append(Ply(move, caps, pos))
                while len(line) < plies and pos.result is None:
                    moves = rules.legal_moves(pos)
                    if not moves:
                        break
                    move = rng.choice(moves)
                    pos, caps = rules.play(pos, move)
                    line.append(Ply(move, caps, pos))
                g = Game.from_plies(rules, start, line)
                if db.add_game(g, "selfplay", {"seed": str(rng.random())}) is not None:
                    added += 1
        print(f"  {db.count()} games", file=sys.stderr, flush=True)
    return {"shipped_games": shipped.added, "shipped_seconds": shipped_seconds, "shipped_cpu_seconds": shipped_cpu,
            "selfplay_games": added, "selfplay_seconds": time.perf_counter() - started}


def import_speed(db: GameDb, count: int = 500) -> dict[str, float]:
    from tafl_desktop.core.variants import find_variant

    variant = find_variant("copenhagen").with_options({"repetition": "allowed"})
    db.delete_source("imported")  # a database of an earlier run: its import is made again, not found held
    with tempfile.TemporaryDirectory() as folder:
        for i, moves in enumerate(_real_lines(count)):
            (Path(folder) / f"g{i:04}.txt").write_text(moves + "\n", encoding="utf-8")
        started, cpu = time.perf_counter(), time.process_time()
        report = import_paths(db, [folder], variant)
        seconds = time.perf_counter() - started
        cpu = time.process_time() - cpu
    games = report.added + report.duplicates
    return {"import_games": games, "import_seconds": seconds, "import_games_per_second": games / seconds,
            "import_cpu_seconds": cpu, "import_games_per_cpu_second": games / cpu}


def lookups(db: GameDb, sample_games: int = 1000, seed: int = 7) -> dict[str, float]:
    """The start position's lookup, and every position of ``sample_games`` random games, under two
    filters: the sources of the benchmark's games (every row of a position passes) and the real
    games alone (the explorer's default: a few thousand games among 100,000).  Wall-clock time
    and the thread's CPU time of each lookup: on a shared machine the difference is the time
    the lookup waited for a processor."""
    from tafl_desktop.core.variants import find_variant

    variant = find_variant("copenhagen").with_options({"repetition": "allowed"})
    rules = fast_rules(variant)
    start = rules.initial_position()
    ruleset = db.con.execute("SELECT id FROM rulesets WHERE name LIKE 'Copenhagen%'").fetchone()[0]
    ids = [r[0] for r in db.con.execute("SELECT id FROM games WHERE ruleset=?", (ruleset,))]
    rng = random.Random(seed)
    positions = []
    for gid in rng.sample(ids, min(sample_games, len(ids))):
        moves = db.con.execute("SELECT moves FROM games WHERE id=?", (gid,)).fetchone()[0]
        g = Game(rules)
        play_listed(g, listed_moves(moves, variant.traits))
        positions += [g.position_at(n) for n in range(len(g.plies) + 1)]
    out: dict[str, float] = {"load_before": os.getloadavg()[0], "positions_looked_up": len(positions)}
    for name, sources in (("", ("real", "selfplay", "imported")), ("real_", ("real",))):
        filters = Filters(sources=sources)
        times = []
        for _ in range(200):
            t = time.perf_counter()
            look = db.lookup(rules, start, filters, 8)
            times.append(time.perf_counter() - t)
        out[f"{name}start_games"] = look.games
        out[f"{name}start_lookup_ms_median"] = statistics.median(times) * 1000
        wall, cpu = [], []
        for pos in positions:
            t, c = time.perf_counter(), time.thread_time()
            db.lookup(rules, pos, filters, 8)
            cpu.append(time.thread_time() - c)
            wall.append(time.perf_counter() - t)
        wall.sort()
        cpu.sort()
        p99 = int(len(wall) * 0.99)
        out.update({f"{name}lookup_ms_median": statistics.median(wall) * 1000, f"{name}lookup_ms_p99": wall[p99] * 1000,
                    f"{name}lookup_cpu_ms_p99": cpu[p99] * 1000})
    out["load_after"] = os.getloadavg()[0]
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=100_000)
    p.add_argument("--plies", type=int, default=40)
    p.add_argument("--db", help="database file (default: a temporary one, deleted afterwards)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(args.db) if args.db else Path(folder) / "bench.sqlite3"
        with GameDb(path) as db:
            out: dict[str, float] = {}
            out.update(build(db, args.games, args.plies))
            out.update(lookups(db))
            out.update(import_speed(db))
            with tempfile.TemporaryDirectory() as empty, GameDb(Path(empty) / "empty.sqlite3") as fresh:
                out.update({f"empty_{k}": v for k, v in import_speed(fresh).items()})
            stats = db.stats()
            db.con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        out["games"] = stats["games"]
        out["positions"] = stats["positions"]
        size = sum(f.stat().st_size for f in path.parent.glob(path.name + "*"))
        out["bytes"] = size
        out["bytes_per_100000_games"] = size * 100_000 / max(1, stats["games"])
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k}: {v:.3f}" if isinstance(v, float) else f"{k}: {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
