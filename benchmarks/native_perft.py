"""Whole-process perft timings of the native engine beside other engines (issue 31's benchmarks).

Usage::

    python benchmarks/native_perft.py [--repeats N] [--peer-c "CMD {depth}"] [--json]

Every figure is the CPU time (user + system) of a whole process, from its start to its exit, as
``os.wait4`` reports it; medians of ``--repeats`` runs (default 5), the commands alternating so a
busy machine slows each about as much.  Measured:

* ``tafl-desktop perft copenhagen 4|5 --engine native`` and ``perft copenhagen 4 --engine python``
  (the interpreter running this script, the repository's package);
* pyhnefatafl (the Python peer of ``benchmarks/peer_compare.py``) perft(4) from the Copenhagen
  start, last ply counted in bulk, in a throwaway venv (or ``--peer-python``);
* optionally any other engine's perft, given as a command line whose ``{depth}`` is replaced by
  the depth and whose output's first number is the leaf count (``--peer-c``; nothing of that
  engine is part of this repository).

Leaf counts must agree (50,456,804 at depth 4, 6,116,568,016 at depth 5) before a ratio is shown.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from peer_compare import PEER_PACKAGE, PEER_VERSION, make_peer_venv  # noqa: E402

EXPECTED = {4: 50_456_804, 5: 6_116_568_016}

PEER_PERFT = textwrap.dedent(
    """
    import sys
    import hnefatafl as hn

    def perft(board, depth):
        if depth == 1:
            return len(list(board.legal_moves))
        total = 0
        for move in list(board.legal_moves):
            board.push(move)
            total += perft(board, depth - 1)
            board.pop()
        return total

    print(perft(hn.Board(), int(sys.argv[1])))
    """
)


def cpu_run(cmd: list[str]) -> tuple[str, float]:
    """Run ``cmd``; its standard output and the CPU seconds (user + system) the process used."""
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.DEVNULL)
        _pid, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read().decode()
    if proc.returncode != 0:
        raise SystemExit(f"{shlex.join(cmd)} failed with exit code {proc.returncode}")
    return text, usage.ru_utime + usage.ru_stime


def leaves(text: str) -> int:
    found = re.search(r"\d+", text)
    return int(found.group()) if found else -1


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--peer-python", help="an interpreter that has pyhnefatafl installed (default: a new venv)")
    ap.add_argument("--peer-c", help='another engine\'s perft command, e.g. "/path/to/perft {depth}"')
    ap.add_argument("--skip-python-peer", action="store_true", help="do not time pyhnefatafl (about a minute a run)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    ours = [sys.executable, "-m", "tafl_desktop", "perft", "copenhagen"]
    commands: dict[str, tuple[list[str], int]] = {
        "ours native perft 4": ([*ours, "4", "--engine", "native"], 4),
        "ours native perft 5": ([*ours, "5", "--engine", "native"], 5),
        "ours python perft 4": ([*ours, "4", "--engine", "python"], 4),
    }
    if args.peer_c:
        for depth in (4, 5):
            commands[f"peer C perft {depth}"] = (shlex.split(args.peer_c.format(depth=depth)), depth)
    with tempfile.TemporaryDirectory(prefix="native_perft_") as tmp:
        if not args.skip_python_peer:
            peer_py = args.peer_python or str(make_peer_venv(Path(tmp) / "venv", f"{PEER_PACKAGE}=={PEER_VERSION}"))
            script = Path(tmp) / "peer_perft.py"
            script.write_text(PEER_PERFT)
            commands["pyhnefatafl perft 4"] = ([peer_py, str(script), "4"], 4)
        times: dict[str, list[float]] = {name: [] for name in commands}
        for i in range(args.repeats):
            for name, (cmd, depth) in commands.items():
                print(f"run {i + 1}/{args.repeats}: {name} ...", file=sys.stderr)
                text, cpu = cpu_run(cmd)
                if leaves(text) != EXPECTED[depth]:
                    raise SystemExit(f"{name} counted {leaves(text)} leaves, not {EXPECTED[depth]:,}")
                times[name].append(cpu)
    result = {name: {"cpu_seconds_median": statistics.median(t), "runs": t} for name, t in times.items()}
    med = {name: r["cpu_seconds_median"] for name, r in result.items()}
    ratios = {}
    if "pyhnefatafl perft 4" in med:
        ratios["pyhnefatafl perft 4 / ours native perft 4"] = med["pyhnefatafl perft 4"] / med["ours native perft 4"]
    if "peer C perft 5" in med:
        ratios["ours native perft 5 / peer C perft 5"] = med["ours native perft 5"] / med["peer C perft 5"]
        ratios["ours native perft 4 / peer C perft 4"] = med["ours native perft 4"] / med["peer C perft 4"]
    ratios["ours python perft 4 / ours native perft 4"] = med["ours python perft 4"] / med["ours native perft 4"]
    if args.json:
        print(json.dumps({"medians": result, "ratios": ratios}, indent=1))
    else:
        print(f"whole-process CPU seconds (user + system), medians of {args.repeats} runs")
        for name, t in med.items():
            print(f"  {name:28} {t:10.3f}")
        for name, r in ratios.items():
            print(f"  {name:44} {r:8.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
