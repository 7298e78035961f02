"""No label is cut off, in any language, at the default window size (issue 28).

A label, button or check box whose text is wider than the widget shows only part of it (the
Russian review table lost its ?/?? columns, the Dablot Action Points line its end).  This opens the
window at 1280x800 in every language, for each family, with a finished review and the analysis
board, the evaluation bar, and the Print Set dialog with the makers' settings, and measures each
visible text against the space it has.
"""

from __future__ import annotations

import pytest

LANGUAGES = ("en", "da", "de", "fr", "ru")
SLACK = 2  # pixels: rounding between the font's advance and the widget's contents


def _needed_width(widget) -> int:
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QTextDocument
    from PySide6.QtWidgets import QLabel

    text = widget.text()
    rich = widget.textFormat() == Qt.TextFormat.RichText if isinstance(widget, QLabel) else False
    auto = isinstance(widget, QLabel) and widget.textFormat() == Qt.TextFormat.AutoText
    if rich or (auto and "<" in text and ">" in text):
        doc = QTextDocument()
        doc.setDefaultFont(widget.font())
        doc.setHtml(text)
        doc.setDocumentMargin(0)
        return int(doc.idealWidth() + 0.999)
    fm = widget.fontMetrics()
    return max(fm.horizontalAdvance(line.replace("&", "")) for line in text.split("\n"))


def clipped(root) -> list[str]:
    """Visible labels, buttons, check boxes and combo boxes of ``root`` whose text does not fit."""
    from PySide6.QtWidgets import (
        QAbstractButton,
        QCheckBox,
        QComboBox,
        QLabel,
        QProgressBar,
        QPushButton,
        QRadioButton,
        QStyle,
        QStyleOptionComboBox,
    )

    out = []
    for w in [*root.findChildren(QLabel), *root.findChildren(QAbstractButton)]:
        if not w.isVisible() or not w.text().strip() or w.width() <= 1:
            continue
        if isinstance(w, QLabel):
            if not w.pixmap().isNull():
                continue
            if w.wordWrap():
                need = w.heightForWidth(w.contentsRect().width())
                if need > w.contentsRect().height() + SLACK:
                    out.append(f"{w.objectName() or 'QLabel'} {w.text()!r}: needs {need}px high, has "
                               f"{w.contentsRect().height()}")
                continue
            room = w.contentsRect().width() - 2 * w.margin() - 2 * w.indent() if w.indent() > 0 else \
                w.contentsRect().width() - 2 * w.margin()
        elif isinstance(w, (QCheckBox, QRadioButton)):
            room = w.width() - (w.sizeHint().width() - w.fontMetrics().horizontalAdvance(w.text().replace("&", "")))
        elif isinstance(w, QPushButton):
            room = w.width() - (w.sizeHint().width() - w.fontMetrics().horizontalAdvance(w.text().replace("&", "")))
        else:
            continue
        need = _needed_width(w)
        if need > room + SLACK:
            out.append(f"{type(w).__name__} {w.text()!r}: needs {need}px, has {room}")
    for box in root.findChildren(QComboBox):
        if not box.isVisible() or box.isEditable() or not box.currentText() or box.width() <= 1:
            continue
        opt = QStyleOptionComboBox()
        box.initStyleOption(opt)
        field = box.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, opt,
                                           QStyle.SubControl.SC_ComboBoxEditField, box)
        need = box.fontMetrics().horizontalAdvance(box.currentText())
        if need > field.width() + SLACK:
            out.append(f"QComboBox {box.currentText()!r}: needs {need}px, has {field.width()}")
    for bar in root.findChildren(QProgressBar):
        if bar.isVisible() and bar.isTextVisible() and bar.text():
            need = bar.fontMetrics().horizontalAdvance(bar.text())
            if need > bar.width() - 8:
                out.append(f"QProgressBar {bar.text()!r}: needs {need}px, has {bar.width() - 8}")
    return out


def _window(make_window, qtbot, variant: str, **options):
    w = make_window(variant, size=(1280, 800), **options)
    w.resize(1280, 800)
    qtbot.wait(50)
    return w


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_label_is_cut_off_in_the_window(make_window, qtbot, lang):
    from tafl_desktop import i18n

    problems = []
    try:
        i18n.set_language(lang)
        # Dablot with Action Points shows its "actions left" line in the side panel
        for variant, options in (("copenhagen", {}), ("fox_geese_13", {}), ("dablot", {}),
                                 ("dablot", {"action_points": True})):
            w = _window(make_window, qtbot, variant, **options)
            c = w.controller
            for _ in range(3):
                moves = sorted(c.legal_moves())
                if moves:
                    c.play_move(moves[0])
            if not w.act_eval.isChecked():
                w.act_eval.trigger()  # as the menu does: the bar appears with its label
            w.refresh()
            qtbot.waitUntil(w.panel.eval_bar.isVisible, timeout=10_000)
            qtbot.wait(50)
            problems += [f"{variant}: {p}" for p in clipped(w)]
            if variant == "copenhagen":
                panel = w.review_panel
                w.act_review.trigger()
                panel.dialog.accept()  # Review Game first asks how hard to search
                qtbot.waitUntil(lambda p=panel: p.review is not None and not p.running, timeout=120_000)
                qtbot.wait(50)
                problems += [f"{variant} review: {p}" for p in clipped(w)]
            w.close()
    finally:
        i18n.set_language("en")
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_label_is_cut_off_in_the_print_dialog(make_window, qtbot, lang):
    from tafl_desktop import i18n
    from tafl_desktop.core.variants import find_variant
    from tafl_desktop.gui.print_dialog import PrintSetDialog

    problems = []
    try:
        i18n.set_language(lang)
        w = _window(make_window, qtbot, "dablot")
        for variant in ("copenhagen", "dablot"):
            dlg = PrintSetDialog(find_variant(variant), w, persist=False)
            qtbot.addWidget(dlg)
            dlg.show()
            qtbot.waitUntil(lambda d=dlg: d.report is not None or bool(d.error), timeout=60_000)
            problems += [f"{variant} pdf: {p}" for p in clipped(dlg)]
            with qtbot.waitSignal(dlg.preview_updated, timeout=60_000):
                dlg.format_combo.setCurrentIndex(dlg.format_combo.findData("stl"))
            problems += [f"{variant} stl: {p}" for p in clipped(dlg)]
            dlg.close()
    finally:
        i18n.set_language("en")
    assert problems == [], "\n".join(problems)
