"""The game database's fast import (issue 39: at least 500 games a second, the shipped games
indexed in under 10 s) keeps the keys' meaning:

- a game's positions are folded along the game by updating each image's hash with the squares a
  move changed (``Folding.fold_line``); that equals folding every position on its own, on real
  games of both shipped rule sets (``resources/games``, hnefatafl-rs's records);
- the native engine's replay and the core's give the same database, row for row (positions,
  canonical moves, tallies), on real games: the core's path is the one used where the native
  engine is not built;
- a position and each of its 8 images (by this file's own coordinate code) have one key, and the
  images that are the same board are exactly the symmetries a key keeps (tafl-rules.md 1.1: the
  Copenhagen board, throne and corners are symmetric under the square's 8 symmetries).

The speed itself: ``test_the_shipped_games_are_indexed_within_the_target`` (slow: run with
``pytest -m slow tests/test_gamedb_speed.py``) counts the process's CPU time, which a busy
machine changes less than wall-clock time.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from tafl_desktop import native
from tafl_desktop.core.game import Game
from tafl_desktop.core.move_list_text import listed_moves, play_listed
from tafl_desktop.core.tafl import TaflPosition
from tafl_desktop.core.variants import find_variant
from tafl_desktop.gamedb import library
from tafl_desktop.gamedb.keys import Folding
from tafl_desktop.gamedb.store import GameDb

GAMES = Path(__file__).resolve().parents[1] / "resources" / "games"
SHIPPED = {"copenhagen": ("copenhagen.csv", {"repetition": "allowed"}),
           "brandubh_federation": ("brandubh.csv", {"repetition": "allowed"})}


def _lines(name: str, count: int) -> list[str]:
    return [line for line in (GAMES / name).read_text(encoding="utf-8").splitlines()
            if line.strip() and line.split(",")[0].strip() not in ("", "timeout")][:count]


def _games(preset: str, count: int, rules) -> list[Game]:
    name, _toggles = SHIPPED[preset]
    out = []
    for line in _lines(name, count):
        moves = " ".join(t for t in line.rsplit(",", 3)[0].split() if t != "timeout")
        g = Game(rules)
        play_listed(g, listed_moves(moves, rules.variant.traits))
        out.append(g)
    return out


def _variant(preset: str):
    return find_variant(preset).with_options(SHIPPED[preset][1])


@pytest.mark.parametrize("preset", sorted(SHIPPED))
def test_folding_along_a_game_equals_folding_each_position(preset):
    rules = _variant(preset).make_rules()
    folding = Folding(rules)
    checked = 0
    for game in _games(preset, 60, rules):
        line = [game.start, *(p.position for p in game.plies)]
        assert folding.fold_line(line) == [folding.fold(pos) for pos in line]
        checked += len(line)
    assert checked > 1000


def _image(rules, pos: TaflPosition, k: int) -> TaflPosition:
    """``pos`` after symmetry ``k`` of the square board, by (file, rank) coordinates."""
    n = rules.variant.geometry.width

    def turn(sq: int) -> int:
        f, r = sq % n, sq // n
        for _ in range(k % 4):
            f, r = r, n - 1 - f
        if k >= 4:
            f = n - 1 - f
        return r * n + f

    def board(bits: int) -> int:
        return sum(1 << turn(s) for s in range(n * n) if bits >> s & 1)

    att, dfn = board(pos.att), board(pos.dfn)
    return TaflPosition(att, dfn, rules._transpose(att), rules._transpose(dfn),
                        turn(pos.king) if pos.king >= 0 else -1, pos.side, pos.quiet)


def test_a_position_and_its_images_have_one_key_and_the_symmetries_it_keeps():
    rules = _variant("copenhagen").make_rules()
    folding = Folding(rules)
    rng = random.Random(39)
    games = _games("copenhagen", 40, rules)
    for game in games:
        pos = game.position_at(rng.randrange(len(game.plies) + 1))
        images = [_image(rules, pos, k) for k in range(8)]
        keys = {folding.fold(img).key for img in images}
        assert len(keys) == 1
        # the start is its own image under all 8; a position after moves mostly under none but one
        same = sum(img == pos for img in images)
        assert len(folding.fold(pos).maps) == same
    assert len(folding.fold(rules.initial_position()).maps) == 8


@pytest.mark.skipif(not native.available(), reason="the native engine is not built")
def test_the_native_and_the_core_replay_give_the_same_database(tmp_path, monkeypatch):
    folder = tmp_path / "tables"
    folder.mkdir()
    tables = {}
    for preset, (name, _toggles) in SHIPPED.items():
        path = folder / preset / name
        path.parent.mkdir()
        path.write_text("\n".join(_lines(name, 80)) + "\n", encoding="utf-8")
        tables[preset] = path

    def build(db_path: Path) -> dict[str, list]:
        with GameDb(db_path) as db:
            for preset, path in tables.items():
                report = library.import_paths(db, [path], _variant(preset))
                assert report.added == 80 and not report.problems
            return {table: db.con.execute(f"SELECT * FROM {table} ORDER BY 1, 2, 3").fetchall()
                    for table in ("positions", "tally")} | {
                "games": db.con.execute("SELECT id, result, plies, start, moves FROM games ORDER BY id").fetchall()}

    assert isinstance(library.fast_rules(_variant("copenhagen")), native.rules.NativeTaflRules)
    fast = build(tmp_path / "native.sqlite3")
    monkeypatch.setattr(library, "fast_rules", lambda variant: variant.make_rules())
    assert not isinstance(library.fast_rules(_variant("copenhagen")), native.rules.NativeTaflRules)
    core = build(tmp_path / "core.sqlite3")
    assert len(fast["positions"]) > 4000
    assert fast == core


@pytest.mark.slow
@pytest.mark.skipif(not native.available(), reason="the native engine is not built")
def test_the_shipped_games_are_indexed_within_the_target(tmp_path):
    """Issue 39: the index of the shipped games in under 10 s (CPU time, one run at load 10: 12 s before
    the fast path, with the native engine, and 6 s after)."""
    with GameDb(tmp_path / "games.sqlite3") as db:
        started = time.process_time()
        report = library.ensure_shipped(db)
        seconds = time.process_time() - started
    assert report.added == 2275 and not report.problems
    assert seconds < 10


@pytest.mark.skipif(not native.available(), reason="the native engine is not built")
def test_a_replay_on_the_native_engine_plays_each_move_without_listing_every_legal_move(monkeypatch):
    """Issue 39's import speed: listing every legal move to find the one played was most of a
    replay's time; the native engine checks the move as it plays it.  The replayed game is the
    core engine's, ply for ply, on real games (resources/games, hnefatafl-rs's records)."""
    fast = library.fast_rules(_variant("copenhagen"))
    assert isinstance(fast, native.rules.NativeTaflRules)
    listed = []
    monkeypatch.setattr(type(fast), "legal_moves", lambda self, pos: listed.append(pos) or [])
    games = _games("copenhagen", 30, fast)
    assert listed == []
    monkeypatch.undo()
    core = _games("copenhagen", 30, _variant("copenhagen").make_rules())
    assert sum(len(g.plies) for g in games) > 600
    for ours, theirs in zip(games, core, strict=True):
        assert [(p.move, p.captures, p.position) for p in ours.plies] == \
               [(p.move, p.captures, p.position) for p in theirs.plies]
        assert ours.outcome == theirs.outcome


@pytest.mark.skipif(not native.available(), reason="the native engine is not built")
@pytest.mark.parametrize(("options", "moves", "bad"), [
    ({}, "", "f4-f3"),                      # a defender's piece on the attackers' turn
    ({}, "", "c3-c4"),                      # no piece there
    ({}, "", "f1-f5"),                      # through a piece
    ({}, "", "d1-c2"),                      # not along a line
    ({}, "", "z9-z1"),                      # off the board
    ({"repetition": "defenders_no_repeat"}, "a4-a3 f4-f3 a3-a4", "f3-f4"),  # tafl-rules.md 2.2
])
def test_a_refused_move_is_refused_with_the_same_sentence_on_both_engines(options, moves, bad):
    """The native engine's own check refuses the move, then the core's check says why: the same
    sentence as the core engine gives (tafl-rules.md 2.2 for the no-repeat rule)."""
    from tafl_desktop.core.game import IllegalMove

    variant = find_variant("copenhagen").with_options(options)
    said = []
    for rules in (variant.make_rules(), library.fast_rules(variant)):
        game = Game(rules)
        for text in moves.split():
            game.play_text(text)
        with pytest.raises(IllegalMove) as caught:
            game.play_text(bad)
        said.append(str(caught.value))
        assert len(game.plies) == len(moves.split())
    assert isinstance(library.fast_rules(variant), native.rules.NativeTaflRules)
    assert said[0] == said[1] and said[0]


@pytest.mark.slow
@pytest.mark.skipif(not native.available(), reason="the native engine is not built")
def test_an_import_of_move_lists_reaches_500_games_a_cpu_second(tmp_path):
    """Issue 39: "Import at least 500 games a second".  500 real games as move-list files, imported as a
    folder into an empty database (read, replayed by the rules, folded, indexed, journaled); CPU time,
    which a shared machine changes less than wall-clock time.  Best of three runs."""
    folder = tmp_path / "lists"
    folder.mkdir()
    for i, line in enumerate(_lines("copenhagen.csv", 500)):
        moves = " ".join(t for t in line.rsplit(",", 3)[0].split() if t != "timeout")
        (folder / f"g{i:04}.txt").write_text(moves + "\n", encoding="utf-8")
    rates = []
    for run in range(3):
        with GameDb(tmp_path / f"run{run}.sqlite3") as db:
            started = time.process_time()
            report = library.import_paths(db, [folder], _variant("copenhagen"))
            seconds = time.process_time() - started
        assert report.added == 500 and not report.problems
        rates.append(500 / seconds)
    assert max(rates) >= 500, rates
