"""Command-line doors of the game database: ``db import PATH…``, ``db stats``, ``db find VARIANT``,
``db rebuild`` and ``explore VARIANT`` (contracts: the names and the JSON keys stay).

``explore``'s JSON: ``games`` (how many games reached the position), ``opening`` (its name or
null), ``moves`` (``{"move", "games", "attackers", "defenders", "draws", "unfinished"}`` each, the
move as it is played on the board given), plus ``ended_here`` (the games that ended at the
position), ``sample`` (up to 8 of its games) and ``other_rules`` (games of the same variant under
other toggles).  The shipped real games are imported before the first answer.
"""

from __future__ import annotations

import json
import sys
from typing import Any


def _db_path(args) -> Any:
    from tafl_desktop.gamedb.library import default_path

    return args.db or default_path()


def _open(args, shipped: bool = True):
    from tafl_desktop.command_line import CliError
    from tafl_desktop.gamedb.library import open_db
    from tafl_desktop.gamedb.store import GameDb, GameDbError
    from tafl_desktop.i18n import _

    try:
        if not shipped:
            return GameDb(_db_path(args))
        probe = GameDb(_db_path(args))
        needs = probe.con.execute("SELECT value FROM meta WHERE name='shipped'").fetchone() is None
        probe.close()
        if needs and not getattr(args, "json", False):
            print(_("tafl-desktop: importing the real games shipped with the app (once)…"), file=sys.stderr)
        return open_db(_db_path(args))
    except GameDbError as exc:
        raise CliError(str(exc)) from None


def _line(args):
    """The game the command line describes: variant, --set, --position/--to-move and --moves."""
    from tafl_desktop.command_line import EXIT_ILLEGAL, CliError, start_position, variant_arg
    from tafl_desktop.core.game import Game
    from tafl_desktop.core.move_list_text import MoveListError, listed_moves, play_listed

    variant = variant_arg(args.variant, args.set)
    rules = variant.make_rules()
    game = Game(rules, start_position(rules, args.position, args.to_move))
    try:
        play_listed(game, listed_moves(args.moves or "", variant.traits))
    except MoveListError as exc:
        raise CliError(str(exc), EXIT_ILLEGAL) from None
    return game


def _filters(args):
    from tafl_desktop.gamedb.store import Filters, sources_arg

    return Filters(sources=sources_arg(args.source), player=args.player or "", player_side=args.side)


def cmd_db_import(args) -> int:
    from tafl_desktop.command_line import CliError, variant_arg
    from tafl_desktop.gamedb.library import import_paths
    from tafl_desktop.gamedb.store import GameDbError
    from tafl_desktop.i18n import _

    variant = variant_arg(args.variant, args.set) if args.variant else None
    db = _open(args)
    try:
        report = import_paths(db, args.paths, variant, args.source)
    except GameDbError as exc:
        raise CliError(str(exc)) from None
    finally:
        db.close()
    if args.json:
        print(json.dumps(report.to_json()))
    else:
        for problem in report.problems:
            print(_("tafl-desktop: skipped: {problem}").format(problem=problem), file=sys.stderr)
        print(_("Games added: {added}; already in the database: {duplicates}; not read: {problems}").format(
            added=report.added, duplicates=report.duplicates, problems=len(report.problems)))
    return 0 if report.added or report.duplicates or not report.problems else 1


def cmd_db_stats(args) -> int:
    from tafl_desktop.i18n import _

    db = _open(args)
    try:
        stats = db.stats()
    finally:
        db.close()
    if args.json:
        print(json.dumps(stats))
        return 0
    print(_("{path}: games: {games}; positions indexed: {positions}; size in bytes: {size}").format(
        path=stats["path"], games=stats["games"], positions=stats["positions"], size=stats["bytes"]))
    for source, n in sorted(stats["sources"].items()):
        print(f"  {source}: {n}")
    for r in stats["rules"]:
        print(f"  {r['name']} ({r['rules']}): {r['games']}")
    return 0


def _lookup_json(args, sample: int) -> dict[str, Any]:
    from tafl_desktop.command_line import CliError
    from tafl_desktop.gamedb.openings import opening_of
    from tafl_desktop.gamedb.store import GameDbError

    game = _line(args)
    db = _open(args)
    try:
        look = db.lookup(game.rules, game.position, _filters(args), sample)
        folding = db.folding(game.rules)
        others = _other_rules(db, game.rules.variant) if look.games == 0 else []
    except GameDbError as exc:
        raise CliError(str(exc)) from None
    finally:
        db.close()
    rules = game.rules
    return {
        "variant": rules.variant.id,
        "position": rules.position_text(game.position),
        "to_move": rules.variant.side_key(rules.side_to_move(game.position)),
        "games": look.games,
        "opening": opening_of(folding, [game.position_at(i) for i in range(len(game.plies) + 1)]),
        "moves": [m.to_json() for m in look.moves],
        "ended_here": {k: v for k, v in look.ended_here.to_json().items() if k != "move"},
        "sample": [r.to_json() for r in look.sample],
        "other_rules": others,
    }


def _other_rules(db, variant) -> list[dict[str, Any]]:
    """Rule sets of the same variant that hold games, with the toggles that differ (``--set``)."""
    from tafl_desktop.command_line import sets_text

    out = []
    for variant_data, n in db.con.execute(
            "SELECT r.variant, count(g.id) FROM rulesets r JOIN games g ON g.ruleset=r.id GROUP BY r.id"):
        data = json.loads(variant_data)
        if data.get("id") != variant.id:
            continue
        options = data.get("options", {})
        changed = sorted(f"{k}={sets_text(v)}" for k, v in options.items()
                         if k != "repetition" and variant.options.get(k) != v)
        changed += sorted(f"{k}={sets_text(v)}" for k, v in variant.options.items()
                          if k not in options and k != "repetition" and k in variant.schema
                          and v != variant.schema[k].default)
        if changed:
            out.append({"set": changed, "games": n})
    return out


def cmd_explore(args) -> int:
    from tafl_desktop.i18n import _, ngettext

    data = _lookup_json(args, 8)
    if args.json:
        print(json.dumps(data))
        return 0
    opening = f" ({data['opening']})" if data["opening"] else ""
    print(ngettext("{games} game reached this position{opening}", "{games} games reached this position{opening}",
                   data["games"]).format(games=data["games"], opening=opening))
    for m in data["moves"]:
        print(_("  {move}: games {games}; attackers won {attackers}, defenders won {defenders}, draws {draws}, "
                "unfinished {unfinished}").format(**m))
    for other in data["other_rules"]:
        print(ngettext("  {games} game of this variant under other toggles: --set {toggles}",
                       "  {games} games of this variant under other toggles: --set {toggles}", other["games"]).format(
            games=other["games"], toggles=" --set ".join(other["set"])))
    return 0


def cmd_db_find(args) -> int:
    from tafl_desktop.i18n import ngettext

    data = _lookup_json(args, args.limit)
    if args.json:
        print(json.dumps({"games": data["games"], "list": data["sample"], "other_rules": data["other_rules"]}))
        return 0
    print(ngettext("{games} game reached this position", "{games} games reached this position",
                   data["games"]).format(games=data["games"], opening=""))
    for g in data["sample"]:
        print(f"  #{g['id']} {g['source']} {g['attackers'] or '?'} - {g['defenders'] or '?'} {g['date']} "
              f"{g['result']} ({g['length']}) {g['origin']}")
    return 0


def cmd_db_rebuild(args) -> int:
    from tafl_desktop.command_line import CliError
    from tafl_desktop.gamedb.library import rebuild
    from tafl_desktop.gamedb.store import GameDbError
    from tafl_desktop.i18n import _

    try:
        kept, report = rebuild(_db_path(args))
    except (GameDbError, OSError) as exc:
        raise CliError(str(exc)) from None
    if kept is not None:
        print(_("the old file was kept as {path}").format(path=kept), file=sys.stderr)
    for problem in report.problems:
        print(_("tafl-desktop: skipped: {problem}").format(problem=problem), file=sys.stderr)
    print(_("rebuilt: {added} of your games restored from the journal").format(added=report.added))
    return 0


def register(sub) -> None:
    """Add ``db`` (import, stats, find, rebuild) and ``explore``."""
    from tafl_desktop.command_line import int_in
    from tafl_desktop.i18n import _

    json_help = _("print the result as JSON (keys and values in English)")
    db_help = _("the game database file (default: games.sqlite3 in the app's data folder)")
    set_help = _("change a rule toggle (repeatable)")

    def position_args(sp) -> None:
        sp.add_argument("variant", metavar="VARIANT", help=_("preset id or variant file"))
        sp.add_argument("--moves", default="", help=_('the moves from the start, e.g. "d1-d3 e5-e2"'))
        sp.add_argument("--position", help=_("start position in row notation, top row first"))
        sp.add_argument("--to-move", help=_("side to move in --position"))
        sp.add_argument("--set", action="append", metavar="KEY=VALUE", help=set_help)
        sp.add_argument("--source", choices=("real", "mine", "imported", "lab", "all"), default="real",
                        help=_("whose games: the real games shipped with the app (the default), yours, "
                               "imported ones, Rules Lab and self-play, or all"))
        sp.add_argument("--player", help=_("only games with this player"))
        sp.add_argument("--side", choices=("attackers", "defenders", "either"), default="either",
                        help=_("the side --player played"))
        sp.add_argument("--json", action="store_true", help=json_help)
        sp.add_argument("--db", help=db_help)

    db = sub.add_parser("db", help=_("the game database: import, stats, find, rebuild"))
    dbs = db.add_subparsers(dest="db_command", title=_("commands"), metavar="COMMAND", required=True)
    s = dbs.add_parser("import", help=_("import game records: files or folders, every format the app reads"))
    s.add_argument("paths", nargs="+", metavar="PATH", help=_("a record file or a folder of them"))
    s.add_argument("--variant", help=_("variant of plain move lists and game tables (.txt, .csv)"))
    s.add_argument("--set", action="append", metavar="KEY=VALUE", help=set_help)
    s.add_argument("--source", choices=("imported", "mine", "lab"), default="imported",
                   help=_("which source the games go to (default: imported)"))
    s.add_argument("--json", action="store_true", help=json_help)
    s.add_argument("--db", help=db_help)
    s.set_defaults(func=cmd_db_import)
    s = dbs.add_parser("stats", help=_("games by source and by rules, positions, file size"))
    s.add_argument("--json", action="store_true", help=json_help)
    s.add_argument("--db", help=db_help)
    s.set_defaults(func=cmd_db_stats)
    s = dbs.add_parser("find", help=_("the games that reached a position"))
    position_args(s)
    s.add_argument("--limit", type=int_in(1, 1000), default=20, help=_("how many games to list (default 20)"))
    s.set_defaults(func=cmd_db_find)
    s = dbs.add_parser("rebuild", help=_("make a new database from the shipped games and your imported ones"))
    s.add_argument("--db", help=db_help)
    s.set_defaults(func=cmd_db_rebuild)

    s = sub.add_parser("explore", help=_("what was played from a position, and how those games ended"))
    position_args(s)
    s.set_defaults(func=cmd_explore)
