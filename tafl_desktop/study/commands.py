"""``tafl-desktop puzzles generate|list|check``: the puzzle generator and the shipped sets.

``list --json`` prints the puzzle objects with the promised keys (see
:data:`tafl_desktop.study.puzzles.LIST_KEYS`); ``check`` re-proves every shipped puzzle (or a
sample) and exits 1 naming each one that no longer holds.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser("puzzles", help="generate, list and re-verify the puzzles")
    ps = p.add_subparsers(dest="puzzles_command", required=True)

    g = ps.add_parser("generate", help="mine puzzles for a preset from real games or self-play (resumable)")
    g.add_argument("variant", help="preset id (copenhagen, brandubh, tablut, fox_geese_13, dablot...)")
    g.add_argument("--seconds", type=float, default=300.0, help="stop after about this long (default 300)")
    g.add_argument("--limit", type=int, default=None, help="stop when the set holds this many puzzles")
    g.add_argument("--source", choices=("auto", "games", "selfplay"), default="auto",
                   help="real games on record, the app's self-play, or auto (games where they exist)")
    g.add_argument("--max-plies", type=int, default=None, help="longest forced win searched, in plies (odd)")
    g.add_argument("--out", default=None, help="the puzzle file to extend (default: the shipped set)")
    g.add_argument("--games-dir", default=None, help="folder of the real-game files (copenhagen.csv, brandubh.csv)")
    g.add_argument("--json", action="store_true", help="print the yield as JSON")
    g.set_defaults(func=cmd_generate)

    s = ps.add_parser("list", help="list the shipped puzzles")
    s.add_argument("--variant", default=None, help="only this preset's puzzles")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_list)

    c = ps.add_parser("check", help="re-prove every shipped puzzle by exhaustive search")
    c.add_argument("--variant", default=None, help="only this preset's puzzles")
    c.add_argument("--sample", type=int, default=None, help="check this many puzzles picked at random")
    c.add_argument("--seed", type=int, default=1, help="seed of the --sample pick")
    c.add_argument("--file", default=None, help="check this puzzle file instead of the shipped sets")
    c.add_argument("--json", action="store_true")
    c.set_defaults(func=cmd_check)


def _load(args: Any) -> list[dict[str, Any]]:
    from tafl_desktop.cli import CliError
    from tafl_desktop.study.puzzles import PuzzleError, PuzzleSet, all_puzzles

    try:
        puzzles = PuzzleSet.load(args.file).puzzles if getattr(args, "file", None) else all_puzzles()
    except PuzzleError as exc:
        raise CliError(str(exc)) from None
    if args.variant:
        from tafl_desktop.cli import _variant

        vid = _variant(args.variant, None).id
        puzzles = [pz for pz in puzzles if pz["variant"] == vid]
    return puzzles


def cmd_list(args: Any) -> int:
    from tafl_desktop.study.puzzles import LIST_KEYS

    puzzles = _load(args)
    if args.json:
        keys = (*LIST_KEYS, "source", "weak_search", "search_nodes")
        print(json.dumps([{k: pz[k] for k in keys if k in pz} for pz in puzzles]))
    else:
        for pz in puzzles:
            changed = " ".join(f"{k}={v}" for k, v in (pz.get("options") or {}).items())
            print(f"{pz['id']:22} {pz['winner']:>9} {pz['goal']:16} {pz['plies']} plies  "
                  f"difficulty {pz['difficulty']}  {' '.join(pz['solution'])}"
                  + (f"  (rules changed from the preset: {changed})" if changed else ""))
    return 0


def cmd_check(args: Any) -> int:
    from tafl_desktop.core.quoting import clip
    from tafl_desktop.study.puzzles import check_puzzle

    puzzles = _load(args)
    if args.sample is not None and args.sample < len(puzzles):
        puzzles = random.Random(args.seed).sample(puzzles, max(0, args.sample))
    failures = []
    for pz in puzzles:
        why = check_puzzle(pz)
        if why is not None:
            failures.append({"id": pz.get("id"), "reason": why})
    if args.json:
        print(json.dumps({"checked": len(puzzles), "failed": failures}))
    else:
        for f in failures:
            print(f"{clip(str(f['id']), 60)}: {clip(str(f['reason']), 300)}", file=sys.stderr)
        print(f"{len(puzzles) - len(failures)} of {len(puzzles)} puzzles verified")
    return 1 if failures else 0


def cmd_generate(args: Any) -> int:
    from tafl_desktop.cli import CliError, _variant
    from tafl_desktop.study.generator import generate
    from tafl_desktop.study.puzzles import PuzzleError, puzzles_dir

    vid = _variant(args.variant, None).id
    if args.max_plies is not None and (args.max_plies < 1 or args.max_plies > 7):
        raise CliError("--max-plies must be from 1 to 7")
    out = Path(args.out) if args.out else puzzles_dir() / f"{vid}.json"

    def progress(y: Any) -> None:
        if not args.json:
            print(f"{y.games} games, {y.scanned} positions, {y.kept} puzzles, {y.seconds:.0f} s", flush=True)

    try:
        result = generate(vid, out, args.seconds, source=args.source, max_plies=args.max_plies, limit=args.limit,
                          games_dir=Path(args.games_dir) if args.games_dir else None, progress=progress)
    except (ValueError, PuzzleError) as exc:
        raise CliError(str(exc)) from None
    except OSError as exc:
        raise CliError(f"cannot write {out}: {exc.strerror or exc}") from None
    if args.json:
        print(json.dumps(result.as_dict()))
    else:
        if result.reproved or result.dropped:
            print(f"re-proved {result.reproved} puzzles of the set under the preset's rules, dropped {result.dropped}")
        print(f"kept {result.kept} puzzles from {result.scanned} positions in {result.seconds:.0f} s; set: {out}")
    return 0
