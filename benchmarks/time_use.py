"""How much of a fixed time per move the search uses (issue 44 item 3).

Searches a handful of Tafl positions (the start positions of four games and a Copenhagen endgame)
with a fixed time per move and no node budget, with each engine, and prints the share of the time
each search used, with the median.  A search that stops an iteration it predicts will not finish
leaves much of its time unused; one that runs to the deadline and plays the best move so far
uses all of it.

    PYTHONPATH=. python benchmarks/time_use.py [--time 0.5] [--engines native,python] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics

from tafl_desktop.ai.engine import make_searcher, native_search_available
from tafl_desktop.ai.search import SearchLimits
from tafl_desktop.core.game import Side
from tafl_desktop.core.variants import find_variant

#: (game, position or None for the start, side to move); the endgame is issue 44's.
POSITIONS = (
    ("copenhagen", None, Side.ATTACKERS),
    ("brandubh", None, Side.ATTACKERS),
    ("tablut", None, Side.ATTACKERS),
    ("fetlar", None, Side.ATTACKERS),
    ("copenhagen", "/5t5/3t1t5/T6t3/10T/t2t7/tt1t3tt2/K1t6t1/tt9/1tt1T6/8t2/3t1tt2t1/", Side.ATTACKERS),
)


def run(seconds: float, engines: list[str]) -> dict[str, list[dict]]:
    """Per engine, each position's time used (seconds, share of ``seconds``), depth and stop reason."""
    out: dict[str, list[dict]] = {}
    for engine in engines:
        rows = []
        for vid, text, side in POSITIONS:
            rules = find_variant(vid).make_rules()
            pos = rules.parse_position(text, side) if text else rules.initial_position()
            res = make_searcher(rules, engine).search(pos, SearchLimits(time=seconds, depth=64, threads=1))
            rows.append({"game": vid, "start": text is None, "seconds": round(res.seconds, 3),
                         "share": round(res.seconds / seconds, 3), "depth": res.depth, "stopped": res.stopped})
        out[engine] = rows
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--time", type=float, default=0.5)
    p.add_argument("--engines", default="native,python" if native_search_available() else "python")
    p.add_argument("--json", action="store_true")
    a = p.parse_args()
    report = run(a.time, a.engines.split(","))
    if a.json:
        print(json.dumps(report, indent=1))
        return
    for engine, rows in report.items():
        for r in rows:
            print(f"{engine:7} {r['game']:11} {'start' if r['start'] else 'endgame':8} {r['seconds']:6.3f} s "
                  f"{100 * r['share']:5.1f} %  depth {r['depth']:2}  {r['stopped']}")
        print(f"{engine:7} median share {100 * statistics.median(r['share'] for r in rows):.1f} %")


if __name__ == "__main__":
    main()
