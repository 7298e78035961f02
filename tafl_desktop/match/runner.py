"""A match: its games scheduled, played (in parallel processes if asked), journalled, summed up.

Game ``i`` plays opening ``i // 2`` with the first player on the attackers' side when ``i`` is
even and on the defenders' when odd: each opening once with each colour, as engine testers pair
them.  With an ``--out`` folder the match keeps

* ``match.json``: the settings, openings included (written once; a resumed match must agree);
* ``games/game-NNNN.tafl.json`` and ``.otg`` (Tafl only: an ``.otg`` holds no other family):
  every finished game, written before its result is counted;
* ``results.jsonl``: one line per finished game, appended and synced to disk.

So a match killed at any moment resumes from its folder: the journal says which games are done
(a line cut off by the kill is ignored, and a game's number counts once), and those not in it are
played again from their start.

Parallel games run in worker processes that watch their parent: a worker whose parent was
killed ends itself (and its hosted engines) within a second, so a killed match leaves nothing
running.
"""

from __future__ import annotations

import json
import math
import multiprocessing as mp
import os
import queue
import random
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from tafl_desktop.core.game import Game, IllegalMove, Side
from tafl_desktop.i18n import _
from tafl_desktop.match import stats
from tafl_desktop.match.loop import Adjudication, TimeControl, play_game
from tafl_desktop.match.players import PlayerError, make_agent, parse_player, seed_for

SETTINGS_FILE = "match.json"
JOURNAL_FILE = "results.jsonl"
GAMES_FOLDER = "games"
FORMAT = "tafl-desktop-match"
#: The largest openings file read (bytes).
MAX_OPENINGS_BYTES = 4_000_000


class MatchError(ValueError):
    """A match that cannot be run as asked; the message is one line."""


@dataclass(frozen=True)
class Sprt:
    """An SPRT's hypotheses (Elo) and error rates, and the model of fastchess it uses."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "normalized"


@dataclass
class MatchSettings:
    """Everything that decides a match's games (kept in its ``match.json``)."""

    variant: dict[str, Any]
    players: list[str]
    games: int
    seed: int = 1
    time_control: TimeControl = field(default_factory=TimeControl)
    nodes: int = 0
    adjudication: Adjudication = field(default_factory=Adjudication)
    openings: list[list[str]] = field(default_factory=list)
    sprt: Sprt | None = None

    def to_data(self) -> dict[str, Any]:
        data = asdict(self)
        data["format"] = FORMAT
        return data

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> MatchSettings:
        sprt = data.get("sprt")
        return cls(variant=data["variant"], players=list(data["players"]), games=int(data["games"]),
                   seed=int(data["seed"]), time_control=TimeControl(**data["time_control"]),
                   nodes=int(data["nodes"]), adjudication=Adjudication(**data["adjudication"]),
                   openings=[list(o) for o in data["openings"]], sprt=Sprt(**sprt) if sprt else None)

    def identity(self) -> dict[str, Any]:
        """What a resumed match must share with the one it resumes: all but the game count and
        the openings, whose lists need only agree as far as both go (more games, more openings)."""
        data = self.to_data()
        data.pop("games")
        data.pop("openings")
        return data

    def same_match(self, other: MatchSettings) -> bool:
        """Does ``other`` resume this match (perhaps with more or fewer games)?"""
        shared = min(len(self.openings), len(other.openings))
        return self.identity() == other.identity() and self.openings[:shared] == other.openings[:shared]

    def opening(self, index: int) -> list[str]:
        return self.openings[(index // 2) % len(self.openings)] if self.openings else []

    @staticmethod
    def first_side(index: int) -> Side:
        """The side the first player takes in game ``index``."""
        return Side.ATTACKERS if index % 2 == 0 else Side.DEFENDERS


# ------------------------------------------------------------------------------------ openings
def read_openings(path: str, rules: Any) -> list[list[str]]:
    """The openings in ``path`` (one move list a line; blank lines and ``#`` comments skipped),
    each checked by the rules; MatchError (one line) for a file that cannot be read or a move
    that cannot be played."""
    from tafl_desktop.core.quoting import os_reason, shown
    from tafl_desktop.core.safe_files import read_limited

    try:
        raw = read_limited(path, MAX_OPENINGS_BYTES)
        text = raw.decode("utf-8")
    except OSError as exc:
        raise MatchError(_("cannot read {path}: {reason}").format(path=shown(path), reason=os_reason(exc))) from None
    except UnicodeDecodeError:
        raise MatchError(_("{path} is not UTF-8 text").format(path=shown(path))) from None
    openings: list[list[str]] = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        game = Game(rules)
        moves = line.split()
        for i, move in enumerate(moves, 1):
            try:
                game.play_text(move)
            except IllegalMove as exc:
                raise MatchError(_("{path}, line {line}, move {n}: {error}").format(
                    path=shown(path), line=number, n=i, error=exc)) from None
        if game.over:
            raise MatchError(_("{path}, line {line}: the opening ends the game").format(path=shown(path), line=number))
        openings.append(game.move_texts())
    if not openings:
        raise MatchError(_("{path} holds no opening").format(path=shown(path)))
    return openings


def random_openings(rules: Any, count: int, plies: int, seed: int) -> list[list[str]]:
    """``count`` openings of ``plies`` random legal moves each, from ``seed`` (the same seed,
    the same openings), none of which ends the game and, where one can be drawn in 50 tries,
    none that takes a piece off the board.

    Why the pieces: a random ply can throw one away, and the levels then start a piece down
    before either has moved (in Asalto the second ply of seed 1's eighth opening declined a
    capture, so the huffing rule removed an officer: both games of that opening were lost by
    the officers' side within 40 plies).  Each opening is still played with both colours; an
    opening drawn as before is kept as it was, so older match folders still resume."""
    openings = []
    start = Counter(rules.pieces(rules.initial_position()).values())
    for k in range(count):
        rng = random.Random(f"{seed}:opening:{k}")
        fallback: Game | None = None
        for _try in range(50):
            game = Game(rules)
            while len(game.plies) < plies and not game.over:
                moves = list(rules.legal_moves(game.position))
                if not moves:
                    break
                game.play(rng.choice(moves))
            if game.over:
                continue
            if Counter(rules.pieces(game.position).values()) == start:
                break
            fallback = fallback or game
        else:
            game = fallback or game
        openings.append(game.move_texts())
    return openings


def seeded_order(openings: list[list[str]], seed: int) -> list[list[str]]:
    """The openings of a file in the order ``seed`` gives (the same seed, the same order)."""
    out = list(openings)
    random.Random(f"{seed}:openings").shuffle(out)
    return out


def build_settings(variant: Any, players: list[str], games: int, seed: int = 1,
                   time_control: TimeControl | None = None, nodes: int = 0, sprt: Sprt | None = None,
                   openings_file: str | None = None, opening_plies: int = 2,
                   adjudication: Adjudication | None = None) -> MatchSettings:
    """A match's settings as the command line and the Matches window both make them: the players
    checked first, the openings read from ``openings_file`` (in the seed's order) or drawn at
    random from the seed.  PlayerError or MatchError (one line) when it cannot be played."""
    rules = variant.make_rules()
    tc = time_control or TimeControl()
    check_players(players, rules, tc, nodes)
    if openings_file:
        openings = seeded_order(read_openings(openings_file, rules), seed)
    else:
        openings = random_openings(rules, (games + 1) // 2, opening_plies, seed)
    return MatchSettings(variant=variant.to_data(), players=list(players), games=games, seed=seed,
                         time_control=tc, nodes=nodes, adjudication=adjudication or Adjudication(),
                         openings=openings, sprt=sprt)


# ------------------------------------------------------------------------------------ one game
def _variant(data: dict[str, Any]) -> Any:
    from tafl_desktop.core.variants import variant_from_data

    return variant_from_data(data)


def run_game(settings: MatchSettings, index: int, out: str | None) -> dict[str, Any]:
    """Play game ``index`` of the match and save it under ``out``; its journal entry."""
    variant = _variant(settings.variant)
    rules = variant.make_rules()
    game = Game(rules)
    for move in settings.opening(index):
        game.play_text(move)
    a_side = settings.first_side(index)
    specs = [parse_player(p) for p in settings.players]
    tc = settings.time_control
    agents = {a_side: make_agent(specs[0], rules, seed_for(settings.seed, index, 0), tc.move, settings.nodes),
              a_side.other: make_agent(specs[1], rules, seed_for(settings.seed, index, 1), tc.move, settings.nodes)}
    _LIVE.extend(agents.values())
    try:
        result = play_game(game, agents, tc, settings.adjudication)
    finally:
        for agent in agents.values():
            agent.close()
        del _LIVE[:]
    entry = {"game": index, "first_side": a_side.key, "opening": index // 2,
             "players": {a_side.key: settings.players[0], a_side.other.key: settings.players[1]},
             **result.to_data()}
    if out is not None:
        save_game_files(game, Path(out), index, entry, variant)
    return entry


#: The agents of the game being played in this process (a worker ends their engines on exit).
_LIVE: list[Any] = []


def game_stem(index: int) -> str:
    return f"game-{index + 1:04d}"


def save_game_files(game: Game, folder: Path, index: int, entry: dict[str, Any], variant: Any) -> None:
    """The game as ``.tafl.json`` and, for a Tafl game, ``.otg`` in ``folder/games`` (each
    written atomically)."""
    from tafl_desktop.core.record import save_game
    from tafl_desktop.core.rules_string import RulesStringError
    from tafl_desktop.core.safe_files import write_safely
    from tafl_desktop.interop.otg import write_otg
    from tafl_desktop.interop.transfer import GameTransfer

    tags = {"attackers": entry["players"]["attackers"][:200], "defenders": entry["players"]["defenders"][:200],
            "round": str(index + 1), "event": "match", "match-ending": entry["ending"]}
    if entry.get("text"):
        tags["match-note"] = entry["text"][:400]
    games = folder / GAMES_FOLDER
    games.mkdir(parents=True, exist_ok=True)
    stem = game_stem(index)
    save_game(game, games / f"{stem}.tafl.json", tags)
    try:
        text, _warnings = write_otg(GameTransfer(game, dict(tags)))
    except RulesStringError:  # an .otg holds Tafl only: the Fox games and Dablot keep their .tafl.json
        return
    write_safely(games / f"{stem}.otg", text)


# ------------------------------------------------------------------------------------ the journal
def read_journal(folder: Path) -> dict[int, dict[str, Any]]:
    """The finished games in ``folder``'s journal by number (a torn last line is ignored; a
    number seen twice counts once)."""
    done: dict[int, dict[str, Any]] = {}
    try:
        text = (folder / JOURNAL_FILE).read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return done
    for line in text.splitlines():
        try:
            entry = json.loads(line)
            index = int(entry["game"])
        except (ValueError, KeyError, TypeError):
            continue
        done.setdefault(index, entry)
    return done


def append_journal(folder: Path, entry: dict[str, Any]) -> None:
    """Add a finished game to the journal, on disk before this returns."""
    path = folder / JOURNAL_FILE
    line = json.dumps(entry, ensure_ascii=False) + "\n"
    with open(path, "a+b") as fh:
        fh.seek(0, os.SEEK_END)
        if fh.tell():  # a line torn by a kill is ended first, so the new one stands alone
            fh.seek(-1, os.SEEK_END)
            if fh.read(1) != b"\n":
                fh.write(b"\n")
        fh.write(line.encode("utf-8"))
        fh.flush()
        os.fsync(fh.fileno())


def prepare_folder(folder: Path, settings: MatchSettings) -> dict[int, dict[str, Any]]:
    """Create or reopen a match folder; the games already finished there.  MatchError when the
    folder holds another match or cannot be written."""
    from tafl_desktop.core.quoting import os_reason, shown
    from tafl_desktop.core.safe_files import write_safely

    settings_path = folder / SETTINGS_FILE
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if settings_path.exists():
            try:
                old = MatchSettings.from_data(json.loads(settings_path.read_text(encoding="utf-8")))
            except (ValueError, KeyError, TypeError):
                raise MatchError(_("{path} is not a match's file").format(path=shown(settings_path))) from None
            if not old.same_match(settings):
                raise MatchError(_("{folder} holds another match (other players or settings): use another --out")
                                 .format(folder=shown(folder)))
            if len(old.openings) > len(settings.openings):  # fewer games now: keep every opening
                settings.openings = old.openings
        write_safely(settings_path, json.dumps(settings.to_data(), indent=1, ensure_ascii=False) + "\n")
        (folder / GAMES_FOLDER).mkdir(exist_ok=True)
    except OSError as exc:
        raise MatchError(_("cannot write {path}: {reason}").format(path=shown(folder), reason=os_reason(exc))) from None
    return read_journal(folder)


# ------------------------------------------------------------------------------------ the figures
def summary(settings: MatchSettings, entries: list[dict[str, Any]]) -> dict[str, Any]:
    """The match's figures for the first player (see the module docstring of ``stats``)."""
    a, b = settings.players
    per_colour = {k: {"wins": 0, "draws": 0, "losses": 0} for k in ("attackers", "defenders")}
    points: dict[int, float] = {}
    paired: dict[int, int] = {}
    endings: dict[str, int] = {}
    failures = []
    for e in sorted(entries, key=lambda e: e["game"]):
        side = e["first_side"]
        key = "draws" if e["winner"] is None else "wins" if e["winner"] == side else "losses"
        per_colour[side][key] += 1
        p = {"wins": 1.0, "draws": 0.5, "losses": 0.0}[key]
        pair = e["game"] // 2
        points[pair] = points.get(pair, 0.0) + p
        paired[pair] = paired.get(pair, 0) + 1
        endings[e["ending"]] = endings.get(e["ending"], 0) + 1
        if e.get("failed"):
            failures.append({"game": e["game"] + 1, "player": e["players"][e["failed"]], "kind": e["ending"],
                             "text": e.get("text", "")})
    w = sum(c["wins"] for c in per_colour.values())
    d = sum(c["draws"] for c in per_colour.values())
    lo = sum(c["losses"] for c in per_colour.values())
    est = stats.elo_estimate(w, d, lo)
    penta = stats.pentanomial([points[k] for k in points if paired[k] == 2])
    report: dict[str, Any] = {
        "variant": settings.variant.get("id", ""), "players": [a, b], "games": w + d + lo,
        "games_planned": settings.games, "wins": w, "draws": d, "losses": lo,
        "score": round((w + d / 2) / (w + d + lo), 4) if w + d + lo else None,
        "elo": _round(est.elo), "elo_low": _round(est.low), "elo_high": _round(est.high),
        "per_colour": per_colour, "pentanomial": penta, "endings": endings, "failures": failures,
        "seed": settings.seed,
    }
    if settings.sprt is not None:
        s = settings.sprt
        llr = stats.llr_pentanomial(penta, s.elo0, s.elo1, s.model)
        lower, upper = stats.sprt_bounds(s.alpha, s.beta)
        report.update({"llr": round(llr, 4), "llr_trinomial": round(stats.llr_trinomial(w, d, lo, s.elo0, s.elo1,
                                                                                          s.model), 4),
                       "lower": round(lower, 4), "upper": round(upper, 4),
                       "verdict": stats.sprt_verdict(llr, s.alpha, s.beta) if sum(penta) else "continue",
                       "elo0": s.elo0, "elo1": s.elo1, "alpha": s.alpha, "beta": s.beta, "model": s.model})
    return report


def _round(x: float | None) -> float | None:
    return None if x is None or not math.isfinite(x) else round(x, 1) + 0.0  # no -0.0


# ------------------------------------------------------------------------------------ running
def _leave(*_args: Any) -> None:
    """End this worker now, and the engines of the game it was playing."""
    for agent in list(_LIVE):
        try:
            agent.close()
        except Exception:  # noqa: BLE001 - leaving anyway
            pass
    os._exit(1)


def _watch_parent(parent: int) -> None:
    """End this worker soon after the match process that started it is gone (killed)."""
    while True:
        time.sleep(0.25)
        if os.getppid() != parent:
            _leave()


def _worker(tasks: Any, results: Any, parent: int, settings_data: dict[str, Any], out: str | None) -> None:
    import signal

    signal.signal(signal.SIGTERM, _leave)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    settings = MatchSettings.from_data(settings_data)
    while True:
        index = tasks.get()
        if index is None:
            return
        try:
            results.put(("done", run_game(settings, index, out)))
        except Exception as exc:  # noqa: BLE001 - reported by the match as one line
            results.put(("error", f"{type(exc).__name__}: {exc}"[:300]))
            return


def run_match(settings: MatchSettings, out: str | None = None, concurrency: int = 1,
              progress: Callable[[dict[str, Any], dict[str, Any]], None] | None = None,
              stop: Callable[[], bool] | None = None) -> dict[str, Any]:
    """Play (or resume) the match; its summary.  ``progress(entry, summary)`` after each game.

    With ``stop`` (the window's Cancel) every game is played in a worker process, even one at a
    time, so that a cancel ends the game being played at once (its worker is ended) instead of
    waiting for it; the summary then says ``"cancelled": true`` and the folder resumes later."""
    folder = Path(out) if out is not None else None
    done = prepare_folder(folder, settings) if folder is not None else {}
    entries = [e for i, e in sorted(done.items()) if i < settings.games]
    report = summary(settings, entries)
    pending = [i for i in range(settings.games) if i not in done]

    def record(entry: dict[str, Any]) -> bool:
        """Count a finished game; True when the SPRT has decided the match."""
        if folder is not None:
            append_journal(folder, entry)
        entries.append(entry)
        nonlocal report
        report = summary(settings, entries)
        if progress is not None:
            progress(entry, report)
        return report.get("verdict", "continue") != "continue"

    if report.get("verdict", "continue") != "continue":
        pending = []
    cancelled = False
    if stop is None and (concurrency <= 1 or len(pending) <= 1):
        for index in pending:
            if record(run_game(settings, index, out)):
                break
    elif pending:
        cancelled = _run_parallel(settings, pending, out, max(1, min(concurrency, len(pending))), record, stop)
    report["cancelled"] = cancelled
    report["complete"] = report["games"] >= settings.games or report.get("verdict", "continue") != "continue"
    report["out"] = out
    return report


def _run_parallel(settings: MatchSettings, pending: list[int], out: str | None, workers: int,
                  record: Callable[[dict[str, Any]], bool], stop: Callable[[], bool] | None = None) -> bool:
    """Play ``pending`` in ``workers`` processes; True when ``stop`` cut the match short."""
    ctx = mp.get_context("spawn")
    tasks: Any = ctx.Queue()
    results: Any = ctx.Queue()
    for index in pending:
        tasks.put(index)
    for _w in range(workers):
        tasks.put(None)
    procs = [ctx.Process(target=_worker, args=(tasks, results, os.getpid(), settings.to_data(), out), daemon=True)
             for _w in range(workers)]
    for p in procs:
        p.start()
    try:
        left = len(pending)
        while left:
            if stop is not None and stop():
                return True
            try:
                kind, payload = results.get(timeout=0.5)
            except queue.Empty:
                if not any(p.is_alive() for p in procs):
                    raise MatchError(_("the match's worker processes stopped")) from None
                continue
            if kind == "error":
                raise MatchError(_("a game could not be played: {error}").format(error=payload))
            left -= 1
            if record(payload):
                break
        return False
    finally:
        for p in procs:
            if p.is_alive():
                p.terminate()
        for p in procs:
            p.join(5)


def check_players(specs: list[str], rules: Any, tc: TimeControl, nodes: int) -> None:
    """Refuse, in one line, a player that cannot play here (before any game starts)."""
    import shutil

    from tafl_desktop.ai.engine import resolve
    from tafl_desktop.core.quoting import quote
    from tafl_desktop.core.rules_string import RulesStringError, to_rules_string
    from tafl_desktop.interop.host import EngineFailure, split_command

    ports: set[int] = set()
    for text in specs:
        spec = parse_player(text)
        if spec.kind == "htp":
            _check_htp(spec, rules, ports)
        elif spec.kind == "search":
            try:
                resolve(rules, spec.engine)
            except ValueError as exc:
                raise PlayerError(_("player {spec}: {error}").format(spec=quote(text), error=exc)) from None
            if spec.weights and getattr(rules, "family", "") != "tafl":
                raise PlayerError(_("player {spec}: evaluation weights apply to the Tafl games only").format(
                    spec=quote(text[:60])))
            if not (spec.time or spec.nodes or tc.move or tc.clocked or nodes):
                raise PlayerError(_("player {spec} has no budget: add time=S or nodes=N, or give --time or --nodes")
                                  .format(spec=quote(text)))
        elif spec.kind == "engine":
            try:
                to_rules_string(rules.variant)
            except RulesStringError as exc:
                raise PlayerError(_("player {spec}: {error}").format(spec=quote(text[:60]), error=exc)) from None
            try:
                args = split_command(spec.command)
            except EngineFailure as exc:
                raise PlayerError(_("player {spec}: {error}").format(spec=quote(text[:60]), error=exc)) from None
            if shutil.which(args[0]) is None and not os.path.isfile(args[0]):
                raise PlayerError(_("player {spec}: no program {program} was found").format(
                    spec=quote(text[:60]), program=quote(args[0][:60])))


def _check_htp(spec: Any, rules: Any, ports: set[int]) -> None:
    """Refuse an HTP player that cannot play here: the protocol plays hnefatafl.org's Copenhagen
    from its start only, and two engines in ``--host`` mode cannot share one port."""
    import shutil

    from tafl_desktop.core.quoting import quote
    from tafl_desktop.interop.host import EngineFailure, split_command
    from tafl_desktop.interop.htp_host import htp_plays

    shown = quote(spec.text[:60])
    if not htp_plays(rules.variant):
        raise PlayerError(_("player {spec}: the Hnefatafl Text Protocol plays hnefatafl.org's Copenhagen only "
                            "(the preset copenhagen_org, its rules unchanged)").format(spec=shown))
    if spec.port:
        if spec.port in ports:
            raise PlayerError(_("player {spec}: both players would listen on port {port}; give one of them "
                                "htp-host@PORT:COMMAND").format(spec=shown, port=spec.port))
        ports.add(spec.port)
    try:
        args = split_command(spec.command)
    except EngineFailure as exc:
        raise PlayerError(_("player {spec}: {error}").format(spec=shown, error=exc)) from None
    if shutil.which(args[0]) is None and not os.path.isfile(args[0]):
        raise PlayerError(_("player {spec}: no program {program} was found").format(
            spec=shown, program=quote(args[0][:60])))
