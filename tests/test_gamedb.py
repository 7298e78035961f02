"""The game database (issue 39), checked against counts derived here independently: a brute-force
pass over the games in Python lists, with this file's own symmetry code (square names turned and
mirrored as text), never the database's.

What is pinned:
- the counts of the moves played from a position, plus the games that ended there, are the games
  at the position; they equal a brute-force count over the games and their 8 images;
- a game rotated or reflected is found from its rotated position, its move shown as played on the
  board as it stands (``h1-h3`` and ``d1-d3`` on Copenhagen are one line: the issue);
- filters by result and by source partition the counts; a game imported twice counts once;
  deleting a source removes exactly its games;
- the rules' symmetries: the 8 of the square for Copenhagen (its start, throne and corners are
  symmetric; tafl-rules.md 1.1), none but the identity for the hunt games (geese move forward).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tafl_desktop.core.game import Game
from tafl_desktop.core.move_list_text import listed_moves, play_listed
from tafl_desktop.core.variants import find_variant
from tafl_desktop.gamedb.keys import symmetries
from tafl_desktop.gamedb.library import import_paths, journal_path, rebuild
from tafl_desktop.gamedb.store import Filters, GameDb, GameDbError

GAMES = Path(__file__).resolve().parents[1] / "resources" / "games"
COPENHAGEN = find_variant("copenhagen").with_options({"repetition": "allowed"})
N = 11


# --------------------------------------------------------------------- this file's own symmetry code
def _turn(square: str, k: int) -> str:
    """``square`` after symmetry ``k`` (0..7) of the 11x11 board, by coordinates as text."""
    f, r = ord(square[0]) - 97, int(square[1:]) - 1
    for _ in range(k % 4):
        f, r = r, N - 1 - f  # a quarter turn
    if k >= 4:
        f = N - 1 - f  # then a mirror
    return f"{chr(97 + f)}{r + 1}"


def _turn_move(move: str, k: int) -> str:
    a, b = move.split("-")
    return f"{_turn(a, k)}-{_turn(b, k)}"


def _board(game: Game, ply: int) -> frozenset:
    pos = game.position_at(ply)
    g = game.rules.variant.geometry
    return frozenset((g.name(s), p) for s, p in game.rules.pieces(pos).items()) | {("side", str(pos.side))}


def _turn_board(board: frozenset, k: int) -> frozenset:
    return frozenset((_turn(s, k), p) if s != "side" else (s, p) for s, p in board)


def _real_games(count: int) -> list[tuple[list[str], str]]:
    out = []
    for line in (GAMES / "copenhagen.csv").read_text(encoding="utf-8").splitlines():
        moves = [t.split("x")[0] for t in line.rsplit(",", 3)[0].split() if t != "timeout"]
        if moves:
            out.append((moves, line.rsplit(",", 1)[1].strip()))
        if len(out) == count:
            break
    return out


def _play(moves: list[str]) -> Game:
    game = Game(COPENHAGEN.make_rules())
    play_listed(game, listed_moves(" ".join(moves), COPENHAGEN.traits))
    return game


def _bucket(game: Game) -> str:
    out = game.outcome
    return "unfinished" if out is None else "draws" if out.winner is None else (
        "attackers" if int(out.winner) == 0 else "defenders")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """60 real Copenhagen games in source ``real`` and 20 of them turned (k = 1..7) in ``imported``."""
    path = tmp_path_factory.mktemp("db") / "games.sqlite3"
    games: list[tuple[Game, str, int]] = []
    with GameDb(path) as db, db.batch():
        for i, (moves, _result) in enumerate(_real_games(60)):
            g = _play(moves)
            db.add_game(g, "real", {"line": str(i)})
            games.append((g, "real", i))
        for i, (moves, _result) in enumerate(_real_games(20)):
            k = 1 + i % 7
            g = _play([_turn_move(m, k) for m in moves])
            db.add_game(g, "imported", {"line": str(i)})
            games.append((g, "imported", i))
    return path, games


def _brute(games, board: frozenset, sources: tuple[str, ...]):
    """Games that reach ``board`` or one of its images (first visit), the move each played next
    turned back onto ``board``'s orientation, and how it ended."""
    images = {_turn_board(board, k): k for k in range(8)}
    out = []
    for g, source, _i in games:
        if source not in sources:
            continue
        for ply in range(len(g.plies) + 1):
            k = images.get(_board(g, ply))
            if k is None:
                continue
            if ply < len(g.plies):
                move = g.rules.move_text(g.plies[ply].move)
                back = next(_turn_move(move, j) for j in range(8) if _turn_board(_turn_board(board, k), j) == board
                            and _turn_board(_board(g, ply), j) == board)
            else:
                back = ""
            out.append((back, _bucket(g)))
            break
    return out


def _lookup(path, moves: list[str], filters: Filters | None = None):
    game = _play(moves)
    filters = filters or Filters()
    with GameDb(path) as db:
        return db.lookup(game.rules, game.position, filters, sample=100)


@pytest.mark.parametrize("line", [[], ["d1-d3"], ["h1-h3", "g5-g2"], ["d1-d3", "e5-e2", "k4-i4"]])
def test_counts_equal_a_brute_force_pass(corpus, line):
    path, games = corpus
    for sources in (("real",), ("imported",), ("real", "imported")):
        look = _lookup(path, line, Filters(sources=sources))
        brute = _brute(games, _board(_play(line), len(line)), sources)
        assert look.games == len(brute) == sum(m.games for m in look.moves) + look.ended_here.games
        assert len(look.sample) == min(100, len(brute))
        if line:  # an asymmetric position: every move is its own line, compare move by move
            want: dict[str, dict[str, int]] = {}
            for move, bucket in brute:
                want.setdefault(move, {}).setdefault(bucket, 0)
                want[move][bucket] += 1
            got = {m.move: {b: getattr(m, b) for b in ("attackers", "defenders", "draws", "unfinished")
                            if getattr(m, b)} for m in look.moves}
            assert got == {m: c for m, c in want.items() if m}


def test_mirrored_openings_are_one_line_shown_on_the_board_as_it_stands(corpus):
    path, _games = corpus
    both = Filters(sources=("real", "imported"))
    start = _lookup(path, [], both)
    # the start is its own image 8 ways: d1-d3, h1-h3, a4-c4 ... are one line, counted together
    d1d3 = [m for m in start.moves if m.move in {_turn_move("d1-d3", k) for k in range(8)}]
    assert len(d1d3) == 1 and d1d3[0].games > 1
    after_h = _lookup(path, ["h1-h3"], both)
    after_d = _lookup(path, ["d1-d3"], both)
    assert after_h.games == after_d.games == d1d3[0].games
    assert _turn_move("h1-h3", 4) == "d1-d3"  # symmetry 4 of this file: the mirror across the f file
    # the replies are the same, each shown as it is played on the board asked about
    assert sorted((m.games, m.move) for m in after_d.moves) == sorted(
        (m.games, _turn_move(m.move, 4)) for m in after_h.moves)


def test_a_rotated_game_is_found_from_its_rotated_position(corpus):
    path, games = corpus
    turned = next(g for g, source, i in games if source == "imported" and i == 3)  # k = 4: a mirror
    original = next(g for g, source, i in games if source == "real" and i == 3)
    moves = [original.rules.move_text(p.move) for p in original.plies][:6]
    look = _lookup(path, [_turn_move(m, 4) for m in moves[:5]], Filters(sources=("imported",)))
    assert look.games == 1
    assert _turn_move(moves[5], 4) in [m.move for m in look.moves]
    assert turned.rules.move_text(turned.plies[5].move) == _turn_move(moves[5], 4)
    # and from the original orientation, the same game, its move turned back
    look = _lookup(path, moves[:5], Filters(sources=("imported",)))
    assert moves[5] in [m.move for m in look.moves]


def test_filters_partition_the_counts(corpus):
    path, _games = corpus
    for line in ([], ["d1-d3"]):
        whole = _lookup(path, line, Filters(sources=("real", "imported")))
        by_result = [_lookup(path, line, Filters(sources=("real", "imported"), results=(r,)))
                     for r in ("attackers", "defenders", "draws", "unfinished")]
        by_source = [_lookup(path, line, Filters(sources=(s,))) for s in ("real", "imported")]
        assert sum(x.games for x in by_result) == whole.games == sum(x.games for x in by_source)
        for r, part in zip(("attackers", "defenders", "draws", "unfinished"), by_result, strict=True):
            assert part.games == sum(getattr(m, r) for m in whole.moves) + getattr(whole.ended_here, r)


def test_a_game_imported_twice_counts_once_and_deleting_a_source_removes_exactly_its_games(tmp_path):
    folder = tmp_path / "collection"
    folder.mkdir()
    for i, (moves, _r) in enumerate(_real_games(5)):
        (folder / f"g{i}.txt").write_text(" ".join(moves), encoding="utf-8")
    path = tmp_path / "games.sqlite3"
    with GameDb(path) as db:
        with db.batch():
            for moves, _r in _real_games(10):
                db.add_game(_play(moves), "real")
        first = import_paths(db, [folder], COPENHAGEN)
        again = import_paths(db, [folder, folder / "g0.txt"], COPENHAGEN)
        assert (first.added, first.duplicates, again.added, again.duplicates) == (5, 0, 0, 6)
        before = db.lookup(COPENHAGEN.make_rules(), COPENHAGEN.make_rules().initial_position(),
                           Filters(sources=("real",)))
        rows = db.con.execute("SELECT count(*) FROM positions").fetchone()[0]
        imported_rows = db.con.execute("SELECT count(*) FROM positions p JOIN games g ON g.id=p.game "
                                       "WHERE g.source='imported'").fetchone()[0]
        assert db.delete_source("imported") == 5
        assert (db.count("imported"), db.count("real")) == (0, 10)
        assert db.con.execute("SELECT count(*) FROM positions").fetchone()[0] == rows - imported_rows
        after = db.lookup(COPENHAGEN.make_rules(), COPENHAGEN.make_rules().initial_position(),
                          Filters(sources=("real",)))
        assert [m.to_json() for m in after.moves] == [m.to_json() for m in before.moves]
        assert db.lookup(COPENHAGEN.make_rules(), COPENHAGEN.make_rules().initial_position(),
                         Filters(sources=("imported",))).games == 0


def test_the_symmetries_the_rules_allow():
    assert len(symmetries(find_variant("copenhagen").make_rules())) == 8
    assert len(symmetries(find_variant("brandubh").make_rules())) == 8
    assert len(symmetries(find_variant("fox_geese_13").make_rules())) == 1
    # the images are this file's own: every symmetry of Copenhagen maps d1 to one of its 8 images
    rules = find_variant("copenhagen").make_rules()
    g = rules.variant.geometry
    d1 = g.parse_square("d1")
    assert {g.name(m[d1]) for m in symmetries(rules)} == {_turn("d1", k) for k in range(8)}


def test_rules_are_never_mixed(tmp_path):
    """Copenhagen and Fetlar share the 11x11 start; a changed toggle is other rules too."""
    path = tmp_path / "games.sqlite3"
    fetlar = find_variant("fetlar")
    changed = find_variant("copenhagen").with_options({"edge_forts": False}) \
        if "edge_forts" in find_variant("copenhagen").options else find_variant("copenhagen").with_options(
            {"shield_walls": False})
    with GameDb(path) as db:
        for v in (fetlar, changed):
            g = Game(v.make_rules())
            g.play_text("d1-d3")
            with db.batch():
                db.add_game(g, "imported")
        plain = COPENHAGEN.make_rules()
        assert db.lookup(plain, plain.initial_position(), Filters(sources=("imported",))).games == 0
        r = fetlar.make_rules()
        assert db.lookup(r, r.initial_position(), Filters(sources=("imported",))).games == 1


def test_a_damaged_file_is_one_line_and_the_rebuild_keeps_every_imported_game(tmp_path):
    path = tmp_path / "games.sqlite3"
    (tmp_path / "a.txt").write_text(" ".join(_real_games(1)[0][0]), encoding="utf-8")
    with GameDb(path) as db:
        assert import_paths(db, [tmp_path / "a.txt"], COPENHAGEN).added == 1
    assert journal_path(path).exists()
    data = bytearray(path.read_bytes())
    data[:100] = b"\x00garbage" * 12 + b"1234"
    path.write_bytes(bytes(data))
    for extra in ("-wal", "-shm"):
        (tmp_path / ("games.sqlite3" + extra)).unlink(missing_ok=True)
    with pytest.raises(GameDbError) as info:
        GameDb(path).stats()
    assert info.value.damaged and "\n" not in str(info.value) and "db rebuild" in str(info.value)
    kept, report = rebuild(path, shipped=False)
    assert kept is not None and kept.exists()  # the damaged file is kept aside, not deleted
    assert report.added == 1 and report.problems == []
    with GameDb(path) as db:
        assert db.count("imported") == 1


def test_two_connections_at_once(tmp_path):
    """The window and the command line open the same file: one writes while the other reads."""
    path = tmp_path / "games.sqlite3"
    with GameDb(path) as a, GameDb(path) as b:
        with a.batch():
            a.add_game(_play(["d1-d3"]), "mine")
            assert b.count("mine") == 0  # not committed yet, and the reader is not blocked
        assert b.count("mine") == 1


def test_the_average_rating_where_the_records_give_one(tmp_path):
    """Three games reach d1-d3's position: rated 1500/1700 (mean 1600), 2000 (one side known), and
    none; the move's average is over the two rated games, by the tally and by a filtered scan."""
    path = tmp_path / "games.sqlite3"
    tags = [{"attackers": "A", "defenders": "B", "attackers-rating": "1500", "defenders-rating": "1700"},
            {"attackers": "C", "defenders": "D", "defenders-rating": "2000"}, {"attackers": "E", "defenders": "F"}]
    rules = COPENHAGEN.make_rules()
    with GameDb(path) as db:
        with db.batch():
            for i, t in enumerate(tags):
                db.add_game(_play(["d1-d3", ["e5-e2", "e5-e3", "g5-g2"][i]]), "imported", t)
        for filters in (Filters(sources=("imported",)), Filters(sources=("imported",), player="a")):
            look = db.lookup(rules, rules.initial_position(), filters)
            assert look.moves[0].move == "d1-d3"
            if filters.player:
                assert look.moves[0].games == 1 and look.moves[0].rating == 1600
            else:
                assert look.moves[0].games == 3 and look.moves[0].rating == 1800
        after = db.lookup(rules, _play(["d1-d3"]).position, Filters(sources=("imported",)))
        assert {m.move: m.rating for m in after.moves} == {"e5-e2": 1600, "e5-e3": 2000, "g5-g2": None}


@pytest.mark.parametrize("line", [[], ["d1-d3"], ["h1-h3", "g5-g2"]])
def test_the_games_listed_are_the_newest_that_reached_the_position_whatever_the_filter(corpus, line):
    """The games list (8 games, the last added first) equals a brute-force pass over the games, for
    each source filter: by position or by source, whichever way the database reads them."""
    path, games = corpus
    board = _board(_play(line), len(line))
    for sources in (("real",), ("imported",), ("real", "imported"), ("mine",)):
        want = [n + 1 for n, (g, source, _i) in enumerate(games) if source in sources and any(
            _turn_board(_board(g, ply), k) == board for ply in range(len(g.plies) + 1) for k in range(8))]
        look = _lookup(path, line, Filters(sources=sources))
        with GameDb(path) as db:
            sample = db.lookup(_play(line).rules, _play(line).position, Filters(sources=sources), sample=8).sample
        assert [g.id for g in sample] == sorted(want, reverse=True)[:8]
        assert look.games == len(want)


def test_a_few_games_of_one_source_among_many_of_another_are_found_without_reading_the_others(tmp_path):
    """The explorer's default filter is the real games; among 100,000 self-play games the start
    position's list read every self-play game first (175 ms).  Counted here in SQLite's steps: the
    lookup of the real games at the start reads a small part of what reading the position's rows
    newest first until 8 real games would."""
    real = _real_games(40)
    with GameDb(tmp_path / "g.sqlite3") as db:
        with db.batch():
            for i, (moves, _r) in enumerate(real[:10]):
                db.add_game(_play(moves), "real", {"line": str(i)})
            for i in range(300):
                db.add_game(_play(real[i % 40][0][:6]), "selfplay", {"line": str(i)})
        game = _play([])
        steps = [0]

        def step() -> int:
            steps[0] += 1
            return 0

        look = db.lookup(game.rules, game.position, Filters(sources=("real",)), sample=8)
        key = db.folding(game.rules).fold(game.position).key
        db.con.set_progress_handler(step, 10)
        listed = db.games_at(db.folding(game.rules), key, Filters(sources=("real",)), 8, look.games)
        ours = steps[0]
        steps[0] = 0
        scan = db.con.execute("SELECT g.id FROM positions p JOIN games g ON g.id=p.game WHERE p.key=? "
                              "AND g.source='real' ORDER BY p.game DESC LIMIT 8", (key,)).fetchall()
        theirs = steps[0]
        db.con.set_progress_handler(None, 0)
    assert [g.id for g in look.sample] == [g.id for g in listed] == [r[0] for r in scan] == list(range(10, 2, -1))
    assert look.games == 10
    assert ours * 3 < theirs, (ours, theirs)


def test_a_journal_line_is_the_games_own_record_whatever_its_tags_say(tmp_path):
    """The journal keeps imported games recoverable (issue 39); the variant's data is encoded once an
    import and put into each line, which must still read back as the game's record, even when a tag
    or the file's name holds the text that marks where the variant goes."""
    import json

    from tafl_desktop.core.record import game_from_data, game_to_data
    from tafl_desktop.gamedb.library import journal_line

    game = _play(["d1-d3", "e5-e3"])
    tags = {"event": '"variant": {}', "attackers": "A"}
    item = json.loads(journal_line(game, tags, "imported", 'x"variant": {}.txt'))
    assert item == {"source": "imported", "origin": 'x"variant": {}.txt', "record": game_to_data(game, tags)}
    again = game_from_data(item["record"], "journal")
    assert [p.position for p in again.plies] == [p.position for p in game.plies]


def test_an_engine_score_is_kept_by_rules_position_and_budget(tmp_path, monkeypatch):
    """The explorer's engine column (issue 39: "the engine's score of the move (cached)"): a score is
    found again by the rules, the folded position and the budget it was searched with, never under
    another budget or other rules; the Python engine's games get the smaller budget."""
    from tafl_desktop.ai.engine import ENGINE_ENV, native_search_available
    from tafl_desktop.gamedb.scores import BUDGET, PYTHON_BUDGET, MoveScore, budget_for, score_after

    game = _play(["d1-d3"])
    fox = find_variant("fox_geese_13").make_rules()
    assert budget_for(fox) == (BUDGET if native_search_available() else PYTHON_BUDGET)
    with monkeypatch.context() as m:
        m.setenv(ENGINE_ENV, "python")
        assert budget_for(fox) == PYTHON_BUDGET < BUDGET
    score = score_after(game.rules, game.position, None, 300)
    assert isinstance(score, MoveScore) and score.depth >= 1
    mirror = _play([_turn_move("d1-d3", 4)])
    with GameDb(tmp_path / "g.sqlite3") as db:
        folding = db.folding(game.rules)
        key = folding.fold(game.position).key
        assert folding.fold(mirror.position).key == key  # a move and its mirror image share one score
        db.store_score(folding.rules_key, key, 300, score)
    with GameDb(tmp_path / "g.sqlite3") as db:
        assert db.scores(folding.rules_key, [key], 300) == {key: score}
        assert db.scores(folding.rules_key, [key], 301) == {}
        assert db.scores(db.folding(fox).rules_key, [key], 300) == {}
