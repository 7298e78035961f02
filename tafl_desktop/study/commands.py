"""``tafl-desktop puzzles generate|list|check``: the puzzle generator and the shipped sets.

``list --json`` prints the puzzle objects with the promised keys (see
:data:`tafl_desktop.study.puzzles.LIST_KEYS`); ``check`` re-proves every shipped puzzle (or a
sample) and exits 1 naming each one that no longer holds.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tafl_desktop.core.marks import integer
from tafl_desktop.core.quoting import os_reason
from tafl_desktop.i18n import _, ngettext

if TYPE_CHECKING:
    from tafl_desktop.study.generator import Yield


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from tafl_desktop.command_line import float_in, int_in

    p = sub.add_parser("puzzles", help=_("generate, list and re-verify the puzzles"))
    ps = p.add_subparsers(dest="puzzles_command", required=True)

    g = ps.add_parser("generate", help=_("mine puzzles for a preset from real games or self-play (resumable)"))
    g.add_argument("variant", metavar="VARIANT",
                   help=_("preset id (copenhagen, brandubh, tablut, fox_geese_13, dablot...)"))
    g.add_argument("--seconds", type=float_in(0.0, 7 * 86400.0), default=300.0,
                   help=_("stop after about this long (default 300)"))
    g.add_argument("--limit", type=int_in(1, 1_000_000), default=None,
                   help=_("stop when the set holds this many puzzles"))
    g.add_argument("--source", choices=("auto", "games", "selfplay", "endgames"), default="auto",
                   help=_("real games on record, the app's self-play, composed endgames (self-play positions "
                          "thinned to a few pieces a side), or auto (games where they exist)"))
    g.add_argument("--keep", type=_keep_pair, default=None, metavar="W,L",
                   help=_("with --source endgames: the most soldiers the side to move and the other side keep "
                          "(default 6,2)"))
    g.add_argument("--max-plies", type=int_in(1, 7), default=None,
                   help=_("longest forced win searched, in plies (odd)"))
    g.add_argument("--out", default=None, help=_("the puzzle file to extend (default: the shipped set)"))
    g.add_argument("--games-dir", default=None, help=_("folder of the real-game files (copenhagen.csv, brandubh.csv)"))
    g.add_argument("--node-budget", type=int_in(1, 1_000_000_000), default=None,
                   help=_("positions one proof may visit (default 30000; 150000 on 9x9 boards and up)"))
    g.add_argument("--balance", action="store_true",
                   help=_("at the end keep at least half of the set three moves or longer (drops short puzzles)"))
    g.add_argument("--json", action="store_true", help=_("print the yield as JSON"))
    g.set_defaults(func=cmd_generate)

    s = ps.add_parser("list", help=_("list the shipped puzzles"))
    s.add_argument("--variant", default=None, help=_("only this preset's puzzles"))
    s.add_argument("--theme", default=None, help=_("only puzzles with this theme id (escape, double_threat, ...)"))
    s.add_argument("--file", default=None, help=_("list this puzzle file instead of the shipped sets"))
    s.add_argument("--json", action="store_true", help=_("print the puzzles as JSON"))
    s.set_defaults(func=cmd_list)

    m = ps.add_parser("mine", help=_("puzzles from your own games (every position, or one reviewed move)"))
    m.add_argument("games", nargs="+", metavar="GAME", help=_("game files (.tafl.json, .otg, .pgn, .json)"))
    m.add_argument("--out", default=None,
                   help=_("the puzzle file to add to (default: your puzzles in the app's data folder)"))
    m.add_argument("--ply", type=int_in(1, 1_000_000), default=None,
                   help=_("only the position before this ply (1 = the first ply)"))
    m.add_argument("--best", default=None, help=_("with --ply: the better move a review named (e.g. d4-d1)"))
    m.add_argument("--max-plies", type=int_in(1, 7), default=None,
                   help=_("longest forced win searched, in plies (odd, default 5)"))
    m.add_argument("--json", action="store_true", help=_("print the yield as JSON"))
    m.set_defaults(func=cmd_mine)

    c = ps.add_parser("check", help=_("re-prove every shipped puzzle by exhaustive search"))
    c.add_argument("--variant", default=None, help=_("only this preset's puzzles"))
    c.add_argument("--sample", type=int_in(0, 1_000_000), default=None,
                   help=_("check this many puzzles picked at random"))
    c.add_argument("--seed", type=int_in(-(2**31), 2**31 - 1), default=1, help=_("seed of the --sample pick"))
    c.add_argument("--file", default=None,
                   help=_("check this puzzle file instead of the shipped sets (a set, or an OpenTafl puzzle .otg)"))
    c.add_argument("--json", action="store_true", help=_("print the verdict as JSON"))
    c.set_defaults(func=cmd_check)


def _keep_pair(text: str) -> tuple[int, int]:
    """``--keep W,L``: two whole numbers from 1 to 99."""
    import argparse

    from tafl_desktop.command_line import quote_value

    parts = text.split(",")
    if len(parts) == 2 and all(p.strip().isdigit() and 1 <= int(p) <= 99 for p in parts):
        return int(parts[0]), int(parts[1])
    raise argparse.ArgumentTypeError(_("{value} is not two whole numbers from 1 to 99, such as 6,2").format(
        value=quote_value(text)))


def _load(args: argparse.Namespace) -> list[dict[str, Any]]:
    from tafl_desktop.command_line import CliError
    from tafl_desktop.study.puzzles import PuzzleError, PuzzleSet, all_puzzles

    try:
        puzzles = PuzzleSet.load(args.file).puzzles if getattr(args, "file", None) else all_puzzles()
    except PuzzleError as exc:
        raise CliError(str(exc)) from None
    if args.variant:
        from tafl_desktop.command_line import variant_arg as _variant

        vid = _variant(args.variant, None).id
        puzzles = [pz for pz in puzzles if pz["variant"] == vid]
    return puzzles


def cmd_list(args: argparse.Namespace) -> int:
    from tafl_desktop.core.quoting import shown
    from tafl_desktop.study.puzzles import LIST_KEYS, LISTED_EXTRAS, puzzle_rating, puzzle_themes

    puzzles = _load(args)
    for pz in puzzles:
        pz["themes"] = puzzle_themes(pz)
        pz["rating"] = puzzle_rating(pz)
    if args.theme:
        puzzles = [pz for pz in puzzles if args.theme in pz["themes"]]
    if args.json:
        keys = (*LIST_KEYS, *LISTED_EXTRAS)
        print(json.dumps([{k: pz[k] for k in keys if k in pz} for pz in puzzles]))
    else:
        for pz in puzzles:
            changed = " ".join(f"{k}={v}" for k, v in (pz.get("options") or {}).items())
            plies = ngettext("{n} ply", "{n} plies", pz["plies"]).format(n=pz["plies"])
            level = _("difficulty {d}").format(d=pz["difficulty"])
            rating = _("rating {rating}").format(rating=round(pz["rating"]))
            winner, goal, themes = _puzzle_words(pz)
            print(f"{shown(pz['id'], 60):22} {winner:>12}  {goal:28} {plies}  {level}  {rating}  "
                  f"{' '.join(pz['solution'])}  [{themes}]"
                  + ("  " + _("(rules changed from the preset: {changes})").format(changes=changed) if changed else ""))
    return 0


def _puzzle_words(pz: dict[str, Any]) -> tuple[str, str, str]:
    """A puzzle's winner, goal and themes in the reader's words for ``puzzles list`` (the keys
    ``defenders``, ``king_escaped``, ``one_move`` are for ``--json`` only); the keys themselves
    for a variant this program does not ship."""
    from tafl_desktop.core.game import Outcome
    from tafl_desktop.core.variants import preset
    from tafl_desktop.study.themes import THEMES

    themes = ", ".join(_(THEMES[t]) if t in THEMES else t for t in pz["themes"])
    variant = preset(str(pz.get("variant", "")))
    if variant is None:
        return str(pz["winner"]), str(pz["goal"]), themes
    try:
        side = variant.parse_side(str(pz["winner"]))
    except ValueError:
        return str(pz["winner"]), str(pz["goal"]), themes
    return variant.side_names[int(side)], in_line(Outcome(side, str(pz["goal"])).reason_text(variant)), themes


def in_line(text: str) -> str:
    """A sentence put inside a line ("The king escaped" -> "the king escaped"): its first
    letter in lower case, unless the second is a capital too (an abbreviation)."""
    if len(text) > 1 and text[0].isupper() and not text[1].isupper():
        return text[0].lower() + text[1:]
    return text


def cmd_check_record(args: argparse.Namespace) -> int:
    """``puzzles check --file PUZZLE.otg``: an OpenTafl puzzle file read, and its claim proved."""
    from tafl_desktop.command_line import CliError
    from tafl_desktop.study.puzzles import PuzzleError
    from tafl_desktop.study.record_puzzles import CHECK_MAX_PLIES, check_record_puzzle

    try:
        report = check_record_puzzle(args.file)
    except PuzzleError as exc:
        raise CliError(str(exc)) from None
    if args.json:
        print(json.dumps(report))
        return 0
    proof = report["proof"]
    print(_("{file}: an OpenTafl puzzle ({mode}), {side} to move after {plies}, {lines}; main line: {moves}").format(
        file=Path(args.file).name, mode=report["mode"], side=report["to_move"],
        plies=ngettext("{n} ply", "{n} plies", report["start"]).format(n=report["start"]),
        lines=ngettext("{n} line", "{n} lines", report["lines"]).format(n=report["lines"]),
        moves=" ".join(report["main_line"])))
    if proof["status"] == "proved":
        n = proof["plies"]
        if proof["unique"]:
            text = ngettext("proved: a forced win in {n} ply, only by {move}",
                            "proved: a forced win in {n} plies, only by {move}", n)
        else:
            text = ngettext("proved: a forced win in {n} ply, by more than one first move, e.g. {move}",
                            "proved: a forced win in {n} plies, by more than one first move, e.g. {move}", n)
        print(text.format(n=n, move=proof["first"][0]))
    elif proof["status"] == "refuted":
        print(ngettext("not a forced win within {n} ply: the defence can hold out longer than the main line",
                       "not a forced win within {n} plies: the defence can hold out longer than the main line",
                       proof["plies"]).format(n=proof["plies"]))
    elif proof["status"] == "open":
        print(ngettext("not settled: proving a win within {n} ply needs more positions than allowed",
                       "not settled: proving a win within {n} plies needs more positions than allowed",
                       proof["plies"]).format(n=proof["plies"]))
    else:
        print(ngettext("no forced win claimed (the main line does not end in a win for the side to move within "
                       "{n} ply)",
                       "no forced win claimed (the main line does not end in a win for the side to move within "
                       "{n} plies)", CHECK_MAX_PLIES).format(n=CHECK_MAX_PLIES))
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    from tafl_desktop.core.quoting import clip
    from tafl_desktop.study.puzzles import check_puzzle

    if args.file and str(args.file).lower().endswith(".otg"):
        return cmd_check_record(args)
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
            print(_("tafl-desktop: {error}").format(error=f"{clip(str(f['id']), 60)}: {clip(str(f['reason']), 300)}"),
                  file=sys.stderr)
        print(ngettext("{n} of {total} puzzle verified", "{n} of {total} puzzles verified", len(puzzles)).format(
            n=len(puzzles) - len(failures), total=len(puzzles)))
    return 1 if failures else 0


def cmd_generate(args: argparse.Namespace) -> int:
    from tafl_desktop.command_line import CliError
    from tafl_desktop.command_line import variant_arg as _variant
    from tafl_desktop.study.generator import generate
    from tafl_desktop.study.puzzles import PuzzleError, puzzles_dir

    vid = _variant(args.variant, None).id
    if args.max_plies is not None:
        _check_max_plies(args.max_plies)
    out = Path(args.out) if args.out else puzzles_dir() / f"{vid}.json"

    def progress(y: Yield) -> None:
        if not args.json:
            # a running tally: each count after its label, so no noun has to agree with a number
            print(_("games: {games}, positions: {positions}, puzzles: {kept}, {seconds} s").format(
                games=y.games, positions=y.scanned, kept=y.kept, seconds=integer(int(y.seconds))), flush=True)

    try:
        result = generate(vid, out, args.seconds, source=args.source, max_plies=args.max_plies, limit=args.limit,
                          games_dir=Path(args.games_dir) if args.games_dir else None, progress=progress,
                          balance_set=args.balance, **({"node_budget": args.node_budget} if args.node_budget else {}),
                          **({"keep": args.keep} if args.keep else {}))
    except (ValueError, PuzzleError) as exc:
        raise CliError(str(exc)) from None
    except OSError as exc:
        raise CliError(_("cannot write {path}: {why}").format(path=out, why=os_reason(exc))) from None
    if args.json:
        print(json.dumps(result.as_dict()))
    else:
        if result.reproved or result.dropped:
            print(ngettext("re-proved {n} puzzle of the set under the preset's rules, dropped {dropped}",
                           "re-proved {n} puzzles of the set under the preset's rules, dropped {dropped}",
                           result.reproved).format(
                n=result.reproved, dropped=result.dropped))
        if result.trimmed:
            print(ngettext("dropped {n} puzzle too close to a longer one of the same game or to balance the set",
                           "dropped {n} puzzles too close to a longer one of the same game or to balance the set",
                           result.trimmed).format(n=result.trimmed))
        print(ngettext("kept {kept} puzzle in {seconds} s (positions looked at: {positions}); set: {path}",
                       "kept {kept} puzzles in {seconds} s (positions looked at: {positions}); set: {path}",
                       result.kept).format(
            kept=result.kept, positions=result.scanned, seconds=integer(int(result.seconds)), path=out))
    return 0


def _check_max_plies(plies: int) -> None:
    """``--max-plies`` as its help says: 1 to 7, and odd (the side to move plays a win's first and
    last ply, so a forced win is 1, 3, 5 or 7 plies long; the prover would take an even limit as
    the odd one below it, so it is refused rather than silently lowered)."""
    from tafl_desktop.command_line import CliError

    if plies < 1 or plies > 7:
        raise CliError(_("--max-plies must be from 1 to 7"))
    if plies % 2 == 0:
        raise CliError(_("--max-plies must be odd: a forced win takes 1, 3, 5 or 7 plies"))


def cmd_mine(args: argparse.Namespace) -> int:
    """Mine the player's own games (see :mod:`tafl_desktop.study.my_games`) into their puzzle set.

    A game that cannot be read or mined is named in one line on stderr and the others go on: what
    they gave is still added, and the exit code is 1."""
    from tafl_desktop.command_line import CliError
    from tafl_desktop.interop.formats import read_game
    from tafl_desktop.interop.transfer import InteropError
    from tafl_desktop.study.my_games import MAX_PLIES, add_to_set, default_path, mine_game, puzzle_from_mistake
    from tafl_desktop.study.puzzles import PuzzleError

    plies = args.max_plies or MAX_PLIES
    _check_max_plies(plies)
    if (args.ply is None) != (args.best is None):
        raise CliError(_("--ply and --best go together: the ply and the better move there"))
    out = Path(args.out) if args.out else default_path()
    found: list[dict[str, Any]] = []
    per_game: list[dict[str, Any]] = []
    problems = 0
    for name in args.games:
        try:
            game = read_game(name).game
            if args.ply is not None:
                pz = puzzle_from_mistake(game, args.ply, args.best, max_plies=plies, source=Path(name).name)
                got = [pz] if pz is not None else []
            else:
                got = mine_game(game, Path(name).name, max_plies=plies)
        except (InteropError, PuzzleError) as exc:
            # an InteropError names the file already; a PuzzleError speaks of the game's rules or moves
            why = str(exc) if isinstance(exc, InteropError) else _("{where}: {problem}").format(
                where=Path(name).name, problem=exc)
            print(_("tafl-desktop: {error}").format(error=why), file=sys.stderr)
            per_game.append({"game": name, "puzzles": [], "error": why})
            problems += 1
            continue
        found.extend(got)
        per_game.append({"game": name, "puzzles": [pz["id"] for pz in got]})
    added = 0
    wrote = bool(found or not problems)  # a run that only failed leaves the set as it was (not even made)
    if wrote:
        try:
            added = add_to_set(found, out)
        except PuzzleError as exc:
            raise CliError(str(exc)) from None
        except OSError as exc:
            raise CliError(_("cannot write {path}: {why}").format(path=out, why=os_reason(exc))) from None
    if args.json:
        print(json.dumps({"games": per_game, "found": len(found), "added": added, "out": str(out)}))
    else:
        for g in per_game:
            if "error" not in g:
                print(ngettext("{game}: {n} puzzle", "{game}: {n} puzzles", len(g["puzzles"])).format(
                    game=g["game"], n=len(g["puzzles"])))
        if wrote:
            print(ngettext("added {n} new puzzle to {path}", "added {n} new puzzles to {path}", added).format(
                n=added, path=out))
    return 1 if problems else 0
