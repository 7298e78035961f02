"""Every modal question the window asks, behind small functions.

Keeping them here means the window never builds a message box inline, every error reads the same
way, and tests replace one function (or QMessageBox itself) instead of clicking native dialogs.
"""

from __future__ import annotations

from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

GAME_FILTER = "Tafl Desktop games (*.tafl.json *.json);;All files (*)"
VARIANT_FILTER = "Variant files (*.toml);;All files (*)"


def show_error(parent: QWidget | None, title: str, text: str) -> None:
    """A problem the player must know about (a file that cannot be read or written)."""
    QMessageBox.critical(parent, title, text)


def show_info(parent: QWidget | None, title: str, text: str) -> None:
    QMessageBox.information(parent, title, text)


def confirm(parent: QWidget | None, title: str, text: str, yes: str = "Yes") -> bool:
    box = QMessageBox(QMessageBox.Icon.Question, title, text, QMessageBox.StandardButton.NoButton, parent)
    ok = box.addButton(yes, QMessageBox.ButtonRole.AcceptRole)
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(ok)
    box.exec()
    return box.clickedButton() is ok


def ask_open_path(parent: QWidget | None, title: str, file_filter: str, directory: str = "") -> str:
    path, _ = QFileDialog.getOpenFileName(parent, title, directory, file_filter)
    return path


def ask_save_path(parent: QWidget | None, title: str, file_filter: str, suggested: str = "") -> str:
    path, _ = QFileDialog.getSaveFileName(parent, title, suggested, file_filter)
    return path


def show_game_over(parent: QWidget | None, headline: str, detail: str) -> bool:
    """The end-of-game dialog.  Returns True if the player asks for a new game."""
    box = QMessageBox(parent)
    box.setWindowTitle("Game over")
    box.setIcon(QMessageBox.Icon.Information)
    box.setText(f"<h3>{headline}</h3>")
    box.setInformativeText(detail)
    review = box.addButton("Review the game", QMessageBox.ButtonRole.AcceptRole)
    new = box.addButton("New game...", QMessageBox.ButtonRole.ActionRole)
    box.setDefaultButton(review)
    box.exec()
    return box.clickedButton() is new
