"""Files through the window: save and reopen a game, corrupt and missing files (a dialog, the game
untouched), recent files, variant files, autosave, and the screenshot tool."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt

from tafl_desktop.core.game import Game
from tafl_desktop.core.variants import find_variant, load_variant
from tafl_desktop.session.source import GameSource, Origin


def play(window, *moves: str) -> None:
    for text in moves:
        move = window.session.rules.parse_move(window.session.game.position, text)
        assert window.controller.play_move(move), window.status_text()


def test_save_and_reopen_a_game(qtbot, make_window, dialogs_recorder, tmp_path):
    w = make_window("brandubh", escape="edge")
    play(w, "d6-b6", "c4-c6", "b6-b5")
    path = tmp_path / "game.tafl.json"
    dialogs_recorder.save_paths.append(str(path))
    qtbot.keyClick(w, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert path.is_file() and w.files.file_path == str(path)
    assert not w.session.modified and "*" not in w.windowTitle()
    data = json.loads(path.read_text())
    assert data["moves"] == ["d6-b6", "c4-c6", "b6-b5"] and data["variant"]["options"]["escape"] == "edge"

    other = make_window("copenhagen")
    dialogs_recorder.open_paths.append(str(path))
    qtbot.keyClick(other, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)
    c = other.controller
    assert c.session.variant.id == "brandubh" and c.session.variant.options["escape"] == "edge"
    assert c.session.game.move_texts() == ["d6-b6", "c4-c6", "b6-b5"]
    assert c.session.view_ply == 3 and other.panel.moves.model.rowCount() == 2
    assert "Opened game.tafl.json" in other.status_text()
    # the opened moves can be taken back
    other.act_undo.trigger()
    assert c.session.game.move_texts() == ["d6-b6", "c4-c6"]
    assert dialogs_recorder.errors == []


@pytest.mark.parametrize("content", [
    b"{ this is not json",
    b'{"format": "tafl-desktop-game", "version": 1, "variant": {"id": "x"}}',
    b"\xff\xfe\x00binary",
    json.dumps({"format": "tafl-desktop-game", "version": 1, "variant": find_variant("brandubh").to_data(),
                "moves": ["d6-b6", "d6-d5"]}).encode(),
])
def test_corrupt_file_shows_a_dialog_and_keeps_the_game(qtbot, make_window, dialogs_recorder, tmp_path, content):
    w = make_window("brandubh")
    play(w, "d6-b6")
    before = (w.session.game, w.session.game.move_texts(), w.windowTitle())
    bad = tmp_path / "bad.tafl.json"
    bad.write_bytes(content)
    assert w.files.open_game(str(bad)) is False
    assert len(dialogs_recorder.errors) == 1
    title, text = dialogs_recorder.errors[0]
    assert title == "Cannot open the game" and "bad.tafl.json" in text and "unchanged" in text
    assert "Traceback" not in text
    assert (w.session.game, w.session.game.move_texts(), w.windowTitle()) == before


def test_missing_recent_file_is_reported_and_forgotten(qtbot, make_window, dialogs_recorder, tmp_path):
    from tafl_desktop.gui.preferences import add_recent_file, recent_files

    w = make_window("brandubh")
    gone = str(tmp_path / "gone.tafl.json")
    add_recent_file(gone)
    w.files.fill_recent_menu()
    actions = w.recent_menu.actions()
    assert actions and "gone.tafl.json" in actions[0].text()
    actions[0].trigger()
    assert dialogs_recorder.errors and "no longer there" in dialogs_recorder.errors[0][1]
    assert gone not in recent_files()


def test_save_failure_is_a_dialog(qtbot, make_window, dialogs_recorder, tmp_path):
    w = make_window("brandubh")
    play(w, "d6-b6")
    assert w.files.save_game_to(str(tmp_path / "no-such-folder" / "g.tafl.json")) is False
    assert dialogs_recorder.errors and dialogs_recorder.errors[0][0] == "Cannot save the game"
    assert w.session.modified


def test_save_into_a_read_only_folder_is_a_clear_message_and_the_old_file_stays(
        qtbot, make_window, dialogs_recorder, tmp_path, monkeypatch):
    """Issue 8: File > Save where the folder cannot be written names the file and the reason, and
    the file already there is not touched (the write goes to a temp file first)."""
    import errno
    import os
    import tempfile

    from tafl_desktop.core.record import save_game

    folder = tmp_path / "locked"
    folder.mkdir()
    target = folder / "game.tafl.json"
    old = Game(find_variant("brandubh").make_rules())
    old.play_text("d6-b6")
    save_game(old, target)
    before = target.read_bytes()
    w = make_window("brandubh")
    play(w, "d6-b6", "c4-c6", "b6-b5")
    folder.chmod(0o555)
    try:
        probe = folder / "probe"
        try:
            probe.write_text("x")
        except OSError:
            pass
        else:  # root ignores the folder's mode: refuse the temp file as the kernel would
            probe.unlink()

            def refused(*_args, **_kwargs):
                raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(folder))

            monkeypatch.setattr(tempfile, "mkstemp", refused)
        dialogs_recorder.save_paths.append(str(target))
        w.act_save.trigger()  # an unsaved game: Save asks where, like Save As
    finally:
        folder.chmod(0o755)
    assert len(dialogs_recorder.errors) == 1
    title, text = dialogs_recorder.errors[0]
    assert title == "Cannot save the game" and str(target) in text and "permission denied" in text
    assert "\n" not in text.strip() and "Traceback" not in text
    assert target.read_bytes() == before
    assert sorted(p.name for p in folder.iterdir()) == ["game.tafl.json"]
    assert w.files.file_path is None and w.session.modified and "*" in w.windowTitle()


def test_open_variant_file_and_a_bad_one(qtbot, make_window, dialogs_recorder, tmp_path):
    from tafl_desktop.core.variants import save_variant

    w = make_window("copenhagen")
    mine = find_variant("brandubh").with_options({"escape": "edge"})
    path = tmp_path / "edge_brandubh.toml"
    save_variant(mine, path)
    assert w.files.open_variant(str(path))
    assert w.session.variant.options["escape"] == "edge" and w.session.variant.name == "Brandubh"
    bad = tmp_path / "bad.toml"
    bad.write_text("id = 'x'\nname = 'X'\n[board]\nwidth = 99\n")
    game = w.session.game
    assert not w.files.open_variant(str(bad))
    assert dialogs_recorder.errors[-1][0] == "Cannot open the variant" and "width" in dialogs_recorder.errors[-1][1]
    assert w.session.game is game


def test_autosave_keeps_an_unfinished_game(qtbot, make_window, tmp_path):
    w = make_window("brandubh")
    w.autosave.path = str(tmp_path / "auto" / "autosave.tafl.json")
    play(w, "d6-b6", "c4-c6")
    w.autosave.now()
    from tafl_desktop.core.record import load_game

    assert load_game(w.autosave.path).move_texts() == ["d6-b6", "c4-c6"]
    w.load(GameSource.of_game(Game(find_variant("brandubh").make_rules()), Origin.NEW))
    w.autosave.now()
    assert not (tmp_path / "auto" / "autosave.tafl.json").exists()


def test_screenshot_writes_a_png_and_raises_oserror(qapp, tmp_path):
    from PySide6.QtGui import QImage

    from tafl_desktop.gui.screenshot import render_screenshot

    out = tmp_path / "shot.png"
    render_screenshot(find_variant("tablut_camps"), str(out), (800, 600))
    img = QImage(str(out))
    assert (img.width(), img.height()) == (800, 600)
    with pytest.raises(OSError):
        render_screenshot(find_variant("brandubh"), str(tmp_path / "missing" / "shot.png"), (800, 600))
    with pytest.raises(OSError):
        render_screenshot(find_variant("brandubh"), str(tmp_path), (800, 600))


def test_saved_custom_variant_loads_again(tmp_path):
    from tafl_desktop.core.variants import save_variant
    from tafl_desktop.gui.new_game_dialog import custom_variant

    base = find_variant("tablut")
    v = custom_variant(base, {**base.options, "king_capture": "strong"}, "My Tablut", str(tmp_path / "my tablut.toml"))
    assert v.id == "my_tablut" and v.name == "My Tablut" and "King captured by" in v.description
    save_variant(v, tmp_path / "my_tablut.toml")
    again = load_variant(tmp_path / "my_tablut.toml")
    assert again.options == v.options and again.name == "My Tablut"


def test_every_preset_draws_and_lists_its_rules(qtbot, make_window):
    """Each shipped preset opens in the window, paints, and has a rule sheet (new presets included)."""
    from html import escape

    from tafl_desktop.core.variants import presets
    from tafl_desktop.gui.rules_viewer import rules_html

    w = make_window("brandubh", size=(700, 500))
    for variant in presets().values():
        w.start_game(variant)
        w.board.painted = False
        image = w.board.grab()
        assert w.board.painted and not image.isNull(), variant.id
        assert escape(variant.name) in rules_html(variant)
        moves = w.session.game.legal_moves()
        assert moves, variant.id
        first = next(m for m in moves if m)
        w.board.square_pressed.emit(first[0])
        assert w.board.state().selected == first[0], variant.id


def test_start_up_window_restores_autosave_and_reports_bad_arguments(qtbot, gui_settings, dialogs_recorder, tmp_path):
    from tafl_desktop.core.record import save_game
    from tafl_desktop.gui.app import create_window

    auto = tmp_path / "autosave.tafl.json"
    game = Game(find_variant("tablut").make_rules())
    game.play(game.legal_moves()[0])
    save_game(game, auto)
    w = create_window(None, None, str(auto))
    qtbot.addWidget(w)
    assert w.session.variant.id == "tablut" and len(w.session.game.plies) == 1
    assert w.files.file_path is None and "unfinished game" in w.status_text()
    w.autosave.path = None

    w2 = create_window(None, "no-such-variant", None)
    qtbot.addWidget(w2)
    assert dialogs_recorder.errors and "no-such-variant" in dialogs_recorder.errors[0][1]
    assert w2.session.variant.id == "copenhagen"

    w3 = create_window(str(tmp_path / "missing.tafl.json"), None, None)
    qtbot.addWidget(w3)
    assert dialogs_recorder.errors[-1][0] == "Cannot open the game"


def test_stale_autosave_temp_files_are_cleaned_up(tmp_path):
    """A process killed mid-write leaves '.autosave.tafl.json.XXXX.tmp' beside the autosave; the
    next start removes such leftovers (old ones only) and never the autosave itself."""
    import os
    import time

    from tafl_desktop.gui.app import remove_stale_temp_files

    auto = tmp_path / "autosave.tafl.json"
    auto.write_text("{}", encoding="utf-8")
    old = tmp_path / ".autosave.tafl.json.abc123.tmp"
    fresh = tmp_path / ".autosave.tafl.json.def456.tmp"
    other = tmp_path / ".other.json.zzz.tmp"
    for f in (old, fresh, other):
        f.write_text("{", encoding="utf-8")
    past = time.time() - 3600
    os.utime(old, (past, past))
    os.utime(other, (past, past))
    assert remove_stale_temp_files(str(auto)) == 1
    assert not old.exists() and fresh.exists() and other.exists() and auto.read_text() == "{}"
    assert remove_stale_temp_files("") == 0


@pytest.mark.parametrize(("variant_id", "options", "said"), [
    ("brandubh", None, "rules as in the preset"),
    ("fox_geese_13", None, "rules as in the preset"),
    ("dablot", None, "rules as in the preset"),
    ("copenhagen", {"king_armed": "no"}, "1 rule changed (king armed)"),
])
def test_a_continued_game_names_its_preset_rules(qtbot, gui_settings, dialogs_recorder, tmp_path, variant_id,
                                                 options, said):
    """Issue 36, item 6: a game of an unchanged preset, closed and continued with "Continue your
    last game", said "your own rules" (its record carries the whole variant, without the preset's
    file): it says the preset's rules, as before it was closed, and a changed toggle is named."""
    from tafl_desktop.gui.app import create_window
    from tafl_desktop.gui.main_window import MainWindow
    from tafl_desktop.gui.preferences import Preferences

    auto = tmp_path / "autosave.tafl.json"
    first = MainWindow(Game(find_variant(variant_id, options).make_rules()), prefs=Preferences(animation=False),
                       autosave_path=str(auto))
    qtbot.addWidget(first)
    before = first.panel.subtitle.text()
    assert said in before
    c = first.controller
    assert c.play_move(c.session.game.legal_moves()[0]) and len(c.session.game.plies) == 1
    first.close()
    assert auto.is_file()

    w = create_window(None, None, str(auto))  # the question is answered "Continue"
    qtbot.addWidget(w)
    assert w.session.variant.id == variant_id and len(w.session.game.plies) == 1
    assert w.panel.subtitle.text() == before and "your own rules" not in w.panel.subtitle.text()
    w.autosave.path = None


def test_a_game_of_own_rules_still_says_so_when_continued(qtbot, gui_settings, dialogs_recorder, tmp_path):
    """The other side of item 6: a variant file of the player's own (a preset's rules under another
    name) is still "your own rules" after Continue your last game."""
    from tafl_desktop.core.record import save_game
    from tafl_desktop.core.variants import save_variant
    from tafl_desktop.gui.app import create_window

    own = tmp_path / "mine.toml"
    save_variant(find_variant("brandubh"), own)
    own.write_text(own.read_text(encoding="utf-8").replace('id = "brandubh"', 'id = "my_brandubh"'), encoding="utf-8")
    game = Game(load_variant(own).make_rules())
    game.play(game.legal_moves()[0])
    auto = tmp_path / "autosave.tafl.json"
    save_game(game, auto)
    w = create_window(None, None, str(auto))
    qtbot.addWidget(w)
    assert w.session.variant.id == "my_brandubh" and "your own rules" in w.panel.subtitle.text()
    w.autosave.path = None
