"""The move list: one row per move pair in notation, the viewed move highlighted, and the
first/back/forward/last buttons.  Clicking a move shows that position (read-only until the
player returns to the end)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QItemSelectionModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QFont, QPainter, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from tafl_desktop.gui.controller import GameController
from tafl_desktop.gui.icons import set_glyph

Index = QModelIndex | QPersistentModelIndex


class MoveListModel(QAbstractTableModel):
    """Plies laid out two to a row: column 0 is the side that moved first in this game."""

    def __init__(self, controller: GameController) -> None:
        super().__init__()
        self._controller = controller
        self._rows: list[str] = []
        self._headers = ("", "")
        self._view_ply = 0
        self.refresh()

    def refresh(self) -> None:
        c = self._controller
        rows = c.move_rows()
        first = int(c.rules.side_to_move(c.game.start))
        headers = (c.sides[first], c.sides[1 - first])
        if rows != self._rows or headers != self._headers:
            self.beginResetModel()
            self._rows = rows
            self._headers = headers
            self.endResetModel()
        if c.view_ply != self._view_ply:
            old = self._view_ply
            self._view_ply = c.view_ply
            for ply in (old, c.view_ply):
                if ply:
                    idx = self.ply_index(ply)
                    self.dataChanged.emit(idx, idx)

    def ply_index(self, ply: int) -> QModelIndex:
        """Model index of the cell holding ply number ``ply`` (1-based)."""
        return self.index((ply - 1) // 2, (ply - 1) % 2)

    @staticmethod
    def ply_of(index: Index) -> int:
        return index.row() * 2 + index.column() + 1

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else (len(self._rows) + 1) // 2

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else 2

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        ply = self.ply_of(index)
        if ply > len(self._rows):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self._rows[ply - 1]
        if role == Qt.ItemDataRole.FontRole and ply == self._view_ply:
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"Move {ply}: click to see the position after it"
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if self.ply_of(index) > len(self._rows):
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # noqa: N802
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal:
            return self._headers[section]
        return f"{section + 1}."


class MoveTable(QTableView):
    """The table, with a line of guidance while no move has been played."""

    placeholder = "No moves yet."

    def paintEvent(self, event) -> None:  # noqa: N802
        super().paintEvent(event)
        if self.model() is not None and self.model().rowCount() == 0:
            p = QPainter(self.viewport())
            p.setPen(self.palette().color(QPalette.ColorRole.PlaceholderText))
            rect = self.viewport().rect().adjusted(8, 8, -8, -8)
            p.drawText(rect, Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignHCenter | Qt.TextFlag.TextWordWrap,
                       self.placeholder)
            p.end()


class MovePanel(QWidget):
    """Move list plus navigation buttons, kept in step with the controller."""

    def __init__(self, controller: GameController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._controller = controller
        self.model = MoveListModel(controller)
        self.table = MoveTable(self)
        self.table.setModel(self.model)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setShowGrid(False)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.setAccessibleName("Moves")
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        self.table.clicked.connect(self._clicked)
        self.table.selectionModel().currentChanged.connect(self._current_changed)

        self.buttons: dict[str, QToolButton] = {}
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        for name, tip, slot in (
            ("first", "First position (Home)", controller.first),
            ("back", "Back one move (Left arrow)", controller.back),
            ("forward", "Forward one move (Right arrow)", controller.forward),
            ("last", "Last position, back to the game (End)", controller.last),
        ):
            b = QToolButton(self)
            set_glyph(b, name)
            b.setToolTip(tip)
            b.setAccessibleName(tip)
            b.setAutoRaise(True)
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            b.clicked.connect(slot)
            row.addWidget(b)
            self.buttons[name] = b
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(self.table, 1)
        layout.addLayout(row)
        self._syncing = False
        self.refresh()

    def refresh(self) -> None:
        c = self._controller
        first = c.sides[int(c.rules.side_to_move(c.game.start))]
        self.table.placeholder = f"No moves yet. {first} begin{'' if first.endswith('s') else 's'}."
        self._syncing = True
        try:
            self.model.refresh()
            sel = self.table.selectionModel()
            if c.view_ply:
                idx = self.model.ply_index(c.view_ply)
                sel.setCurrentIndex(idx, QItemSelectionModel.SelectionFlag.ClearAndSelect)
                self.table.scrollTo(idx)
            else:
                sel.clearSelection()
                self.table.scrollToTop()
        finally:
            self._syncing = False
        n = len(c.game.plies)
        self.buttons["first"].setEnabled(c.view_ply > 0)
        self.buttons["back"].setEnabled(c.view_ply > 0)
        self.buttons["forward"].setEnabled(c.view_ply < n)
        self.buttons["last"].setEnabled(c.view_ply < n)

    def _clicked(self, index: QModelIndex) -> None:
        ply = MoveListModel.ply_of(index)
        if ply <= len(self._controller.game.plies):
            self._controller.goto(ply)

    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if self._syncing or not current.isValid():
            return
        self._clicked(current)
