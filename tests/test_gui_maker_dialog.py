"""The print dialog's makers' files: choose SVG, DXF, STL or 3MF, see a preview built off the
window's thread, change the settings, save exactly what the command line writes, and survive
hostile paths and impossible settings with a message instead of a traceback."""

from __future__ import annotations

import os
import threading

import ezdxf
import pytest
from maker_helpers import make, read_3mf, read_svg, svg_layers

from tafl_desktop.core.variants import find_variant
from tafl_desktop.gui import maker_panel
from tafl_desktop.gui.print_dialog import PrintSetDialog

OLD = b"an older file the player wants to keep\n"


@pytest.fixture
def dialog(qtbot, gui_settings, dialogs_recorder):
    def open_dialog(variant_id: str, **options) -> PrintSetDialog:
        dlg = PrintSetDialog(find_variant(variant_id, options or None), persist=False)
        qtbot.addWidget(dlg)
        dlg.show()
        qtbot.waitUntil(lambda: not dlg.building, timeout=60_000)  # the PDF set is built on a thread too
        return dlg

    return open_dialog


def choose(qtbot, dlg: PrintSetDialog, fmt: str) -> None:
    with qtbot.waitSignal(dlg.preview_updated, timeout=60000):
        dlg.format_combo.setCurrentIndex(dlg.format_combo.findData(fmt))


def test_svg_preview_and_save_match_the_command_line(dialog, qtbot, tmp_path):
    dlg = dialog("mini_tablut")
    choose(qtbot, dlg, "svg")
    assert dlg.error == "" and dlg.maker.data is not None
    assert not dlg.page_view.pixmap().isNull()
    assert dlg.save_button.text() == "Save as SVG..." and dlg.save_button.isEnabled()
    assert "Board 193 x 193 mm" in dlg.summary_label.text()
    assert not dlg.paper_combo.isVisibleTo(dlg) and dlg.maker_settings.kerf_spin.isVisibleTo(dlg)
    assert not dlg.maker_settings.hole_spin.isVisibleTo(dlg)  # a Tafl board has no points to drill
    out = tmp_path / "mine.svg"
    assert dlg.save_to(str(out))
    cli = make(tmp_path, "mini_tablut", "svg", in_process=True)
    assert out.read_bytes() == cli.read_bytes()
    assert set(svg_layers(read_svg(out))) == {"cut", "score", "engrave"}


def test_settings_rebuild_and_the_peg_follows_the_hole(dialog, qtbot, tmp_path):
    dlg = dialog("fox_geese_13")
    choose(qtbot, dlg, "3mf")
    assert dlg.maker_settings.hole_spin.isVisibleTo(dlg) and dlg.maker_settings.clearance_spin.isVisibleTo(dlg)
    assert dlg.maker.report.peg_mm == pytest.approx(4.7)
    with qtbot.waitSignal(dlg.preview_updated, timeout=60000):
        dlg.maker_settings.hole_spin.setValue(6.0)
    assert dlg.maker.report.peg_mm == pytest.approx(5.7)
    out = tmp_path / "mine.3mf"
    assert dlg.save_to(str(out))
    assert out.read_bytes() == make(tmp_path, "fox_geese_13", "3mf", "--hole-mm", "6", in_process=True).read_bytes()
    model = read_3mf(out)
    assert model["warnings"] == 0 and all(o["manifold"] for o in model["objects"].values())


def test_a_toggle_of_the_game_reaches_the_laser_board(dialog, qtbot, tmp_path):
    dlg = dialog("tablut_camps", camps=False)
    choose(qtbot, dlg, "dxf")
    out = tmp_path / "board.dxf"
    assert dlg.save_to(str(out))
    mine = ezdxf.readfile(str(out)).modelspace().query('LWPOLYLINE[layer=="ENGRAVE"]')
    cli = make(tmp_path, "tablut_camps", "dxf", "--set", "camps=false", in_process=True)
    cli = ezdxf.readfile(str(cli)).modelspace()
    with_camps = ezdxf.readfile(str(make(tmp_path, "tablut_camps", "dxf", name="camps.dxf", in_process=True)))
    with_camps = with_camps.modelspace()
    assert len(mine) == len(cli.query('LWPOLYLINE[layer=="ENGRAVE"]'))
    assert len(mine) < len(with_camps.query('LWPOLYLINE[layer=="ENGRAVE"]'))


def test_the_build_runs_off_the_window_thread(dialog, qtbot, monkeypatch):
    threads = []
    real = maker_panel.build

    def spy(variant, opts):
        threads.append(threading.get_ident())
        return real(variant, opts)

    monkeypatch.setattr(maker_panel, "build", spy)
    dlg = dialog("dablot_mini")
    choose(qtbot, dlg, "stl")
    assert threads and threading.get_ident() not in threads
    assert dlg.maker.report.objects and not dlg.page_view.pixmap().isNull()


def test_impossible_settings_are_explained_and_cannot_be_saved(dialog, qtbot, tmp_path, dialogs_recorder):
    dlg = dialog("fox_geese_13")
    choose(qtbot, dlg, "svg")
    with qtbot.waitSignal(dlg.preview_updated, timeout=60000):
        dlg.maker_settings.hole_spin.setValue(24.0)
    assert "do not fit points" in dlg.error
    assert not dlg.save_button.isEnabled()
    old = tmp_path / "board.svg"
    old.write_bytes(OLD)
    assert not dlg.save_to(str(old))
    assert dialogs_recorder.errors and "do not fit points" in dialogs_recorder.errors[-1][1]
    assert old.read_bytes() == OLD


def test_hostile_paths_show_a_message_and_keep_the_old_file(dialog, qtbot, tmp_path, dialogs_recorder):
    dlg = dialog("brandubh")
    choose(qtbot, dlg, "stl")
    where = tmp_path / "out"
    where.mkdir()
    fifo = where / "pipe.stl"
    os.mkfifo(fifo)
    folder = where / "folder.stl"
    folder.mkdir()
    for target in (fifo, folder, where / "missing" / "x.stl", "/dev/null"):
        assert not dlg.save_to(str(target))
        title, text = dialogs_recorder.errors[-1]
        assert title == "Cannot save the set" and "could not be written" in text
    assert sorted(p.name for p in where.iterdir()) == ["folder.stl", "pipe.stl"]
    assert list(folder.iterdir()) == []


def test_back_to_pdf_brings_back_the_paper_set(dialog, qtbot):
    dlg = dialog("brandubh")
    pages = dlg.report.pages
    choose(qtbot, dlg, "svg")
    assert dlg.square_spin.value() == 25.0  # a maker's board defaults to 25 mm squares
    dlg.format_combo.setCurrentIndex(dlg.format_combo.findData("pdf"))
    dlg.rebuild_now()
    assert dlg.report.pages == pages and dlg.thumbs.count() == pages
    assert dlg.paper_combo.isVisibleTo(dlg) and dlg.save_button.text() == "Save as PDF..."
    assert not dlg.maker_settings.isVisibleTo(dlg)


def test_the_heading_says_what_the_file_holds(dialog, qtbot):
    # a maker's file has no rule sheet, so the heading must not promise one; the game's changes
    # still shape the board and are named
    dlg = dialog("tablut_camps", camps=False)
    assert "Rule sheet with this game's changes" in dlg.heading.text()
    choose(qtbot, dlg, "svg")
    text = dlg.heading.text()
    assert "Rule sheet" not in text and "no rule sheet" in text and "Camps" in text, text
    dlg.format_combo.setCurrentIndex(dlg.format_combo.findData("pdf"))
    assert "Rule sheet with this game's changes" in dlg.heading.text()


def test_saving_during_a_build_keeps_the_window_answering(dialog, qtbot, tmp_path, monkeypatch):
    # Save pressed right after a change, before the new file is built: the save waits for the
    # build, but the window goes on answering (its timers fire) and the file written is the new one
    import time

    from PySide6.QtCore import QTimer

    dlg = dialog("brandubh")
    choose(qtbot, dlg, "svg")
    real = maker_panel.build

    def slow(variant, opts):
        time.sleep(1.0)
        return real(variant, opts)

    monkeypatch.setattr(maker_panel, "build", slow)
    dlg.maker_settings.kerf_spin.setValue(0.2)  # a change: the file must be built again
    ticks = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(time.monotonic()))
    timer.start(20)
    out = tmp_path / "board.svg"
    t0 = time.monotonic()
    assert dlg.save_to(str(out))
    took = time.monotonic() - t0
    timer.stop()
    assert took >= 1.0 and len(ticks) >= 10, (took, len(ticks))
    assert dlg.maker.options.kerf_mm == 0.2 and out.read_bytes() == dlg.maker.data


def test_a_board_of_squares_offers_its_peg_board(dialog, qtbot, tmp_path):
    """Issue 36 item 8: the README promises a peg board for Brandubh; the dialog offers it for the
    3D formats (unticked, as on the command line), and its holes once it is ticked."""
    dlg = dialog("brandubh")
    choose(qtbot, dlg, "stl")
    maker = dlg.maker_settings
    board = maker.part_boxes["board"]
    assert board.isVisibleTo(dlg) and board.text() == "Peg board" and not board.isChecked()
    assert maker.holes_combo.isVisibleTo(dlg) and not maker.holes_combo.isEnabled()
    assert maker.holes_combo.toolTip().startswith("For the peg board only: tick Peg board above.")
    with qtbot.waitSignal(dlg.preview_updated, timeout=60000):
        board.setChecked(True)
    assert maker.holes_combo.isEnabled() and maker.hole_spin.isEnabled()
    assert dlg.error == "" and dlg.maker.report.peg_mm == pytest.approx(4.7)
    assert any(line.startswith("Peg board ") for line in dlg.maker.report.lines)
    assert "with sockets for loose 4.7 mm pegs for 5 mm holes" in dlg.summary_label.text()
    dlg.grab().save("/tmp/h36c-dialog-brandubh-peg.png")
    out = tmp_path / "mine.stl"
    assert dlg.save_to(str(out))
    cli = make(tmp_path, "brandubh", "stl", "--parts", "pieces,board", in_process=True)
    assert out.read_bytes() == cli.read_bytes()
    choose(qtbot, dlg, "svg")  # a laser board of squares has no holes to set
    assert not maker.holes_combo.isVisibleTo(dlg)
