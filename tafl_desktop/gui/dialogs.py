"""Every modal question the window asks, behind small functions.

Keeping them here means the window never builds a message box inline, every error reads the same
way, and tests replace one function (or QMessageBox itself) instead of clicking native dialogs.
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from tafl_desktop.core.marks import N_
from tafl_desktop.core.quoting import os_reason
from tafl_desktop.gui.texts import tr
from tafl_desktop.i18n import _

#: File dialogs' filters: each part between ";;" is a catalogue text (see :func:`filter_words`).
ALL_FILES = N_("All files (*)")
GAME_FILTER = ";;".join([N_("Tafl Desktop games (*.tafl.json *.json)"), ALL_FILES])
VARIANT_FILTER = ";;".join([N_("Variant files (*.toml)"), ALL_FILES])


def show_error(parent: QWidget | None, title: str, text: str) -> None:
    """A problem the player must know about (a file that cannot be read or written)."""
    QMessageBox.critical(parent, title, text)


def describe_problem(exc: BaseException) -> str:
    """The cause of an unexpected failure, in one short line for a dialog (never a traceback)."""
    from tafl_desktop.core.quoting import shown

    if isinstance(exc, MemoryError):
        return _("there was not enough memory to read it")
    if isinstance(exc, RecursionError):
        return _("it is nested too deeply to read")
    if isinstance(exc, OSError):
        return os_reason(exc)
    detail = shown(exc, 160)
    return f"{type(exc).__name__}: {detail}" if detail else type(exc).__name__


def show_info(parent: QWidget | None, title: str, text: str) -> None:
    QMessageBox.information(parent, title, text)


def show_html(parent: QWidget | None, title: str, html: str) -> None:
    """A page of help text (keyboard, announcements, about), readable at a comfortable width."""
    dlg = QDialog(parent)
    dlg.setWindowTitle(title)
    browser = QTextBrowser()
    browser.setAccessibleName(title)
    browser.setOpenExternalLinks(True)
    browser.setHtml(html)
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
    buttons.rejected.connect(dlg.reject)
    layout = QVBoxLayout(dlg)
    layout.addWidget(browser)
    layout.addWidget(buttons)
    dlg.resize(560, 560)
    dlg.exec()


def confirm(parent: QWidget | None, title: str, text: str, yes: str = "Yes") -> bool:
    box = QMessageBox(QMessageBox.Icon.Question, title, text, QMessageBox.StandardButton.NoButton, parent)
    ok = box.addButton(yes, QMessageBox.ButtonRole.AcceptRole)
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(ok)
    box.exec()
    return box.clickedButton() is ok


def choose(parent: QWidget | None, title: str, text: str, items: list[str], yes: str) -> int | None:
    """The index of the line the player picks from ``items`` (the first is selected), or None
    for Cancel."""
    from PySide6.QtWidgets import QLabel, QListWidget

    dlg = QDialog(parent)
    dlg.setWindowTitle(title)
    label = QLabel(text)
    label.setWordWrap(True)
    listing = QListWidget()
    listing.addItems(items)
    listing.setCurrentRow(0)
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
    ok = buttons.addButton(yes, QDialogButtonBox.ButtonRole.AcceptRole)
    ok.setDefault(True)
    buttons.accepted.connect(dlg.accept)
    buttons.rejected.connect(dlg.reject)
    listing.itemDoubleClicked.connect(lambda _item: dlg.accept())
    layout = QVBoxLayout(dlg)
    layout.addWidget(label)
    layout.addWidget(listing)
    layout.addWidget(buttons)
    dlg.resize(520, 320)
    if dlg.exec() != QDialog.DialogCode.Accepted or listing.currentRow() < 0:
        return None
    return listing.currentRow()


def filter_words(file_filter: str) -> str:
    """A file dialog's filter ("Variant files (*.toml);;All files (*)") in the reader's words,
    part by part: each part is marked where it is defined, its patterns stay as they are."""
    return ";;".join(_(part) for part in file_filter.split(";;"))


def ask_open_path(parent: QWidget | None, title: str, file_filter: str, directory: str = "") -> str:
    path, _chosen = QFileDialog.getOpenFileName(parent, title, directory, filter_words(file_filter))
    return path


def ask_open_paths(parent: QWidget | None, title: str, file_filter: str, directory: str = "") -> list[str]:
    """Several files to open at once (the filter in the reader's words, as :func:`ask_open_path`)."""
    paths, _chosen = QFileDialog.getOpenFileNames(parent, title, directory, filter_words(file_filter))
    return list(paths)


def ask_save_path(parent: QWidget | None, title: str, file_filter: str, suggested: str = "") -> str:
    path, _chosen = QFileDialog.getSaveFileName(parent, title, suggested, filter_words(file_filter))
    return path


#: The answers of the end-of-game dialog (:func:`show_game_over`); "" when it is closed.
NEW_GAME, REVIEW = "new", "review"


def show_game_over(parent: QWidget | None, headline: str, detail: str, pixmap: QPixmap | None = None) -> str:
    """The end-of-game dialog (``pixmap``: the winner's piece): :data:`REVIEW` when the player
    asks for the review, :data:`NEW_GAME` for a new game, "" when the dialog is closed."""
    dlg = QDialog(parent)
    tr(dlg, "setWindowTitle", "Game over")
    icon = QLabel()
    if pixmap is not None:
        icon.setPixmap(pixmap)
    title = QLabel(f"<h2>{escape(headline)}</h2>")
    text = QLabel(detail)
    text.setWordWrap(True)
    text.setMinimumWidth(340)
    buttons = QDialogButtonBox()
    review = tr(buttons.addButton("", QDialogButtonBox.ButtonRole.AcceptRole), "setText", "Review the game")
    new = tr(buttons.addButton("", QDialogButtonBox.ButtonRole.ActionRole), "setText", "New game...")
    review.setDefault(True)
    chosen: list[object] = []

    def choose(button: object) -> None:
        chosen.append(button)
        dlg.accept()

    review.clicked.connect(lambda: choose(review))
    new.clicked.connect(lambda: choose(new))
    body = QVBoxLayout()
    body.addWidget(title)
    body.addWidget(text)
    row = QHBoxLayout()
    row.addWidget(icon, 0, Qt.AlignmentFlag.AlignTop)
    row.addSpacing(12)
    row.addLayout(body, 1)
    layout = QVBoxLayout(dlg)
    layout.addLayout(row)
    layout.addWidget(buttons)
    dlg.exec()
    if not chosen:
        return ""
    return NEW_GAME if chosen[0] is new else REVIEW
