"""Saved games and user variant files: round trips, and bad files rejected with clear messages."""

from __future__ import annotations

import json

import pytest

from tafl_desktop.core.game import Game
from tafl_desktop.core.record import RecordError, game_to_data, load_game, save_game
from tafl_desktop.core.variants import VariantError, dump_variant, find_variant, load_variant, presets, save_variant


def test_every_preset_cites_a_source_and_round_trips(tmp_path):
    for v in presets().values():
        assert v.sources, f"{v.id} has no source"
        path = tmp_path / f"{v.id}.toml"
        save_variant(v, path)
        back = load_variant(path)
        assert back.options == v.options and back.geometry == v.geometry and back.setup == v.setup


def test_user_copies_a_preset_changes_toggles_and_loads_it(tmp_path):
    v = find_variant("copenhagen").with_options({"escape": "edge", "shield_wall": False})
    path = tmp_path / "my_rules.toml"
    path.write_text(dump_variant(v).replace('id = "copenhagen"', 'id = "my_rules"'))
    mine = find_variant(str(path))
    assert mine.id == "my_rules" and mine.options["escape"] == "edge" and not mine.options["shield_wall"]
    # the changed rule really changes play: the king on the edge has escaped
    rules = mine.make_rules()
    from tafl_desktop.core.game import Side

    pos = rules.parse_position("/11/11/11/11/11/5K5/11/11/11/11/11/", Side.DEFENDERS)
    after, _ = rules.play(pos, rules.parse_move(pos, "f6-f11"))
    assert after.result is not None and after.result.reason == "king_escaped"


def test_game_record_round_trip_keeps_moves_and_rules(tmp_path):
    v = find_variant("tablut").with_options({"king_capture": "strong"})
    g = Game(v.make_rules())
    for m in ("e2-b2", "e3-d3"):
        g.play_text(m)
    f = tmp_path / "game.json"
    save_game(g, f)
    back = load_game(f)
    assert back.move_texts() == ["e2-b2", "e3-d3"]
    assert back.rules.variant.options["king_capture"] == "strong"
    assert back.position == g.position


def test_record_with_illegal_move_is_rejected_naming_the_move(tmp_path):
    g = Game(find_variant("brandubh").make_rules())
    data = game_to_data(g)
    data["moves"] = ["d1-c1", "d5-d6"]
    f = tmp_path / "cheat.json"
    f.write_text(json.dumps(data))
    with pytest.raises(RecordError, match=r"ply 2 \(d5-d6\).*occupied"):
        load_game(f)


def test_save_does_not_leave_temp_files(tmp_path):
    g = Game(find_variant("brandubh").make_rules())
    save_game(g, tmp_path / "a.json")
    assert [p.name for p in tmp_path.iterdir()] == ["a.json"]


def test_save_to_unwritable_place_keeps_old_file(tmp_path):
    g = Game(find_variant("brandubh").make_rules())
    target = tmp_path / "keep.json"
    target.write_text("old")
    tmp_path.chmod(0o500)
    try:
        try:
            save_game(g, target)
        except OSError:
            pass
        assert target.read_text() in ("old", json.dumps(game_to_data(g), indent=1) + "\n")
    finally:
        tmp_path.chmod(0o700)


@pytest.mark.parametrize(("text", "needle"), [
    ("id = \n", "not valid TOML"),
    ('id = "x"\nname = "X"\ncolour = 1\n[board]\nwidth = 7\nsetup = "/7/7/7/3K3/7/7/7/"\n', "unknown key 'colour'"),
    ('id = "x"\nname = "X"\n[board]\nwidth = 7\nsetup = "/7/7/7/3K3/7/7/7/"\n[options]\nescape = "moon"\n',
     "escape"),
    ('id = "x"\nname = "X"\n[board]\nwidth = 7\nsetup = "/7/7/7/3K3/7/7/"\n', "6 rows"),
    ('id = "x"\nname = "X"\n[board]\nwidth = 7\nsetup = "/7/7/7/3KK2/7/7/7/"\n', "two kings"),
    ('id = "x"\nname = "X"\n[board]\nwidth = 7\nsetup = "/7/7/7/3K4/7/7/7/"\n', "covers 8 squares"),
    ('id = "x"\nname = "X"\n[board]\nwidth = 25\nsetup = "/7/"\n', "board.width"),
])
def test_malformed_variant_files_name_file_key_and_allowed(tmp_path, text, needle):
    f = tmp_path / "broken.toml"
    f.write_text(text)
    with pytest.raises(VariantError) as err:
        load_variant(f)
    msg = str(err.value)
    assert "broken.toml" in msg and needle in msg, msg


def test_out_of_range_option_says_what_is_allowed(tmp_path):
    f = tmp_path / "v.toml"
    f.write_text('id = "x"\nname = "X"\n[board]\nwidth = 7\nsetup = "/7/7/7/3K3/7/7/7/"\n'
                 '[options]\nrepetition_count = 9\n')
    with pytest.raises(VariantError, match="repetition_count.*from 2 to 5"):
        load_variant(f)


def test_toml_syntax_error_names_the_line(tmp_path):
    f = tmp_path / "v.toml"
    f.write_text('id = "x"\nname = "X"\n[board\nwidth = 7\n')
    with pytest.raises(VariantError, match=r"line 3"):
        load_variant(f)
