"""Measure start-up: from launching Python to the first painted board (budget: 1.5 s).

``python -m tafl_desktop.gui.startup_time [RUNS]`` starts a fresh interpreter RUNS times (default
5); each one builds the window the way ``tafl-desktop`` does, processes events until the board
has painted, and exits.  Prints every time and the median.  Works headless (offscreen).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

PROBE = """
from tafl_desktop.gui.app import first_variant, make_app
app = make_app()
from tafl_desktop.core.game import Game
from tafl_desktop.gui.main_window import MainWindow
variant, _ = first_variant(None)
window = MainWindow(Game(variant.make_rules()), persist=False)
window.show()
while not window.board.painted:
    app.processEvents()
"""


def measure(runs: int = 5) -> list[float]:
    env = dict(os.environ)
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", PROBE], check=True, env=env, timeout=60)
        times.append(time.perf_counter() - t0)
    return times


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    runs = int(args[0]) if args else 5
    times = measure(runs)
    print("runs:", ", ".join(f"{t:.3f}s" for t in times))
    print(f"median: {statistics.median(times):.3f}s (budget 1.5s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
