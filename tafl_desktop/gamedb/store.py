"""The game database on disk: one SQLite file (the standard library's), shared by the window and
the command line (WAL journal, so one process reads while another writes).

Tables:

* ``rulesets``: each rule set games were played under (its key from :mod:`.keys`, a name, the
  variant as data so a game can be replayed from the database alone);
* ``games``: one row a game: source (``real``, ``mine``, ``imported``, ``lab``, ``selfplay``),
  players, ratings, date, result and how it ended, the moves, tags, and a digest of the rules,
  start and moves that makes the same game imported twice into one source one row;
* ``positions``: every position of every game, folded (:mod:`.keys`), with the move the game
  played from it; a game that comes back to a position is indexed at its first visit, so a
  position counts each game once;
* ``tally``: per position, source and move, how many games ended how: the explorer's counts
  without a scan of the games (filters by player, date, rating or result scan ``positions``);
* ``scores``: the engine's score of a position, by rules key, folded key and search budget
  (:mod:`.scores`: the explorer's column of each move's score, computed once).

A database file that SQLite cannot read is reported in one line (:class:`GameDbError`, with
``damaged`` set), and :func:`tafl_desktop.gamedb.library.rebuild` makes a new one from the
shipped games and the journal of imported games kept beside it; the damaged file is renamed,
never deleted.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tafl_desktop.core.game import Game, Position
from tafl_desktop.core.quoting import shown
from tafl_desktop.gamedb.keys import Folding, rules_key
from tafl_desktop.i18n import _

#: The sources a game may come from (each a filter of the explorer; never mixed by default).
SOURCES = ("real", "mine", "imported", "lab", "selfplay")
#: The result buckets of the counts.
RESULTS = ("attackers", "defenders", "draws", "unfinished")
#: 3: positions keyed by their images' Zobrist hashes (:mod:`.keys`); a version-2 file is rebuilt
SCHEMA_VERSION = 3

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS rulesets (
    id INTEGER PRIMARY KEY, key TEXT UNIQUE NOT NULL, name TEXT NOT NULL, variant TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY, ruleset INTEGER NOT NULL REFERENCES rulesets(id), source TEXT NOT NULL,
    digest TEXT NOT NULL, attackers TEXT NOT NULL DEFAULT '', defenders TEXT NOT NULL DEFAULT '',
    attackers_rating INTEGER, defenders_rating INTEGER, date TEXT NOT NULL DEFAULT '',
    result TEXT NOT NULL, reason TEXT NOT NULL DEFAULT '', plies INTEGER NOT NULL, start TEXT NOT NULL,
    moves TEXT NOT NULL, origin TEXT NOT NULL DEFAULT '', tags TEXT NOT NULL DEFAULT '{}',
    UNIQUE (source, digest));
CREATE TABLE IF NOT EXISTS positions (
    key INTEGER NOT NULL, game INTEGER NOT NULL, ply INTEGER NOT NULL, move TEXT NOT NULL,
    PRIMARY KEY (key, game)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tally (
    key INTEGER NOT NULL, source TEXT NOT NULL, move TEXT NOT NULL, attackers INTEGER NOT NULL DEFAULT 0,
    defenders INTEGER NOT NULL DEFAULT 0, draws INTEGER NOT NULL DEFAULT 0, unfinished INTEGER NOT NULL DEFAULT 0,
    rating_sum INTEGER NOT NULL DEFAULT 0, rated INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (key, source, move)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS games_source ON games (source);
CREATE TABLE IF NOT EXISTS scores (
    rules TEXT NOT NULL, key INTEGER NOT NULL, budget INTEGER NOT NULL, score INTEGER NOT NULL,
    result_in INTEGER, winner TEXT, depth INTEGER NOT NULL, PRIMARY KEY (rules, key, budget)) WITHOUT ROWID;
"""


#: A game's rating in a scan of the games: the mean of its players' ratings where known (as the
#: tally stores it at import).
_MEAN = ("(coalesce(g.attackers_rating, 0) + coalesce(g.defenders_rating, 0)) * 1.0 / "
         "((g.attackers_rating IS NOT NULL) + (g.defenders_rating IS NOT NULL))")
RATING_SUM = f"sum(CASE WHEN g.attackers_rating IS NULL AND g.defenders_rating IS NULL THEN 0 ELSE round({_MEAN}) END)"
RATED = "sum(g.attackers_rating IS NOT NULL OR g.defenders_rating IS NOT NULL)"


class GameDbError(Exception):
    """A database that cannot be used; one line for the user.  ``damaged``: the file is not a
    database SQLite can read (rebuild it)."""

    def __init__(self, message: str, damaged: bool = False) -> None:
        super().__init__(message)
        self.damaged = damaged


@dataclass(frozen=True)
class Filters:
    """What the counts and the games list take in: sources, a player (as attackers, defenders or
    either side), a date range (``YYYY.MM.DD`` text, inclusive), results, a minimum rating."""

    sources: tuple[str, ...] = ("real",)
    player: str = ""
    player_side: str = "either"
    date_from: str = ""
    date_to: str = ""
    results: tuple[str, ...] = ()
    min_rating: int | None = None

    @property
    def only_sources(self) -> bool:
        return not (self.player or self.date_from or self.date_to or self.results or self.min_rating is not None)


@dataclass
class MoveCount:
    """One move played from a position: as it is played on the board asked about, and its games."""

    move: str
    attackers: int = 0
    defenders: int = 0
    draws: int = 0
    unfinished: int = 0
    rating_sum: int = 0
    rated: int = 0

    @property
    def rating(self) -> float | None:
        """The average rating of the games' players where the records give one (None: none do)."""
        return self.rating_sum / self.rated if self.rated else None

    @property
    def games(self) -> int:
        return self.attackers + self.defenders + self.draws + self.unfinished

    def to_json(self) -> dict[str, Any]:
        return {"move": self.move, "games": self.games, "attackers": self.attackers,
                "defenders": self.defenders, "draws": self.draws, "unfinished": self.unfinished}


@dataclass
class GameRow:
    """A game that reached a position, and the ply at which it did."""

    id: int
    source: str
    attackers: str
    defenders: str
    result: str
    reason: str
    date: str
    plies: int
    ply: int
    origin: str
    attackers_rating: int | None = None
    defenders_rating: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "source": self.source, "attackers": self.attackers, "defenders": self.defenders,
                "result": self.result, "reason": self.reason, "date": self.date, "length": self.plies,
                "ply": self.ply, "origin": self.origin}


@dataclass
class Lookup:
    """What the database says of one position."""

    games: int
    moves: list[MoveCount]
    ended_here: MoveCount
    sample: list[GameRow] = field(default_factory=list)


def result_bucket(game: Game[Position]) -> str:
    """``attackers``/``defenders`` (the first or the second side won), ``draws`` or ``unfinished``."""
    out = game.outcome
    if out is None:
        return "unfinished"
    return "draws" if out.winner is None else ("attackers" if int(out.winner) == 0 else "defenders")


def game_digest(key: str, start: str, moves: Sequence[str]) -> str:
    return hashlib.sha1("\n".join([key, start, *moves]).encode()).hexdigest()


class GameDb:
    """An open game database (a connection; one per thread)."""

    def __init__(self, path: str | Path, timeout: float = 30.0) -> None:
        self.path = Path(path)
        self._foldings: dict[str, Folding] = {}
        #: id(rules) -> (rules, its folding): a rules key costs a game's replay of time to make
        self._by_rules: dict[int, tuple[Any, Folding]] = {}
        self._starts: dict[tuple[str, Any], str] = {}
        self._rulesets: dict[str, int] = {}
        #: rows a batch writes at its end (one statement each, in key order), and its tallies
        self._pending: list[tuple[int, int, int, str]] = []
        self._tallies: dict[tuple[int, str, str], list[int]] = {}
        self._in_batch = False
        #: games per source, and the file's version they were counted at (:meth:`_source_games`)
        self._by_source: dict[str, int] = {}
        self._counted: tuple[int, int] | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.con = sqlite3.connect(str(self.path), timeout=timeout, isolation_level=None)
            self.con.execute("PRAGMA journal_mode=WAL")
            self.con.execute("PRAGMA synchronous=NORMAL")
            # a large import writes positions all over the index: 64 MB of pages kept at most
            self.con.execute("PRAGMA cache_size=-65536")
            # lookups read pages through a memory map (no copy, no system call a page); 1 GiB of
            # address space covers about 300,000 games
            self.con.execute("PRAGMA mmap_size=1073741824")
            self.con.executescript(SCHEMA)
            found = self.con.execute("SELECT value FROM meta WHERE name='version'").fetchone()
            if found is None:
                self.con.execute("INSERT OR IGNORE INTO meta VALUES ('version', ?)", (str(SCHEMA_VERSION),))
            elif found[0] != str(SCHEMA_VERSION):
                raise GameDbError(_("{path}: a game database of another version ({version})").format(
                    path=shown(self.path), version=shown(found[0], 20)), damaged=True)
        except sqlite3.DatabaseError as exc:
            raise damaged(self.path, exc) from None
        except OSError as exc:
            raise GameDbError(_("{path}: cannot open the game database ({problem})").format(
                path=shown(self.path), problem=shown(exc.strerror or exc, 200))) from None

    def close(self) -> None:
        self.con.close()

    def __enter__(self) -> GameDb:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -------------------------------------------------------------------------------- writing
    def folding(self, rules: Any) -> Folding:
        hit = self._by_rules.get(id(rules))
        if hit is not None and hit[0] is rules:
            return hit[1]
        key = rules_key(rules)
        if key not in self._foldings:
            self._foldings[key] = Folding(rules)
        if len(self._by_rules) > 64:
            self._by_rules.clear()
        self._by_rules[id(rules)] = (rules, self._foldings[key])
        return self._foldings[key]

    def _start_text(self, folding: Folding, rules: Any, start: Position) -> str:
        """A start position as ``TEXT SIDE`` (most games of a rule set share theirs: kept)."""
        cache_key = (folding.rules_key, rules.position_key(start))
        text = self._starts.get(cache_key)
        if text is None:
            if len(self._starts) > 256:
                self._starts.clear()
            text = rules.position_text(start) + f" {int(rules.side_to_move(start))}"
            self._starts[cache_key] = text
        return text

    def ruleset_id(self, folding: Folding) -> int:
        key = folding.rules_key
        if key not in self._rulesets:
            v = folding.rules.variant
            self.con.execute("INSERT OR IGNORE INTO rulesets (key, name, variant) VALUES (?, ?, ?)",
                             (key, v.name, json.dumps(v.to_data(), default=str)))
            self._rulesets[key] = self.con.execute("SELECT id FROM rulesets WHERE key=?", (key,)).fetchone()[0]
        return self._rulesets[key]

    def add_game(self, game: Game[Position], source: str, tags: dict[str, str] | None = None,
                 origin: str = "") -> int | None:
        """Add one finished or unfinished game (call inside :meth:`batch` for speed); its id, or
        None when this source holds the same game already."""
        if source not in SOURCES:
            raise ValueError(f"unknown source {source!r}")
        rules = game.rules
        folding = self.folding(rules)
        ruleset = self.ruleset_id(folding)
        texts = [rules.move_text(p.move) for p in game.plies]
        start = self._start_text(folding, rules, game.start)
        tags = dict(tags or {})
        players = _players(tags)
        # the same moves by other players, or on another line of a table, are another game
        digest = game_digest(folding.rules_key, start, [*texts, repr((players, tags.get("line", "")))])
        bucket = result_bucket(game)
        cur = self.con.execute(
            "INSERT OR IGNORE INTO games (ruleset, source, digest, attackers, defenders, attackers_rating, "
            "defenders_rating, date, result, reason, plies, start, moves, origin, tags) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (ruleset, source, digest, *players, bucket, game.outcome.reason if game.outcome else "",
             len(texts), start, " ".join(texts), origin, json.dumps(tags)))
        if cur.rowcount == 0:
            return None
        gid = int(cur.lastrowid or 0)
        seen: dict[int, tuple[int, str]] = {}
        plies = game.plies
        fold_move = folding.fold_move
        for ply, folded in enumerate(folding.fold_line([game.start, *(p.position for p in plies)])):
            if folded.key in seen:
                continue
            seen[folded.key] = (ply, fold_move(folded, plies[ply].move) if ply < len(plies) else "")
        self._pending.extend((k, gid, p, m) for k, (p, m) in seen.items())
        ratings = [r for r in players[2:4] if r is not None]
        rating = round(sum(ratings) / len(ratings)) if ratings else 0
        column = RESULTS.index(bucket)
        tallies = self._tallies
        for k, (_p, m) in seen.items():
            counts = tallies.get((k, source, m))
            if counts is None:
                counts = tallies[(k, source, m)] = [0, 0, 0, 0, 0, 0]
            counts[column] += 1
            counts[4] += rating
            counts[5] += 1 if ratings else 0
        if not self._in_batch or len(self._pending) > 200_000:
            self.flush()
        return gid

    def flush(self) -> None:
        """Write the positions and tallies of the games added (a batch does at its end): one
        statement for all, in key order, so each page of the index is visited once."""
        if self._pending:
            self._pending.sort()
            self.con.executemany("INSERT INTO positions VALUES (?, ?, ?, ?)", self._pending)
            self._pending.clear()
        if self._tallies:
            cols = ", ".join(RESULTS)
            updates = ", ".join(f"{c} = {c} + excluded.{c}" for c in (*RESULTS, "rating_sum", "rated"))
            self.con.executemany(
                f"INSERT INTO tally (key, source, move, {cols}, rating_sum, rated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                f"ON CONFLICT (key, source, move) DO UPDATE SET {updates}",
                [(*k, *v) for k, v in sorted(self._tallies.items())])
            self._tallies.clear()

    def batch(self) -> _Batch:
        """``with db.batch():`` one transaction (a rolled-back one if the block raises)."""
        return _Batch(self)

    def delete_source(self, source: str) -> int:
        """Remove every game of ``source``; how many."""
        with self.batch():
            ids = [r[0] for r in self.con.execute("SELECT id FROM games WHERE source=?", (source,))]
            # positions are keyed by position first (what a lookup needs): deleting by game scans
            # them, which a rare command may (an index by game would cost a fifth of the file)
            self.con.execute("DELETE FROM positions WHERE game IN (SELECT id FROM games WHERE source=?)", (source,))
            self.con.execute("DELETE FROM tally WHERE source=?", (source,))
            self.con.execute("DELETE FROM games WHERE source=?", (source,))
        return len(ids)

    # -------------------------------------------------------------------------------- reading
    def count(self, source: str | None = None) -> int:
        if source is None:
            return int(self.con.execute("SELECT count(*) FROM games").fetchone()[0])
        return int(self.con.execute("SELECT count(*) FROM games WHERE source=?", (source,)).fetchone()[0])

    def stats(self) -> dict[str, Any]:
        """Games by source and by rule set, positions indexed, the file's size."""
        try:
            by_source = {s: n for s, n in self.con.execute("SELECT source, count(*) FROM games GROUP BY source")}
            by_rules = [{"rules": k, "name": name, "games": n} for k, name, n in self.con.execute(
                "SELECT r.key, r.name, count(g.id) FROM rulesets r JOIN games g ON g.ruleset=r.id "
                "GROUP BY r.id ORDER BY count(g.id) DESC")]
            positions = int(self.con.execute("SELECT count(*) FROM positions").fetchone()[0])
        except sqlite3.DatabaseError as exc:
            raise damaged(self.path, exc) from None
        size = sum(p.stat().st_size for p in self.path.parent.glob(self.path.name + "*") if p.is_file())
        return {"path": str(self.path), "games": sum(by_source.values()), "sources": by_source,
                "rules": by_rules, "positions": positions, "bytes": size}

    def lookup(self, rules: Any, pos: Position, filters: Filters = Filters(), sample: int = 8) -> Lookup:
        """The moves played from ``pos`` (on the board as it stands) with their results, and up to
        ``sample`` games that reached it, the last added first."""
        folding = self.folding(rules)
        folded = folding.fold(pos)
        try:
            if filters.only_sources:
                marks = ",".join("?" * len(filters.sources))
                rows = self.con.execute(
                    f"SELECT move, sum(attackers), sum(defenders), sum(draws), sum(unfinished), sum(rating_sum), "
                    f"sum(rated) FROM tally "
                    f"WHERE key=? AND source IN ({marks}) GROUP BY move", (folded.key, *filters.sources)).fetchall()
            else:
                where, args = _where(filters)
                rows = self.con.execute(
                    f"SELECT p.move, sum(g.result='attackers'), sum(g.result='defenders'), sum(g.result='draws'), "
                    f"sum(g.result='unfinished'), {RATING_SUM}, {RATED} FROM positions p JOIN games g ON g.id=p.game "
                    f"WHERE p.key=? AND {where} GROUP BY p.move", (folded.key, *args)).fetchall()
            at = sum(int(a) + int(d) + int(dr) + int(u) for _m, a, d, dr, u, _rs, _rn in rows)
            games = self.games_at(folding, folded.key, filters, sample, at) if sample else []
        except sqlite3.DatabaseError as exc:
            raise damaged(self.path, exc) from None
        moves, ended = [], MoveCount("")
        texts = folding.move_texts(folded)
        for move, a, d, dr, u, rs, rn in rows:
            count = MoveCount(texts(move) if move else "", int(a), int(d), int(dr), int(u),
                              int(rs or 0), int(rn or 0))
            if move:
                moves.append(count)
            else:
                ended = count
        moves.sort(key=lambda m: (-m.games, m.move))
        total = sum(m.games for m in moves) + ended.games
        return Lookup(total, moves, ended, games)

    def games_at(self, folding: Folding, key: int, filters: Filters, limit: int,
                 at_position: int | None = None) -> list[GameRow]:
        """Up to ``limit`` games that reached the position ``key``, the last added first.
        ``at_position``: how many games of the filter's sources reached it, when the caller has
        counted them (the tally's counts: filters by source only).

        Two ways to find them, chosen by what each would read.  By position: the position's rows,
        newest game first, until ``limit`` of them pass the filter; it reads every game of the
        other sources on the way, which is all of them when the filter's sources hold a few
        games and the position many (the start, with the real games asked for among 100,000
        self-play games: 97,000 rows read, 175 ms).  By source: each source's games, newest
        first, each asked whether it reached the position (one look-up in the positions' key);
        it reads at most the source's games.  The second is taken when the filter's sources
        hold fewer games than the position has in all."""
        where, args = _where(filters)
        columns = ("g.id, g.source, g.attackers, g.defenders, g.result, g.reason, g.date, g.plies, p.ply, g.origin, "
                   "g.attackers_rating, g.defenders_rating")
        if at_position == 0 and filters.only_sources:
            return []
        if at_position is not None and filters.only_sources and set(filters.sources) != set(SOURCES):
            everywhere = self.con.execute(
                "SELECT coalesce(sum(attackers + defenders + draws + unfinished), 0) FROM tally WHERE key=?",
                (key,)).fetchone()[0]
            held = self._source_games(filters.sources)
            if at_position < everywhere and held < everywhere:
                found: list[tuple[Any, ...]] = []
                for source in filters.sources:
                    found += self.con.execute(
                        f"SELECT {columns} FROM games g INDEXED BY games_source CROSS JOIN positions p "
                        f"WHERE g.source=? AND p.key=? AND p.game=g.id ORDER BY g.id DESC LIMIT ?",
                        (source, key, limit)).fetchall()
                found.sort(key=lambda r: -r[0])
                return [GameRow(*r) for r in found[:limit]]
        rows = self.con.execute(
            f"SELECT {columns} FROM positions p JOIN games g ON g.id=p.game "
            f"WHERE p.key=? AND {where} ORDER BY p.game DESC LIMIT ?", (key, *args, limit)).fetchall()
        return [GameRow(*r) for r in rows]

    def _source_games(self, sources: Sequence[str]) -> int:
        """How many games ``sources`` hold, counted again only when the file has changed (this
        connection's writes or another process's: SQLite's ``data_version`` and our own count)."""
        version = (self.con.execute("PRAGMA data_version").fetchone()[0], self.con.total_changes)
        if self._counted != version:
            self._by_source = dict(self.con.execute("SELECT source, count(*) FROM games GROUP BY source").fetchall())
            self._counted = version
        return sum(self._by_source.get(s, 0) for s in sources)

    def scores(self, rules_key: str, keys: Iterable[int], budget: int) -> dict[int, Any]:
        """The cached :class:`~.scores.MoveScore` of each of ``keys`` (folded positions) that has one."""
        from tafl_desktop.gamedb.scores import MoveScore

        wanted = list(dict.fromkeys(keys))
        if not wanted:
            return {}
        marks = ",".join("?" * len(wanted))
        try:
            rows = self.con.execute(
                f"SELECT key, score, result_in, winner, depth FROM scores "
                f"WHERE rules=? AND budget=? AND key IN ({marks})",
                (rules_key, budget, *wanted)).fetchall()
        except sqlite3.DatabaseError as exc:
            raise damaged(self.path, exc) from None
        return {k: MoveScore(sc, r, w, d) for k, sc, r, w, d in rows}

    def store_score(self, rules_key: str, key: int, budget: int, score: Any) -> None:
        """Keep a :class:`~.scores.MoveScore` (the same key again replaces it: the same search)."""
        try:
            self.con.execute("INSERT OR REPLACE INTO scores VALUES (?, ?, ?, ?, ?, ?, ?)",
                             (rules_key, key, budget, score.score, score.result_in, score.winner, score.depth))
        except sqlite3.DatabaseError as exc:
            raise damaged(self.path, exc) from None

    def game_record(self, game_id: int) -> tuple[dict[str, Any], str, str, dict[str, str]] | None:
        """(variant data, start ``TEXT SIDE``, moves, tags) of a stored game, to open it."""
        row = self.con.execute("SELECT r.variant, g.start, g.moves, g.tags FROM games g JOIN rulesets r "
                               "ON r.id=g.ruleset WHERE g.id=?", (game_id,)).fetchone()
        if row is None:
            return None
        return json.loads(row[0]), row[1], row[2], json.loads(row[3])


class _Batch:
    """One transaction; the positions and tallies of its games are written at its end."""

    def __init__(self, db: GameDb) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.con.execute("BEGIN IMMEDIATE")
        self.db._in_batch = True

    def __exit__(self, kind: object, *rest: object) -> None:
        db = self.db
        db._in_batch = False
        if kind is None:
            try:
                db.flush()
            except BaseException:
                db._pending.clear()
                db._tallies.clear()
                db.con.execute("ROLLBACK")
                raise
            db.con.execute("COMMIT")
        else:
            db._pending.clear()
            db._tallies.clear()
            db.con.execute("ROLLBACK")


def damaged(path: Path, exc: BaseException) -> GameDbError:
    return GameDbError(_("{path} is not a game database that can be read ({problem}); rebuild it from its "
                         "sources with: tafl-desktop db rebuild").format(path=shown(path), problem=shown(exc, 120)),
                       damaged=True)


def _where(filters: Filters) -> tuple[str, list[Any]]:
    parts = [f"g.source IN ({','.join('?' * len(filters.sources))})"]
    args: list[Any] = list(filters.sources)
    if filters.player:
        name = filters.player.lower()
        if filters.player_side == "attackers":
            parts.append("lower(g.attackers)=?")
            args.append(name)
        elif filters.player_side == "defenders":
            parts.append("lower(g.defenders)=?")
            args.append(name)
        else:
            parts.append("(lower(g.attackers)=? OR lower(g.defenders)=?)")
            args += [name, name]
    if filters.date_from:
        parts.append("g.date>=?")
        args.append(filters.date_from)
    if filters.date_to:
        parts.append("g.date<=? AND g.date<>''")
        args.append(filters.date_to + "\uffff")
    if filters.results:
        parts.append(f"g.result IN ({','.join('?' * len(filters.results))})")
        args += list(filters.results)
    if filters.min_rating is not None:
        parts.append("min(coalesce(g.attackers_rating, -1), coalesce(g.defenders_rating, -1))>=?")
        args.append(filters.min_rating)
    return " AND ".join(parts), args


def _players(tags: dict[str, str]) -> tuple[str, str, int | None, int | None, str]:
    """Attackers, defenders, their ratings and the date, from a record's tags whatever they are called."""
    low = {k.lower(): v for k, v in tags.items()}

    def first(*names: str) -> str:
        return next((low[n].strip()[:100] for n in names if low.get(n, "").strip()), "")

    def rating(*names: str) -> int | None:
        text = first(*names)
        return int(text) if text.isdigit() and len(text) < 6 else None

    return (first("attackers", "attacker", "black"), first("defenders", "defender", "white"),
            rating("attackers-rating", "attackerrating", "attacker_rating", "blackelo", "attackerselo"),
            rating("defenders-rating", "defenderrating", "defender_rating", "whiteelo", "defenderselo"),
            first("date").replace("-", ".")[:10])


def sources_arg(text: str) -> tuple[str, ...]:
    """``real``, ``mine``, ``imported``, ``lab`` (Rules Lab and self-play) or ``all``."""
    if text == "all":
        return SOURCES
    if text == "lab":
        return ("lab", "selfplay")
    return (text,)


def as_texts(values: Iterable[Any]) -> list[str]:
    return [str(v) for v in values]
