"""Small first-hour roughnesses of issue 36 (item 8), each met the way a newcomer meets it in the
real window (offscreen)."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tafl_desktop.core.game import Game
from tafl_desktop.core.variants import find_variant
from tafl_desktop.session.source import GameSource, Origin


def test_show_ranks_is_offered_only_where_pieces_have_ranks(make_window) -> None:
    # View > Show Ranks did nothing outside Dablot but was enabled there
    w = make_window("brandubh")
    assert not w.act_show_ranks.isEnabled()
    w.load(GameSource.of_game(Game(find_variant("dablot").make_rules()), Origin.NEW))
    assert w.act_show_ranks.isEnabled()
    w.load(GameSource.of_game(Game(find_variant("fox_geese_13").make_rules()), Origin.NEW))
    assert not w.act_show_ranks.isEnabled()


def test_a_lesson_window_closes_with_escape(qtbot, make_window) -> None:
    from tests.test_gui_learn import learn_actions

    w = make_window("brandubh")
    learn_actions(w)["tafl-capture"].trigger()
    lesson = w.learn_dialogs[-1]
    qtbot.waitExposed(lesson)
    lesson.activateWindow()
    # the lesson's board has the focus when a player has clicked a piece there and let it go; the
    # board once kept every Esc for itself, even with nothing to cancel
    view = lesson.board.view
    assert view.focusPolicy() != Qt.FocusPolicy.NoFocus
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not lesson.isVisible(), timeout=2_000)



def test_new_games_first_move_names_the_army(make_window) -> None:
    # "First move: South (bottom)" did not say which army that is; the board's sides are named
    from tafl_desktop.gui.new_game_dialog import NewGameDialog

    w = make_window("brandubh")
    ng = NewGameDialog(w.session.variant, w.session.specs, w)
    for preset in ("dablot", "dablot_mini"):
        ng.select_variant(preset)
        names = find_variant(preset).side_names
        combo = ng.options.row("first_move").editor
        texts = [combo.itemText(i) for i in range(combo.count())]
        assert texts == [f"{names[0]} (south, at the bottom)", f"{names[1]} (north, at the top)"], texts
    ng.close()


def test_the_rules_lab_offers_no_camp_rules_for_a_board_without_camps(make_window) -> None:
    # Brandubh's board has no camps: hostility, re-entry and crossing of camps can never matter there
    # (tafl-rules.md 1.3: camps are the marked squares of Tablut boards that have them)
    from tafl_desktop.gui.new_game_dialog import NewGameDialog
    from tafl_desktop.gui.rules_lab import RulesLabDialog

    w = make_window("brandubh")
    for preset, offered in (("brandubh", False), ("copenhagen", False), ("tablut_camps", True)):
        lab = RulesLabDialog(find_variant(preset), w, w)
        keys = [lab.first_key.itemData(i) for i in range(lab.first_key.count())]
        camp_keys = {"camps", "camps_hostile", "camp_reentry", "camp_to_camp", "camp_crossing"}
        assert bool(camp_keys & set(keys)) is offered, (preset, keys)
        lab.close()
        ng = NewGameDialog(find_variant(preset), w.session.specs, w)
        ng.select_variant(preset)
        shown = {k for k in camp_keys if ng.options.row(k).editor.parent() is not None}  # laid out
        assert bool(shown) is offered, (preset, shown)
        ng.close()


def test_new_game_asks_before_dropping_a_finished_game_never_saved(make_window, dialogs_recorder, monkeypatch):
    from tafl_desktop.core.game import Side
    from tafl_desktop.gui import dialogs

    asked = []
    monkeypatch.setattr(dialogs, "confirm", lambda _p, title, *_a, **_k: asked.append(title) or False)
    w = make_window("brandubh", "/7/7/7/1t1K1t1/7/7/3t3/", Side.ATTACKERS, escape="edge")
    rules = w.session.rules
    for text in ("d1-c1", "d4-d7"):  # the king escapes along the open file
        assert w.controller.play_move(rules.parse_move(w.session.viewed_position, text))
    assert w.session.game.outcome is not None and w.session.modified
    from tafl_desktop.gui.new_game_dialog import NewGameDialog

    offered = []
    monkeypatch.setattr(NewGameDialog, "ask", classmethod(lambda *_a: offered.append(True)))
    w.new_game()  # declined: the finished game stays, and New Game is not even shown
    assert asked == ["Leave the finished game?"] and not offered
    assert w.session.game.outcome is not None and len(w.session.game.plies) == 2


def test_greyed_maker_settings_say_why(qtbot, gui_settings, dialogs_recorder) -> None:
    from tafl_desktop.gui.print_dialog import PrintSetDialog

    dlg = PrintSetDialog(find_variant("fox_geese_13"), persist=False)
    qtbot.addWidget(dlg)
    dlg.show()
    dlg.format_combo.setCurrentIndex(dlg.format_combo.findData("stl"))
    maker = dlg.maker_settings
    corner_tip = maker.corner_spin.toolTip()
    assert maker.corner_spin.isEnabled() and not corner_tip.startswith("For the")
    maker.part_boxes["board"].setChecked(False)
    dlg._sync_enabled()
    assert not maker.corner_spin.isEnabled()
    assert maker.corner_spin.toolTip() == "For the peg board only: tick Peg board above.\n\n" + corner_tip
    maker.part_boxes["pieces"].setChecked(False)
    dlg._sync_enabled()
    assert maker.clearance_spin.toolTip().startswith("For the pieces only: tick Pieces above.")
    maker.part_boxes["board"].setChecked(True)
    dlg._sync_enabled()
    assert maker.corner_spin.isEnabled() and maker.corner_spin.toolTip() == corner_tip
    dlg.done(0)


def test_the_saami_are_spelt_one_way() -> None:
    # "Sami checkers" in the description, "Saami" on the board and in print: one spelling, the
    # side names' (issue 36)
    import re
    from pathlib import Path

    from tafl_desktop.core.variants import presets

    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    texts = [v.description for v in presets().values()] + [readme]
    assert "Saami" in find_variant("dablot").side_names
    assert not [t for t in texts if re.search(r"\bSami\b", t)]
