"""File > Print set...: the dialog's options, its live preview, and saving the PDF safely.

The preview is checked through what pdfium rendered (page sizes, thumbnails) and the saved file
is read back with pypdf, so the tests see what the player would see and print.  Every modal box
is replaced by the recorder from conftest, so nothing blocks offscreen.
"""

from __future__ import annotations

import errno
import io
import os

import pytest
from pypdf import PdfReader

from tafl_desktop.core.variants import find_variant
from tafl_desktop.gui import print_dialog
from tafl_desktop.gui.print_dialog import PrintSetDialog, open_print_dialog

OLD_BYTES = b"%PDF-1.4 an older set the player wants to keep\n"


@pytest.fixture
def make_dialog(qtbot, gui_settings, dialogs_recorder):
    def make(variant_id: str = "brandubh", **options) -> PrintSetDialog:
        dlg = PrintSetDialog(find_variant(variant_id, options or None))
        qtbot.addWidget(dlg)
        dlg.show()
        qtbot.waitUntil(lambda: not dlg.building, timeout=60_000)  # the set is built on a thread
        return dlg

    return make


def _text(path) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(str(path)).pages)


@pytest.mark.parametrize(("variant_id", "size_label", "markers"), [
    ("brandubh", "Square size:", False),
    ("fox_geese_13", "Point spacing:", False),
    ("dablot", "Point spacing:", True),
])
def test_dialog_opens_with_a_preview_for_each_family(make_dialog, variant_id, size_label, markers):
    dlg = make_dialog(variant_id)
    assert dlg.error == "" and dlg.preview_error == ""
    n = dlg.report.pages
    assert n >= 4
    assert dlg.thumbs.count() == n
    assert not dlg.thumbs.item(0).icon().isNull()
    assert dlg.page_label.text().startswith(f"Page 1 of {n}")
    assert dlg.count_label.text() == f"{n} pages"
    assert dlg.square_label.text() == size_label
    assert ("markers" in dlg.part_boxes) is markers
    assert dlg.draught_spin.isVisibleTo(dlg) is markers
    assert ("markers" in dlg.report.parts) is markers
    dlg.thumbs.setCurrentRow(n - 1)
    assert dlg.page_label.text().startswith(f"Page {n} of {n}")
    assert not dlg.page_view.pixmap().isNull()


def test_changing_paper_rebuilds_after_a_pause_with_the_new_page_size(make_dialog, qtbot):
    dlg = make_dialog("brandubh")
    assert dlg.preview_page_size_mm(0) == (210.0, 297.0)
    a4_thumb = dlg.thumbs.item(0).icon().availableSizes()[0]
    with qtbot.waitSignal(dlg.preview_updated, timeout=30_000):
        dlg.paper_combo.setCurrentIndex(dlg.paper_combo.findData("letter"))
        assert dlg._timer.isActive()  # debounced: nothing rebuilt yet
        assert dlg.preview_page_size_mm(0) == (210.0, 297.0)
    assert dlg.preview_page_size_mm(0) == (215.9, 279.4)
    assert all(dlg.preview_page_size_mm(i) == (215.9, 279.4) for i in range(dlg.report.pages))
    letter_thumb = dlg.thumbs.item(0).icon().availableSizes()[0]
    assert letter_thumb.width() > a4_thumb.width()  # wider and shorter page, same height box

    dlg.orientation_combo.setCurrentIndex(dlg.orientation_combo.findData("landscape"))
    dlg.rebuild_now()
    assert dlg.preview_page_size_mm(0) == (279.4, 215.9)


def test_several_quick_changes_rebuild_once(make_dialog, qtbot):
    dlg = make_dialog("brandubh")
    builds = []
    dlg.preview_updated.connect(lambda: builds.append(1))
    dlg.square_default.setChecked(False)
    for value in (21.0, 21.5, 22.0, 22.5):  # holding the arrow key: four sizes in a row
        dlg.square_spin.setValue(value)
    qtbot.waitUntil(lambda: bool(builds), timeout=30_000)
    qtbot.wait(400)
    assert builds == [1]
    assert dlg.report.square_mm == 22.5


def test_unticking_a_part_changes_the_page_count(make_dialog):
    dlg = make_dialog("dablot")
    before = dlg.report.pages
    first, last = dlg.report.part_pages["markers"]
    dlg.part_boxes["markers"].setChecked(False)
    assert not dlg.draught_spin.isEnabled()
    dlg.rebuild_now()
    assert dlg.report.pages == before - (last - first + 1)
    assert dlg.thumbs.count() == dlg.report.pages
    assert "markers" not in dlg.report.parts


def test_no_part_ticked_says_so_and_cannot_save(make_dialog):
    dlg = make_dialog("brandubh")
    for box in dlg.part_boxes.values():
        box.setChecked(False)
    dlg.rebuild_now()
    assert dlg.pdf_bytes is None and dlg.thumbs.count() == 0
    assert "at least one part" in dlg.status_label.text()
    assert not dlg.save_button.isEnabled()


def test_fit_page_follows_the_paper_and_a_typed_size_is_kept(make_dialog):
    dlg = make_dialog("copenhagen")
    assert dlg.options().square_mm is None  # the printer's own default
    assert dlg.square_spin.value() == dlg.report.square_mm
    dlg.square_spin.setValue(40.0)
    assert not dlg.square_default.isChecked()
    dlg.rebuild_now()
    assert dlg.report.square_mm == 40.0 and dlg.report.board.tiled
    assert "tiled over" in dlg.summary_label.text()
    dlg.square_default.setChecked(True)
    dlg.rebuild_now()
    assert not dlg.report.board.tiled


def test_a_changed_toggle_is_in_the_saved_rule_sheet(make_dialog, tmp_path, dialogs_recorder):
    preset = make_dialog("brandubh")
    assert "preset rules" in preset.heading.text()
    changed = make_dialog("brandubh", king_armed="no")
    assert "King armed: No" in changed.heading.text()
    out = tmp_path / "house rules.pdf"
    dialogs_recorder.save_paths.append(str(tmp_path / "house rules"))  # no suffix: .pdf is added
    assert changed.save_pdf()
    assert changed.isVisible() and "Saved" in changed.status_label.text()  # open for the next file
    text = _text(out)
    assert "King armed: No (preset: Yes)" in text
    assert "The king never takes part in captures." in text
    assert preset.save_to(str(tmp_path / "preset.pdf"))
    assert "The king never takes part in captures." not in _text(tmp_path / "preset.pdf")
    assert out.read_bytes() == changed.pdf_bytes
    assert not [p for p in os.listdir(tmp_path) if p.startswith(".")]  # no temporary file left behind


def test_saved_file_matches_the_cli_for_the_same_options(make_dialog, tmp_path):
    from tafl_desktop.printing import build_set

    dlg = make_dialog("fox_geese_13")
    dlg.paper_combo.setCurrentIndex(dlg.paper_combo.findData("letter"))
    dlg.part_boxes["rules"].setChecked(False)
    assert dlg.save_to(str(tmp_path / "gui.pdf"))
    build_set(find_variant("fox_geese_13"), tmp_path / "cli.pdf", paper="letter", parts=["board", "pieces"])
    assert (tmp_path / "gui.pdf").read_bytes() == (tmp_path / "cli.pdf").read_bytes()


def test_the_last_folder_is_remembered(make_dialog, tmp_path, monkeypatch):
    asked: list[str] = []
    answers = [str(tmp_path / "first.pdf"), ""]

    def ask(_parent, _title, _filter, suggested=""):
        asked.append(suggested)
        return answers.pop(0)

    monkeypatch.setattr(print_dialog.dialogs, "ask_save_path", ask)
    assert make_dialog("brandubh").save_pdf()
    assert make_dialog("dablot").save_pdf() is False  # cancelled
    assert os.path.dirname(asked[1]) == str(tmp_path.resolve())
    assert os.path.basename(asked[1]) == "dablot-a4.pdf"


def _old_file(tmp_path):
    target = tmp_path / "set.pdf"
    target.write_bytes(OLD_BYTES)
    return target


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root writes into read-only folders")
def test_read_only_folder_shows_a_message_and_keeps_the_old_file(make_dialog, tmp_path, dialogs_recorder):
    target = _old_file(tmp_path)
    os.chmod(tmp_path, 0o555)
    try:
        assert make_dialog("brandubh").save_to(str(target)) is False
    finally:
        os.chmod(tmp_path, 0o755)
    assert target.read_bytes() == OLD_BYTES
    assert dialogs_recorder.errors and "could not be written" in dialogs_recorder.errors[0][1]


@pytest.mark.parametrize("failure", ["folder refuses new files", "disk full while writing"])
def test_unwritable_path_shows_a_message_and_keeps_the_old_file(make_dialog, tmp_path, monkeypatch,
                                                                dialogs_recorder, failure):
    """Simulated, so that it also holds when the tests run as root (who may write anywhere)."""
    import tafl_desktop.printing as printing

    target = _old_file(tmp_path)
    dlg = make_dialog("brandubh")
    if failure == "folder refuses new files":
        def refuse(*_a, **_k):
            raise PermissionError(errno.EACCES, "Permission denied")

        monkeypatch.setattr("tafl_desktop.core.safe_files.tempfile.mkstemp", refuse)
    else:
        def full(_fd):
            raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(printing.os, "fsync", full)
    assert dlg.save_to(str(target)) is False
    assert target.read_bytes() == OLD_BYTES
    assert sorted(os.listdir(tmp_path)) == ["set.pdf", "settings"]  # no temporary file left behind
    title, text = dialogs_recorder.errors[-1]
    assert title == "Cannot save the set"
    assert str(target) in text and ("permission denied" in text or "the disk is full" in text)
    assert dlg.result() != print_dialog.QDialog.DialogCode.Accepted


def test_missing_folder_shows_a_message(make_dialog, tmp_path, dialogs_recorder):
    assert make_dialog("brandubh").save_to(str(tmp_path / "no such folder" / "set.pdf")) is False
    assert "there is no such file or folder" in dialogs_recorder.errors[-1][1]


def test_preview_unavailable_still_saves(make_dialog, tmp_path, monkeypatch):
    def broken():
        raise print_dialog.PreviewUnavailable("the PDF renderer (pypdfium2) is not available: test")

    monkeypatch.setattr(print_dialog, "_load_pdfium", broken)
    dlg = make_dialog("dablot")
    assert dlg.preview_error and dlg.thumbs.count() == 0
    assert "Preview unavailable" in dlg.page_view.text()
    assert dlg.count_label.text() == f"{dlg.report.pages} pages"
    assert dlg.save_button.isEnabled()
    assert dlg.save_to(str(tmp_path / "set.pdf"))
    assert len(PdfReader(io.BytesIO((tmp_path / "set.pdf").read_bytes())).pages) == dlg.report.pages


def test_open_print_dialog_prints_the_windows_variant(qtbot, gui_settings, dialogs_recorder, monkeypatch,
                                                     tmp_path):
    """A stand-in window: the real one is wired by the menu, tested with the main window."""
    from types import SimpleNamespace

    from PySide6.QtWidgets import QWidget

    window = QWidget()
    qtbot.addWidget(window)
    window.session = SimpleNamespace(variant=find_variant("fox_geese_13", {"first_move": "hunters"}))
    window.persist = False
    window.files = SimpleNamespace(last_dir=lambda: str(tmp_path))
    seen = []

    def fake_exec(dlg):
        seen.append((dlg.variant, dlg.parent(), dlg._folder(), dlg._persist))
        return 0

    monkeypatch.setattr(PrintSetDialog, "exec", fake_exec)
    assert open_print_dialog(window) == 0
    variant, parent, folder, persist = seen[0]
    assert variant is window.session.variant and parent is window
    assert folder == str(tmp_path) and persist is False


def test_a_set_the_printer_refuses_is_explained_not_raised(make_dialog, monkeypatch, dialogs_recorder, tmp_path):
    dlg = make_dialog("brandubh")

    def refuse(*_a, **_k):
        raise print_dialog.PrintError("cannot lay out the a4 portrait pages: a token is larger than the page")

    monkeypatch.setattr(print_dialog, "render_set", refuse)
    dlg.square_default.setChecked(False)
    dlg.rebuild_now()
    assert dlg.pdf_bytes is None and dlg.thumbs.count() == 0
    assert "token is larger than the page" in dlg.status_label.text()
    assert not dlg.save_button.isEnabled()
    assert dlg.save_to(str(tmp_path / "set.pdf")) is False
    assert not (tmp_path / "set.pdf").exists()
    assert "token is larger than the page" in dialogs_recorder.errors[-1][1]


def test_the_dialog_stays_open_and_remembers_the_format_for_the_next_file(make_dialog, qtbot, tmp_path,
                                                                          dialogs_recorder):
    # issue 36: a maker saving PDF, SVG and STL of one set once reopened the dialog for each file,
    # and each time it was back on PDF and A4
    dlg = make_dialog("brandubh")
    dlg.paper_combo.setCurrentIndex(dlg.paper_combo.findData("letter"))
    saved = []
    for fmt in ("pdf", "svg", "stl"):
        dlg.format_combo.setCurrentIndex(dlg.format_combo.findData(fmt))
        dialogs_recorder.save_paths.append(str(tmp_path / f"set.{fmt}"))
        assert dlg.save_pdf(), dialogs_recorder.errors
        assert dlg.isVisible()
        assert dlg.status_label.text() == f"Saved {tmp_path / f'set.{fmt}'}"
        saved.append((tmp_path / f"set.{fmt}").stat().st_size)
    assert all(saved)
    assert (tmp_path / "set.pdf").read_bytes().startswith(b"%PDF")
    dlg.close()

    again = make_dialog("dablot")
    assert again.format == "stl" and again.format_combo.currentData() == "stl"
    assert again.paper_combo.currentData() == "letter"


def test_any_preset_is_printed_without_starting_it(make_dialog, qtbot, tmp_path, dialogs_recorder):
    dlg = make_dialog("brandubh", king_armed="no")
    titles = [dlg.game_combo.itemText(i) for i in range(dlg.game_combo.count())]
    assert "Fox and Geese (13 geese)" in titles and "Copenhagen Hnefatafl" in titles
    assert dlg.game_combo.currentText() == "Brandubh"
    dlg.game_combo.setCurrentIndex(dlg.game_combo.findData("fox_geese_13"))
    assert dlg.variant.id == "fox_geese_13" and "Fox and Geese" in dlg.windowTitle()
    assert dlg.square_label.text() == "Point spacing:"  # the settings column is the new family's
    qtbot.waitUntil(lambda: not dlg.building and dlg.pdf_bytes is not None, timeout=60_000)
    dialogs_recorder.save_paths.append(str(tmp_path / "fox.pdf"))
    assert dlg.save_pdf()
    text = _text(tmp_path / "fox.pdf")
    assert "Fox and Geese" in text and "Brandubh" not in text
    # back to the window's game: its own rules, not the preset's
    dlg.game_combo.setCurrentIndex(dlg.game_combo.findData("brandubh"))
    assert dlg.variant.changed_options() == {"king_armed": "no"}
