"""Dablot's ranks on screen and its Action Points counter, the colour-blind-safe theme, full
screen (F11), the shortcuts list, and the sounds, through the real window offscreen.  Sounds go
to a recording backend: the tests need no audio device."""

from __future__ import annotations

from dataclasses import replace

from tafl_desktop.core.game import Side
from tafl_desktop.core.variants import find_variant
from tafl_desktop.gui.preferences import Preferences, load_preferences, save_preferences


def _play(window, text: str) -> None:
    c = window.controller
    assert c.play_move(c.session.rules.parse_move(c.session.game.position, text))


def test_dablot_pieces_carry_the_rules_ranks(make_window):
    # source 000 (Mini-Dablot): soldier 1, the leader's son 2, the leader 3; with Four Ranks 1-4
    w = make_window("dablot_mini")
    state = w.board.state()
    assert {k: state.ranks[k] for k in "spkSPK"} == {"s": 1, "p": 2, "k": 3, "S": 1, "P": 2, "K": 3}
    assert [t for _k, t in w.dablot_panel.rows] == ["Soldier: rank 1.", "The leader's son: rank 2.",
                                                    "The leader: rank 3."]
    assert w.dablot_panel.isVisible()
    w.act_show_ranks.trigger()  # View > Show Ranks off
    assert w.board.state().ranks == {} and not w.prefs.show_ranks
    w.start_game(find_variant("dablot_mini", {"four_ranks": True, "promotion": True, "officer_material": True}))
    w.act_show_ranks.trigger()
    state = w.board.state()
    assert (state.ranks["s"], state.ranks["o"], state.ranks["p"], state.ranks["k"]) == (1, 2, 3, 4)
    texts = [t for _k, t in w.dablot_panel.rows]
    assert "Soldier marked by a retreat: rank 1; it can no longer be promoted." in texts
    assert "Officer: rank 2." in texts
    w.start_game(find_variant("brandubh"))
    assert not w.dablot_panel.isVisible() and w.board.state().ranks == {}


def test_action_points_counter_shows_actions_left(make_window):
    w = make_window("dablot_mini", action_points=True)
    label = w.dablot_panel.actions_left
    assert label.isVisible()
    assert label.text() == "Saami: 3 actions left this turn \u25cf\u25cf\u25cf"
    c = w.controller
    _play(w, c.session.rules.move_text(next(m for m in c.session.game.legal_moves() if len(m) == 2)))
    assert label.text() == "Saami: 2 actions left this turn \u25cf\u25cf\u25cb"
    w.controller.end_turn()
    assert label.text().startswith("Swedes: 3 actions")


def test_colour_blind_theme_is_offered_and_keeps_sides_apart(make_window):
    from PySide6.QtCore import QPoint
    from PySide6.QtGui import QColor

    from tafl_desktop.gui.themes import THEMES

    t = THEMES["tol"]
    assert "Paul Tol" in t.label
    # Tol's high-contrast blue and yellow: far apart in lightness as well as hue
    assert abs(QColor(t.attacker).lightness() - QColor(t.defender).lightness()) > 60
    w = make_window("brandubh")
    w.apply_preferences(replace(w.prefs, theme="tol", piece_style="flat"), save=False)
    img = w.board.grab().toImage()
    ratio = img.devicePixelRatio()
    for square, colour in (("d7", t.attacker), ("d5", t.defender)):
        rect = w.board.piece_rect(w.session.variant.geometry.parse_square(square))
        spot = rect.center().toPoint() + QPoint(int(rect.width() * 0.25), 0)  # the face, beside the mark
        assert img.pixelColor(spot * ratio).name() == colour, square


def test_f11_full_screen_and_back(qtbot, make_window):
    w = make_window("brandubh")
    assert w.act_full_screen.shortcut().toString() == "F11"
    w.act_full_screen.trigger()
    qtbot.waitUntil(lambda: w.isFullScreen())
    w.act_full_screen.trigger()
    qtbot.waitUntil(lambda: not w.isFullScreen())


def test_shortcuts_list_is_read_from_the_menus(make_window, dialogs_recorder):
    w = make_window("brandubh")
    w.act_shortcuts.trigger()
    title, html = dialogs_recorder.infos[-1]
    assert title == "Keyboard shortcuts"
    for keys, name in (("F11", "Full Screen"), ("Ctrl+R", "Rules in Force"), ("F", "Flip Board"),
                       ("Ctrl+Z", "Undo Move"), ("F1", "Keyboard Shortcuts")):
        assert f"<b>{keys}</b></td><td>{name}</td>" in html
    assert "Arrow keys" in html


class Recorder:
    def __init__(self) -> None:
        self.paths = []

    def __call__(self, path) -> None:
        self.paths.append(path)


def test_sounds_for_move_capture_announcement_and_end(make_window, tmp_path):
    from tafl_desktop.core.game import Outcome

    w = make_window("brandubh", position="/7/2t4/7/tT5/7/3K3/7/", to_move=Side.ATTACKERS)
    player = w.sounds.player
    player.backend, player.folder = Recorder(), tmp_path
    _play(w, "c6-c4")  # brackets the defender on b4 against a4
    assert w.session.game.plies[-1].captures and player.played == ["capture"]
    _play(w, "d2-d1")  # the king opens two roads to the corners: "Tuichi"
    assert player.played == ["capture", "move", "announcement"]
    w.session.finish(Outcome(None, "draw_agreed"))
    assert player.played[-1] == "game_end"
    assert len(player.backend.paths) == 4 and all(p.parent == tmp_path for p in player.backend.paths)


def test_sound_off_or_silent_plays_nothing_and_volume_scales(make_window, tmp_path):
    import wave

    from tafl_desktop.gui.sound import SoundPlayer

    rec = Recorder()
    p = SoundPlayer(backend=rec, folder=tmp_path)
    p.volume = 50
    assert p.play("capture")
    with wave.open(str(rec.paths[-1])) as half:
        frames = half.readframes(half.getnframes())
    from tafl_desktop.core.paths import resources_dir

    with wave.open(str(resources_dir() / "sounds" / "capture.wav")) as full:
        original = full.readframes(full.getnframes())
    peak = lambda b: max(abs(int.from_bytes(b[i:i + 2], "little", signed=True)) for i in range(0, len(b), 2))  # noqa: E731
    assert abs(peak(frames) - peak(original) // 2) <= 1
    p.volume = 0
    assert not p.play("move")
    p.volume, p.enabled = 80, False
    assert not p.play("move")
    assert not SoundPlayer(backend=None, folder=tmp_path).play("move")  # no player on this machine
    w = make_window("brandubh")
    w.apply_preferences(replace(w.prefs, sound=False, volume=30), save=False)
    assert not w.sounds.player.enabled and w.sounds.player.volume == 30


def test_sound_files_are_the_synthesised_ones(tmp_path):
    from tafl_desktop.core.paths import resources_dir
    from tafl_desktop.gui.sound_synth import NAMES, write_all

    for path in write_all(tmp_path):
        assert path.read_bytes() == (resources_dir() / "sounds" / path.name).read_bytes(), path.name
    assert sorted(p.stem for p in (resources_dir() / "sounds").glob("*.wav")) == sorted(NAMES)


def test_preferences_keep_sound_volume_and_ranks(gui_settings):
    prefs = replace(Preferences(), sound=False, volume=35, show_ranks=False)
    save_preferences(prefs)
    assert load_preferences() == prefs
    from PySide6.QtCore import QSettings

    s = QSettings()
    s.setValue("preferences/volume", "loud")
    assert load_preferences().volume == Preferences().volume
