"""Speed of our Copenhagen engine next to the Python peer engine pyhnefatafl (import name ``hnefatafl``).

Usage::

    python benchmarks/peer_compare.py [--seconds S] [--repeats N] [--json]

The script needs only the standard library.  It creates a throwaway virtual environment in a
temporary folder, installs ``pyhnefatafl`` into it with pip (whatever index pip is configured
for), and measures there, in process CPU time:

* perft(3) from the Copenhagen start, counting the last ply in bulk
  (``len(list(board.legal_moves))`` at depth 1); 806,344 leaves;
* random playouts from the start: every ply builds the full legal-move list, pushes a uniformly
  random move and asks ``is_game_over()``; reported as moves (plies) per CPU second.

Ours is measured the same way by ``tafl_desktop.cli.bench_variant("copenhagen", 3, S)`` (the row
that ``tafl-desktop bench --json`` prints), in a separate process of the interpreter running this
script (or ``--ours-python``).  Peer and ours alternate, one run each per repetition, and the table
shows medians.  Leaf counts must agree before any ratio is printed.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import textwrap
import venv
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PEER_PACKAGE = "pyhnefatafl"
PEER_VERSION = "0.3.2"
EXPECTED_LEAVES = 806_344

# Runs inside the peer's venv; prints one JSON object.
PEER_SCRIPT = textwrap.dedent(
    """
    import json, random, sys, time
    from importlib.metadata import version

    import hnefatafl as hn

    seconds, seed = float(sys.argv[1]), int(sys.argv[2])

    def perft(board, depth):
        if depth == 1:
            return len(list(board.legal_moves))
        total = 0
        for move in list(board.legal_moves):
            board.push(move)
            total += perft(board, depth - 1)
            board.pop()
        return total

    board = hn.Board()
    t0 = time.process_time()
    nodes = perft(board, 3)
    perft_s = time.process_time() - t0

    rng = random.Random(seed)
    plies = games = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        board = hn.Board()
        while True:
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(moves[int(rng.random() * len(moves))])
            plies += 1
            if board.is_game_over():
                break
        games += 1
    elapsed = time.process_time() - t0
    print(json.dumps({
        "version": version("pyhnefatafl"),
        "perft_nodes": nodes,
        "perft_seconds": perft_s,
        "playout_games": games,
        "playout_plies": plies,
        "playout_moves_per_second": plies / elapsed if elapsed else 0.0,
    }))
    """
)

# Runs in our interpreter (repo root on the path); prints one JSON object.
OURS_SCRIPT = textwrap.dedent(
    """
    import json, sys
    from tafl_desktop import __version__
    from tafl_desktop.cli import bench_variant

    row = bench_variant("copenhagen", 3, float(sys.argv[1]), seed=int(sys.argv[2]))
    row["version"] = __version__
    print(json.dumps(row))
    """
)


def venv_python(folder: Path) -> Path:
    return folder / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def make_peer_venv(folder: Path, spec: str) -> Path:
    """Create a venv in ``folder`` and pip-install ``spec``; returns its interpreter."""
    print(f"creating a throwaway venv in {folder} and installing {spec} ...", file=sys.stderr)
    venv.EnvBuilder(with_pip=True, clear=True).create(folder)
    py = venv_python(folder)
    subprocess.run([str(py), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", spec], check=True)
    return py


def run_json(cmd: list[str], env: dict[str, str] | None = None) -> dict:
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env)
    return json.loads(out.stdout.strip().splitlines()[-1])


def measure(peer_py: str, ours_py: str, seconds: float, repeats: int) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH", "")) if p)
    with tempfile.TemporaryDirectory(prefix="peer_measure_") as tmp:
        peer_file = Path(tmp) / "peer_measure.py"
        peer_file.write_text(PEER_SCRIPT)
        peer_runs, our_runs = [], []
        for i in range(repeats):
            seed = i + 1
            print(f"run {i + 1}/{repeats}: peer ...", file=sys.stderr)
            peer_runs.append(run_json([peer_py, str(peer_file), str(seconds), str(seed)]))
            print(f"run {i + 1}/{repeats}: ours ...", file=sys.stderr)
            our_runs.append(run_json([ours_py, "-c", OURS_SCRIPT, str(seconds), str(seed)], env=env))

    def summary(runs: list[dict]) -> dict:
        nodes = {r["perft_nodes"] for r in runs}
        perft_s = statistics.median(r["perft_seconds"] for r in runs)
        mps = statistics.median(r["playout_moves_per_second"] for r in runs)
        return {
            "version": runs[0]["version"],
            "perft_nodes": nodes.pop() if len(nodes) == 1 else sorted(nodes),
            "perft_seconds": perft_s,
            "perft_nodes_per_second": EXPECTED_LEAVES / perft_s if perft_s else None,
            "playout_moves_per_second": mps,
            "runs": runs,
        }

    return {"peer": summary(peer_runs), "ours": summary(our_runs)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="CPU seconds of random playouts per run (default 2)")
    ap.add_argument("--repeats", type=int, default=3, help="runs of each engine; medians are reported (default 3)")
    ap.add_argument("--json", action="store_true", help="print the result as JSON instead of a table")
    ap.add_argument("--peer-version", default=PEER_VERSION, help=f"{PEER_PACKAGE} version to install")
    ap.add_argument("--peer-python", help="use this interpreter (with hnefatafl installed) instead of a new venv")
    ap.add_argument("--ours-python", default=sys.executable, help="interpreter for our engine (default: this one)")
    args = ap.parse_args(argv)
    if args.repeats < 1 or args.seconds <= 0:
        ap.error("--repeats must be at least 1 and --seconds positive")

    with tempfile.TemporaryDirectory(prefix="peer_venv_") as tmp:
        if args.peer_python:
            peer_py = args.peer_python
        else:
            peer_py = str(make_peer_venv(Path(tmp) / "venv", f"{PEER_PACKAGE}=={args.peer_version}"))
        res = measure(peer_py, args.ours_python, args.seconds, args.repeats)

    peer, ours = res["peer"], res["ours"]
    agree = peer["perft_nodes"] == ours["perft_nodes"] == EXPECTED_LEAVES
    res["nodes_agree"] = agree
    res["settings"] = {"perft_depth": 3, "playout_seconds": args.seconds, "repeats": args.repeats,
                       "python": platform.python_version(), "machine": platform.machine()}
    if agree:
        res["ratio_ours_over_peer"] = {
            "perft_speed": peer["perft_seconds"] / ours["perft_seconds"],
            "playout_moves_per_second": ours["playout_moves_per_second"] / peer["playout_moves_per_second"],
        }

    if args.json:
        print(json.dumps(res, indent=1))
    else:
        print(f"Copenhagen 11x11, medians of {args.repeats} runs, process CPU time, Python {platform.python_version()}")
        print(f"{'':34} {'peer ' + peer['version']:>16} {'ours ' + ours['version']:>16} {'ours/peer':>10}")
        print(f"{'perft(3) leaves':34} {peer['perft_nodes']!s:>16} {ours['perft_nodes']!s:>16}")
        ratios = res.get("ratio_ours_over_peer")
        rows = [
            ("perft(3) seconds (lower is better)", peer["perft_seconds"], ours["perft_seconds"], "{:.3f}",
             ratios and ratios["perft_speed"]),
            ("perft(3) leaves per second", peer["perft_nodes_per_second"], ours["perft_nodes_per_second"], "{:,.0f}",
             ratios and ratios["perft_speed"]),
            ("random playout moves per second", peer["playout_moves_per_second"], ours["playout_moves_per_second"],
             "{:,.0f}", ratios and ratios["playout_moves_per_second"]),
        ]
        for label, p, o, fmt, ratio in rows:
            r = f"{ratio:.1f}x" if ratio else "-"
            print(f"{label:34} {fmt.format(p):>16} {fmt.format(o):>16} {r:>10}")
        print("ours/peer = speed-up factor of our engine (peer time / our time, our rate / peer rate)")
    if not agree:
        print(f"perft(3) leaf counts disagree (expected {EXPECTED_LEAVES}): peer {peer['perft_nodes']}, "
              f"ours {ours['perft_nodes']}; no ratios", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
