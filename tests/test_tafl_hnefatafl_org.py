"""hnefatafl.org's Copenhagen as a preset (issue 43 item 2): its move limit and its "king can't
escape" win, as named options (``turn_limit``, ``cant_escape``) that only the Python engine plays.

Rule source: hnefatafl.org's engine, the crate ``hnefatafl-copenhagen`` 6.4.1 as published on
crates.io (the repository dcampbell24/hnefatafl at 5878b58f, version 6.2.3, differs in these rules
only by ``MAX_TURNS = 132``): ``src/board.rs`` (``MAX_TURNS = 140``;
``play_internal`` draws a move played after more than 140 moves that does not win, so the 142nd;
``can_not_escape``), ``src/game.rs`` (``Game::play`` tests ``can_not_escape`` after every move that
leaves the game going on).  The positions of :data:`SITE_CASES` are those of the crate's own tests
(``src/tests.rs``: ``closed_off_exits``, ``can_not_escape_1`` to ``can_not_escape_8``), each with
the answer the crate's test asserts for it; its rows are written top row first (rank 11), as both
the crate and our position notation write them.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tafl_desktop.ai.engine import resolve
from tafl_desktop.ai.search import Searcher, SearchLimits
from tafl_desktop.core.game import Game, Outcome, Side
from tafl_desktop.core.variants import find_variant, presets
from tafl_desktop.native import bridge, make_rules

#: (crate test, position with the attackers to move, the attackers' move or None, what is asserted:
#: "closed" (every exit closed off), "board" (can_not_escape of the position) or "move"
#: (can_not_escape after the move), the crate's answer, the game status the crate asserts or None)
SITE_CASES = [
    ("closed_off_exits", "11/11/11/11/11/11/11/11/t10/1t9/2t2K5",
     None, "closed", False, None),
    ("closed_off_exits", "2t4t3/1t6t2/t8t1/t9t/t10/t10/t10/t10/t9t/1t7t1/2t2K2t2",
     None, "closed", True, None),
    ("closed_off_exits", "1tt5tt1/t9t/11/11/11/11/11/11/11/t9t/1tt2K2tt1",
     None, "closed", False, None),
    ("closed_off_exits", "1t7t1/t9t/t9t/11/11/11/11/11/t9t/t9t/1t3K3t1",
     None, "closed", False, None),
    ("closed_off_exits", "1tt5tt1/t9t/t9t/11/11/11/11/11/t9t/t9t/1tt2K2tt1",
     None, "closed", True, None),
    ("can_not_escape_1", "2t2t2t2/1t7t1/t9t/11/11/11/11/11/t9t/1t3T3t1/2t1TKT1t2",
     None, "board", True, None),
    ("can_not_escape_1", "2t2t2t2/1t7t1/t9t/11/11/11/11/11/t9t/1t3TTT1t1/2t1TK2t2",
     None, "board", False, None),
    ("can_not_escape_1", "2t5t2/1t7t1/t9t/11/11/11/11/11/t9t/1t7t1/2t2K2t2",
     None, "board", False, None),
    ("can_not_escape_1", "2t5t2/1t7t1/t9t/11/11/11/11/11/t9t/1t2tTT2t1/2tT2KTt2",
     "e2-e1", "move", True, 'AttackerWins'),
    ("can_not_escape_2", "2ttt3t2/1t7t1/t9t/8TTT/7T1KT/t6TTTt/t9t/t9t/t9t/1t7t1/2tttt2t2",
     "f1-h1", "move", False, 'Ongoing'),
    ("can_not_escape_2", "2tttt2t2/1t7t1/t9t/8TTT/7T1KT/t6TTTt/t9t/t9t/t9t/1t7t1/2tttt2t2",
     "f1-h1", "move", True, 'AttackerWins'),
    ("can_not_escape_2", "2ttt3t2/1t7t1/t9t/9TT/8T1K/9TT/t9t/t9t/t9t/1t7t1/2tttt2t2",
     "f1-h1", "move", True, 'AttackerWins'),
    ("can_not_escape_3", "2tttt2t2/1t7t1/t9t/8TTT/t6T1KT/t6TTTt/10t/t9t/t9t/1t7t1/2tttt2t2",
     "f1-h1", "move", False, 'Ongoing'),
    ("can_not_escape_3", "5t2t2/4t4t1/3t6t/2t5TTT/2t4T1KT/2t4TTTt/2t7t/2t7t/3t6t/4t4t1/4t3t2",
     "e1-f1", "move", True, 'AttackerWins'),
    ("can_not_escape_3", "2tttt2t2/1t7t1/t9t/8TTT/t6T1KT/7TTTt/1t8t/1t8t/t9t/1t7t1/2tttt2t2",
     "a7-a6", "move", False, 'Ongoing'),
    ("can_not_escape_4", "1ttKtt5/3t7/3t7/11/11/t9T/11/11/11/11/11",
     "a6-a7", "move", True, 'AttackerWins'),
    ("can_not_escape_4", "1tKtt6/2t8/2t8/11/11/t9T/11/11/11/11/11",
     "a6-a7", "move", True, 'AttackerWins'),
    ("can_not_escape_4", "6ttKt1/8t2/8t2/11/11/t9T/11/11/11/11/11",
     "a6-a7", "move", True, 'AttackerWins'),
    ("can_not_escape_4_more", "1ttKtt5/3tt6/3tt6/11/11/t9T/10T/11/11/11/11",
     "a6-a7", "move", True, 'AttackerWins'),
    ("can_not_escape_4_more", "1tKtt6/1tt8/1tt8/11/11/t9T/10T/11/11/11/11",
     "a6-a7", "move", True, 'AttackerWins'),
    ("can_not_escape_4_more", "6ttKt1/7tt2/7tt2/11/11/t9T/10T/11/11/11/11",
     "a6-a7", "move", True, 'AttackerWins'),
    ("can_not_escape_4_more", "6ttKt1/8t2/7tt2/11/11/t9T/10T/11/11/11/11",
     "a6-a7", "move", False, 'Ongoing'),
    ("can_not_escape_5", "11/t10/t10/Ktt8/t10/t9T/11/11/11/11/5t5",
     "f1-g1", "move", True, 'AttackerWins'),
    ("can_not_escape_5", "11/t10/Ktt8/t10/t10/10T/11/11/11/11/5t5",
     "f1-g1", "move", True, 'AttackerWins'),
    ("can_not_escape_5", "11/11/11/11/11/10T/t10/t10/Ktt8/t10/5t5",
     "f1-g1", "move", True, 'AttackerWins'),
    ("can_not_escape_5_more", "11/11/11/11/11/t9T/t9T/Ktt8/ttt8/t10/5t5",
     "f1-g1", "move", True, 'AttackerWins'),
    ("can_not_escape_5_more", "11/11/11/11/11/10T/t9T/ttt8/Ktt8/t10/5t5",
     "f1-g1", "move", True, 'AttackerWins'),
    ("can_not_escape_5_more", "11/t10/Ktt8/ttt8/t10/10T/10T/11/11/11/5t5",
     "f1-g1", "move", True, 'AttackerWins'),
    ("can_not_escape_5_more", "11/t10/Ktt8/tt9/t10/10T/10T/11/11/11/5t5",
     "f1-g1", "move", False, 'Ongoing'),
    ("can_not_escape_6", "6t4/10t/10t/8ttK/10t/10t/T10/11/11/11/11",
     "g11-h11", "move", True, 'AttackerWins'),
    ("can_not_escape_6", "6t4/10t/8ttK/10t/10t/T10/11/11/11/11/11",
     "g11-h11", "move", True, 'AttackerWins'),
    ("can_not_escape_6", "6t4/11/11/11/11/10T/10t/10t/8ttK/10t/11",
     "g11-h11", "move", True, 'AttackerWins'),
    ("can_not_escape_6_more", "11/11/11/11/11/t9T/t9T/Ktt8/ttt8/t10/5t5",
     "f1-g1", "move", True, 'AttackerWins'),
    ("can_not_escape_6_more", "11/11/11/11/11/10T/t9T/ttt8/Ktt8/t10/5t5",
     "f1-g1", "move", True, 'AttackerWins'),
    ("can_not_escape_6_more", "11/t10/Ktt8/ttt8/t10/10T/10T/11/11/11/5t5",
     "f1-g1", "move", True, 'AttackerWins'),
    ("can_not_escape_6_more", "11/t10/Ktt8/tt9/t10/10T/10T/11/11/11/5t5",
     "f1-g1", "move", False, 'Ongoing'),
    ("can_not_escape_7", "6t4/11/11/11/11/11/T10/11/3t7/3t7/1ttKtt5",
     "g11-h11", "move", True, 'AttackerWins'),
    ("can_not_escape_7", "6t4/11/11/11/11/11/T10/11/2t8/2t8/1tKtt6",
     "g11-h11", "move", True, 'AttackerWins'),
    ("can_not_escape_7", "6t4/11/11/11/11/10T/11/11/8t2/8t2/6ttKt1",
     "g11-h11", "move", True, 'AttackerWins'),
    ("can_not_escape_7_more", "6t4/11/11/11/11/11/T10/T10/3tt6/3tt6/1ttKtt5",
     "g11-h11", "move", True, 'AttackerWins'),
    ("can_not_escape_7_more", "6t4/11/11/11/11/T10/T10/11/2tt7/2tt7/1tKtt6",
     "g11-h11", "move", True, 'AttackerWins'),
    ("can_not_escape_7_more", "6t4/11/11/11/11/10T/10T/11/7tt2/7tt2/6ttKt1",
     "g11-h11", "move", True, 'AttackerWins'),
    ("can_not_escape_7_more", "6t4/11/11/11/11/10T/10T/11/7tt2/8t2/6ttKt1",
     "g11-h11", "move", False, 'Ongoing'),
    ("can_not_escape_8", "6t4/11/11/11/11/11/T10/t10/t10/Ktt8/11",
     "g11-h11", "move", False, 'Ongoing'),
    ("can_not_escape_8", "6t4/11/11/11/11/11/T10/11/9t1/9t1/7ttK1",
     "g11-h11", "move", False, 'Ongoing'),
    ("can_not_escape_8", "6t4/11/11/11/11/10T/11/11/9t1/9t1/7ttK1",
     "g11-h11", "move", False, 'Ongoing'),
]


def _org_rules():
    return presets()["copenhagen_org"].make_rules()


@pytest.mark.parametrize("case", SITE_CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(SITE_CASES)])
def test_the_sites_own_positions_get_the_sites_answers(case):
    """Every position of the crate's tests: the test itself, and for a move the game's ending."""
    name, text, move, kind, expected, status = case
    rules = _org_rules()
    pos = rules.parse_position(text, Side.ATTACKERS)
    test = rules.cant_escape
    if kind == "closed":
        assert (test._closed_off_exits(pos.att, pos.dfn, pos.king) is not None) is expected
        return
    if kind == "board":
        assert test.king_cannot_escape(pos.att, pos.dfn, pos.king) is expected
        return
    game = Game(rules, start=pos)
    game.play(rules.parse_move(pos, move))
    after = game.position
    assert test.king_cannot_escape(after.att, after.dfn, after.king) is expected
    ended = game.outcome == Outcome(Side.ATTACKERS, "cant_escape")
    if status is not None:
        assert ended is (status == "AttackerWins")
    else:
        assert ended is expected
    if ended:
        # plain Copenhagen has no such win: the same move leaves that game going on
        plain = find_variant("copenhagen").make_rules()
        other = Game(plain, start=plain.parse_position(text, Side.ATTACKERS))
        other.play(plain.parse_move(other.position, move))
        assert other.outcome is None


def test_a_king_trapped_on_the_edge_loses_after_a_defenders_move_too():
    """``Game::play`` tests after every move: a defenders' move that leaves the trap standing ends
    the game (the crate's ``can_not_escape_1`` position 1, with one defender a move away)."""
    rules = _org_rules()
    # the crate's first can_not_escape_1 board (true), a defender moved off f2 to f4 first
    pos = rules.parse_position("/2t2t2t2/1t7t1/t9t/11/11/11/11/5T5/t9t/1t7t1/2t1TKT1t2/", Side.DEFENDERS)
    game = Game(rules, start=pos)
    game.play(rules.parse_move(pos, "f4-f2"))
    assert game.outcome == Outcome(Side.ATTACKERS, "cant_escape")


def test_the_move_limit_draws_after_the_nth_move_only():
    """``turn_limit`` n: the n-th move of the game draws it; the moves before it do not."""
    v = find_variant("copenhagen").with_options({"turn_limit": 3})
    rules = v.make_rules()
    game = Game(rules)
    for text in ("d11-d9", "f4-c4", "h11-h9"):
        assert game.outcome is None
        game.play(rules.parse_move(game.position, text))
    assert game.outcome == Outcome(None, "turn_limit")


def test_a_win_on_the_limit_move_is_a_win():
    """The site tests the board's wins before the limit (``play_internal``): a king reaching a corner
    on the last move wins; any other last move draws."""
    v = find_variant("copenhagen").with_options({"turn_limit": 1})
    rules = v.make_rules()
    pos = rules.parse_position("/11/11/11/5t5/11/11/11/11/11/K10/11/", Side.DEFENDERS)
    won = Game(rules, start=pos)
    won.play(rules.parse_move(pos, "a2-a1"))
    assert won.outcome == Outcome(Side.DEFENDERS, "king_escaped")
    drawn = Game(rules, start=pos)
    drawn.play(rules.parse_move(pos, "a2-b2"))
    assert drawn.outcome == Outcome(None, "turn_limit")


def test_the_preset_draws_at_the_142nd_move():
    """``MAX_TURNS = 140`` and ``turn_number > MAX_TURNS`` with the moves already played: the
    142nd move draws.  A game of quiet moves (chosen so nothing else ends it) under the preset."""
    rules = _org_rules()
    game = Game(rules)
    while game.outcome is None:
        pos = game.position
        ply = len(game.plies)
        for move in game.legal_moves():
            after, caps = rules.play(pos, move)
            if caps or (after.result is not None and after.result.reason != "turn_limit"):
                continue
            try:
                game.play(move)
            except ValueError:
                continue
            break
        assert len(game.plies) == ply + 1, "no quiet move was left"
        if game.outcome is None:
            assert len(game.plies) < 142
    assert len(game.plies) == 142
    assert game.outcome == Outcome(None, "turn_limit")


def test_the_native_engine_refuses_the_sites_rules_and_the_python_engine_plays_them():
    """The native rules do not play ``turn_limit`` or ``cant_escape``: the preset gets the core's
    rules and the Python search, an explicit ``--engine native`` one clear line, and plain
    Copenhagen keeps the native engine."""
    org = presets()["copenhagen_org"]
    assert bridge.python_only_in_force(org) == ["turn_limit", "cant_escape"]
    assert type(make_rules(org)).__name__ == "TaflRules"
    assert bridge.resolve_engine(None, org) == "python"
    with pytest.raises(ValueError, match="does not play turn_limit, cant_escape"):
        bridge.resolve_engine("native", org)
    with pytest.raises(ValueError, match="does not play"):
        bridge.config_for(org)
    assert resolve(org.make_rules()) == "python"
    with pytest.raises(ValueError, match="does not play"):
        resolve(org.make_rules(), "native")
    if bridge.available():
        plain = presets()["copenhagen"]
        assert type(make_rules(plain)).__name__ == "NativeTaflRules"
        assert resolve(plain.make_rules()) == "native"
        assert "turn_limit" not in bridge.config_for(plain)["options"]


def test_the_python_search_takes_the_cant_escape_win():
    """The crate's can_not_escape_1 game position: e2-e1 wins at once, and the search plays it."""
    rules = _org_rules()
    pos = rules.parse_position("/2t5t2/1t7t1/t9t/11/11/11/11/11/t9t/1t2tTT2t1/2tT2KTt2/", Side.ATTACKERS)
    res = Searcher(rules).search(pos, SearchLimits(time=10, depth=2))
    assert rules.move_text(res.move) == "e2-e1"


def test_the_rule_sheet_prints_both_rules():
    """``tafl-desktop rules copenhagen_org`` in a subprocess: both sentences, with the limit."""
    env = dict(os.environ)
    out = subprocess.run([sys.executable, "-m", "tafl_desktop", "rules", "copenhagen_org"], capture_output=True,
                         text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "The game is drawn after move 142 (both sides' moves counted) unless that move wins." in out.stdout
    assert "the king can no longer escape as hnefatafl.org judges it" in out.stdout
    plain = subprocess.run([sys.executable, "-m", "tafl_desktop", "rules", "copenhagen"], capture_output=True,
                           text=True, env=env, timeout=120)
    assert "hnefatafl.org judges" not in plain.stdout and "move 142" not in plain.stdout


# ------------------------------------------------------------------ the site's records (item 3)
def _quiet_game(rules, plies: int) -> Game:
    """A game of ``plies`` moves (or until it ends) that captures nothing and wins nothing."""
    game = Game(rules)
    while game.outcome is None and len(game.plies) < plies:
        pos = game.position
        for move in game.legal_moves():
            after, caps = rules.play(pos, move)
            if not caps and (after.result is None or after.result.reason == "turn_limit"):
                game.play(move)
                break
        else:
            raise AssertionError("no quiet move was left")
    return game


def _site_record(game: Game, number: int = 4711) -> str:
    """A record as hnefatafl.org's client writes one (portable_game_notation.rs, crate 6.4.1:
    ``portable_game_notation_from_archived_game``): Event and Site tags, a Date tag in
    ``%F %T %z``, then the numbered moves as ``from`` + ``to`` with no blank line before them,
    no result and no final newline."""
    words = []
    for i, ply in enumerate(game.plies):
        if i % 2 == 0:
            words.append(f"{i // 2 + 1}.")
        words.append(game.rules.move_text(ply.move).replace("-", ""))
    return (f'[Event "Game {number}"]\n[Site "hnefatafl.org"]\n[Date "2026-08-21 14:03:22 +0000"]\n'
            + " ".join(words))


def test_a_site_record_is_read_under_the_sites_rules_and_ends_as_there(tmp_path):
    """A 142-move game written as the site writes it: read under ``copenhagen_org``, drawn by the
    move limit; the same moves with another site's tag are Copenhagen, still going on."""
    from tafl_desktop.interop.formats import read_game

    game = _quiet_game(_org_rules(), 142)
    assert game.outcome == Outcome(None, "turn_limit")
    path = tmp_path / "hnefatafl-org.pgn"
    path.write_text(_site_record(game), encoding="utf-8")
    t = read_game(path)
    assert t.game.rules.variant.id == "copenhagen_org"
    assert t.game.move_texts() == game.move_texts()
    assert t.game.outcome == Outcome(None, "turn_limit")
    assert t.tags["event"] == "Game 4711" and t.tags["date"] == "2026-08-21 14:03:22 +0000"
    other = tmp_path / "playtafl.pgn"
    other.write_text(_site_record(game).replace("hnefatafl.org", "playtafl.com"), encoding="utf-8")
    plain = read_game(other)
    assert plain.game.rules.variant.id == "copenhagen" and plain.game.outcome is None


def test_a_site_record_with_a_move_after_the_limit_is_refused_in_one_line(tmp_path):
    """A record that plays on after the site's limit cannot come from the site: one clear line."""
    from tafl_desktop.interop.formats import read_game
    from tafl_desktop.interop.transfer import InteropError

    plain = presets()["copenhagen"].make_rules()
    game = _quiet_game(plain, 136)
    path = tmp_path / "too-long.pgn"
    path.write_text(_site_record(game), encoding="utf-8")
    with pytest.raises(InteropError) as err:
        read_game(path)
    assert "\n" not in str(err.value) and "too-long.pgn" in str(err.value)


def test_the_window_opens_a_site_record_under_the_sites_rules(qtbot, make_window, dialogs_recorder, tmp_path):
    """The real window, offscreen: a site record dropped on it opens as Copenhagen (hnefatafl.org),
    its moves and its ending there to review."""
    from test_gui_interop import _drop

    game = _quiet_game(_org_rules(), 142)
    path = tmp_path / "from-the-site.pgn"
    path.write_text(_site_record(game), encoding="utf-8")
    w = make_window("brandubh")
    _drop(w, path)
    assert dialogs_recorder.errors == []
    assert w.session.variant.id == "copenhagen_org"
    assert len(w.session.game.plies) == 142
    assert w.session.game.outcome == Outcome(None, "turn_limit")
    w.grab().save("/tmp/h43-site-record.png")


@pytest.mark.parametrize("tags", [{}, {"event": "Game 12", "site": "hnefatafl.org"}])
def test_a_site_game_is_written_as_the_site_writes_it_and_reads_back_the_same(tmp_path, tags):
    """A ``copenhagen_org`` game written to PGN carries the site's own ``[Site "hnefatafl.org"]`` tag
    (portable_game_notation.rs, crate 6.4.1: the tags Event, Site and Date, never a Rules tag) and
    no Rules tag, and reads back as the same game under the same rules."""
    from tafl_desktop.interop.formats import read_game, write_game
    from tafl_desktop.interop.transfer import GameTransfer

    game = _quiet_game(_org_rules(), 142)
    path = tmp_path / "site.pgn"
    warnings = write_game(GameTransfer(game, dict(tags)), path)
    text = path.read_text(encoding="utf-8")
    assert "[Rules" not in text and '[Site "hnefatafl.org"]' in text and warnings == []
    back = read_game(path)
    assert back.game.rules.variant.id == "copenhagen_org"
    assert back.game.move_texts() == game.move_texts() and back.game.outcome == Outcome(None, "turn_limit")


def test_a_site_game_changed_or_tagged_for_another_site_keeps_its_rules_tag(tmp_path):
    """Only the site's rules unchanged, from the site or no site, drop the Rules tag: a changed rule, or
    another site's tag (read as Copenhagen there), still travels in one, and reads back the same."""
    from tafl_desktop.interop.formats import read_game, write_game
    from tafl_desktop.interop.transfer import GameTransfer

    org = presets()["copenhagen_org"]
    for variant, tags in ((org.with_options({"turn_limit": 200}), {}), (org, {"site": "playtafl.com"})):
        game = _quiet_game(variant.make_rules(), 6)
        path = tmp_path / "other.pgn"
        write_game(GameTransfer(game, dict(tags)), path)
        assert "[Rules" in path.read_text(encoding="utf-8")
        back = read_game(path)
        assert back.game.rules.variant.options == variant.options
        assert back.game.move_texts() == game.move_texts()
