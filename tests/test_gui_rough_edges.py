"""The rough edges a new player met (issue: "Wrong or confusing today"), each pinned through the
real window offscreen or the real printer: letters of the lettered style, the status after Redo,
a strict-custodian self-capture, the longest-capture reason and the echo of a typed move, the
About box's menu paths, the Ambush sentences, printed side words, Alea's default square and
long variant names."""

from __future__ import annotations

import io
import re

from pypdf import PdfReader

from tafl_desktop.core.game import Side
from tafl_desktop.core.rulebook import rules_text
from tafl_desktop.core.variants import find_variant
from tafl_desktop.printing import render_set
from tafl_desktop.session.readout import move_rows


def sq(window, name: str) -> int:
    return window.session.variant.geometry.parse_square(name)


def _status(window) -> str:
    return window.statusBar().currentMessage()


def test_lettered_style_uses_the_variants_own_initials(make_window):
    from tafl_desktop.gui.piece_painter import letter

    w = make_window("fox_geese_13")
    letters = w.board.state().letters
    assert (letter("f", letters), letter("h", letters)) == ("G", "F")  # geese and fox, not "F" and "H"
    w.start_game(find_variant("asalto"))
    letters = w.board.state().letters
    assert (letter("f", letters), letter("h", letters)) == ("R", "O")  # rebels and officers
    w.start_game(find_variant("brandubh"))
    assert [letter(k, w.board.state().letters) for k in "tTK"] == ["A", "D", "K"]


def test_redo_says_the_move_was_replayed(qtbot, make_window):
    w = make_window("brandubh")
    w.controller.play_move((sq(w, "d6"), sq(w, "b6")))
    w.act_undo.trigger()
    assert _status(w) == "Move taken back."
    w.act_redo.trigger()
    assert _status(w) == "Move replayed: d6-b6."


def test_strict_custodian_self_capture_is_not_reported_as_a_capture(make_window):
    # the throne-room rules of source 000 (Mini Tablut): a soldier that stops between two enemies dies
    w = make_window("brandubh", position="/7/7/7/2tK3/7/1T1T3/7/", to_move=Side.ATTACKERS,
                    strict_custodian="soldiers")
    assert w.controller.play_move((sq(w, "c4"), sq(w, "c2")))
    status = _status(w)
    assert "capturing" not in status
    assert status.startswith("The attackers played c4-c2, and lost their own piece on c2")
    assert move_rows(w.session) == ["c4-c2 (lost c2)"]


def test_longest_capture_names_the_longer_capture(make_window):
    # HG 4.1 (Arsac's Halatafl): of several captures, one taking the most pieces must be chosen
    w = make_window("fox_geese_13", position="hunters=d3 flock=c3,d4,d6,a3", to_move=Side(1),
                    max_capture=True, hunter_win_below=1)
    g = w.session.variant.geometry
    short = tuple(g.parse_square(s) for s in ("d3", "b3"))
    assert not w.controller.play_move(short)
    assert _status(w) == ("d3xb3 is not allowed: a capture taking 2 pieces is possible, and of several captures "
                          "one that takes the most pieces must be chosen.")


def test_a_typed_step_off_the_lines_is_echoed_as_typed(make_window):
    w = make_window("fox_geese_13", position="hunters=c4 flock=a3,b3,c3", to_move=Side(1))
    move = w.session.rules.parse_move(w.session.game.position, "c4-b5")
    assert not w.controller.play_move(move)
    assert _status(w).startswith("c4-b5 is not allowed: ")
    assert "c4xb5" not in _status(w)


def test_about_names_menus_that_exist(make_window, dialogs_recorder):
    w = make_window("brandubh")
    w.act_about.trigger()
    _title, text = dialogs_recorder.infos[-1]
    paths = re.findall(r"<i>([^<]+?) &gt; ([^<]+?)</i>", text)
    assert paths, "the About box names where things are"
    menus = {m.title().replace("&", ""): m for m in (w.file_menu, w.game_menu, w.view_menu, w.help_menu)}
    for menu, item in paths:
        labels = [a.text().replace("&", "").rstrip(".") for a in menus[menu].actions()]
        assert item.rstrip(".") in labels, f"{menu} > {item} is not in that menu"


def test_ambush_sentences_say_how_ranks_count_and_are_not_doubled(qtbot):
    v = find_variant("dablot", {"ambush": True})
    text = rules_text(v)
    assert "so only a leader can take a leader." not in text
    assert "ranks of the pieces that jumped it add up to its own rank" in text
    from tafl_desktop.gui.rules_viewer import rules_html

    html = rules_html(v)
    assert "Ambush:</b> Ambush:" not in html
    assert "only a leader can take a leader." in rules_text(find_variant("dablot"))


def _pdf_text(variant, parts) -> str:
    data, _ = render_set(variant, parts=parts)
    return " ".join(" ".join(p.extract_text().split()) for p in PdfReader(io.BytesIO(data)).pages)


def test_printed_fox_sentences_use_the_variants_words():
    text = _pdf_text(find_variant("fox_geese_13"), ["rules", "pieces"])
    assert not re.search(r"\bhunters?\b", text, re.I), "generic side words leaked into the print"
    assert "The fox captures by a short jump" in text
    assert "How the fox moves" in text and "How the geese move" in text
    assert "The fox is dark with a star, the geese light" in text
    assert "Fox are" not in text
    hounds = _pdf_text(find_variant("fox_hounds"), ["rules"])
    assert "the fox wins by reaching one of them" in hounds
    asalto = _pdf_text(find_variant("asalto"), ["rules", "pieces"])
    assert "An officer captures by a short jump" in asalto
    assert "The officers are dark with a star, the rebels light" in asalto


def test_alea_defaults_to_a_playable_square_tiled_and_the_dialog_says_so(qtbot, gui_settings, dialogs_recorder):
    from tafl_desktop.gui.print_dialog import PrintSetDialog
    from tafl_desktop.printing.board_sheet import TILED_SQUARE

    v = find_variant("alea_evangelii")
    _data, report = render_set(v, parts=["board"])
    assert report.square_mm == TILED_SQUARE >= 15.0
    assert report.board.tiled
    dlg = PrintSetDialog(v)
    qtbot.addWidget(dlg)
    dlg.show()
    assert dlg.square_spin.value() == TILED_SQUARE
    assert "15 mm" in dlg.square_note.text()
    assert dlg.square_note.isVisible()
    assert "tiled over several pages" in dlg.square_note.text()
    small = PrintSetDialog(find_variant("brandubh"))
    qtbot.addWidget(small)
    small.show()
    assert not small.square_note.isVisible()


def test_long_variant_names_are_whole(qtbot, make_window):
    from tafl_desktop.gui.new_game_dialog import NewGameDialog

    w = make_window("fox_geese_diagonals", size=(1000, 650))
    panel = w.panel
    assert panel.title.width() >= 0.9 * (panel.width() - 12)  # not squeezed beside the button
    dlg = NewGameDialog(w.session.variant, parent=w)
    qtbot.addWidget(dlg)
    dlg.show()
    item = dlg.tree.currentItem()
    rect = dlg.tree.visualItemRect(item)
    needed = dlg.tree.fontMetrics().horizontalAdvance(item.text(0))
    assert rect.left() + needed <= dlg.tree.viewport().width()
