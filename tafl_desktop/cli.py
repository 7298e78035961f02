"""One argparse front door: the window (default) and the command-line tools.

Every error is one line on stderr and a non-zero exit code; no tracebacks reach the user.
The command names and JSON keys here are contracts that tests and scripts rely on.
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
from tafl_desktop.i18n import _
from tafl_desktop.native.bridge import ENGINES as ENGINE_NAMES

EXIT_ERROR = 1
EXIT_ILLEGAL = 2

BENCH_VARIANTS = (("brandubh", 4), ("tablut", 3), ("copenhagen", 3), ("alea_evangelii", 2))

#: Modules that add a capability's sub-commands: each has ``register(sub)`` taking the argparse
#: sub-parsers object.  They keep heavy imports inside their command functions, so start-up stays fast.
CAPABILITY_COMMANDS: tuple[str, ...] = ("tafl_desktop.lab.cli", "tafl_desktop.analysis_cli",
                                        "tafl_desktop.interop.cli", "tafl_desktop.study.commands")


class CliError(Exception):
    """A user-facing failure: printed as one line, exits with ``code``."""

    def __init__(self, message: str, code: int = EXIT_ERROR) -> None:
        super().__init__(message)
        self.code = code


# ------------------------------------------------------------------------------------ helpers
def _shown(text: object) -> str:
    """A path or value from the command line, as a message repeats it (shortened, escaped)."""
    from tafl_desktop.core.quoting import shown

    return shown(text)


def _variant(name: str, sets: Sequence[str] | None):
    from tafl_desktop.core.variants import VariantError, find_variant

    try:
        v = find_variant(name)
        if sets:
            changes = v.schema.parse_assignments(sets)
            v = v.with_options(changes)
            for key, value in changes.items():
                # a toggle that would not apply is refused, not silently ignored (the panel greys it)
                why = v.schema.inactive_reason(key, v.options)
                if why and value != v.schema[key].default:
                    raise CliError(_("--set {key}={value}: {why}").format(key=key, value=sets_text(value), why=why))
        return v
    except (VariantError, ValueError) as exc:
        raise CliError(str(exc)) from None


def sets_text(value: object) -> str:
    """A toggle's value as ``--set`` writes it."""
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _start(rules, position: str | None, to_move: str | None):
    variant = rules.variant
    if position is None:
        if to_move is not None:
            pos = rules.initial_position()
            try:
                return rules.parse_position(rules.position_text(pos), variant.parse_side(to_move))
            except ValueError as exc:
                raise CliError(str(exc)) from None
        return rules.initial_position()
    try:
        side = variant.parse_side(to_move) if to_move else variant.first_side
        return rules.parse_position(position, side)
    except ValueError as exc:
        raise CliError(_("--position: {error}").format(error=exc)) from None


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
    data = _game_json(game)
    print(_("position: {position}").format(position=data["position"]))
    print(_("to move:  {side}").format(side=data["to_move"]))
    if data["result"]:
        print(_("result:   {result} ({reason})").format(result=data["result"], reason=data["reason"]))
    for i, (m, c) in enumerate(zip(data["moves"], data["captures"], strict=True), 1):
        print(f"{i:4}. {m}" + (f"  x {' '.join(c)}" if c else ""))


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
        from tafl_desktop.native import interruptible, make_rules

        rules = make_rules(v, "native")  # the core's rules interface too: it parses --position
        pos = _start(rules, args.position, args.to_move)
        if args.depth < 0 or args.depth > 8:
            raise CliError(_("DEPTH must be from 0 to 8"))
        print(interruptible(rules.perft, pos, args.depth))
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
    for i, text in enumerate(args.moves.split() if args.moves else [], 1):
        try:
            game.play_text(text)
        except IllegalMove as exc:
            raise CliError(_("move {number}: {error}").format(number=i, error=exc), EXIT_ILLEGAL) from None
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
        from tafl_desktop.native import make_rules

        rules = make_rules(variant, "native")
        start = rules.initial_position()
        t0 = time.process_time()
        nodes = rules.perft(start, depth)
        perft_s = time.process_time() - t0
        games, plies, elapsed = rules.playouts_for(start, seconds, seed=seed, max_plies=2000)
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
        print(f"{'variant':16} {'depth':>5} {'perft nodes':>12} {'perft s':>8} {'playout moves/s':>16}")
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
                                                                 reason=exc.strerror or exc)) from None


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
                                                               error=exc.strerror or exc)) from None
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
        report = run_selfplay(v, games=args.games, attackers=args.attackers, defenders=args.defenders,
                              jobs=args.jobs, seed=args.seed, engines=engines, move_time=args.move_time,
                              swap=args.swap)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    if args.json:
        print(json.dumps(report))
    else:
        for k, val in report.items():
            print(f"{k}: {val}")
    return 0


def _balance_report(folder: str) -> dict[str, Any]:
    """The report of the Rules Lab study in ``folder``, for the rule sheet's balance chart."""
    from tafl_desktop.lab.cli import _warn
    from tafl_desktop.lab.report import summary
    from tafl_desktop.lab.store import ResultStore
    from tafl_desktop.lab.study import StudyError

    try:
        store = ResultStore.open(folder)
    except StudyError as exc:
        raise CliError(f"--balance: {exc}") from None
    _warn(store)
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
                  parts=parts, draught_mm=args.draught_mm, balance=balance)
    except PrintError as exc:
        raise CliError(str(exc)) from None
    except OSError as exc:
        raise CliError(_("cannot write {path}: {error}").format(path=_shown(args.out),
                                                               error=exc.strerror or exc)) from None
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


def _number_text(text: str, allow_fraction: bool) -> str:
    """``text`` if it is a plain ASCII number (no '٣', no '1_000', no 'inf' or 'nan'); else an error."""
    import re

    pattern = r"-?\d{1,18}(\.\d{1,9})?" if allow_fraction else r"-?\d{1,19}"
    t = text.strip()
    if not re.fullmatch(pattern, t, flags=re.ASCII):
        message = _("{value} is not a number") if allow_fraction else _("{value} is not a whole number")
        raise argparse.ArgumentTypeError(message.format(value=_quote(text)))
    return t


def _quote(value: object) -> str:
    from tafl_desktop.core.quoting import quote

    return quote(value)


def int_in(low: int, high: int | None = None):
    """An argparse type: a whole number from ``low`` to ``high`` (``high`` may be a function, read
    when the argument is checked)."""

    def parse(text: str) -> int:
        value = int(_number_text(text, False))
        top = high() if callable(high) else high
        if value < low or (top is not None and value > top):
            raise argparse.ArgumentTypeError(_("{value} is out of range: use {low} to {high}").format(
                value=value, low=low, high=top))
        return value

    return parse


def float_in(low: float, high: float):
    """An argparse type: a finite number from ``low`` to ``high``."""

    def parse(text: str) -> float:
        value = float(_number_text(text, True))
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(_("{value} is out of range: use {low:g} to {high:g}").format(
                value=_quote(text), low=low, high=high))
        return value

    return parse


def window_size(text: str) -> tuple[int, int]:
    """An argparse type: ``WxH`` in pixels, each within :data:`SIZE_RANGE`."""
    import re

    m = re.fullmatch(r"\s*(\d{1,5})[xX](\d{1,5})\s*", text, flags=re.ASCII)
    if not m:
        raise argparse.ArgumentTypeError(_("must look like 1200x800, got {value}").format(value=_quote(text)))
    w, h = int(m.group(1)), int(m.group(2))
    (w0, w1), (h0, h1) = SIZE_RANGE
    if not (w0 <= w <= w1 and h0 <= h <= h1):
        raise argparse.ArgumentTypeError(_("{w}x{h} is out of range: width {w0} to {w1}, height {h0} to {h1} "
                                           "pixels").format(w=w, h=h, w0=w0, w1=w1, h0=h0, h1=h1))
    return w, h


class OneLineParser(argparse.ArgumentParser):
    """argparse with errors as one line (usage is for ``--help``): a bad argument reads like every
    other error of the program, escaped and shortened."""

    def error(self, message: str) -> NoReturn:
        from tafl_desktop.core.quoting import shown

        text = shown(message, 300)
        self.exit(2, _("{prog}: error: {message} (see {prog} --help)").format(prog=self.prog, message=text) + "\n")



#: Commands defined here that need none of the capability modules nor the makers' print options
#: (``variants`` is not one: the interop module adds ``--rules-string`` to it): a command line
#: starting with one of them gets a parser without those (start-up is most of a short command's
#: time, e.g. ``perft copenhagen 4`` on the native engine).
QUICK_COMMANDS = ("rules", "perft", "play", "replay", "bench")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with ``command`` one of :data:`QUICK_COMMANDS`, only as much of
    it as that command needs (the other commands' options may then be missing)."""
    import importlib

    quick = command in QUICK_COMMANDS

    p = OneLineParser(
        prog="tafl-desktop", description="Play and print the old Nordic hunt games.",
        epilog="Without a command the window opens: 'tafl-desktop [FILE] [--variant ID]' is 'tafl-desktop gui "
        "[FILE] [--variant ID]'.")
    p.add_argument("--version", action="version", version=f"tafl-desktop {__version__}")
    p.add_argument("--self-test", action="store_true",
                   help="open the window offscreen, play a move, export a one-page PDF, exit 0 if all worked")
    sub = p.add_subparsers(dest="command")

    g = sub.add_parser("gui", help="open the window (the default)")
    g.add_argument("file", nargs="?", help="a saved game to open")
    g.add_argument("--variant", help="start a new game of this preset")
    g.set_defaults(func=cmd_gui)

    s = sub.add_parser("variants", help="list the preset ids")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_variants)

    s = sub.add_parser("rules", help="print the rules in force for a variant and toggles")
    s.add_argument("variant")
    s.add_argument("--set", action="append", metavar="KEY=VALUE", help="change a rule toggle (repeatable)")
    s.set_defaults(func=cmd_rules)

    def position_args(sp):
        sp.add_argument("--position", help="start position in row notation, top row first")
        sp.add_argument("--to-move", help="side to move in --position (attackers/defenders, or the variant's "
                        "side names such as geese/fox)")
        sp.add_argument("--set", action="append", metavar="KEY=VALUE", help="change a rule toggle (repeatable)")

    s = sub.add_parser("perft", help="count the leaves of the move tree", description=(
        "Count the leaves of the legal-move tree to DEPTH plies from the start (or --position). Legality "
        "rules that depend on the game's history are honoured along each line (with repetition="
        "defenders_no_repeat a defenders' move that recreates a board of the line is not counted); results "
        "that need the history (repetition, moves without a capture) are left out, as in chess perft."))
    s.add_argument("variant")
    s.add_argument("depth", type=int_in(0, 8))
    position_args(s)
    engine_arg(s)
    s.set_defaults(func=cmd_perft)

    s = sub.add_parser("play", help="apply moves and print the resulting game")
    s.add_argument("variant")
    s.add_argument("--moves", default="", help='space-separated moves, e.g. "e1-e5 f4-f2"')
    s.add_argument("--json", action="store_true")
    position_args(s)
    s.set_defaults(func=cmd_play)

    s = sub.add_parser("replay", help="replay a saved game record")
    s.add_argument("file")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_replay)

    s = sub.add_parser("screenshot", help="render the window with a preset's start position to a PNG")
    s.add_argument("--variant", required=True)
    s.add_argument("--out", required=True)
    s.add_argument("--size", default="1200x800", type=window_size, help="window size WxH (480x360 to 7680x4320)")
    s.add_argument("--set", action="append", metavar="KEY=VALUE", help="change a rule toggle (repeatable)")
    s.set_defaults(func=cmd_screenshot)

    s = sub.add_parser("selfplay", help="computer against computer: wins per side, draws, speed")
    s.add_argument("variant")
    s.add_argument("--games", type=int_in(1, MAX_GAMES), default=10)
    s.add_argument("--attackers", default="medium", help="level of the attackers' computer player")
    s.add_argument("--defenders", default="medium", help="level of the defenders' computer player")
    s.add_argument("--jobs", type=int_in(1, _jobs_limit), default=1,
                   help="games played in parallel processes (1 to the number of cores)")
    s.add_argument("--seed", type=int_in(-MAX_SEED, MAX_SEED), default=1)
    s.add_argument("--json", action="store_true")
    s.add_argument("--set", action="append", metavar="KEY=VALUE", help="change a rule toggle (repeatable)")
    s.add_argument("--engine", choices=ENGINE_NAMES, help="search engine of both sides (default: native where built)")
    s.add_argument("--attackers-engine", choices=ENGINE_NAMES, help="search engine of the attackers")
    s.add_argument("--defenders-engine", choices=ENGINE_NAMES, help="search engine of the defenders")
    s.add_argument("--move-time", type=float_in(0.01, 600.0), default=None,
                   help="seconds per move for both sides instead of the levels' node budgets")
    s.add_argument("--swap", action="store_true",
                   help="swap the sides' engines every other game (an engine match, colours swapped)")
    s.set_defaults(func=cmd_selfplay)

    s = sub.add_parser("print", help="write a printable set (board, pieces, rules, markers) as PDF, or a maker's "
                       "file: the board for a laser cutter (svg, dxf), pieces for a 3D printer (stl, 3mf)")
    s.add_argument("variant")
    s.add_argument("--out", required=True)
    s.add_argument("--paper", choices=("a4", "letter"), default="a4")
    s.add_argument("--orientation", choices=("portrait", "landscape"), default="portrait")
    s.add_argument("--square-mm", type=float_in(0.0, 1000.0), default=None,
                   help="size of one board square in mm, 8 to 80 (default: the largest that fits one page, at "
                   "most 30; 25 for a maker's file); on point-and-line boards it is the point spacing: the distance "
                   "between neighbouring points on the Fox games' cross, between neighbouring grid lines on the "
                   "Dablot lattice (its centre points lie half-way); pieces are sized to it")
    s.add_argument("--parts", default=None, help="comma list of board,pieces,rules,standees,markers (default: all "
                   "that apply); svg and dxf carry the board, stl and 3mf pieces, board (the peg board) and markers")
    s.add_argument("--draught-mm", type=float_in(0.0, 1000.0), default=30.0,
                   help="draught diameter for Dablot rank markers, 15 to 60 mm")
    s.add_argument("--balance", metavar="DIR", help="add the chart of a Rules Lab study (its --out folder) to "
                   "the rule sheet")
    s.add_argument("--set", action="append", metavar="KEY=VALUE", help="change a rule toggle (repeatable)")
    if not quick:
        from tafl_desktop.printing.maker import cli as maker_cli

        maker_cli.add_arguments(s, float_in)
    s.set_defaults(func=cmd_print)

    _add_bench(sub)

    for module_name in () if quick else CAPABILITY_COMMANDS:
        importlib.import_module(module_name).register(sub)
    _add_lang_option(p, top=True)
    for sp in sub.choices.values():
        _add_lang_option(sp)
    _ascii_numbers(p)
    return p


def whole_number(text: str) -> int:
    """An argparse type: a whole number in ASCII digits."""
    return int(_number_text(text, False))


def finite_number(text: str) -> float:
    """An argparse type: a finite number in ASCII digits (no 'inf', 'nan' or '1e400')."""
    return float(_number_text(text, True))


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


def _add_lang_option(parser: argparse.ArgumentParser, top: bool = False) -> None:
    """``--lang`` on the program and on every sub-command (a capability's too); the sub-command's
    copy must not overwrite a value given before the command, hence SUPPRESS."""
    if any("--lang" in a.option_strings for a in parser._actions):
        return
    parser.add_argument("--lang", choices=LANG_CODES, default=None if top else argparse.SUPPRESS,
                        help="language of the window, printed set and messages (default: $TAFL_LANG or the "
                        "system's)")


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
                    help="rules engine: native (Rust, the default where it is built) or python (the core)")


def _add_bench(sub) -> None:
    s = sub.add_parser("bench", help="perft and random-playout speed on four presets")
    s.add_argument("--json", action="store_true")
    s.add_argument("--seconds", type=float_in(0.01, MAX_SECONDS), default=2.0,
                   help="playout time per variant (CPU seconds, at most 3600)")
    engine_arg(s)
    s.set_defaults(func=cmd_bench)


def _command_names(parser: argparse.ArgumentParser) -> list[str]:
    for action in parser._actions:  # argparse keeps the sub-commands on its subparsers action
        if isinstance(action, argparse._SubParsersAction):
            return list(action.choices)
    return []


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(argv if argv is not None else sys.argv[1:])
    parser = build_parser(argv[0] if argv else None)
    args = parser.parse_args(with_default_command(argv, _command_names(parser)))
    from tafl_desktop.i18n import set_language

    set_language(getattr(args, "lang", None))
    if args.self_test:
        try:
            from tafl_desktop.selftest import run_self_test
        except ImportError as exc:
            print(f"tafl-desktop: self-test unavailable: {exc}", file=sys.stderr)
            return EXIT_ERROR
        return run_self_test()
    if args.command is None:
        args = parser.parse_args(["gui", *argv])
    try:
        return args.func(args)
    except CliError as exc:
        print(f"tafl-desktop: {exc}", file=sys.stderr)
        return exc.code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
