"""The New Game dialog, the options panel generated from the schema, the rules viewer, the
preferences and the player model."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QCheckBox, QComboBox, QDialog, QLabel, QSpinBox

from tafl_desktop.core.variants import FAMILIES, find_variant, load_variant, presets
from tafl_desktop.session.engine import EngineHub, IdleEngine
from tafl_desktop.session.players import COMPUTER, PlayerSpec
from tafl_desktop.session.source import GameSource, Origin


@pytest.fixture
def dialog(qtbot, gui_settings, dialogs_recorder):
    from tafl_desktop.gui.new_game_dialog import NewGameDialog

    dlg = NewGameDialog(find_variant("brandubh"))
    qtbot.addWidget(dlg)
    return dlg


def test_presets_are_grouped_by_family(dialog):
    tree = dialog.tree
    tops = {tree.topLevelItem(i).text(0): tree.topLevelItem(i) for i in range(tree.topLevelItemCount())}
    families = {v.family for v in presets().values()}
    for fam in families:
        assert FAMILIES[fam].label in tops
    tafl = tops[FAMILIES["tafl"].label]
    names = [tafl.child(i).text(0) for i in range(tafl.childCount())]
    assert any(n.startswith("Copenhagen Hnefatafl") and "11x11" in n for n in names)
    assert dialog.chosen_variant().id == "brandubh"


def test_options_panel_is_generated_from_the_schema(dialog):
    schema = find_variant("brandubh").schema
    panel = dialog.options
    for spec in schema:
        row = panel.row(spec.key)
        assert row.label.text().endswith(spec.label)
        assert row.help.text() == spec.help and spec.help in row.editor.toolTip()
        expected = {"bool": QCheckBox, "choice": QComboBox, "int": QSpinBox}[spec.kind]
        assert isinstance(row.editor, expected)
    assert panel.values() == dict(find_variant("brandubh").options)


def test_irrelevant_toggles_are_greyed(dialog):
    panel = dialog.options
    assert not panel.row("shield_wall_flank").editor.isEnabled()
    panel.set_value("shield_wall", True)
    assert panel.row("shield_wall_flank").editor.isEnabled()
    assert not panel.row("escape_safe").editor.isEnabled()  # a safe escape means nothing with corner escape
    panel.set_value("escape", "edge")
    assert panel.row("escape_safe").editor.isEnabled()
    # Brandubh has no camps: the camp rule cannot be honoured there, so it stays off and greyed
    assert not panel.row("camps").editor.isEnabled() and not panel.row("camps_hostile").editor.isEnabled()


def test_changed_toggles_are_marked_and_reset(dialog):
    panel = dialog.options
    assert panel.changed_keys() == [] and "as in the preset" in panel.summary.text()
    panel.set_value("escape", "edge")
    assert panel.changed_keys() == ["escape"]
    row = panel.row("escape")
    assert row.label.font().bold() and row.label.text().startswith("\u25cf")
    assert "preset: A corner square" in row.label.toolTip()
    assert not row.reset.isHidden()
    v = dialog.chosen_variant()
    assert v.options["escape"] == "edge" and v.changed_options() == {"escape": "edge"}
    row.reset.click()
    assert panel.changed_keys() == [] and panel.values()["escape"] == "corner"
    panel.set_value("movement", "single_step")
    panel.reset_all.click()
    assert panel.changed_keys() == []


def test_choosing_another_game_rebuilds_the_panel(dialog):
    assert dialog.select_variant("asalto")
    assert dialog.chosen_variant().family == "hunt"
    assert set(dialog.options.values()) == set(find_variant("asalto").options)
    assert dialog.player_labels[0].text() == f"{find_variant('asalto').sides[0]}:"
    assert dialog.select_variant("copenhagen")
    assert dialog.chosen_variant().options == find_variant("copenhagen").options


def test_players_model_and_computer_slot(qtbot, dialog):
    assert dialog.chosen_players() == (PlayerSpec(), PlayerSpec())
    kind = dialog.choosers[0].kind
    assert kind.itemText(1) == "Computer" and not kind.model().item(1).isEnabled()
    assert PlayerSpec.from_text("computer:hard") == PlayerSpec(COMPUTER, "hard")
    assert PlayerSpec.from_text("computer:3") == PlayerSpec(COMPUTER, "medium")  # older numbered records
    assert PlayerSpec.from_text("nonsense") == PlayerSpec()
    with pytest.raises(ValueError):
        PlayerSpec(COMPUTER, "99")

    from tafl_desktop.gui.new_game_dialog import PlayerChooser

    chooser = PlayerChooser(PlayerSpec(COMPUTER, "easy"), computer=True)
    qtbot.addWidget(chooser)
    assert chooser.spec() == PlayerSpec(COMPUTER, "easy") and chooser.level.isEnabled()


def test_computer_player_hook_plays_and_undo_returns_to_the_human(qtbot, make_window):
    """The place left for the AI: the window's engine answers, undo goes back to the human's turn."""
    from tafl_desktop.core.game import Game

    class FakeEngine(IdleEngine):
        def start(self, request):
            request.on_move(request.game.legal_moves()[0])

    w = make_window("brandubh", engines=EngineHub(computer=FakeEngine))
    c = w.controller
    w.load(GameSource.of_game(Game(c.session.rules), Origin.NEW, (PlayerSpec(), PlayerSpec(COMPUTER, "beginner"))))
    move = c.session.rules.parse_move(c.session.game.position, "d6-b6")
    c.play_move(move)
    qtbot.waitUntil(lambda: len(c.session.game.plies) == 2)
    assert c.session.human_to_move()
    c.session.undo()
    assert c.session.game.plies == [] and c.session.human_to_move()


def test_new_game_from_the_dialog_starts_that_game(qtbot, make_window, monkeypatch):
    from tafl_desktop.gui.new_game_dialog import NewGameDialog

    w = make_window("brandubh")

    def fake_exec(self):
        self.select_variant("tablut_camps")
        self.options.set_value("king_capture", "strong")
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(NewGameDialog, "exec", fake_exec)
    w.act_new.trigger()
    v = w.session.variant
    assert v.id == "tablut_camps" and v.changed_options() == {"king_capture": "strong"}
    assert w.session.game.plies == [] and "Tablut with base camps" in w.windowTitle()


def test_save_as_variant_writes_a_file_the_app_opens(qtbot, dialog, dialogs_recorder, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QInputDialog

    from tafl_desktop.gui.new_game_dialog import user_variant_files

    dialog.options.set_value("escape", "edge")
    monkeypatch.setattr(QInputDialog, "getText", staticmethod(lambda *a, **k: ("Edge Brandubh", True)))
    target = tmp_path / "edge_brandubh.toml"
    dialogs_recorder.save_paths.append(str(target))
    assert dialog.save_as_variant() == str(target)
    v = load_variant(target)
    assert v.name == "Edge Brandubh" and v.id == "edge_brandubh" and v.options["escape"] == "edge"
    assert str(target.resolve()) in user_variant_files()
    from tafl_desktop.gui.new_game_dialog import NewGameDialog

    again = NewGameDialog(find_variant("brandubh"))
    qtbot.addWidget(again)
    assert again.select_variant("edge_brandubh")


def test_rules_viewer_shows_active_sentences_and_changes(qtbot):
    from tafl_desktop.gui.rules_viewer import RulesViewer, rules_html

    base = find_variant("brandubh")
    v = base.with_options({"escape": "edge", "shield_wall": False})
    html = rules_html(v)
    schema = v.schema
    assert schema["escape"].sentence("edge") in html.replace("&#x27;", "'")
    assert "changed (preset: A corner square)" in html
    assert schema["shield_wall_flank"].sentence(v.options["shield_wall_flank"]) not in html  # inactive toggle
    from html import escape

    for source in v.sources:
        assert escape(source) in html
    assert "<h3>Board</h3>" in html
    viewer = RulesViewer(v)
    qtbot.addWidget(viewer)
    assert "Brandubh" in viewer.browser.toPlainText()
    assert rules_html(find_variant("asalto"))  # other families render too


def test_preferences_persist_and_apply(qtbot, make_window):
    from PySide6.QtCore import QSettings

    from tafl_desktop.gui.preferences import Preferences, PreferencesDialog, load_preferences

    w = make_window("brandubh")
    prefs = Preferences(theme="dark", piece_style="lettered", coordinates=False, announcements=False,
                        animation=False, show_targets=False)
    w.apply_preferences(prefs)
    assert load_preferences() == prefs
    assert w.board._theme.key == "dark" and not w.board._coordinates and not w.controller.announce
    QSettings().setValue("preferences/theme", "no-such-theme")
    assert load_preferences().theme == "wood"
    dlg = PreferencesDialog(prefs)
    qtbot.addWidget(dlg)
    assert dlg.result_preferences() == prefs
    w.save_window()
    assert QSettings().value("window/geometry") is not None


def test_game_over_dialog_answers(qtbot):
    """The real end-of-game dialog: "New game..." asks for one, "Review the game" for the review."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QPushButton

    from tafl_desktop.gui import dialogs

    def press(label: str) -> None:
        modal = QApplication.activeModalWidget()
        if modal is None:
            QTimer.singleShot(20, lambda: press(label))
            return
        for b in modal.findChildren(QPushButton):
            if b.text() == label:
                b.click()
                return
        modal.reject()

    QTimer.singleShot(20, lambda: press("New game..."))
    assert dialogs.show_game_over(None, "Attackers win", "The king was captured.") == dialogs.NEW_GAME
    QTimer.singleShot(20, lambda: press("Review the game"))
    assert dialogs.show_game_over(None, "Draw", "A position was repeated.") == dialogs.REVIEW


def test_toggles_about_squares_the_board_lacks_are_not_shown(dialog):
    """Tablut's board has no corner squares (edge escape: source 003, source 000), so the
    corner toggles are not offered at all; on Copenhagen they are."""
    assert dialog.select_variant("tablut")
    panel = dialog.options
    labels = {lbl.text().lstrip("\u25cf") for lbl in panel.findChildren(QLabel)}
    corners = panel.row("corners_hostile").spec.label
    assert corners not in labels and not panel.row("corners_hostile").label.isVisibleTo(panel)
    assert "corners_hostile" in panel.values()  # the value still travels with the variant
    assert dialog.select_variant("copenhagen")
    panel = dialog.options
    assert panel.row("corners_hostile").label.isVisibleTo(panel)
