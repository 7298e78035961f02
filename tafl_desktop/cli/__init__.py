"""One argparse front door: the window (default) and the command-line tools.

Every error is one line on stderr and a non-zero exit code; no tracebacks reach the user.
The command names and JSON keys here are contracts that tests and scripts rely on.  The helpers
every capability's sub-commands share (a variant from ``NAME --set K=V``, a start position from
``--position``/``--to-move``, the one-line error and the exit codes) are public in
:mod:`tafl_desktop.command_line`; the capabilities' own commands (``lab``, ``analyse``, ``convert``,
``puzzles``...) are registered from the modules in :data:`CAPABILITY_COMMANDS`.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from typing import Any, NoReturn

from tafl_desktop import __version__
from tafl_desktop.command_line import EXIT_ERROR, EXIT_ILLEGAL, CliError, float_in, int_in, sets_text
from tafl_desktop.command_line import number_text as _number_text
from tafl_desktop.command_line import quote_value as _quote
from tafl_desktop.command_line import shown as _shown
from tafl_desktop.command_line import start_position as _start
from tafl_desktop.command_line import variant_arg as _variant
from tafl_desktop.core.quoting import os_reason
from tafl_desktop.i18n import _, ngettext
from tafl_desktop.native.bridge import ENGINES as ENGINE_NAMES

__all__ = ["CAPABILITY_COMMANDS", "EXIT_ERROR", "EXIT_ILLEGAL", "CliError", "build_parser", "main", "sets_text"]

BENCH_VARIANTS = (("brandubh", 4), ("tablut", 3), ("copenhagen", 3), ("alea_evangelii", 2))

#: Modules that add a capability's sub-commands: each has ``register(sub)`` taking the argparse
#: sub-parsers object.  They keep heavy imports inside their command functions, so start-up stays fast.
CAPABILITY_COMMANDS: tuple[str, ...] = ("tafl_desktop.lab.cli", "tafl_desktop.analysis.cli",
                                        "tafl_desktop.interop.cli", "tafl_desktop.study.commands",
                                        "tafl_desktop.match.cli",
                                        "tafl_desktop.gamedb.cli")


def _game_json(game) -> dict[str, Any]:
    rules = game.rules
    variant = rules.variant
    g = variant.geometry
    out = game.outcome
    result = None if out is None else "draw" if out.winner is None else variant.side_key(out.winner)
    return {
        "variant": variant.id,
        "position": rules.position_text(game.position),
        "to_move": variant.side_key(rules.side_to_move(game.position)),
        "result": result,
        "reason": out.reason if out else None,
        "moves": game.move_texts(),
        "captures": [[g.name(s) for s in p.captures] for p in game.plies],
    }


def _print_game_text(game) -> None:
    """The game for a reader: position, side to move, result, and the moves numbered as the move
    list numbers them (one number per turn of both sides)."""
    from tafl_desktop.core.move_numbers import numbered_lines

    data = _game_json(game)
    variant = game.rules.variant
    print(_("position: {position}").format(position=data["position"]))
    print(_("to move:  {side}").format(side=variant.side_names[int(game.rules.side_to_move(game.position))]))
    if game.outcome is not None:
        print(_("result:   {result}").format(result=game.outcome.describe(variant)))
    g = variant.geometry
    texts = [m + (f" x{','.join(g.name(s) for s in p.captures)}" if p.captures else "")
             for m, p in zip(data["moves"], game.plies, strict=True)]
    for line in numbered_lines(game, texts):
        print(line)


# ----------------------------------------------------------------------------------- commands
def cmd_variants(args) -> int:
    from tafl_desktop.core.variants import VariantError, presets

    try:
        table = presets()
    except VariantError as exc:
        raise CliError(str(exc)) from None
    if args.json:
        print(json.dumps([{"id": v.id, "name": v.name, "family": v.family, "size": v.size_text}
                          for v in table.values()], indent=1))
    else:
        for v in table.values():
            print(v.id)
    return 0


def cmd_rules(args) -> int:
    from tafl_desktop.core.rulebook import rules_text

    print(rules_text(_variant(args.variant, args.set)), end="")
    return 0


def _engine(requested: str | None, variant) -> str:
    """The engine ``--engine`` names (default: native where it is built and plays the family)."""
    from tafl_desktop.native import resolve_engine

    try:
        return resolve_engine(requested, variant)
    except ValueError as exc:
        raise CliError(str(exc)) from None


def cmd_perft(args) -> int:
    from tafl_desktop.core.playout import perft

    v = _variant(args.variant, args.set)
    engine = _engine(args.engine, v)
    if engine == "native":
        from tafl_desktop.native import interruptible, native_rules

        native = native_rules(v)  # the core's rules interface too: it parses --position
        here = _start(native, args.position, args.to_move)
        if args.depth < 0 or args.depth > 8:
            raise CliError(_("DEPTH must be from 0 to 8"))
        print(interruptible(native.perft, here, args.depth))
        return 0
    rules = v.make_rules()
    pos = _start(rules, args.position, args.to_move)
    if args.depth < 0 or args.depth > 8:
        raise CliError(_("DEPTH must be from 0 to 8"))
    print(perft(rules, pos, args.depth))
    return 0


def cmd_play(args) -> int:
    from tafl_desktop.core.game import Game, IllegalMove

    v = _variant(args.variant, args.set)
    rules = v.make_rules()
    game = Game(rules, _start(rules, args.position, args.to_move))
    from tafl_desktop.core.move_numbers import next_move_number

    for text in args.moves.split() if args.moves else []:
        try:
            game.play_text(text)
        except IllegalMove as exc:
            raise CliError(_("move {number}: {error}").format(number=next_move_number(game), error=exc),
                           EXIT_ILLEGAL) from None
    if args.json:
        print(json.dumps(_game_json(game)))
    else:
        _print_game_text(game)
    return 0


def cmd_replay(args) -> int:
    from tafl_desktop.core.record import RecordError, load_game

    try:
        game = load_game(args.file)
    except RecordError as exc:
        raise CliError(str(exc), EXIT_ILLEGAL if "cannot be played" in str(exc) else EXIT_ERROR) from None
    if args.json:
        print(json.dumps(_game_json(game)))
    else:
        _print_game_text(game)
    return 0


def bench_variant(name: str, depth: int, seconds: float, seed: int = 1, engine: str = "python") -> dict[str, Any]:
    """Perft and random-playout figures for one preset (the `bench` command and benchmarks/), on
    ``engine`` ("python": the core; "native": the native engine)."""
    from tafl_desktop.core.variants import find_variant

    variant = find_variant(name)
    if engine == "native":
        from tafl_desktop.native import native_rules
        from tafl_desktop.native.bridge import interruptible

        native = native_rules(variant)
        first = native.initial_position()
        t0 = time.process_time()
        # in a helper thread, so that Ctrl+C stops the command at once (as it does perft)
        nodes = interruptible(native.perft, first, depth)
        perft_s = time.process_time() - t0
        games, plies, elapsed = interruptible(lambda: native.playouts_for(first, seconds, seed=seed, max_plies=2000))
    else:
        from tafl_desktop.core.playout import perft, random_playout

        rules = variant.make_rules()
        start = rules.initial_position()
        t0 = time.process_time()
        nodes = perft(rules, start, depth)
        perft_s = time.process_time() - t0
        rng = random.Random(seed)
        plies = games = 0
        t0 = time.process_time()
        while time.process_time() - t0 < seconds:
            _pos, n, _out = random_playout(rules, start, rng, max_plies=2000)
            plies += n
            games += 1
        elapsed = time.process_time() - t0
    return {
        "variant": name,
        "perft_depth": depth,
        "perft_nodes": nodes,
        "perft_seconds": round(perft_s, 4),
        "playout_games": games,
        "playout_plies": plies,
        "playout_moves_per_second": round(plies / elapsed) if elapsed else 0,
    }


def cmd_bench(args) -> int:
    engine = _engine(args.engine, None)
    rows = [bench_variant(name, depth, args.seconds, engine=engine) for name, depth in BENCH_VARIANTS]
    if args.json:
        print(json.dumps({"engine": engine, "variants": rows}, indent=1))
    else:
        print(_("engine: {engine}").format(engine=engine))
        print(f"{_('variant'):16} {_('depth'):>5} {_('perft nodes'):>12} {_('perft s'):>8} "
              f"{_('playout moves/s'):>16}")
        for r in rows:
            print(f"{r['variant']:16} {r['perft_depth']:>5} {r['perft_nodes']:>12} {r['perft_seconds']:>8.3f} "
                  f"{r['playout_moves_per_second']:>16}")
    return 0


def _check_out(path: str) -> None:
    """Refuse an output path that is empty, a folder, a device or a pipe before any work is done."""
    from tafl_desktop.core.safe_files import resolve_target

    try:
        resolve_target(path)
    except OSError as exc:
        raise CliError(_("cannot write {path}: {reason}").format(path=_shown(path) or "''",
                                                                 reason=os_reason(exc))) from None


def cmd_gui(args) -> int:
    try:
        from tafl_desktop.gui.app import run_app
    except ImportError as exc:
        raise CliError(_("the window cannot start: {error}").format(error=exc)) from None
    return run_app(args.file, variant=args.variant)


def cmd_screenshot(args) -> int:
    v = _variant(args.variant, args.set)
    w, h = args.size
    _check_out(args.out)
    try:
        from tafl_desktop.gui.screenshot import render_screenshot
    except ImportError as exc:
        raise CliError(_("the window cannot start: {error}").format(error=exc)) from None
    try:
        render_screenshot(v, args.out, (w, h))
    except OSError as exc:
        raise CliError(_("cannot write {path}: {error}").format(path=_shown(args.out),
                                                               error=os_reason(exc))) from None
    return 0


def cmd_selfplay(args) -> int:
    v = _variant(args.variant, args.set)
    try:
        from tafl_desktop.ai.selfplay import run_selfplay
    except ImportError as exc:
        raise CliError(_("the computer player is not available: {error}").format(error=exc)) from None
    try:
        engine = getattr(args, "engine", None)
        engines = (args.attackers_engine or engine, args.defenders_engine or engine)
        from tafl_desktop.gamedb.lab_games import GameSink, level_tags

        sink = None if args.no_game_db else GameSink("selfplay")
        data = v.to_data()

        def into_db(result: dict[str, Any], pair: tuple[str, str]) -> None:
            if sink is not None:
                sink.add(data, result["moves"], level_tags(args.attackers, args.defenders, "/".join(pair),
                                                           seed=args.seed))

        report = run_selfplay(v, games=args.games, attackers=args.attackers, defenders=args.defenders,
                              jobs=args.jobs, seed=args.seed, engines=engines, move_time=args.move_time,
                              swap=args.swap, on_game=into_db)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    if sink is not None:
        sink.close()
        if sink.problem:
            print(_("tafl-desktop: {problem}").format(problem=sink.problem), file=sys.stderr)
    if args.json:
        print(json.dumps(report))
    else:
        print_selfplay(v, report)
    return 0


def print_selfplay(v: Any, report: dict[str, Any]) -> None:
    """The self-play report for a reader: the variant's own side names, the language's numbers,
    levels and endings in words (their keys, as ``--attackers`` spells them, under ``--json``)."""
    from tafl_desktop.ai.levels import LEVELS
    from tafl_desktop.core.game import Outcome
    from tafl_desktop.core.marks import decimal, integer, plural_number
    from tafl_desktop.study.commands import in_line

    att, dfn = v.side_names

    def ending(reason: str) -> str:
        if reason == "ply_limit":
            return _("stopped at the ply limit")
        return in_line(Outcome(None, reason).reason_text(v))

    def level(key: str) -> str:
        return _(LEVELS[key].label) if key in LEVELS else key

    endings = ", ".join(_("{ending} ({n})").format(ending=ending(k), n=integer(n))
                        for k, n in report["reasons"].items())
    lines = [
        _("variant: {name} ({id})").format(name=v.title, id=v.id),
        ngettext("games: {n}, with {processes} process, seed {seed}",
                 "games: {n}, with {processes} processes, seed {seed}", report["jobs"]).format(
            n=integer(report["games"]), processes=integer(report["jobs"]), seed=report["seed"]),
        _("levels: {side} {level}").format(side=att, level=level(report["attackers"])),
        _("levels: {side} {level}").format(side=dfn, level=level(report["defenders"])),
        _("wins: {side} {n}").format(side=att, n=integer(report["attackers_wins"])),
        _("wins: {side} {n}").format(side=dfn, n=integer(report["defenders_wins"])),
        _("draws: {n}, of them stopped at the {limit}-ply limit: {capped}").format(
            n=integer(report["draws"]), limit=integer(report["max_plies"]), capped=integer(report["capped"])),
        _("endings: {endings}").format(endings=endings or "-"),
        ngettext("average length: {plies} ply", "average length: {plies} plies",
                 plural_number(report["average_length"], 1)).format(plies=decimal(report["average_length"], 1)),
        _("average search depth: {side} {depth}").format(side=att, depth=decimal(report["average_depth_attackers"], 2)),
        _("average search depth: {side} {depth}").format(side=dfn, depth=decimal(report["average_depth_defenders"], 2)),
        ngettext("speed: {nodes} position searched per second", "speed: {nodes} positions searched per second",
                 int(report["nodes_per_second"])).format(nodes=integer(report["nodes_per_second"])),
        ngettext("speed: {plies} ply played per second", "speed: {plies} plies played per second",
                 plural_number(report["plies_per_second"], 2)).format(plies=decimal(report["plies_per_second"], 2)),
        _("time: {seconds} s (time scale {scale})").format(
            seconds=decimal(report["seconds"], 1), scale=decimal(report["time_scale"], 1)),
    ]
    for line in lines:
        print(line)


def _balance_report(folder: str) -> dict[str, Any]:
    """The report of the Rules Lab study in ``folder``, for the rule sheet's balance chart."""
    from tafl_desktop.lab.cli import warn_problems
    from tafl_desktop.lab.report import summary
    from tafl_desktop.lab.store import ResultStore
    from tafl_desktop.lab.study import StudyError

    try:
        store = ResultStore.open(folder)
    except StudyError as exc:
        raise CliError(_("--balance: {error}").format(error=exc)) from None
    warn_problems(store)
    return summary(store)


def cmd_print(args) -> int:
    from tafl_desktop.printing.maker import cli as maker

    v = _variant(args.variant, args.set)
    problem = maker.format_mismatch(args) or (maker.check_pdf_arguments(args) if args.format == "pdf" else None)
    if problem:
        raise CliError(problem)
    _check_out(args.out)
    if args.format != "pdf":  # the makers' files: laser board, 3D-printed pieces
        return maker.run(args, v, CliError)
    try:
        from tafl_desktop.printing import PrintError, build_set
    except ImportError as exc:
        raise CliError(_("printing is not available: {error}").format(error=exc)) from None
    parts = [p.strip() for p in args.parts.split(",") if p.strip()] if args.parts else None
    balance = _balance_report(args.balance) if args.balance else None
    try:
        build_set(v, out=args.out, paper=args.paper, orientation=args.orientation, square_mm=args.square_mm,
                  parts=parts, draught_mm=args.draught_mm, balance=balance, tactile=args.tactile)
    except PrintError as exc:
        raise CliError(str(exc)) from None
    except OSError as exc:
        raise CliError(_("cannot write {path}: {error}").format(path=_shown(args.out),
                                                               error=os_reason(exc))) from None
    return 0


# ------------------------------------------------------------------------------------- parser
#: Upper bounds of the numeric arguments (a bound is a promise that the command ends).
MAX_GAMES = 100_000
MAX_SECONDS = 3600.0
MAX_SEED = 2**63 - 1
SIZE_RANGE = ((480, 7680), (360, 4320))


def _jobs_limit() -> int:
    """More processes than cores only slows every game down."""
    import os

    return max(1, os.cpu_count() or 1)


def window_size(text: str) -> tuple[int, int]:
    """An argparse type: ``WxH`` in pixels, each within :data:`SIZE_RANGE`."""
    import re

    m = re.fullmatch(r"\s*(\d{1,5})[xX](\d{1,5})\s*", text, flags=re.ASCII)
    if not m:
        raise argparse.ArgumentTypeError(_("must look like 1200x800, got {value}").format(value=_quote(text)))
    w, h = int(m.group(1)), int(m.group(2))
    (w0, w1), (h0, h1) = SIZE_RANGE
    if not (w0 <= w <= w1 and h0 <= h <= h1):
        raise argparse.ArgumentTypeError(ngettext(
            "{w}x{h} is out of range: width {w0} to {w1}, height {h0} to {h1} pixel",
            "{w}x{h} is out of range: width {w0} to {w1}, height {h0} to {h1} pixels", h1).format(
            w=w, h=h, w0=w0, w1=w1, h0=h0, h1=h1))
    return w, h


class OneLineParser(argparse.ArgumentParser):
    """argparse with errors as one line (usage is for ``--help``): a bad argument reads like every
    other error of the program, escaped and shortened."""

    def error(self, message: str) -> NoReturn:
        from tafl_desktop.core.quoting import shown

        text = shown(message, 1000)  # the list of commands a mistyped one is chosen from fits whole
        self.exit(2, _("{prog}: error: {message} (see {prog} --help)").format(prog=self.prog, message=text) + "\n")



#: Commands defined here that need none of the capability modules nor the makers' print options
#: (``variants`` is not one: the interop module adds ``--rules-string`` to it): a command line
#: starting with one of them gets a parser without those (start-up is most of a short command's
#: time, e.g. ``perft copenhagen 4`` on the native engine).
QUICK_COMMANDS = ("rules", "perft", "play", "replay", "bench")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line, its help in the language in use (choose it before building: the texts are
    read here, and argparse reads its own headings here too); with ``command`` one of
    :data:`QUICK_COMMANDS`, only as much of it as that command needs (the other commands' options
    may then be missing)."""
    import importlib

    localise_argparse()
    quick = command in QUICK_COMMANDS
    p = OneLineParser(
        prog="tafl-desktop", description=_("Play and print the old Nordic hunt games."),
        epilog=_("Without a command the window opens: 'tafl-desktop [FILE] [--variant ID]' is 'tafl-desktop gui "
                 "[FILE] [--variant ID]'."))
    p.add_argument("--version", action="version", version=f"tafl-desktop {__version__}",
                   help=_("show the program's version number and exit"))
    p.add_argument("--self-test", action="store_true",
                   help=_("open the window offscreen, play a move, export a one-page PDF, exit 0 if all worked"))
    sub = p.add_subparsers(dest="command", title=_("commands"), metavar="COMMAND")
    json_help = _("print the result as JSON (keys and values in English)")
    set_help = _("change a rule toggle (repeatable)")

    g = sub.add_parser("gui", help=_("open the window (the default)"))
    g.add_argument("file", nargs="?", metavar="FILE", help=_("a saved game to open"))
    g.add_argument("--variant", help=_("start a new game of this preset"))
    g.set_defaults(func=cmd_gui)

    s = sub.add_parser("variants", help=_("list the preset ids"))
    s.add_argument("--json", action="store_true", help=json_help)
    s.set_defaults(func=cmd_variants)

    s = sub.add_parser("rules", help=_("print the rules in force for a variant and toggles"))
    s.add_argument("variant", metavar="VARIANT", help=_("preset id or variant file"))
    s.add_argument("--set", action="append", metavar="KEY=VALUE", help=set_help)
    s.set_defaults(func=cmd_rules)

    def position_args(sp):
        sp.add_argument("--position", help=_("start position in row notation, top row first"))
        sp.add_argument("--to-move", help=_("side to move in --position (attackers/defenders, or the variant's "
                                            "side names such as geese/fox)"))
        sp.add_argument("--set", action="append", metavar="KEY=VALUE", help=set_help)

    s = sub.add_parser("perft", help=_("count the leaves of the move tree"), description=_(
        "Count the leaves of the legal-move tree to DEPTH plies from the start (or --position). Legality "
        "rules that depend on the game's history are honoured along each line (with repetition="
        "defenders_no_repeat a defenders' move that recreates a board of the line is not counted); results "
        "that need the history (repetition, moves without a capture) are left out, as in chess perft."))
    s.add_argument("variant", metavar="VARIANT", help=_("preset id or variant file"))
    s.add_argument("depth", type=int_in(0, 8), metavar="DEPTH", help=_("how many plies deep to count, 0 to 8"))
    position_args(s)
    engine_arg(s)
    s.set_defaults(func=cmd_perft)

    s = sub.add_parser("play", help=_("apply moves and print the resulting game"))
    s.add_argument("variant", metavar="VARIANT", help=_("preset id or variant file"))
    s.add_argument("--moves", default="", help=_('space-separated moves, e.g. "e1-e5 f4-f2"'))
    s.add_argument("--json", action="store_true", help=json_help)
    position_args(s)
    s.set_defaults(func=cmd_play)

    s = sub.add_parser("replay", help=_("replay a saved game record"))
    s.add_argument("file", metavar="FILE", help=_("the game record"))
    s.add_argument("--json", action="store_true", help=json_help)
    s.set_defaults(func=cmd_replay)

    s = sub.add_parser("screenshot", help=_("render the window with a preset's start position to a PNG"))
    s.add_argument("--variant", required=True, help=_("preset id or variant file"))
    s.add_argument("--out", required=True, help=_("the PNG file to write"))
    s.add_argument("--size", default="1200x800", type=window_size,
                   help=_("window size WxH (480x360 to 7680x4320)"))
    s.add_argument("--set", action="append", metavar="KEY=VALUE", help=set_help)
    s.set_defaults(func=cmd_screenshot)

    s = sub.add_parser("selfplay", help=_("computer against computer: wins per side, draws, speed"))
    s.add_argument("variant", metavar="VARIANT", help=_("preset id or variant file"))
    s.add_argument("--games", type=int_in(1, MAX_GAMES), default=10, help=_("how many games (default 10)"))
    s.add_argument("--attackers", default="medium", help=_("level of the attackers' computer player"))
    s.add_argument("--defenders", default="medium", help=_("level of the defenders' computer player"))
    s.add_argument("--jobs", type=int_in(1, _jobs_limit), default=1,
                   help=_("games played in parallel processes (1 to the number of cores)"))
    s.add_argument("--seed", type=int_in(-MAX_SEED, MAX_SEED), default=1,
                   help=_("seed of the computer players' random choices (default 1)"))
    s.add_argument("--json", action="store_true", help=json_help)
    s.add_argument("--set", action="append", metavar="KEY=VALUE", help=set_help)
    s.add_argument("--engine", choices=ENGINE_NAMES,
                   help=_("search engine of both sides (default: native where built)"))
    s.add_argument("--attackers-engine", choices=ENGINE_NAMES, help=_("search engine of the attackers"))
    s.add_argument("--defenders-engine", choices=ENGINE_NAMES, help=_("search engine of the defenders"))
    s.add_argument("--move-time", type=float_in(0.01, 600.0), default=None,
                   help=_("seconds per move for both sides instead of the levels' node budgets"))
    s.add_argument("--swap", action="store_true",
                   help=_("swap the sides' engines every other game (an engine match, colours swapped)"))
    s.add_argument("--no-game-db", action="store_true",
                   help=_("do not add the games to the game database (source selfplay)"))
    s.set_defaults(func=cmd_selfplay)

    s = sub.add_parser("print", help=_("write a printable set (board, pieces, rules, markers) as PDF, or a maker's "
                                       "file: the board for a laser cutter (svg, dxf), pieces for a 3D printer "
                                       "(stl, 3mf)"))
    s.add_argument("variant", metavar="VARIANT", help=_("preset id or variant file"))
    s.add_argument("--out", required=True, help=_("the file to write (.pdf, or .svg, .dxf, .stl, .3mf)"))
    s.add_argument("--paper", choices=("a4", "letter"), default="a4", help=_("paper size (default a4)"))
    s.add_argument("--orientation", choices=("portrait", "landscape"), default="portrait",
                   help=_("page orientation (default portrait)"))
    s.add_argument("--square-mm", type=float_in(0.0, 1000.0), default=None,
                   help=_("size of one board square in mm, 8 to 80 (default: the largest that fits one page, at "
                          "most 30; 25 for a maker's file); on point-and-line boards it is the point spacing: the "
                          "distance between neighbouring points on the Fox games' cross, between neighbouring grid "
                          "lines on the Dablot lattice (its centre points lie half-way); pieces are sized to it"))
    s.add_argument("--parts", default=None,
                   help=_("comma list of board,pieces,rules,standees,markers (default: all that apply); svg and dxf "
                          "carry the board, stl and 3mf pieces, board (the peg board) and markers"))
    s.add_argument("--draught-mm", type=float_in(0.0, 1000.0), default=30.0,
                   help=_("draught diameter for Dablot rank markers, 15 to 60 mm"))
    s.add_argument("--balance", metavar="DIR", help=_("add the chart of a Rules Lab study (its --out folder) to "
                                                      "the rule sheet"))
    s.add_argument("--set", action="append", metavar="KEY=VALUE", help=set_help)
    if not quick:
        from tafl_desktop.printing.maker import cli as maker_cli

        maker_cli.add_arguments(s, float_in)
    s.set_defaults(func=cmd_print)

    _add_bench(sub)

    for module_name in () if quick else CAPABILITY_COMMANDS:
        importlib.import_module(module_name).register(sub)
    _add_lang_option(p, top=True)
    _add_lang_to_commands(p)
    _ascii_numbers(p)
    return p


def whole_number(text: str) -> int:
    """An argparse type: a whole number in ASCII digits."""
    return int(_number_text(text, False))


def finite_number(text: str) -> float:
    """An argparse type: a finite number in ASCII digits (no 'inf', 'nan' or '1e400')."""
    import math

    value = float(_number_text(text, True))
    if not math.isfinite(value):  # '1e400': written as a number, but no float holds it
        raise argparse.ArgumentTypeError(_("{value} is not a number").format(value=_quote(text)))
    return value


def _ascii_numbers(parser: argparse.ArgumentParser) -> None:
    """Every number any command reads from its arguments, a capability's too, is read in ASCII
    digits: argparse's own ``int`` and ``float`` would take '٣' (``--games ٣`` playing 3 games),
    '1_000', 'inf' or 'nan'.  Walks the parser and its sub-commands (a loop, not recursion)."""
    stack = [parser]
    while stack:
        current = stack.pop()
        for action in current._actions:  # argparse keeps the options here (see _command_names)
            if action.type is int:
                action.type = whole_number
            elif action.type is float:
                action.type = finite_number
            if isinstance(action, argparse._SubParsersAction):
                stack.extend(action.choices.values())


LANG_CODES = ("en", "da", "de", "fr", "ru")


def _language_code(text: str) -> str:
    """An argparse type: a shipped language, or the pseudo-locale a tester asks for by name."""
    from tafl_desktop.i18n import PSEUDO

    if text in LANG_CODES or text == PSEUDO:
        return text
    raise argparse.ArgumentTypeError(_("{value} is not a language: use {codes}").format(
        value=_quote(text), codes=", ".join(LANG_CODES)))


def _add_lang_option(parser: argparse.ArgumentParser, top: bool = False) -> None:
    """``--lang`` on the program and on every sub-command (a capability's too); the sub-command's
    copy must not overwrite a value given before the command, hence SUPPRESS."""
    if any("--lang" in a.option_strings for a in parser._actions):
        return
    parser.add_argument("--lang", type=_language_code, metavar="{" + ",".join(LANG_CODES) + "}",
                        default=None if top else argparse.SUPPRESS,
                        help=_("language of the window, printed set and messages (default: $TAFL_LANG or the "
                               "system's)"))


def _add_lang_to_commands(parser: argparse.ArgumentParser) -> None:
    """``--lang`` on every command and on the commands of commands (``puzzles mine``, ``lab run``),
    so that it may follow their own arguments too."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sp in action.choices.values():
                _add_lang_option(sp)
                _add_lang_to_commands(sp)


def language_asked(argv: Sequence[str]) -> str | None:
    """The value of the first ``--lang`` in ``argv`` (before or after the command), read before
    the parser is built so that ``--help`` and argparse's own messages speak that language."""
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--lang="):
            return arg.partition("=")[2]
    return None


def localise_argparse() -> None:
    """Let argparse's own words ("usage:", "options", "the following arguments are required")
    come from our catalogue.  argparse looks its texts up through the module-level names ``_``
    and ``ngettext`` it imported from :mod:`gettext` (the system's "messages" domain, which we do
    not ship); pointing those two names at our translation functions is the one documented hook
    short of subclassing every formatter and action.  The texts themselves are listed in
    :mod:`tafl_desktop.argparse_words` so that the catalogue holds them."""
    from tafl_desktop import i18n

    argparse._ = i18n._  # type: ignore[attr-defined]
    argparse.ngettext = i18n.ngettext  # type: ignore[attr-defined]


#: Options of the program itself (everything else before a command belongs to ``gui``).
TOP_LEVEL_OPTIONS = ("-h", "--help", "--version", "--self-test")
#: Top-level options that take a value (the value is skipped when finding the command).
TOP_LEVEL_VALUED = ("--lang",)


def _looks_like_a_file(text: str) -> bool:
    """A bare word that names a game file rather than a mistyped command: it exists, or it has a
    folder or a suffix in it (``game.tafl.json``, ``saves/game``)."""
    import os

    return os.path.exists(text) or os.sep in text or "/" in text or "." in text


def with_default_command(argv: Sequence[str], commands: Sequence[str]) -> list[str]:
    """``tafl-desktop FILE`` and ``tafl-desktop --variant ID`` mean ``tafl-desktop gui ...``, as
    the window is the default: put ``gui`` in front of the first argument that is neither an
    option of the program itself nor a command.  A bare word that is no file is left alone, so a
    mistyped command still gets argparse's "invalid choice" message instead of a window."""
    out = list(argv)
    skip = False
    for i, arg in enumerate(out):
        if skip or arg in TOP_LEVEL_OPTIONS or arg.startswith("--lang="):
            skip = False
            continue
        if arg in TOP_LEVEL_VALUED:
            skip = True
            continue
        if arg in commands or (not arg.startswith("-") and not _looks_like_a_file(arg)):
            return out
        return out[:i] + ["gui"] + out[i:]
    return out


def engine_arg(sp) -> None:
    """``--engine native|python`` (a contract of ``perft`` and ``bench``)."""
    sp.add_argument("--engine", choices=("native", "python"), default=None,
                    help=_("rules engine: native (Rust, the default where it is built) or python (the core)"))


def _add_bench(sub) -> None:
    s = sub.add_parser("bench", help=_("perft and random-playout speed on four presets"))
    s.add_argument("--json", action="store_true", help=_("print the result as JSON (keys and values in English)"))
    s.add_argument("--seconds", type=float_in(0.01, MAX_SECONDS), default=2.0,
                   help=_("playout time per variant (CPU seconds, at most 3600)"))
    engine_arg(s)
    s.set_defaults(func=cmd_bench)


def _command_names(parser: argparse.ArgumentParser) -> list[str]:
    for action in parser._actions:  # argparse keeps the sub-commands on its subparsers action
        if isinstance(action, argparse._SubParsersAction):
            return list(action.choices)
    return []


def main(argv: Sequence[str] | None = None) -> int:
    from tafl_desktop.i18n import normalise, set_language

    argv = list(argv if argv is not None else sys.argv[1:])
    asked = language_asked(argv)
    set_language(asked if asked and normalise(asked) else None)  # a bad value: argparse says so below
    parser = build_parser(argv[0] if argv else None)
    args = parser.parse_args(with_default_command(argv, _command_names(parser)))
    set_language(getattr(args, "lang", None))
    if args.self_test:
        try:
            from tafl_desktop.selftest import run_self_test
        except ImportError as exc:
            print(_("tafl-desktop: the self-test is not available: {error}").format(error=exc), file=sys.stderr)
            return EXIT_ERROR
        return run_self_test()
    if args.command is None:
        args = parser.parse_args(["gui", *argv])
    try:
        return args.func(args)
    except CliError as exc:
        print(_("tafl-desktop: {error}").format(error=exc), file=sys.stderr)
        return exc.code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
