"""The analysis commands: ``analyse`` (the best lines of a position) and ``review`` (a whole game).

Contracts (names and keys are fixed):

* ``tafl-desktop analyse VARIANT [--position POS --to-move SIDE] [--set K=V ...] [--moves "..."]
  [--lines N] [--time S | --depth D | --nodes N] --json`` prints ``{"lines": [{"moves", "score",
  "result_in", "winner", "depth"}], "nodes", "seconds"}``, best line first, N lines whenever the
  position has N legal moves (a proven result or a short clock included); ``score`` is from the
  side to move's view; ``result_in`` counts plies to a forced end the search proved (else null) and
  ``winner`` names the side that gets it.
* ``tafl-desktop review GAME.tafl.json [--depth D | --nodes N | --time S] [--resume FILE]
  [--plot FILE.png|FILE.pdf] --json`` prints ``{"plies": [{"ply", "move", "score", "best", "class",
  "side", "loss", "accuracy", "line"}], "summary": {...}}``, one entry per move; ``score`` is from
  the view of ``summary["score_for"]``.  The same game at the same depth (or node budget) gives the
  same ``class`` for every ply on every run; ``--resume FILE`` keeps the evaluations as they are
  made (:mod:`tafl_desktop.ai.review_store`).  The classes, their thresholds and the accuracy are
  described in :mod:`tafl_desktop.ai.review`.

The window calls the same functions (through the worker process).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from tafl_desktop.core.quoting import os_reason
from tafl_desktop.i18n import _, ngettext
from tafl_desktop.native.bridge import ENGINES

#: Think time of ``analyse`` when neither --time nor --depth is given (s).
ANALYSE_TIME = 2.0
#: The shortest ``--time`` a search is given (less is not a search; ``1e-9`` used to be taken).
MIN_SECONDS = 0.001


def register(sub: Any) -> None:
    """Add ``analyse`` and ``review`` to the argparse sub-parsers ``sub``."""
    from tafl_desktop.command_line import float_in

    s = sub.add_parser("analyse", help=_("the best lines of a position, with scores and proven results"))
    s.add_argument("variant", metavar="VARIANT", help=_("preset id or variant file"))
    s.add_argument("--position", help=_("a position in the variant's notation (default: the start)"))
    s.add_argument("--to-move", help=_("the side to move in --position"))
    s.add_argument("--set", action="append", metavar="K=V", help=_("change a rule toggle"))
    s.add_argument("--moves", default="", help=_('moves played first, e.g. "e1-e5 f4-f2"'))
    s.add_argument("--lines", type=int, default=3, help=_("how many lines, 1 to 5 (default 3)"))
    limit = s.add_mutually_exclusive_group()
    limit.add_argument("--time", type=float_in(MIN_SECONDS, 3600.0), help=_("seconds to think (default 2)"))
    limit.add_argument("--depth", type=int, help=_("search to this depth in plies"))
    limit.add_argument("--nodes", type=int, help=_("search this many positions (the same answer on any machine)"))
    s.add_argument("--engine", choices=ENGINES, help=_("search engine (default: native where it is built)"))
    s.add_argument("--json", action="store_true", help=_("print the result as JSON (keys and values in English)"))
    s.set_defaults(func=cmd_analyse)

    s = sub.add_parser("review", help=_("class every move of a saved game and draw its evaluation graph"))
    s.add_argument("file", metavar="FILE", help=_("the game record"))
    budget = s.add_mutually_exclusive_group()
    budget.add_argument("--depth", type=int, help=_("search every position to this depth in plies (default: the "
                                                    "standard depth for the board and engine)"))
    budget.add_argument("--nodes", type=int, help=_("search this many positions for every position of the game"))
    budget.add_argument("--time", type=float_in(MIN_SECONDS, 600.0), help=_(
        "seconds per position (depends on the machine: not reproducible)"))
    s.add_argument("--resume", metavar="FILE", help=_("keep the evaluations in FILE as they are made and go on "
                                                      "from those already there"))
    s.add_argument("--plot", help=_("write the evaluation graph to FILE.png or FILE.pdf"))
    s.add_argument("--engine", choices=ENGINES, help=_("search engine (default: native where it is built)"))
    s.add_argument("--json", action="store_true", help=_("print the result as JSON (keys and values in English)"))
    s.set_defaults(func=cmd_review)


def cmd_analyse(args: Any) -> int:
    from tafl_desktop.ai.engine import make_searcher
    from tafl_desktop.ai.multipv import MAX_LINES, analyse
    from tafl_desktop.command_line import EXIT_ILLEGAL, CliError
    from tafl_desktop.command_line import start_position as _start
    from tafl_desktop.command_line import variant_arg as _variant
    from tafl_desktop.core.game import Game, IllegalMove
    from tafl_desktop.core.marks import integer

    if not 1 <= args.lines <= MAX_LINES:
        raise CliError(_("--lines must be from 1 to {n}").format(n=MAX_LINES))
    if args.time is not None and not 0 < args.time <= 3600:
        raise CliError(_("--time must be more than 0 and at most 3600 seconds"))
    if args.depth is not None and not 1 <= args.depth <= 64:
        raise CliError(_("--depth must be from 1 to 64"))
    if args.nodes is not None and not 1_000 <= args.nodes <= 10_000_000_000:
        raise CliError(_("--nodes must be from {low} to {high}").format(low=integer(1_000),
                                                                        high=integer(10_000_000_000)))
    if args.to_move and args.position is None:
        raise CliError(_("--to-move needs --position"))
    variant = _variant(args.variant, args.set)
    rules = variant.make_rules()
    game = Game(rules, _start(rules, args.position, args.to_move))
    from tafl_desktop.core.move_numbers import next_move_number

    for text in args.moves.split():
        try:
            game.play_text(text)
        except IllegalMove as exc:
            raise CliError(_("move {number}: {error}").format(number=next_move_number(game), error=exc),
                           EXIT_ILLEGAL) from None
    keys = [rules.position_key(game.position_at(i)) for i in range(len(game.plies) + 1)]
    try:
        searcher = make_searcher(rules, args.engine)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    if args.depth is not None:
        report = analyse(rules, game.position, args.lines, time_limit=0, depth=args.depth, history_keys=keys,
                         searcher=searcher)
    elif args.nodes is not None:
        report = analyse(rules, game.position, args.lines, time_limit=0, nodes=args.nodes, history_keys=keys,
                         searcher=searcher)
    else:
        report = analyse(rules, game.position, args.lines, time_limit=args.time or ANALYSE_TIME, history_keys=keys,
                         searcher=searcher)
    if args.json:
        out = report.to_json()
        out["engine"] = searcher.engine
        print(json.dumps(out))
        return 0
    from tafl_desktop.analysis.words import line_words

    to_move = int(rules.side_to_move(game.position))
    if not report.lines:
        print(_("The game is over: there is nothing to analyse."))
    from tafl_desktop.core.marks import decimal, integer

    for n, line in enumerate(report.lines, 1):
        words = line_words(variant, line.score, line.result_in, line.winner, to_move)
        print(_("{n}. {words} ({score}, depth {depth}): {moves}").format(
            n=n, words=words, score=integer(line.score, sign=True), depth=line.depth, moves=" ".join(line.moves)))
    if report.stopped == "proven":
        # the search ends short of the depth asked only when deeper cannot change a line
        # (tafl_desktop.ai.search.settled): said, so that "depth 2" is not read as a shallow look
        print(ngettext("Proven at depth {depth}, so no deeper search can change this line.",
                       "Proven at depth {depth}, so no deeper search can change these lines.",
                       len(report.lines)).format(depth=report.depth))
    print(ngettext("{nodes} position in {seconds} s",
                   "{nodes} positions in {seconds} s",
                   report.nodes).format(nodes=integer(report.nodes), seconds=decimal(report.seconds, 2)))
    return 0


def review_budget(args: Any, rules: Any, engine: str) -> Any:
    """The budget ``--depth``, ``--nodes`` or ``--time`` asks for, else the standard one."""
    from tafl_desktop.ai.review import MAX_DEPTH, MAX_NODES, MIN_NODES, Budget, default_budget
    from tafl_desktop.command_line import CliError
    from tafl_desktop.core.marks import integer

    if args.depth is not None:
        if not 1 <= args.depth <= MAX_DEPTH:
            raise CliError(_("--depth must be from 1 to {n}").format(n=MAX_DEPTH))
        return Budget(depth=args.depth)
    if args.nodes is not None:
        if not MIN_NODES <= args.nodes <= MAX_NODES:
            raise CliError(_("--nodes must be from {low} to {high}").format(low=integer(MIN_NODES),
                                                                            high=integer(MAX_NODES)))
        return Budget(nodes=args.nodes)
    if args.time is not None:
        if not 0 < args.time <= 600:
            raise CliError(_("--time must be more than 0 and at most 600 seconds per position"))
        return Budget(time=args.time)
    return default_budget(rules, engine)


def cmd_review(args: Any) -> int:
    from tafl_desktop.ai.engine import resolve
    from tafl_desktop.ai.review import CLASS_WORDS, CLASSES, review_game
    from tafl_desktop.ai.review_store import ReviewStore, StoreError, fingerprint
    from tafl_desktop.command_line import EXIT_ERROR, EXIT_ILLEGAL, CliError
    from tafl_desktop.core.quoting import shown
    from tafl_desktop.core.record import RecordError, load_game

    if args.plot:
        from tafl_desktop.analysis.charts.review_graph import FORMATS

        if args.plot.rsplit(".", 1)[-1].lower() not in FORMATS:
            raise CliError(_("--plot: {path} must end in .png or .pdf").format(path=shown(args.plot)))
        from tafl_desktop.core.safe_files import resolve_target

        try:  # refused before the review's minutes are spent: a device, FIFO, folder, looping link
            resolve_target(args.plot)
        except OSError as exc:
            raise CliError(_("--plot: cannot write {path}: {why}").format(path=shown(args.plot),
                                                                          why=os_reason(exc))) from None
    try:
        game = load_game(args.file)
    except RecordError as exc:
        raise CliError(str(exc), EXIT_ILLEGAL if "cannot be played" in str(exc) else EXIT_ERROR) from None
    if not game.plies:
        raise CliError(_("{file}: the game has no moves to review").format(file=args.file))
    try:
        engine = resolve(game.rules, args.engine)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    budget = review_budget(args, game.rules, engine)
    total = len(game.plies) + 1

    store, known = None, {}
    if args.resume:
        moves = [tuple(p.move) for p in game.plies]
        header = {"game": fingerprint(game.rules, game.start, moves), "budget": budget.to_json(), "engine": engine}
        store = ReviewStore(args.resume, header, total)
        try:
            known = store.load()
        except StoreError as exc:
            raise CliError(str(exc)) from None
        if known and not args.json:
            print(ngettext("Resuming: {done} of {total} position already evaluated in {file}.",
                           "Resuming: {done} of {total} positions already evaluated in {file}.", total).format(
                done=len(known), total=total, file=args.resume), file=sys.stderr)

    def progress(done: int, _evals: Any) -> None:
        if not args.json and sys.stderr.isatty():
            print(f"\r{done}/{total}", end="", file=sys.stderr, flush=True)

    try:
        result = review_game(game, budget, on_progress=progress, engine=engine, known=known,
                             on_position=store.add if store is not None else None)
    finally:
        if store is not None:
            store.close()
    result["summary"]["budget"] = budget.to_json()
    result["summary"]["engine"] = engine
    if args.plot:
        from tafl_desktop.analysis.charts.review_graph import save_review_graph

        try:
            save_review_graph(args.plot, result["plies"], game.rules.variant.sides)
        except OSError as exc:
            raise CliError(_("--plot: cannot write {path}: {why}").format(path=shown(args.plot),
                                                                          why=os_reason(exc))) from None
    if args.json:
        print(json.dumps(result))
        return 0
    from tafl_desktop.core.marks import decimal, integer, percent, plural_number
    from tafl_desktop.core.move_numbers import ply_labels

    labels = ply_labels(game)
    for p in result["plies"]:
        word = CLASS_WORDS[p["class"]]
        mark = "" if p["class"] in ("best", "good") else "  " + _("{verdict} ({better} was better)").format(
            verdict=_(word), better=p["best"])
        print(f"{labels[p['ply'] - 1]:>7} {p['move']:<14} {integer(p['score'], sign=True):>7}{mark}")
    variant = game.rules.variant
    names = {variant.side_key(s): variant.side_names[s] for s in (0, 1)}
    for side_key, agg in result["summary"]["sides"].items():
        counts = ", ".join(f"{_(CLASS_WORDS[c])} {agg[c]}" for c in CLASSES)
        accuracy = "-" if agg["accuracy"] is None else percent(agg["accuracy"] / 100, 1)
        print(ngettext("{side}: accuracy {accuracy}; {counts}; average loss {loss} point",
                       "{side}: accuracy {accuracy}; {counts}; average loss {loss} points",
                       plural_number(agg["average_loss"])).format(
            side=names.get(side_key, side_key), accuracy=accuracy, counts=counts, loss=decimal(agg["average_loss"])))
    return 0
