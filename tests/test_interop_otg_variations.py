"""Variations in OpenTafl records (issue 20): ``.otg`` files keep every line and its comments.

The syntax is OpenTafl's own, read in its source (jslater89/OpenTafl ``notation/GameSerializer.java``
``parseMoves``, ``engine/replay/MoveAddress.java``, ``engine/replay/ReplayGame.java``) and in the
replays it saved (``unbuilt/saved-games/replays/Fetlar-Escape-Puzzle.otg``): ``1a.1.1a. ...`` is
the first variation replacing main-line move 1a, ``1a.1.2a.`` continues it, ``1a.1.1a.1.1a. .....``
is a variation after move 1a.1.1a (replacing 1a.1.1b, the dots standing for the half it keeps), and
each line may be followed by its comment line ``[...|...]``.  The fixture below is written by hand
in that shape (trailing spaces, ``[|]`` lines, blank lines: as OpenTafl writes them).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from tafl_desktop.core.game import Game
from tafl_desktop.core.game_tree import GameTree
from tafl_desktop.core.record import game_to_data, load_tree, save_game
from tafl_desktop.core.variants import find_variant
from tafl_desktop.interop.formats import render
from tafl_desktop.interop.otg import read_otg, write_otg
from tafl_desktop.interop.transfer import GameTransfer, InteropError

RULES = "[rules:dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n"
OPENTAFL_SHAPED = RULES + """
1. d2-c2 e4-e6~
[|]

1a.1.1a. d2-e2 e4-e6~
[a quieter start|]

1a.1.1a.1.1a. ..... d3-c3~
[the defenders answer elsewhere]

1a.1.2a. e2-e3 e6-f6~
[|]

1a.2.1a. b4-b3~
[]

2. c2-c3 e6-f6~
[|good]

2b.1.1a. ..... e6-e7~
[]

3. b4-b5 f6-f5~
[|]

""".replace("~", " ")


def shape(tree: GameTree) -> list:
    """Every line of the tree as nested (move, comment, [children...]), main continuation first."""
    def node(n) -> list:
        return [tree.rules.move_text(n.move), n.comment, [node(c) for c in n.children]]
    return [tree.root.comment, [node(c) for c in tree.root.children]]


def test_variations_as_opentafl_writes_them_import_into_the_tree():
    t = read_otg(OPENTAFL_SHAPED, "puzzle.otg")
    assert t.warnings == [] and t.has_variations()
    assert t.game.move_texts() == ["d2-c2", "e4-e6", "c2-c3", "e6-f6", "b4-b5", "f6-f5"]
    root = t.tree.root
    text = t.tree.rules.move_text
    # two variations replace the first move, in the order written
    assert [text(c.move) for c in root.children] == ["d2-c2", "d2-e2", "b4-b3"]
    quieter = root.children[1]
    assert quieter.comment == "a quieter start"
    # 1a.1.2a. continues the variation; 1a.1.1a.1. replaces its second move (1a.1.1b, e4-e6)
    assert [text(n.move) for n in t.tree.line_through(quieter)] == ["d2-e2", "e4-e6", "e2-e3", "e6-f6"]
    assert [text(c.move) for c in quieter.children] == ["e4-e6", "d3-c3"]
    assert quieter.children[1].comment == "the defenders answer elsewhere"
    # 2b.1.1a. ..... replaces the second half of turn 2
    second = t.tree.main_line()[3]
    assert [text(c.move) for c in second.parent.children] == ["e6-f6", "e6-e7"] and second.comment == "good"
    assert t.tree.size() == 6 + 4 + 1 + 1 + 1


def test_our_tree_to_otg_to_tree_is_identical_with_nested_variations_and_comments():
    rng = random.Random(20)
    game = Game(find_variant("copenhagen").make_rules())
    while len(game.plies) < 30:
        game.play(rng.choice(game.legal_moves()))
    tree = GameTree.from_game(game)
    tree.root.comment = "from the start"
    for _ in range(25):  # side lines from anywhere, so some hang inside others
        node = rng.choice([tree.root, *tree.nodes()])
        for _step in range(rng.randint(1, 5)):
            moves = tree.game_at(node).legal_moves()
            if not moves:
                break
            node = tree.play(node, rng.choice(moves))
    for i, node in enumerate(tree.nodes()):
        if i % 3 == 0:
            node.comment = f"note {i}: [sharp] a|b"
    assert max(sum(not p.is_main_child for p in GameTree.path(n)) for n in tree.nodes()) >= 2  # nested
    text, warnings = write_otg(GameTransfer.from_tree(tree, {"event": "study"}))
    assert not any("variation" in w for w in warnings)
    back = read_otg(text, "study.otg")
    # every comment comes back as it was: ']' and '|' travel as escapes (issue 26)
    assert shape(back.tree) == shape(tree)
    assert game_to_data(back.game, {}, back.tree) == game_to_data(game, {}, tree)
    # and the text is stable: written again, it is the same
    assert write_otg(GameTransfer.from_tree(back.tree, back.tags))[0] == text


@pytest.mark.parametrize("line, words", [
    ("2a.1. c2-b2", "'2a.1.' is not a variation address"),
    ("2a.x.1a. c2-b2", "'2a.x.1a.' is not a variation address"),
    ("9a.1.1a. c2-b2", "no move 9a"),
    ("1c.1.1a. d2-e2", "no move 1c"),
    ("1a.1.1a.4.1a. ..... d3-c3", "no move 1a.1.1a."),
    ("1a.3.1a.1.1a. d3-c3", "no move 1a.3.1a."),
    ("1a.1.1a. d2-d9", "d2-d9"),
    ("2b.1.1a. ..... e6-e7 f4-f5xf6", "captures"),
    ("1a.1.1a. .....", "without a move"),
])
def test_malformed_variation_lines_give_one_clear_line_naming_it(line, words):
    text = RULES + "\n1. d2-c2 e4-e6 \n[|]\n\n2. c2-c3 e6-f6 \n[|]\n\n" + line + " \n[|]\n"
    with pytest.raises(InteropError) as err:
        read_otg(text, "bad.otg")
    message = str(err.value)
    assert words in message and "\n" not in message and message.startswith("bad.otg")
    assert "line 9" in message  # the line is named


def test_only_formats_without_variations_warn_about_them():
    t = read_otg(OPENTAFL_SHAPED)
    assert any("variations were left out" in w for w in render(t, "moves")[1])
    assert not any("variations" in w for w in render(t, "otg")[1])


def test_convert_keeps_variations_from_our_record_to_otg_and_back(tmp_path):
    t = read_otg(OPENTAFL_SHAPED)
    src = tmp_path / "study.tafl.json"
    save_game(t.game, src, {"event": "convert"}, tree=t.tree)
    assert "variations" in json.loads(src.read_text())

    def cli(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "tafl_desktop", "convert", *args], capture_output=True,
                              text=True, timeout=60)

    r = cli(str(src), str(tmp_path / "study.otg"))
    assert r.returncode == 0 and "variation" not in r.stderr and "Traceback" not in r.stderr
    otg = (tmp_path / "study.otg").read_text()
    assert "1a.1.1a. d2-e2 e4-e6 \n[a quieter start|]" in otg and "1a.1.1a.1.1a. ..... d3-c3 " in otg
    r = cli(str(tmp_path / "study.otg"), str(tmp_path / "back.tafl.json"))
    assert r.returncode == 0, r.stderr
    assert json.loads((tmp_path / "back.tafl.json").read_text()) == json.loads(src.read_text())
    assert shape(load_tree(tmp_path / "back.tafl.json")) == shape(t.tree)


def test_file_import_shows_the_variations_in_the_move_list(qtbot, make_window, dialogs_recorder, tmp_path):
    from tests.test_gui_variations import rows

    path = tmp_path / "puzzle.otg"
    path.write_text(OPENTAFL_SHAPED)
    w = make_window("copenhagen")
    dialogs_recorder.open_paths.append(str(path))
    w.act_import.trigger()
    assert not dialogs_recorder.errors
    assert w.session.variant.name.startswith("Brandub") and w.session.tree.size() == 13
    shown = rows(w)
    assert shown[0] == (0, "d2-c2", "e4-e6")
    assert any(depth >= 1 and "d2-e2" in a + b for depth, a, b in shown)
    assert any(depth >= 2 and "d3-c3" in a + b for depth, a, b in shown)
    assert any(depth >= 1 and "e6-e7" in a + b for depth, a, b in shown)


def test_a_record_branching_too_often_too_deep_is_refused_not_replayed_for_ever(monkeypatch):
    import tafl_desktop.interop.otg_variations as otg_variations

    # reading the fixture walks one game 11 moves back and forth between its variations (issue 26:
    # the walk replaces a replay from the start for every variation)
    monkeypatch.setattr(otg_variations, "MAX_REPLAYED", 10)
    with pytest.raises(InteropError, match="replay more than 10 moves"):
        read_otg(OPENTAFL_SHAPED, "huge.otg")
    monkeypatch.setattr(otg_variations, "MAX_REPLAYED", 11)
    assert read_otg(OPENTAFL_SHAPED, "huge.otg").tree.size() == 13
