"""Issue 26, item 1: whatever the window lets a player build, Save, the autosave, Open and crash
recovery keep, or the window refuses it at the moment it is built, with a sentence.

The limits live in one place (``core.record_limits``) and every writer and reader asks it: a game
of the largest size the limits allow (20,000 moves, variations 64 deep, comments of 10,000
characters, 400,000 in all, 64 tags of 4,000 characters, every character one that JSON escapes)
is written and read back; one move, one level, one character more is refused where it is made.
Nothing walks a game with recursion: a record nested 1,200 deep is refused with one line.
Driven through the real window (pytest-qt, offscreen) where a player would.
"""

from __future__ import annotations

import json
import random

import pytest
from PySide6.QtWidgets import QInputDialog

from tafl_desktop.core.game import Game
from tafl_desktop.core.game_tree import GameTree
from tafl_desktop.core.record import RecordError, game_to_data, load_tree, save_game, tree_from_data
from tafl_desktop.core.record_limits import (
    MAX_COMMENT,
    MAX_COMMENT_TOTAL,
    MAX_MOVES,
    MAX_NESTING,
    MAX_RECORD_BYTES,
    MAX_TAG_TEXT,
    MAX_TAGS,
    nesting,
)
from tafl_desktop.core.variants import find_variant
from tafl_desktop.session.source import GameSource, Origin
from tests.test_gui_play import click


def nested_tree(variant_id: str, levels: int, tree: GameTree | None = None, start=None):
    """A tree whose deepest move lies ``levels`` variations deeper than ``start`` (the root by
    default): at every step a main move and an alternative, and the line goes on from the
    alternative, then one main move after it.  Returns the tree and the deepest alternative."""
    tree = tree or GameTree(find_variant(variant_id).make_rules())
    node = start or tree.root
    game = tree.game_at(node)
    rng = random.Random(levels)
    for _ in range(levels):
        quiet = quiet_moves(game, rng)
        assert len(quiet) >= 2, "the line ended before it was deep enough"
        first = node.children[0].move if node.children else quiet[0]
        second = next(m for m in quiet if m != first)
        tree.add(node, game.play(first))
        game.undo()
        node = tree.add(node, game.play(second))
    tree.add(node, game.play(quiet_moves(game, rng)[0]))  # a main continuation to branch from
    return tree, node


def quiet_moves(game: Game, rng: random.Random) -> list:
    """Moves that capture nothing and end nothing, in a random order (a long line must not end)."""
    moves = game.legal_moves()
    rng.shuffle(moves)
    out = []
    for m in moves:
        ply = game.play(m)
        if not ply.captures and game.outcome is None:
            out.append(m)
        game.undo()
        if len(out) == 3:
            break
    return out


def wide_tree(count: int, seed: int = 1) -> GameTree:
    """A Brandubh tree of exactly ``count`` moves: short random games from the start, each a variation."""
    rules = find_variant("brandubh").make_rules()
    tree = GameTree(rules)
    rng = random.Random(seed)
    made = 0
    while made < count:
        game, node = Game(rules), tree.root
        for _ in range(40):
            moves = game.legal_moves()
            if not moves or made >= count:
                break
            before = len(node.children)
            node_parent, node = node, tree.add(node, game.play(rng.choice(moves)))
            made += len(node_parent.children) - before
    return tree


def show(window, tree: GameTree, node) -> None:
    """Put ``tree`` in the window and show ``node``'s position at the live end of its line."""
    c = window.controller
    window.load(GameSource.of_tree(tree, Origin.NEW, c.session.specs, end=node))


# ------------------------------------------------------------------------------ the window
def test_variations_64_deep_are_kept_and_the_65th_level_is_refused_where_it_is_made(
        qtbot, make_window, dialogs_recorder, tmp_path):
    tree, deep = nested_tree("brandubh", MAX_NESTING - 1)
    w = make_window("brandubh")
    # the live end of the line shown lies 63 deep: a move there that is not its main move goes 64 deep
    show(w, tree, deep)
    c = w.controller
    g = c.session.variant.geometry
    other = next(m for m in c.session.game.legal_moves() if m != deep.children[0].move)
    click(qtbot, w, g.name(other[0]))
    click(qtbot, w, g.name(other[1]))
    level64 = deep.child(other)
    assert level64 is not None and nesting(level64) == MAX_NESTING
    assert c.play_move(c.session.game.legal_moves()[0])  # its main continuation, 64 deep too
    c.session.goto(len(c.session.game.plies) - 1)  # back to the position after level64's move
    size = c.session.tree.size()
    reply = next(m for m in c.session.play_game().legal_moves() if level64.child(m) is None)
    click(qtbot, w, g.name(reply[0]))
    click(qtbot, w, g.name(reply[1]))  # would open a 65th level
    assert c.session.tree.size() == size and "may nest at most 64 deep" in w.status_text()
    # Save and Open keep all of it, and the move list lays it out
    path = tmp_path / "deep.tafl.json"
    assert w.files.save_game_to(str(path)) and dialogs_recorder.errors == []
    again = make_window("brandubh")
    assert again.files.open_game(str(path)) and dialogs_recorder.errors == []
    assert again.session.tree.size() == c.session.tree.size()
    assert max(nesting(n) for n in again.session.tree.nodes()) == MAX_NESTING
    assert again.panel.moves.model.rowCount() > MAX_NESTING


def test_a_promotion_that_would_push_a_line_65_deep_is_refused(qtbot, make_window):
    rules = find_variant("brandubh").make_rules()
    tree = GameTree(rules)
    game = Game(rules)
    moves = game.legal_moves()
    main = tree.add(tree.root, game.play(moves[0]))
    game.undo()
    rival = tree.add(tree.root, game.play(moves[1]))
    nested_tree("brandubh", MAX_NESTING, tree, main)  # lines 64 deep under the main line's first move
    assert max(nesting(n) for n in tree.nodes()) == MAX_NESTING
    w = make_window("brandubh")
    show(w, tree, rival)
    c = w.controller
    shape = [list(n.children) for n in (tree.root, *tree.nodes())]
    assert not c.session.promote(rival)  # the old main line would go one level deeper: 65
    assert "may nest at most 64 deep" in w.status_text()
    assert [list(n.children) for n in (tree.root, *tree.nodes())] == shape
    assert not c.session.promote(rival, to_main=True)
    # deleting one level of the deep lines makes room: the same promotion is then allowed
    deepest = max(tree.nodes(), key=nesting)
    c.session.delete_node(deepest)
    while max(nesting(n) for n in tree.nodes()) == MAX_NESTING:
        c.session.delete_node(max(tree.nodes(), key=nesting))
    assert c.session.promote(rival) and tree.root.children[0] is rival
    assert max(nesting(n) for n in tree.nodes()) == MAX_NESTING


def test_a_comment_over_the_limit_is_refused_in_its_dialog_and_one_at_the_limit_is_kept(
        qtbot, make_window, dialogs_recorder, monkeypatch, tmp_path):
    w = make_window("brandubh")
    c = w.controller
    assert c.play_move(c.session.rules.parse_move(c.session.game.position, "d6-b6"))
    node = c.session.viewed_node()
    long_text = "é\x07" * (MAX_COMMENT // 2) + "x"  # one character too many, every one escaped in JSON
    answers = [(long_text, True), (long_text[:-1], True)]
    asked = []

    def ask(_parent, _title, _label, text, *_a, **_k):
        asked.append(text)
        return answers.pop(0)

    monkeypatch.setattr(QInputDialog, "getMultiLineText", staticmethod(ask))
    w.act_comment.trigger()
    assert dialogs_recorder.errors and "at most 10000 characters" in dialogs_recorder.errors[-1][1]
    assert asked[1] == long_text  # the refused text came back to be shortened
    assert node.comment == long_text[:-1]
    path = tmp_path / "commented.tafl.json"
    assert w.files.save_game_to(str(path))
    assert load_tree(path).main_line()[0].comment == long_text[:-1]
    # the autosave and crash recovery keep it too
    w.autosave.path = str(tmp_path / "autosave.tafl.json")
    w.autosave.now()

    other = make_window("tablut")
    assert other.files.offer_restore(w.autosave.path)
    assert other.session.tree.main_line()[0].comment == long_text[:-1]


def test_the_20001st_move_is_refused_and_20000_moves_save_and_open(qtbot, make_window, dialogs_recorder,
                                                                          tmp_path):
    tree = wide_tree(MAX_MOVES)
    w = make_window("brandubh")
    c = w.controller
    show(w, tree, tree.main_line()[-1])
    c.session.goto(len(c.session.game.plies) - 2)
    move = next(m for m in c.session.play_game().legal_moves() if c.session.viewed_node().child(m) is None)
    c.play_variation(move)  # the 20,001st move, in a new variation
    assert c.session.tree.size() == MAX_MOVES and "at most 20000 moves" in w.status_text()
    path = tmp_path / "big.tafl.json"
    assert w.files.save_game_to(str(path)) and dialogs_recorder.errors == []
    again = make_window("tablut")
    assert again.files.open_game(str(path)) and dialogs_recorder.errors == []
    assert again.session.tree.size() == MAX_MOVES
    # the autosave writes the same record as Save (crash recovery of it: the comment test above)


def test_a_pasted_or_imported_game_past_the_limits_is_refused_with_one_line(qtbot, make_window, dialogs_recorder,
                                                                          tmp_path, monkeypatch):
    from tafl_desktop.gui.edit_menu import paste

    w = make_window("ard_ri")  # repetition is allowed: a move and its way back, again and again
    before = w.session.game
    shuffle = " ".join(["d1-c1", "d3-c3", "c1-d1", "c3-d3"] * 25_000)  # 100,000 moves
    assert not paste(w, shuffle)
    assert w.session.game is before and "at most 20000" in dialogs_recorder.errors[-1][1]
    listed = tmp_path / "huge.txt"
    listed.write_text(shuffle)
    from tafl_desktop.gui import interop_menu

    monkeypatch.setattr(interop_menu, "_ask_variant", lambda _w: find_variant("ard_ri"))
    assert not interop_menu.import_game(w, str(listed))
    assert w.session.game is before and "at most 20000" in dialogs_recorder.errors[-1][1]


# ------------------------------------------------------------------------------ the record itself
def test_the_largest_game_the_limits_allow_is_written_and_read_back(tmp_path):
    """The limits agree: moves, nesting, comments and tags at their limits, every comment and tag
    character one that JSON writes as a six-character escape, fit the file size limit."""
    tree, deep = nested_tree("brandubh", MAX_NESTING - 1)
    rng = random.Random(3)
    rules = tree.rules
    # a long line 63 deep, then lines 64 deep branching from every move of it, until the tree is full
    made = [tree.size()]

    def extend(node, game, most):
        for _ in range(most):
            moves = game.legal_moves()
            if not moves or made[0] >= MAX_MOVES:
                break
            node = tree.add(node, game.play(rng.choice(moves)))
            made[0] += 1  # every move of a fresh line is new
        return node

    leaf = extend(deep.children[0], tree.game_at(deep.children[0]), 300)
    spine = tree.line_through(leaf)[-300:]
    while made[0] < MAX_MOVES:
        base = rng.choice(spine)
        game = tree.game_at(base)
        fresh = [m for m in game.legal_moves() if base.child(m) is None]
        if fresh:
            made[0] += 1
            extend(tree.add(base, game.play(rng.choice(fresh))), game, 40)
    assert tree.size() == MAX_MOVES
    assert max(nesting(n) for n in tree.nodes()) == MAX_NESTING
    nodes = [tree.root, *tree.nodes()]
    per = MAX_COMMENT
    for n in nodes[:MAX_COMMENT_TOTAL // per]:
        n.comment = "\x01" * per
    tags = {f"tag{i}": "\x02" * MAX_TAG_TEXT for i in range(MAX_TAGS)}
    path = tmp_path / "largest.tafl.json"
    save_game(tree.main_game(), path, tags, tree)
    assert path.stat().st_size <= MAX_RECORD_BYTES
    back = load_tree(path)
    assert back.size() == MAX_MOVES and [n.comment for n in back.nodes()][:3] == [n.comment for n in tree.nodes()][:3]
    assert rules.variant.id == back.rules.variant.id
    # one more comment character, tag or tag character is refused by the writer and the reader alike
    nodes[-1].comment = "x"
    with pytest.raises(RecordError, match="400000"):
        save_game(tree.main_game(), tmp_path / "more.tafl.json", tags, tree)
    nodes[-1].comment = ""
    with pytest.raises(RecordError, match="64 tags"):
        save_game(tree.main_game(), tmp_path / "more.tafl.json", {**tags, "one": "more"}, tree)
    assert not (tmp_path / "more.tafl.json").exists()
    data = json.loads(path.read_text())
    data["tags"]["tag0"] += "x"
    with pytest.raises(RecordError, match="4000"):
        tree_from_data(data)


def test_a_tree_nested_1200_deep_is_refused_with_one_line_never_a_recursion_error(tmp_path):
    tree, _deep = nested_tree("brandubh", 1200)
    path = tmp_path / "deep.tafl.json"
    path.write_text("untouched")
    with pytest.raises(RecordError) as err:
        save_game(tree.main_game(), path, tree=tree)
    assert "64 deep" in str(err.value) and "\n" not in str(err.value)
    assert path.read_text() == "untouched"
    # a hostile file that nests its variations 1,200 deep (written as text: no Python object is that deep)
    data = game_to_data(Game(find_variant("brandubh").make_rules()))
    data["moves"] = ["d6-a6"]
    head = json.dumps(data)[:-1]
    line = '{"ply": 1, "moves": ["d6-b6"], "variations": [' * 1200 + '{"ply": 1, "moves": ["d6-b6"]}' + "]}" * 1200
    path.write_text(head + ', "variations": [' + line + "]}")
    with pytest.raises(RecordError) as err:
        load_tree(path)
    assert "\n" not in str(err.value) and len(str(err.value)) < 300
