"""Command-line doors of the interop package: ``convert``, ``engine`` and ``variants --rules-string``.

Registered through ``CAPABILITY_COMMANDS``; imports stay inside the command functions so that
the program starts as fast with them.
"""

from __future__ import annotations

import sys


def cmd_convert(args) -> int:
    from tafl_desktop.command_line import CliError, sets_text
    from tafl_desktop.command_line import variant_arg as _variant
    from tafl_desktop.i18n import _
    from tafl_desktop.interop.formats import read_game, write_game
    from tafl_desktop.interop.transfer import InteropError, OtherRulesError

    if args.set and not args.variant:
        raise CliError(_("--set changes the rules of --variant: give the variant too"))
    variant = _variant(args.variant, args.set) if args.variant else None
    try:
        transfer = read_game(args.input, args.from_format, variant)
        warnings = transfer.warnings + write_game(transfer, args.output, args.format)
    except OtherRulesError as exc:
        if variant is None:  # the record names its own rules: nothing here can choose others
            raise CliError(str(exc)) from None
        fit = exc.fits[0]
        if fit.preset:  # a shipped preset of those rules: named as such
            raise CliError(_("{problem} To read it under the first of them, use --variant {preset}.").format(
                problem=exc, preset=fit.preset)) from None
        sets = " ".join(f"--set {k}={sets_text(v)}" for k, v in fit.changes.items())
        raise CliError(_("{problem} To read it under the first of them, add {sets}.").format(
            problem=exc, sets=sets)) from None
    except InteropError as exc:
        raise CliError(str(exc)) from None
    for w in warnings:
        print(_("tafl-desktop: warning: {text}").format(text=w), file=sys.stderr)
    return 0


def cmd_engine(args) -> int:
    from tafl_desktop.command_line import CliError
    from tafl_desktop.interop.engine import run_engine

    try:
        return run_engine(sys.stdin, sys.stdout, level=args.level)
    except ValueError as exc:
        raise CliError(str(exc)) from None


def cmd_htp(args) -> int:
    from tafl_desktop.command_line import CliError
    from tafl_desktop.interop.htp import main_htp

    if args.seconds is not None and not 0.01 <= args.seconds <= 3600:
        raise CliError("--seconds must be from 0.01 to 3600")
    try:
        return main_htp(args)
    except ValueError as exc:
        raise CliError(str(exc)) from None


def _variants_with_rules_string(previous):
    def run(args) -> int:
        if not getattr(args, "rules_string", None):
            return previous(args)
        from tafl_desktop.command_line import CliError
        from tafl_desktop.command_line import variant_arg as _variant
        from tafl_desktop.core.rules_string import RulesStringError, to_rules_string
        from tafl_desktop.i18n import _

        try:
            exported = to_rules_string(_variant(args.rules_string, None))
        except RulesStringError as exc:
            raise CliError(str(exc)) from None
        print(exported.text)
        for w in exported.warnings:
            print(_("tafl-desktop: warning: {text}").format(text=w), file=sys.stderr)
        return 0

    return run


def register(sub) -> None:
    """Add ``convert``, ``engine`` and ``htp``, and ``--rules-string`` to ``variants``."""
    from tafl_desktop.i18n import _

    s = sub.add_parser("convert", help=_("convert a game record between formats (otg, pgn, json, moves)"))
    s.add_argument("input", metavar="IN", help=_("the game record to read"))
    s.add_argument("output", metavar="OUT", help=_("the file to write"))
    s.add_argument("--format", choices=("otg", "pgn", "json", "moves"),
                   help=_("format of OUT (default: from its extension: .otg, .pgn, .tafl.json, .txt)"))
    s.add_argument("--from-format", choices=("otg", "pgn", "json", "moves"),
                   help=_("format of IN (default: from its extension)"))
    s.add_argument("--variant", help=_("variant of a plain move list (a preset id or an OpenTafl rules string)"))
    s.add_argument("--set", action="append", metavar="KEY=VALUE",
                   help=_("change a rule toggle of --variant (repeatable): a record played under other rules"))
    s.set_defaults(func=cmd_convert)

    s = sub.add_parser("engine", help=_("speak the OpenTafl Engine Protocol on stdin/stdout"))
    s.add_argument("--level", default="medium", help=_("computer level (beginner, easy, medium, hard, expert)"))
    s.set_defaults(func=cmd_engine)

    s = sub.add_parser("htp", help=_("speak hnefatafl.org's Hnefatafl Text Protocol on stdin/stdout"))
    s.add_argument("--level", default="medium", help=_("computer level (beginner, easy, medium, hard, expert)"))
    s.add_argument("--seconds", type=float, default=None,
                   help=_("think time of generate_move in seconds (default: 1, or a share of the Fischer clock)"))
    s.add_argument("--host", default=None,
                   help=_("connect to an HTP driver at this address instead of reading stdin (as the crate's --host)"))
    s.add_argument("--port", type=int, default=49152, help=_("the driver's port with --host (default 49152)"))
    s.set_defaults(func=cmd_htp)

    variants = sub.choices.get("variants")
    if variants is not None:
        variants.add_argument("--rules-string", metavar="ID",
                              help=_("print the OpenTafl rules string of a preset (warnings on stderr)"))
        variants.set_defaults(func=_variants_with_rules_string(variants.get_default("func")))
