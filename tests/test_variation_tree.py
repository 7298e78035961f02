"""The tree of moves behind a studied game (issue 19, "Variations and notes"): variations kept,
promoted and deleted, comments on moves, and game records on disk that keep both, while the
records written before variations existed still open."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tafl_desktop.core.game import Game
from tafl_desktop.core.game_tree import GameTree
from tafl_desktop.core.record import RecordError, load_game, load_tree, save_game
from tafl_desktop.core.variants import find_variant

DATA = Path(__file__).parent / "data"


def texts(tree: GameTree, nodes) -> list[str]:
    return [tree.rules.move_text(n.move) for n in nodes]


def brandubh_tree() -> GameTree:
    """Main line d6-b6 c4-c6 b6-b5; a variation d4... instead of the 2nd move, one nested in it."""
    rules = find_variant("brandubh").make_rules()
    tree = GameTree(rules)
    node = tree.root
    for text in ("d6-b6", "c4-c6", "b6-b5"):
        node = tree.play(node, rules.parse_move(tree.position(node), text))
    first = tree.main_line()[0]
    v = tree.play(first, rules.parse_move(tree.position(first), "e4-e6"))
    v2 = tree.play(v, rules.parse_move(tree.position(v), "b6-b5"))
    tree.play(v, rules.parse_move(tree.position(v), "b6-c6"))  # nested: instead of v2
    tree.set_comment(tree.root, "Brandubh, a study")
    tree.set_comment(first, "the usual opening")
    tree.set_comment(v2, "quiet")
    return tree


def test_old_records_still_open_with_the_same_moves(tmp_path):
    for name, moves in (("record_v1_brandubh.tafl.json", 14), ("record_v1_fox_geese_13.tafl.json", 10)):
        path = DATA / name
        data = json.loads(path.read_text())
        game = load_game(path)
        tree = load_tree(path)
        assert game.move_texts() == data["moves"] and len(data["moves"]) == moves
        assert texts(tree, tree.main_line()) == data["moves"]
        assert tree.size() == moves and tree.revision == 0
        # written again, it has exactly the keys and moves it had (an older app still opens it);
        # the variant block may gain options added to the rules since (with their defaults)
        out = tmp_path / name
        save_game(game, out, data["tags"], tree=tree)
        again = json.loads(out.read_text())
        assert set(again) == set(data)
        assert {k: v for k, v in again.items() if k != "variant"} == {k: v for k, v in data.items() if k != "variant"}
        assert again["variant"]["options"].items() >= data["variant"]["options"].items()


def test_variations_and_comments_survive_a_round_trip_on_disk(tmp_path):
    tree = brandubh_tree()
    path = tmp_path / "study.tafl.json"
    save_game(tree.main_game(), path, {"player1": "human"}, tree=tree)
    data = json.loads(path.read_text())
    assert data["moves"] == ["d6-b6", "c4-c6", "b6-b5"]
    assert data["comments"] == {"0": "Brandubh, a study", "1": "the usual opening"}
    assert data["variations"] == [{"ply": 2, "moves": ["e4-e6", "b6-b5"], "comments": {"3": "quiet"},
                                   "variations": [{"ply": 3, "moves": ["b6-c6"]}]}]
    back = load_tree(path)
    assert texts(back, back.main_line()) == ["d6-b6", "c4-c6", "b6-b5"]
    first = back.main_line()[0]
    assert [texts(back, [c, *back.continuation(c)]) for c in first.children] == [
        ["c4-c6", "b6-b5"], ["e4-e6", "b6-b5"]]
    var = first.children[1]
    assert [back.rules.move_text(c.move) for c in var.children] == ["b6-b5", "b6-c6"]
    assert back.root.comment == "Brandubh, a study" and first.comment == "the usual opening"
    assert var.children[0].comment == "quiet"
    assert back.size() == tree.size() == 6
    # the plain main line is what load_game (the CLI's replay) returns
    assert load_game(path).move_texts() == ["d6-b6", "c4-c6", "b6-b5"]


def test_promote_make_main_and_delete():
    tree = brandubh_tree()
    first = tree.main_line()[0]
    var = first.children[1]
    nested = var.children[1]
    assert not tree.is_main(nested) and tree.variation_start(nested) is nested
    assert tree.promote(nested)  # b6-b4 becomes the main continuation inside the variation
    assert texts(tree, tree.line_through(var)) == ["d6-b6", "e4-e6", "b6-c6"]
    assert texts(tree, tree.main_line()) == ["d6-b6", "c4-c6", "b6-b5"]
    assert tree.make_main(nested) and tree.is_main(nested)
    assert texts(tree, tree.main_line()) == ["d6-b6", "e4-e6", "b6-c6"]
    assert not tree.promote(nested)  # already the main line
    old = first.children[1]
    assert texts(tree, [old, *tree.continuation(old)]) == ["c4-c6", "b6-b5"]
    assert tree.delete(old) == 2
    assert [tree.rules.move_text(c.move) for c in first.children] == ["e4-e6"]
    assert tree.delete(var) == 3 and tree.main_line() == [first]


def test_same_move_twice_is_one_node_and_lines_become_games():
    tree = brandubh_tree()
    first = tree.main_line()[0]
    before = tree.revision
    again = tree.play(first, tree.rules.parse_move(tree.position(first), "e4-e6"))
    assert again is first.children[1] and tree.revision == before
    game = tree.game_of(tree.line_through(again))
    replayed = Game(tree.rules)
    for text in game.move_texts():
        replayed.play_text(text)
    assert game.move_texts() == ["d6-b6", "e4-e6", "b6-b5"]
    assert game.position == replayed.position and game.outcome == replayed.outcome


def _record(**extra) -> dict:
    data = {"format": "tafl-desktop-game", "version": 1, "variant": find_variant("brandubh").to_data(),
            "moves": ["d6-b6", "c4-c6", "b6-b5"]}
    data.update(extra)
    return data


@pytest.mark.parametrize(("extra", "words"), [
    ({"variations": [{"ply": 2, "moves": ["e4-e6", "d6-d5"]}]}, "variations 1 (from ply 2): ply 3 (d6-d5)"),
    ({"variations": [{"ply": 9, "moves": ["e4-e6"]}]}, "'ply' must be the number of a ply of the line"),
    ({"variations": [{"ply": 2, "moves": []}]}, "'moves' must be a list"),
    ({"variations": {"ply": 2}}, "must be a list of variations"),
    ({"comments": {"7": "late"}}, "ply 7 is not in this line"),
    ({"comments": {"x": "?"}}, "must map ply numbers"),
    ({"comments": ["no"]}, "must be a table"),
])
def test_bad_variations_are_one_clear_line(tmp_path, extra, words):
    path = tmp_path / "bad.tafl.json"
    path.write_text(json.dumps(_record(**extra)))
    with pytest.raises(RecordError) as err:
        load_tree(path)
    assert words in str(err.value) and str(err.value).startswith("bad.tafl.json:")
    assert "\n" not in str(err.value)


def test_hostile_nesting_is_refused(tmp_path):
    var: dict = {"ply": 2, "moves": ["e4-e6"]}
    for _ in range(100):
        var = {"ply": 2, "moves": ["e4-e6"], "variations": [dict(var, ply=3, moves=["b6-b5"])]}
    path = tmp_path / "deep.tafl.json"
    path.write_text(json.dumps(_record(variations=[var])))
    with pytest.raises(RecordError, match="nest more than"):
        load_tree(path)
    path.write_text("[" * 100_000)
    with pytest.raises(RecordError, match="not a readable game record"):
        load_tree(path)


def test_an_ending_off_the_board_stays_with_its_position(tmp_path):
    """A resignation is not a move: the tree keeps it at the position where it happened, the
    record writes it as the result, and the main line read back ends the same way."""
    from tafl_desktop.core.game import Outcome, Side

    tree = brandubh_tree()
    main_end = tree.main_line()[-1]
    tree.set_ending(main_end, Outcome(Side.ATTACKERS, "resigned"))
    assert tree.main_game().outcome == Outcome(Side.ATTACKERS, "resigned")
    assert tree.game_at(main_end.parent).outcome is None  # earlier positions are still open
    path = tmp_path / "resigned.tafl.json"
    save_game(tree.main_game(), path, tree=tree)
    data = json.loads(path.read_text())
    assert (data["result"], data["reason"]) == ("attackers", "resigned") and "variations" in data
    back = load_tree(path)
    assert back.main_line()[-1].ending == Outcome(Side.ATTACKERS, "resigned")
    assert load_game(path).outcome == Outcome(Side.ATTACKERS, "resigned")
