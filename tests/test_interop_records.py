"""Game records in and out (issue 20): OpenTafl .otg, hnefatafl.org PGN-like files, plain move lists,
PlayTaflOnline JSON, and ``tafl-desktop convert`` in a subprocess.

Formats: ``shared/reference/turn2-research.md`` 4.2 (.otg as OpenTafl reads it), 4.3 (PGN-like
files of hnefatafl.org, move lists), 4.4 (PlayTaflOnline's JSON as OpenTafl translates it).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from tafl_desktop.core.game import Game, Side
from tafl_desktop.core.record import game_to_data, save_game
from tafl_desktop.core.variants import find_variant
from tafl_desktop.interop.formats import parse, read_game, render, write_game
from tafl_desktop.interop.otg import read_otg, write_otg
from tafl_desktop.interop.transfer import GameTransfer, InteropError


def random_game(variant_id: str, seed: int, plies: int = 80, **options) -> Game:
    game = Game(find_variant(variant_id, options or None).make_rules())
    rng = random.Random(seed)
    while not game.over and len(game.plies) < plies:
        game.play(rng.choice(game.legal_moves()))
    return game


@pytest.mark.parametrize("variant_id, seed", [("brandubh", 1), ("copenhagen", 2), ("tablut_camps", 3),
                                              ("alea_evangelii", 4), ("single_step", 5)])
def test_record_to_otg_to_record_is_identical(variant_id, seed):
    game = random_game(variant_id, seed)
    tags = {"event": "Club night", "attackers": "Ann"}
    comments = {0: "before the first move", 3: "sharp", 4: "a reply"}
    tree = GameTransfer(game, tags, comments).to_tree()
    original = game_to_data(game, tags, tree)
    assert original["comments"] == {"0": "before the first move", "3": "sharp", "4": "a reply"}
    text, _warnings = write_otg(GameTransfer.from_tree(tree, tags))
    back = read_otg(text)
    assert back.comments == comments
    assert game_to_data(back.game, back.tags, back.to_tree()) == original


def test_changed_toggles_and_a_set_up_position_survive_otg():
    v = find_variant("copenhagen", {"edge_hostile": True, "repetition": "draw"})
    rules = v.make_rules()
    start = rules.parse_position(rules.position_text(rules.initial_position()), Side.DEFENDERS)
    game = Game(rules, start)
    game.play(game.legal_moves()[0])
    text, warnings = write_otg(GameTransfer(game))
    assert any("edge_hostile" in w for w in warnings)
    back = read_otg(text).game
    assert back.rules.variant.options == v.options and back.start == game.start
    assert rules.side_to_move(back.start) == Side.DEFENDERS and back.move_texts() == game.move_texts()


def test_otg_as_opentafl_writes_it_is_read():
    # the shape of OpenTafl's own files (turn2-research.md 4.2): tags in any order, rules not last,
    # trailing spaces, [|] comment lines, king letters and info suffixes, captures with x
    text = """[date:2015.03.01]
[attackers:Fish]
[defenders:Nasa]
[rules:dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]
[start-comment:An old game]
[result:?]

1. d2-c2 e4-e6~
[|]
2. c2-c3 e6-f6~
[first note|second note]
3. b4-b5 f6-f5~
4. b5-c5xc4 Kd4-c4-~
""".replace("~", " ")  # OpenTafl ends each turn line with a space
    t = read_otg(text)
    assert t.game.move_texts() == ["d2-c2", "e4-e6", "c2-c3", "e6-f6", "b4-b5", "f6-f5", "b5-c5", "d4-c4"]
    assert [len(p.captures) for p in t.game.plies].count(1) == 1
    assert t.comments == {0: "An old game", 3: "first note", 4: "second note"}
    assert t.tags["attackers"] == "Fish" and t.tags["date"] == "2015.03.01"
    assert t.game.rules.variant.options["king_capture"] == "custodial"


@pytest.mark.parametrize("text, words", [
    ("1. d2-c2\n", "rules"),
    ("[rules:dim:7 wat:y start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n1. d2-c2\n", "wat"),
    ("[rules:dim:7 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n1. d2-d9\n", "d2-d9"),
    ("[rules:dim:7 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n1. d2-c2 d3-c3xb3\n", "captures"),
    ("[rules:dim:7 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n1. d2-c2\n3. c2-c3\n", "turn 3"),
    ("[rules:dim:7 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n1. hello world\n", "hello"),
    ("[rules:dim:7 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n1. Ne6^=e8xce7\n", "jump"),
    ("[rules:dim:7 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n1. d3-e3\n", "cannot be played"),
    ("[broken tag\n", "cannot read"),
])
def test_bad_otg_gives_one_clear_line(text, words):
    with pytest.raises(InteropError) as err:
        read_otg(text, "bad.otg")
    assert words in str(err.value) and "\n" not in str(err.value) and str(err.value).startswith("bad.otg")


def test_pgn_like_files_of_hnefatafl_org():
    # turn2-research.md 4.3: no hyphen, no captures, Copenhagen assumed, attackers first
    text = '[Event "Game 42"]\n[Site "hnefatafl.org"]\n[Date "2026-05-01 12:00:00 +0000"]\n\n1. d1d3 f4i4 2. h1h3 *\n'
    t = parse(text, "pgn", "g.pgn")
    # the site's games are read under its own rules (issue 43: tests/test_tafl_hnefatafl_org.py)
    assert t.game.rules.variant.id == "copenhagen_org" and t.game.move_texts() == ["d1-d3", "f4-i4", "h1-h3"]
    assert t.tags["site"] == "hnefatafl.org"
    plain = parse(text.replace('[Site "hnefatafl.org"]\n', ""), "pgn", "g.pgn")
    assert plain.game.rules.variant.id == "copenhagen"
    out, warnings = render(plain, "pgn")
    assert "1. d1d3 f4i4" in out and warnings == [] and "Rules" not in out
    # other variants carry their rules in a Rules tag, and say so
    game = random_game("brandubh", 7, 30)
    out, warnings = render(GameTransfer(game, {"event": "x"}), "pgn")
    assert '[Rules "dim:7 ' in out and any("Copenhagen" in w for w in warnings)
    back = parse(out, "pgn", "b.pgn")
    assert game_to_data(back.game) == game_to_data(game)


def test_plain_move_lists_with_or_without_captures():
    game = random_game("tablut", 11, 60)
    text, _ = render(GameTransfer(game), "moves")
    assert game_to_data(parse(text, "moves", "m.txt", find_variant("tablut")).game) == game_to_data(game)
    bare = " ".join(game.move_texts())
    assert parse(bare, "moves", "m.txt", find_variant("tablut")).game.move_texts() == game.move_texts()
    with pytest.raises(InteropError, match="variant"):
        parse(bare, "moves", "m.txt", None)
    with pytest.raises(InteropError, match="not a move"):
        parse("1. e1-e5 e9", "moves", "m.txt", find_variant("tablut"))


def test_playtaflonline_json():
    # turn2-research.md 4.4: Move newest first; x = file from a, y = rank from 1; EndState of Move[0]
    data = {"Layout": "brandubh", "Objective": 1, "KingCapture": 0, "KingStrength": 0, "Throne": 1, "Hostile": 1,
            "Speed": 0, "Surround": 1, "ExitFort": 0, "ShieldWall": 0, "Attacker": "ann", "Defender": "bob",
            "StartDate": 1420070400,
            "Move": [{"MoveX": 2, "MoveY": 3, "MoveXTo": 2, "MoveYTo": 5, "EndState": 5},
                     {"MoveX": 3, "MoveY": 1, "MoveXTo": 2, "MoveYTo": 1, "EndState": 0},
                     {"MoveX": -1, "MoveY": -1, "MoveXTo": -1, "MoveYTo": -1}]}
    t = parse(json.dumps(data), "json", "pto.json")
    assert t.game.move_texts() == ["d2-c2", "c4-c6"]
    assert t.tags == {"attackers": "ann", "defenders": "bob", "date": "2015.01.01"}
    # the resignation (end state 5) ends the game itself (issue 26), so it is kept in every format
    assert t.game.outcome is not None and t.game.outcome.winner == Side.DEFENDERS
    assert t.game.outcome.reason == "resigned"
    assert t.game.rules.variant.options["king_capture"] == "custodial"
    with pytest.raises(InteropError, match="coppergate1"):
        parse(json.dumps({**data, "Layout": "coppergate1"}), "json", "pto.json")
    with pytest.raises(InteropError, match="KingCapture"):
        parse(json.dumps({**data, "KingCapture": 9}), "json", "pto.json")


def test_unreadable_files_and_paths(tmp_path):
    binary = tmp_path / "x.otg"
    binary.write_bytes(b"\xff\xfe\x00\x01")
    with pytest.raises(InteropError, match="UTF-8"):
        read_game(binary)
    (tmp_path / "d.otg").mkdir()
    with pytest.raises(InteropError, match="folder"):
        read_game(tmp_path / "d.otg")
    with pytest.raises(InteropError, match="format"):
        read_game(tmp_path / "game.xyz")
    game = random_game("brandubh", 1, 10)
    target = tmp_path / "keep.otg"
    target.write_text("precious")
    with pytest.raises(InteropError, match="cannot write"):
        write_game(GameTransfer(game), tmp_path / "no" / "such" / "dir.otg")
    with pytest.raises(InteropError, match="not a Tafl game"):
        write_game(GameTransfer(Game(find_variant("halatafl").make_rules())), target)
    assert target.read_text() == "precious"


def _cli(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tafl_desktop", *args], capture_output=True, text=True,
                          timeout=60, cwd=cwd)


def test_convert_command_in_a_subprocess(tmp_path):
    game = random_game("copenhagen", 5, 40)
    src = tmp_path / "game.tafl.json"
    save_game(game, src, {"event": "convert"})
    r = _cli("convert", str(src), str(tmp_path / "g.otg"))
    assert r.returncode == 0 and "warning" in r.stderr and "repetition" in r.stderr
    otg = (tmp_path / "g.otg").read_text()
    assert "[rules:dim:11 " in otg and "1. " in otg
    r = _cli("convert", str(tmp_path / "g.otg"), str(tmp_path / "back.tafl.json"))
    assert r.returncode == 0
    assert json.loads((tmp_path / "back.tafl.json").read_text()) == json.loads(src.read_text())
    r = _cli("convert", str(src), str(tmp_path / "out.list"), "--format", "moves")
    assert r.returncode == 0 and (tmp_path / "out.list").read_text().startswith("1. ")
    r = _cli("convert", str(tmp_path / "out.list"), str(tmp_path / "m.pgn"), "--from-format", "moves",
             "--variant", "copenhagen")
    assert r.returncode == 0 and "[Event" not in (tmp_path / "m.pgn").read_text()
    r = _cli("convert", str(tmp_path / "out.list"), str(tmp_path / "m.otg"), "--from-format", "moves")
    assert r.returncode == 1 and r.stderr.count("\n") == 1 and "--variant" in r.stderr
    bad = tmp_path / "bad.otg"
    bad.write_text("[rules:dim:11 zz:1 start:/11/]\n")
    r = _cli("convert", str(bad), str(tmp_path / "x.pgn"))
    assert r.returncode == 1 and r.stderr.strip() == "tafl-desktop: bad.otg: rules string: the key 'zz' is not " \
                                                     "one Tafl Desktop supports"
    assert not (tmp_path / "x.pgn").exists() and "Traceback" not in r.stderr


def test_variations_stay_in_our_record_and_are_named_when_left_out():
    game = random_game("brandubh", 9, 12)
    tree = GameTransfer(game, {}, {2: "main line note"}).to_tree()
    branch = tree.main_line()[3].parent  # an alternative to the fourth move
    other = next(m for m in tree.game_at(branch).legal_moves() if m != tree.main_line()[3].move)
    tree.set_comment(tree.play(branch, other), "a side line")
    data = game_to_data(game, {}, tree)
    assert data["variations"][0]["ply"] == 4
    t = parse(json.dumps(data), "json", "v.tafl.json")
    assert t.has_variations() and t.comments == {2: "main line note"}
    _moves, warnings = render(t, "moves")  # a plain move list cannot hold them: named
    assert any("variations were left out" in w for w in warnings)
    otg, warnings = render(t, "otg")  # OpenTafl records keep them (tests/test_interop_otg_variations.py)
    assert not any("variations" in w for w in warnings)
    assert "[|main line note]" in otg and "2b.1.1a. ..... " in otg
    again, _ = render(t, "json")
    assert json.loads(again)["variations"] == data["variations"]
