"""``tafl-desktop match``: two players, N games, the figures engine testers use.

Registered through ``CAPABILITY_COMMANDS``; its imports stay inside the command, so the program
starts as fast with it.  The command's names and JSON keys are a contract (see the README).
"""

from __future__ import annotations

import json
import sys
from typing import Any

MAX_GAMES = 100_000


def _sprt_arg(text: str) -> tuple[float, float]:
    import argparse

    from tafl_desktop.command_line import number_text
    from tafl_desktop.core.quoting import quote
    from tafl_desktop.i18n import _

    parts = text.split(",")
    if len(parts) != 2:
        raise argparse.ArgumentTypeError(_("must look like 0,10 (ELO0,ELO1), got {value}").format(value=quote(text)))
    elo0, elo1 = (float(number_text(p, True)) for p in parts)
    if not (-1000 <= elo0 < elo1 <= 1000):
        raise argparse.ArgumentTypeError(_("ELO0 must be below ELO1, both from -1000 to 1000"))
    return elo0, elo1


def _tc_arg(text: str) -> tuple[float, float]:
    import argparse
    import re

    from tafl_desktop.core.quoting import quote
    from tafl_desktop.i18n import _

    m = re.fullmatch(r"\s*(\d{1,5}(?:\.\d{1,3})?)(?:\+(\d{1,4}(?:\.\d{1,3})?))?\s*", text, flags=re.ASCII)
    if not m or float(m.group(1)) <= 0:
        raise argparse.ArgumentTypeError(_("must look like 60+0.5 (seconds, plus seconds a move), got {value}")
                                         .format(value=quote(text)))
    return float(m.group(1)), float(m.group(2) or 0)


def _line(entry: dict[str, Any], report: dict[str, Any]) -> str:
    """One progress line: the game just finished and the match so far."""
    from tafl_desktop.i18n import _

    result = "1/2" if entry["winner"] is None else "1-0" if entry["winner"] == entry["first_side"] else "0-1"
    text = _("game {n}/{total}: {result} for {player} ({ending}); wins {wins}, draws {draws}, losses {losses}").format(
        n=entry["game"] + 1, total=report["games_planned"], result=result, player=report["players"][0],
        ending=entry["ending"], wins=report["wins"], draws=report["draws"], losses=report["losses"])
    if report["elo"] is not None:
        text += "; " + _("Elo {elo:+.0f}").format(elo=report["elo"])
    if "llr" in report:
        text += "; " + _("LLR {llr:.2f} ({lower:.2f}, {upper:.2f})").format(
            llr=report["llr"], lower=report["lower"], upper=report["upper"])
    return text


def _text_report(report: dict[str, Any], side_names: tuple[str, ...] = ("attackers", "defenders")) -> list[str]:
    """The report for a reader: the variant's own side names; an interval's end past a score of
    0 or 1 is infinite."""
    from tafl_desktop.i18n import _, ngettext

    a, b = report["players"]

    def elo(x: float | None, end: str = "-") -> str:
        return end if x is None else f"{x:+.1f}"

    lines = [
        ngettext("{a} against {b}: {games} game", "{a} against {b}: {games} games", report["games"]).format(
            a=a, b=b, games=report["games"]),
        _("{player}: wins {wins}, draws {draws}, losses {losses} (score {score})").format(
            player=a, wins=report["wins"], draws=report["draws"], losses=report["losses"],
            score="-" if report["score"] is None else f"{report['score']:.3f}"),
    ]
    for k, (side, c) in enumerate(report["per_colour"].items()):
        lines.append(_("  as {side}: wins {wins}, draws {draws}, losses {losses}").format(
            side=side_names[k] if k < len(side_names) else side, wins=c["wins"], draws=c["draws"],
            losses=c["losses"]))
    known = report["elo"] is not None
    lines.append(_("Elo difference: {elo} (95 %: {low} to {high})").format(
        elo=elo(report["elo"]), low=elo(report["elo_low"], "-\u221e" if known else "-"),
        high=elo(report["elo_high"], "+\u221e" if known else "-")))
    if "llr" in report:
        lines.append(_("SPRT [{elo0}, {elo1}]: LLR {llr:.2f} ({lower:.2f}, {upper:.2f}): {verdict}").format(
            elo0=report["elo0"], elo1=report["elo1"], llr=report["llr"], lower=report["lower"],
            upper=report["upper"], verdict=report["verdict"]))
    for f in report["failures"]:
        lines.append(_("game {n}: {player} lost by {kind}: {text}").format(
            n=f["game"], player=f["player"], kind=f["kind"], text=f["text"]))
    return lines


def cmd_match(args) -> int:
    from tafl_desktop.command_line import CliError
    from tafl_desktop.command_line import variant_arg as _variant
    from tafl_desktop.i18n import _
    from tafl_desktop.match.loop import Adjudication, TimeControl
    from tafl_desktop.match.players import PlayerError, parse_player
    from tafl_desktop.match.runner import MatchError, Sprt, build_settings, run_match

    if len(args.player or []) != 2:
        raise CliError(_("give two players: --player A --player B"))
    v = _variant(args.variant, args.set)
    tc = TimeControl(move=args.time or 0.0, base=args.tc[0] if args.tc else 0.0,
                     increment=args.tc[1] if args.tc else 0.0)
    try:
        if args.concurrency > 1 and any(parse_player(p).port for p in args.player):
            raise PlayerError(_("an htp-host player listens on one port: play its games one at a time "
                                "(--concurrency 1)"))
        sprt = None
        if args.sprt:
            sprt = Sprt(args.sprt[0], args.sprt[1], args.sprt_alpha, args.sprt_beta, args.sprt_model)
        settings = build_settings(
            v, list(args.player), args.games, args.seed, tc, args.nodes or 0, sprt, args.openings, args.opening_plies,
            Adjudication(max_plies=args.max_plies, proven=not args.no_proven_adjudication,
                         resign_score=args.resign_score, resign_moves=args.resign_moves))

        def progress(entry: dict[str, Any], report: dict[str, Any]) -> None:
            print(_line(entry, report), file=sys.stderr, flush=True)

        report = run_match(settings, args.out, args.concurrency, progress)
    except (MatchError, PlayerError) as exc:
        raise CliError(str(exc)) from None
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
    else:
        for line in _text_report(report, tuple(v.side_names)):
            print(line)
    return 0


def register(sub) -> None:
    """Add ``match``."""
    from tafl_desktop.command_line import float_in, int_in
    from tafl_desktop.i18n import _

    s = sub.add_parser("match", help=_("play a match between two players: wins, draws, losses, Elo and SPRT"))
    s.add_argument("variant", metavar="VARIANT", help=_("a preset id, a variant file or an OpenTafl rules string"))
    s.add_argument("--set", action="append", metavar="KEY=VALUE", help=_("change a rule toggle (repeatable)"))
    s.add_argument("--player", action="append", metavar="SPEC",
                   help=_("a level (beginner ... expert), native:time=S / python:nodes=N[,depth=D], "
                          "engine:COMMAND (OpenTafl Engine Protocol), htp:COMMAND (Hnefatafl Text Protocol on "
                          "its stdin) or htp-host[@PORT]:COMMAND (an HTP engine in its --host mode, connecting "
                          "to 127.0.0.1 port 49152 or PORT); give two"))
    s.add_argument("--games", type=int_in(1, MAX_GAMES), default=2, help=_("games to play (default 2)"))
    budget = s.add_mutually_exclusive_group()
    budget.add_argument("--time", type=float_in(0.01, 3600), help=_("seconds per move"))
    budget.add_argument("--nodes", type=int_in(1, 10**9), help=_("node budget per move of native/python players"))
    budget.add_argument("--tc", type=_tc_arg, metavar="BASE+INC",
                        help=_("a clock: seconds per game plus seconds per move (60+0.5)"))
    s.add_argument("--concurrency", type=int_in(1, 64), default=1, help=_("games played at once, in processes"))
    s.add_argument("--sprt", type=_sprt_arg, metavar="ELO0,ELO1", help=_("stop when an SPRT decides (fastchess's)"))
    s.add_argument("--sprt-alpha", type=float_in(0.001, 0.5), default=0.05, help=_("SPRT alpha (default 0.05)"))
    s.add_argument("--sprt-beta", type=float_in(0.001, 0.5), default=0.05, help=_("SPRT beta (default 0.05)"))
    s.add_argument("--sprt-model", choices=("normalized", "logistic"), default="normalized",
                   help=_("SPRT Elo model (default normalized)"))
    s.add_argument("--openings", metavar="FILE", help=_("openings, one move list a line; each played with both "
                                                        "colours"))
    s.add_argument("--opening-plies", type=int_in(0, 20), default=2,
                   help=_("random plies of each opening without --openings (default 2)"))
    s.add_argument("--seed", type=int_in(0, 2**63 - 1), default=1, help=_("the same seed, the same openings"))
    s.add_argument("--out", metavar="FOLDER", help=_("save every game and the results here; a match resumes "
                                                     "from its folder"))
    s.add_argument("--max-plies", type=int_in(0, 100_000), default=200,
                   help=_("adjudicate a draw after this many plies (0: never; default 200)"))
    s.add_argument("--no-proven-adjudication", action="store_true",
                   help=_("play on when the search proves the result"))
    s.add_argument("--resign-score", type=int_in(0, 1_000_000), default=600,
                   help=_("resign a player whose score stays at or below minus this (default 600)"))
    s.add_argument("--resign-moves", type=int_in(0, 1000), default=0,
                   help=_("... for this many of its moves in a row (default 0: never)"))
    s.add_argument("--json", action="store_true", help=_("print the result as JSON (keys and values in English)"))
    s.set_defaults(func=cmd_match)
    register_tournament(sub)


# ------------------------------------------------------------------------------------ tournament
def _player_arg(text: str) -> tuple[str, int]:
    import argparse

    from tafl_desktop.core.quoting import quote
    from tafl_desktop.i18n import _

    name, eq, rating = text.rpartition("=") if "=" in text else (text, "", "0")
    name = name.strip()
    if not name or len(name) > 80 or not rating.strip().isdigit() or int(rating) > 4000:
        raise argparse.ArgumentTypeError(_("must look like 'Name=1850' (a rating from 0 to 4000), got {value}")
                                         .format(value=quote(text)))
    del eq
    return name, int(rating)


def _print_round(t: Any, rnd: Any) -> None:
    from tafl_desktop.i18n import _

    print(_("round {n}").format(n=rnd.number))
    from tafl_desktop.match.brackets import stage_text

    for table, p in enumerate(rnd.pairings, 1):
        if p.stage and (table == 1 or rnd.pairings[table - 2].stage != p.stage):
            print(f" {stage_text(p.stage)}")
        for k, g in enumerate(p.games, 1):
            result = "-" if g.result is None else g.result
            print(_("  table {table}, game {game}: {attackers} (attackers) - {defenders} (defenders): {result}").format(
                table=table, game=k, attackers=t.players[g.attackers].name, defenders=t.players[g.defenders].name,
                result=result))
    if rnd.bye is not None:
        print(_("  bye: {name}").format(name=t.players[rnd.bye].name))
    if rnd.resting:
        print(_("  not playing this round: {names}").format(names=", ".join(t.players[i].name for i in rnd.resting)))


def _enter_from_file(t: Any, game_file: str) -> None:
    """Enter the result of the finished game in ``game_file``, whose tags name its players."""
    from tafl_desktop.command_line import CliError
    from tafl_desktop.core.quoting import shown
    from tafl_desktop.i18n import _
    from tafl_desktop.interop.formats import read_game
    from tafl_desktop.interop.transfer import InteropError

    try:
        transfer = read_game(game_file, None, None)
    except InteropError as exc:
        raise CliError(str(exc)) from None
    tags = {k.lower(): v for k, v in transfer.tags.items()}
    out = transfer.game.outcome
    if out is None:
        raise CliError(_("{path}: the game is not finished").format(path=shown(game_file)))
    if "attackers" not in tags or "defenders" not in tags:
        raise CliError(_("{path} does not name its players (tags attackers and defenders)").format(
            path=shown(game_file)))
    where = t.find_game(tags["attackers"], tags["defenders"])
    t.enter(*where, "draw" if out.winner is None else out.winner.key, len(transfer.game.plies))


def _print_papers(t: Any, args: Any) -> None:
    """``tournament print``: write the PDF asked for (the round: --round, else the last paired)."""
    from tafl_desktop.command_line import CliError
    from tafl_desktop.command_line import variant_arg as _variant
    from tafl_desktop.core.quoting import os_reason, shown
    from tafl_desktop.i18n import _
    from tafl_desktop.match.sheets import render_tournament
    from tafl_desktop.printing import PrintError, write_atomic

    if not args.out:
        raise CliError(_("give the PDF to write: --out FILE.pdf"))
    variant = _variant(t.variant, None) if t.variant else None
    try:
        data = render_tournament(t, args.what, variant, args.round, args.paper, args.orientation)
    except PrintError as exc:
        raise CliError(str(exc)) from None
    try:
        write_atomic(args.out, data)
    except OSError as exc:
        raise CliError(_("cannot write {path}: {reason}").format(path=shown(args.out), reason=os_reason(exc))) from None
    print(_("wrote {path}").format(path=shown(args.out)))


def cmd_tournament(args) -> int:
    import os

    from tafl_desktop.command_line import CliError
    from tafl_desktop.core.quoting import os_reason, shown
    from tafl_desktop.i18n import _
    from tafl_desktop.match import tournament as tm

    path = args.file
    try:
        if args.action == "new":
            if len(args.player or []) < 2:
                raise CliError(_("give at least two players: --player NAME=RATING"))
            names = [n.casefold() for n, _r in args.player]
            if len(set(names)) != len(names):
                raise CliError(_("two players have the same name"))
            if args.variant:
                from tafl_desktop.command_line import variant_arg

                variant_arg(args.variant, None)
            if os.path.exists(path):
                raise CliError(_("{path} exists: a new tournament never replaces a file").format(path=shown(path)))
            t = tm.Tournament(args.name, args.system, [tm.Player(n, r) for n, r in args.player],
                              tm.rounds_for(args.system, len(args.player), args.rounds), args.games_per_pairing,
                              args.variant or "")
            if args.system == "wtf-groups":
                t.make_groups(args.groups)
            t.clock = (args.clock or "").strip()
        else:
            t = tm.load(path)
        if args.action == "pair":
            _print_round(t, t.pair_next())
        elif args.action == "result":
            if args.game_file:
                for game_file in args.game_file:
                    _enter_from_file(t, game_file)
            else:
                if args.round is None or args.table is None or args.result is None:
                    raise CliError(_("give --round, --table and --result, or --game-file"))
                t.enter(args.round, args.table, args.game, args.result, args.plies or 0)
        if args.action in ("new", "pair", "result"):
            tm.save(t, path)
        if args.action == "print":
            _print_papers(t, args)
        if args.action == "standings" or args.json:
            table = t.standings()
            if args.json:
                data = {"name": t.name, "system": t.system, "rounds": len(t.rounds),
                        "rounds_planned": t.rounds_planned, "standings": table}
                if t.groups:
                    data["groups"] = [t.standings(m, f"group:{g}") for g, m in enumerate(t.groups)]
                if t.system in tm.ELIMINATION:
                    champ = t.champion()
                    data["champion"] = None if champ is None else t.players[champ].name
                print(json.dumps(data, ensure_ascii=False))
            else:
                for row in table:
                    win = "-" if row["shortest_win"] is None else row["shortest_win"]
                    print(_("{place}. {name} ({rating}): points {points}; direct {direct}, Sonneborn-Berger {sb}, "
                            "shortest win {win}").format(place=row["place"], name=row["name"], rating=row["rating"],
                                                         points=row["points"], direct=row["direct"],
                                                         sb=row["sonneborn_berger"],
                                                         win=win))
    except tm.TournamentError as exc:
        raise CliError(str(exc)) from None
    except OSError as exc:
        raise CliError(_("cannot write {path}: {reason}").format(path=shown(path), reason=os_reason(exc))) from None
    return 0


def register_tournament(sub) -> None:
    """Add ``tournament``."""
    from tafl_desktop.command_line import int_in
    from tafl_desktop.i18n import _

    s = sub.add_parser("tournament", help=_("run a club tournament: pairings, results, standings with tie-breaks"))
    s.add_argument("action", choices=("new", "pair", "result", "standings", "print"),
                   help=_("new: create FILE; pair: the next round; result: enter a game's result; standings; "
                          "print: a PDF (--what, --out)"))
    s.add_argument("file", metavar="FILE", help=_("the tournament file (JSON)"))
    s.add_argument("--name", default="Tournament", help=_("the tournament's name (new)"))
    s.add_argument("--system", choices=("round-robin", "monrad", "wtf-groups", "double-elimination"),
                   default="round-robin",
                   help=_("round-robin, monrad (Swiss), wtf-groups (groups seeded by rating, two qualify, "
                          "then a knock-out) or double-elimination (new)"))
    s.add_argument("--groups", type=int_in(1, 26), default=2, help=_("the number of groups of wtf-groups (new)"))
    s.add_argument("--rounds", type=int_in(1, 100), help=_("rounds of a Monrad tournament (new)"))
    s.add_argument("--games-per-pairing", type=int_in(1, 2), default=2,
                   help=_("2: one game with each colour (the WTF's rule); 1: one game (new)"))
    s.add_argument("--variant", help=_("the variant played (new)"))
    s.add_argument("--player", action="append", type=_player_arg, metavar="NAME=RATING",
                   help=_("a player and rating (new; repeatable)"))
    s.add_argument("--round", type=int_in(1, 1000), help=_("the round of a result"))
    s.add_argument("--table", type=int_in(1, 1000), help=_("the table of a result"))
    s.add_argument("--game", type=int_in(1, 2), default=1, help=_("the game of the pairing (1 or 2)"))
    s.add_argument("--result", choices=("attackers", "defenders", "draw"),
                   help=_("the result: attackers, defenders or draw"))
    s.add_argument("--plies", type=int_in(0, 100_000), help=_("the game's length in plies (for the shortest win)"))
    s.add_argument("--game-file", metavar="GAME", action="append",
                   help=_("read the result from a game file (.tafl.json, .otg; repeatable)"))
    s.add_argument("--clock", metavar="TEXT", help=_("the time control, printed on the score sheets (new)"))
    s.add_argument("--what", choices=("pairings", "sheets", "crosstable", "standings"), default="standings",
                   help=_("what to print: a round's pairings, its score sheets, the crosstable or the standings"))
    s.add_argument("--out", metavar="FILE.pdf", help=_("the PDF to write (print)"))
    s.add_argument("--paper", choices=("a4", "letter"), default="a4", help=_("paper size (default a4)"))
    s.add_argument("--orientation", choices=("portrait", "landscape"), default="portrait",
                   help=_("page orientation (default portrait)"))
    s.add_argument("--json", action="store_true", help=_("print the result as JSON (keys and values in English)"))
    s.set_defaults(func=cmd_tournament)
