"""``tafl-desktop lab``, ``lab-compare`` and ``lab-game``: rule-balance studies on the command line.

The JSON printed by ``lab --json`` is a contract: ``{"variant", "cells": [{"options", "games",
<side>, <side>, "draws", "capped", "<side>_ci", "mean_plies", ...}], "seed", ...}``.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

from tafl_desktop.core.marks import decimal, percent
from tafl_desktop.i18n import _, ngettext
from tafl_desktop.native.bridge import ENGINES


def register(sub: Any) -> None:
    s = sub.add_parser("lab", help=_("rule-balance study: who wins as a toggle changes (computer against computer)"))
    s.add_argument("variant", metavar="VARIANT", help=_("preset id or variant file"))
    s.add_argument("--vary", action="append", default=[], metavar="KEY=V1,V2",
                   help=_("a toggle and its values (once or twice); 'preset=ID1,ID2' compares whole presets"))
    s.add_argument("--level", default="easy", help=_("level of both computer players (default easy)"))
    s.add_argument("--attackers", help=_("level of the attackers' player (default: --level)"))
    s.add_argument("--defenders", help=_("level of the defenders' player (default: --level)"))
    s.add_argument("--games", type=int, default=20, help=_("games per cell (default 20)"))
    s.add_argument("--seed", type=int, default=1, help=_("seed of the computer players' random choices (default 1)"))
    s.add_argument("--max-plies", type=int, default=300, help=_("plies after which a game counts as capped"))
    s.add_argument("--workers", type=int, default=None, help=_("local processes (default: cores minus one)"))
    s.add_argument("--scheduler", default=None, help=_("address of a Dask scheduler, e.g. tcp://host:8786"))
    s.add_argument("--out", default=None, help=_("folder for the records, summary and chart (resumable)"))
    s.add_argument("--engine", choices=ENGINES,
                   help=_("search engine of the players (default: native where it is built; a folder's study keeps "
                          "its own)"))
    s.add_argument("--json", action="store_true", help=_("print the result as JSON (keys and values in English)"))
    s.add_argument("--no-game-db", action="store_true",
                   help=_("do not add the games to the game database (source lab)"))
    s.set_defaults(func=cmd_lab)

    s = sub.add_parser("lab-compare", help=_("compare two studies cell by cell"))
    s.add_argument("first", metavar="FIRST", help=_("the folder of the first study"))
    s.add_argument("second", metavar="SECOND", help=_("the folder of the second study"))
    s.add_argument("--json", action="store_true", help=_("print the result as JSON (keys and values in English)"))
    s.set_defaults(func=cmd_lab_compare)

    s = sub.add_parser("lab-game", help=_("save one game of a study as a game record"))
    s.add_argument("folder", metavar="FOLDER", help=_("the study's folder"))
    s.add_argument("cell", type=int, metavar="CELL", help=_("the cell's number, as the summary counts them"))
    s.add_argument("game", type=int, metavar="GAME", help=_("the game's number in that cell"))
    s.add_argument("out", metavar="OUT", help=_("the game record to write"))
    s.set_defaults(func=cmd_lab_game)


def _fail(exc: Exception):
    from tafl_desktop.command_line import CliError

    return CliError(str(exc))


def warn_problems(store: Any) -> None:
    """Say on stderr, one line each, what the store did not count or had to repair."""
    for text in store.problems:
        print(_("tafl-desktop: warning: {text}").format(text=text), file=sys.stderr)


def _stored_engine(out: str | None) -> str | None:
    """The engine of the study already in ``out`` (so that running the same command again goes
    on with the engine its games were played with), or None."""
    if not out:
        return None
    from tafl_desktop.core.safe_files import read_limited
    from tafl_desktop.lab.store import MAX_STUDY_BYTES, STUDY_FILE

    try:  # read as the store reads it: a FIFO or /dev/zero in its place is refused, not waited on
        data = json.loads(read_limited(Path(out) / STUDY_FILE, MAX_STUDY_BYTES).decode("utf-8"))
        return str(data.get("engine", "python")) if isinstance(data, dict) else None
    except (OSError, ValueError, RecursionError):
        return None


def cmd_lab(args: Any) -> int:
    from tafl_desktop.lab.executors import make_backend
    from tafl_desktop.lab.files import output_paths, write_outputs
    from tafl_desktop.lab.report import summary, table_text
    from tafl_desktop.lab.runner import run_study
    from tafl_desktop.lab.store import ResultStore
    from tafl_desktop.lab.study import Study, StudyError

    if args.workers is not None and args.scheduler:
        raise _fail(ValueError(_("give --workers or --scheduler, not both")))
    try:
        engine = args.engine or _stored_engine(args.out)
        study = Study.create(args.variant, args.vary, args.attackers or args.level, args.defenders or args.level,
                             args.games, args.seed, args.max_plies, engine)
        backend = make_backend(args.workers, args.scheduler)
        out = args.out or f"lab-{study.fingerprint()}"
        if hasattr(backend, "check"):
            backend.check()  # a scheduler that does not answer is said before the folder is made
        store = ResultStore.open(out, study)
        output_paths(store.folder)
    except StudyError as exc:
        raise _fail(exc) from None
    except OSError as exc:
        raise _fail(OSError(_("cannot write into {folder}: {problem}").format(
            folder=out, problem=exc.strerror or exc))) from None
    warn_problems(store)
    bar = _ProgressLine()
    from tafl_desktop.gamedb.lab_games import GameSink, add_study_result

    sink = None if args.no_game_db else GameSink("lab")
    try:
        complete = run_study(store, backend, bar.update,
                             on_game=None if sink is None else (lambda r: add_study_result(sink, study, r)))
    except KeyboardInterrupt:
        complete = False
    except StudyError as exc:
        raise _fail(exc) from None
    except OSError as exc:
        raise _fail(OSError(_("cannot write into {folder}: {problem}").format(
            folder=store.folder, problem=exc.strerror or exc))) from None
    bar.close()
    if sink is not None:
        sink.close()
        if sink.problem:
            print(_("tafl-desktop: {problem}").format(problem=sink.problem), file=sys.stderr)
    report = summary(store)
    try:
        write_outputs(store, report, charts=complete)
    except OSError as exc:
        raise _fail(OSError(_("cannot write into {folder}: {problem}").format(
            folder=store.folder, problem=exc.strerror or exc))) from None
    if not complete:
        print(ngettext("stopped after {done} of {total} game; run the same command again to continue",
                       "stopped after {done} of {total} games; run the same command again to continue",
                       len(study.cells()) * study.games).format(
            done=store.finished, total=len(study.cells()) * study.games), file=sys.stderr)
        return 130
    if args.json:
        print(json.dumps(report))
    else:
        sys.stdout.write(table_text(report))
        print(_("records, summary.json and chart.png/.pdf are in {folder}").format(folder=store.folder))
    return 0


def cmd_lab_compare(args: Any) -> int:
    from tafl_desktop.lab.report import cell_label, summary
    from tafl_desktop.lab.stats import compare_cells
    from tafl_desktop.lab.store import ResultStore
    from tafl_desktop.lab.study import StudyError

    try:
        first, second = ResultStore.open(args.first), ResultStore.open(args.second)
    except StudyError as exc:
        raise _fail(exc) from None
    warn_problems(first)
    warn_problems(second)
    a, b = summary(first), summary(second)
    side = a["sides"][0]
    rows = []
    for ca in a["cells"]:
        for cb in b["cells"]:
            if ca["options"] == cb["options"] or (len(a["cells"]) == len(b["cells"]) == 1):
                rows.append({"options": ca["options"], "other_options": cb["options"], "side": side,
                             "first": [ca[side], ca["games"]], "second": [cb[side], cb["games"]],
                             **compare_cells(ca, cb, side)})
    if not rows:
        raise _fail(ValueError(_("the two studies share no cell")))
    if args.json:
        print(json.dumps({"rows": rows}))
    else:
        for r in rows:
            print(_("{cell}: wins of {side}: {a} of {na} and {b} of {nb} (difference {d}, p = {p})").format(
                cell=cell_label(r["options"]), side=side, a=r["first"][0], na=r["first"][1], b=r["second"][0],
                nb=r["second"][1], d=percent(r["difference"], sign=True), p=decimal(r["p_value"], 3)))
    return 0


def cmd_lab_game(args: Any) -> int:
    from tafl_desktop.core.record import save_game
    from tafl_desktop.lab.files import game_of
    from tafl_desktop.lab.store import ResultStore
    from tafl_desktop.lab.study import StudyError

    try:
        store = ResultStore.open(args.folder)
        warn_problems(store)
        game = game_of(store, args.cell, args.game)
    except StudyError as exc:
        raise _fail(exc) from None
    try:
        save_game(game, args.out, {"Event": f"Rules lab {store.study.fingerprint()}",
                                   "Round": f"cell {args.cell}, game {args.game}"})
    except OSError as exc:
        raise _fail(OSError(_("cannot write {path}: {problem}").format(path=args.out, problem=exc.strerror or exc)))\
            from None
    return 0


class _ProgressLine:
    """A progress bar with the time left on stderr: redrawn in place on a terminal, else a line
    every tenth of the study (so logs stay short)."""

    def __init__(self) -> None:
        self.tty = sys.stderr.isatty()
        self.last_tenth = -1
        self.shown = False

    def update(self, p: Any) -> None:
        if p.total == 0:
            return
        tenth = p.done * 10 // p.total
        if not self.tty and tenth == self.last_tenth:
            return
        self.last_tenth = tenth
        filled = p.done * 30 // p.total
        left = "" if p.seconds_left is None else _(", about {t} left").format(t=_clock(p.seconds_left))
        line = f"[{'#' * filled}{'.' * (30 - filled)}] " + ngettext("{done}/{total} game",
                                                                    "{done}/{total} games", p.total).format(
            done=p.done, total=p.total) + left
        sys.stderr.write(("\r" + line) if self.tty else line + "\n")
        sys.stderr.flush()
        self.shown = True

    def close(self) -> None:
        if self.tty and self.shown:
            sys.stderr.write("\n")


def _clock(seconds: float) -> str:
    return time.strftime("%H:%M:%S", time.gmtime(max(0, int(seconds))))
