"""The player's game database as the app uses it: where it lives, the real games shipped with the
app (imported at first use), imports of files and folders in every format the app reads, the
journal that keeps imported games recoverable, and the rebuild of a damaged database.

Imports report progress and stop on Cancel through :mod:`tafl_desktop.core.progress` (the
caller installs a reporter; a cancelled import keeps the games of the files it finished: each
file is one transaction).  A bad record is one line in the report; the others go on.

The journal (``games.journal.jsonl`` beside the database) holds every game added from an
imported file or from the player's own play, as our own record format, one a line: a damaged
database is rebuilt from it and the shipped files, so nothing the player imported is lost.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tafl_desktop.core import progress
from tafl_desktop.core.game import Game, Position
from tafl_desktop.core.paths import app_data_dir, resources_dir
from tafl_desktop.core.quoting import shown
from tafl_desktop.core.variants import Variant, find_variant
from tafl_desktop.gamedb.store import GameDb, GameDbError
from tafl_desktop.i18n import _

FILE_NAME = "games.sqlite3"
JOURNAL_NAME = "games.journal.jsonl"
#: The shipped real games: file, preset and the toggles they were played under (their README).
SHIPPED = (
    ("copenhagen.csv", "copenhagen", {"repetition": "allowed"}),
    # played with the king taken by four on the throne and three beside it: the preset named for them
    ("brandubh.csv", "brandubh_federation", {"repetition": "allowed"}),
)
#: Raised when the shipped games change, so that an old database imports them again.
SHIPPED_VERSION = "hnefatafl-rs-2"
#: An import writes its games in batches of this many games, or of what it read in this many seconds.
BATCH_GAMES = 500
BATCH_SECONDS = 1.0
#: File endings an import of a folder reads.
SUFFIXES = (".tafl.json", ".json", ".otg", ".pgn", ".txt", ".csv")


def default_path() -> Path:
    """The database in the player's data folder (``$TAFL_DESKTOP_GAMEDB`` names another file)."""
    env = os.environ.get("TAFL_DESKTOP_GAMEDB", "")
    return Path(env) if env else app_data_dir() / FILE_NAME


def journal_path(db_path: Path) -> Path:
    return db_path.with_name(JOURNAL_NAME if db_path.name == FILE_NAME else db_path.name + ".journal.jsonl")


@dataclass
class ImportReport:
    """What an import did: games added, games the database held already, one line per problem."""

    added: int = 0
    duplicates: int = 0
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def problem(self, text: str) -> None:
        """One problem as one line a reader can take in (a rules error may list every option)."""
        from tafl_desktop.core.quoting import shown

        self.problems.append(shown(text, 400))

    def to_json(self) -> dict[str, Any]:
        return {"added": self.added, "duplicates": self.duplicates, "problems": self.problems,
                "seconds": round(self.seconds, 3)}


def fast_rules(variant: Variant) -> Any:
    """The variant's rules on the native engine where it serves them (a replay is most of an
    import's time), else the core's."""
    from tafl_desktop.native import make_rules

    return make_rules(variant)


def shipped_variant(preset: str, toggles: dict[str, Any]) -> Variant:
    return find_variant(preset).with_options(toggles)


def ensure_shipped(db: GameDb) -> ImportReport:
    """Import the shipped real games unless this database holds them already (progress as
    games through :func:`progress.moves`; Cancel leaves none of them in)."""
    report = ImportReport()
    found = db.con.execute("SELECT value FROM meta WHERE name='shipped'").fetchone()
    if found is not None and found[0] == SHIPPED_VERSION:
        return report
    started = time.perf_counter()
    from tafl_desktop.interop.game_table import read_table

    folder = resources_dir() / "games"
    texts = [((folder / name).read_text(encoding="utf-8"), preset, toggles) for name, preset, toggles in SHIPPED]
    total = sum(t.count("\n") for t, _p, _o in texts)
    done = 0
    with db.batch():
        db.con.execute("DELETE FROM meta WHERE name='shipped'")
        for (text, preset, toggles), (name, _preset, _toggles) in zip(texts, SHIPPED, strict=True):
            variant = shipped_variant(preset, toggles)
            rules = fast_rules(variant)
            for row in read_table(text, _Fixed(variant, rules), name):
                done = row.line
                progress.moves(done, total)
                if row.transfer is None:
                    report.problem(row.problem)
                elif db.add_game(row.transfer.game, "real", row.transfer.tags, f"{name}:{row.line}") is None:
                    report.duplicates += 1
                else:
                    report.added += 1
        db.con.execute("INSERT OR REPLACE INTO meta VALUES ('shipped', ?)", (SHIPPED_VERSION,))
    report.seconds = time.perf_counter() - started
    return report


class _Fixed:
    """A variant whose ``make_rules`` hands out one rules object (built once, native if it can)."""

    def __init__(self, variant: Variant, rules: Any) -> None:
        self._variant = variant
        self._rules = rules

    def make_rules(self) -> Any:
        return self._rules

    def __getattr__(self, name: str) -> Any:
        return getattr(self._variant, name)


def record_files(paths: Iterable[str | Path]) -> Iterator[Path]:
    """The files named, and in each folder named the record files under it (sorted)."""
    for p in map(Path, paths):
        if p.is_dir():
            yield from sorted(f for f in p.rglob("*") if f.is_file() and f.name.lower().endswith(SUFFIXES))
        else:
            yield p


def import_paths(db: GameDb, paths: Iterable[str | Path], variant: Variant | None = None,
                 source: str = "imported") -> ImportReport:
    """Import files and folders (a bad record is one line of the report, the others go on).
    ``variant`` is the one of plain move lists and game tables, which do not say theirs.  The
    games are written in batches of whole files (one transaction and one flush of the journal a
    batch: a flush a file would cost more than the replay); Cancel keeps the batches written."""
    from tafl_desktop.interop.transfer import InteropError

    report = ImportReport()
    started = time.perf_counter()
    files = list(record_files(paths))
    journal = journal_path(db.path)
    # move lists and tables name no rules of their own: replay them on the native engine if it can
    fixed = _Fixed(variant, fast_rules(variant)) if variant is not None else None
    pending: list[tuple[Game[Position], dict[str, str], str]] = []

    def flush() -> None:
        lines: list[str] = []
        with db.batch():
            for game, tags, origin in pending:
                if db.add_game(game, source, tags, origin) is None:
                    report.duplicates += 1
                else:
                    report.added += 1
                    lines.append(journal_line(game, tags, source, origin))
        append_journal(journal, lines)
        pending.clear()

    last = time.perf_counter()
    for n, path in enumerate(files):
        progress.moves(n, len(files))
        try:
            games = list(_read_file(path, variant, fixed))
        except InteropError as exc:
            report.problem(str(exc))
            continue
        for item in games:
            if isinstance(item, str):
                report.problem(item)
            else:
                pending.append(item)
        if len(pending) >= BATCH_GAMES or time.perf_counter() - last > BATCH_SECONDS:
            flush()
            last = time.perf_counter()
    if pending:
        flush()
    progress.moves(len(files), len(files))
    report.seconds = time.perf_counter() - started
    return report


def _read_file(path: Path, variant: Variant | None,
               fixed: Any = None) -> Iterator[tuple[Game[Position], dict[str, str], str] | str]:
    from tafl_desktop.interop.formats import parse, read_text
    from tafl_desktop.interop.transfer import InteropError

    name = path.name
    if name.lower().endswith(".csv"):
        from tafl_desktop.interop.game_table import read_table

        if variant is None:
            raise InteropError(_("{name}: a game table does not say its variant; give --variant ID").format(
                name=shown(name)))
        for row in read_table(read_text(path), fixed or variant, name):
            if row.transfer is None:
                yield row.problem
            else:
                yield row.transfer.game, row.transfer.tags, f"{path}:{row.line}"
        return
    from tafl_desktop.interop.formats import format_of

    text = read_text(path)
    fmt = format_of(path)
    transfer = parse(text, fmt, name, fixed if fmt == "moves" and fixed is not None else variant)
    yield transfer.game, transfer.tags, str(path)


#: id(variant) -> (variant, its data as JSON text): an import journals hundreds of games of one
#: variant, and encoding its data again for each was a tenth of an import's time
_variant_data: dict[int, tuple[Variant, str]] = {}
#: How a record's variant reads before its JSON text is put in (the first key of that name:
#: the source and the origin before it are strings, whose quotes JSON escapes)
_NO_VARIANT = '"variant": {}'


def journal_line(game: Game[Position], tags: dict[str, str], source: str, origin: str) -> str:
    from tafl_desktop.core.record import game_to_data

    variant = game.rules.variant
    hit = _variant_data.get(id(variant))
    if hit is None or hit[0] is not variant:
        if len(_variant_data) > 64:
            _variant_data.clear()
        hit = _variant_data[id(variant)] = (variant, json.dumps(variant.to_data(), ensure_ascii=False))
    record = game_to_data(game, tags, variant_data={})
    line = json.dumps({"source": source, "origin": origin, "record": record}, ensure_ascii=False)
    return line.replace(_NO_VARIANT, '"variant": ' + hit[1], 1)


def append_journal(journal: Path, lines: list[str]) -> None:
    if not lines:
        return
    journal.parent.mkdir(parents=True, exist_ok=True)
    with journal.open("a", encoding="utf-8") as f:
        f.write("".join(line + "\n" for line in lines))
        f.flush()
        os.fsync(f.fileno())


def add_finished(db: GameDb, game: Game[Position], tags: dict[str, str], source: str = "mine",
                 origin: str = "") -> int | None:
    """Add one game the player finished (or a Rules Lab game), journaled; its id or None if held."""
    with db.batch():
        gid = db.add_game(game, source, tags, origin)
    if gid is not None:
        append_journal(journal_path(db.path), [journal_line(game, tags, source, origin)])
    return gid


def open_db(path: str | Path | None = None, shipped: bool = True) -> GameDb:
    """The database at ``path`` (the player's by default), with the shipped games in it."""
    db = GameDb(path or default_path())
    if shipped:
        try:
            ensure_shipped(db)
        except BaseException:
            db.close()
            raise
    return db


def rebuild(path: str | Path | None = None, shipped: bool = True) -> tuple[Path | None, ImportReport]:
    """A new database in place of a damaged one: the damaged file is renamed (never deleted), the
    shipped games imported, and every game of the journal added again.  Returns the damaged
    file's new name (None if there was none) and what the journal gave back."""
    from tafl_desktop.core.record import RecordError, game_from_data

    db_path = Path(path or default_path())
    kept: Path | None = None
    if db_path.exists():
        kept = db_path.with_name(f"{db_path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
        db_path.rename(kept)
        for extra in ("-wal", "-shm"):
            side = db_path.with_name(db_path.name + extra)
            if side.exists():
                side.rename(kept.with_name(kept.name + extra))
    report = ImportReport()
    db = open_db(db_path, shipped)
    try:
        journal = journal_path(db_path)
        if journal.exists():
            with db.batch(), journal.open(encoding="utf-8", errors="replace") as f:
                for number, line in enumerate(f, 1):
                    try:
                        item = json.loads(line)
                        game = game_from_data(item["record"], f"{journal.name}:{number}")
                        tags = {str(k): str(v) for k, v in dict(item["record"].get("tags") or {}).items()}
                        added = db.add_game(game, str(item["source"]), tags, str(item.get("origin", "")))
                    except (ValueError, KeyError, TypeError, RecordError) as exc:
                        report.problem(_("{where}: {problem}").format(
                            where=f"{journal.name}:{number}", problem=shown(exc, 200)))
                        continue
                    if added is None:
                        report.duplicates += 1
                    else:
                        report.added += 1
    finally:
        db.close()
    return kept, report


__all__ = ["GameDbError", "ImportReport", "add_finished", "default_path", "ensure_shipped", "import_paths",
           "open_db", "rebuild"]
