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
from tafl_desktop.i18n import _

Index = QModelIndex | QPersistentModelIndex


class MoveListModel(QAbstractTableModel):
    """Turns laid out one to a row: column 0 is the side that moved first in this game, column 1
    the other.  A side that makes several plies in one turn (Dablot's action points) shares a cell."""

    def __init__(self, controller: GameController) -> None:
        super().__init__()
        self._controller = controller
        self._texts: list[str] = []
        self._sides: list[int] = []
        self._cells: list[list[list[int]]] = []   # row -> column -> ply numbers (1-based)
        self._where: dict[int, tuple[int, int]] = {}
        self._headers = ("", "")
        self._view_ply = 0
        self.refresh()

    def refresh(self) -> None:
        c = self._controller
        texts = c.move_rows()
        sides = c.ply_sides()
        first = int(c.rules.side_to_move(c.game.start))
        headers = (c.sides[first], c.sides[1 - first])
        if texts != self._texts or sides != self._sides or headers != self._headers:
            self.beginResetModel()
            self._texts, self._sides, self._headers = texts, sides, headers
            self._layout(first)
            self.endResetModel()
        if c.view_ply != self._view_ply:
            old = self._view_ply
            self._view_ply = c.view_ply
            for ply in (old, c.view_ply):
                if ply in self._where:
                    idx = self.ply_index(ply)
                    self.dataChanged.emit(idx, idx)

    def _layout(self, first: int) -> None:
        self._cells = []
        self._where = {}
        prev_col = 1
        for n, side in enumerate(self._sides, 1):
            col = 0 if side == first else 1
            if not self._cells or (col == 0 and prev_col == 1):
                self._cells.append([[], []])
            self._cells[-1][col].append(n)
            self._where[n] = (len(self._cells) - 1, col)
            prev_col = col

    def ply_index(self, ply: int) -> QModelIndex:
        """Model index of the cell holding ply number ``ply`` (1-based)."""
        row, col = self._where.get(ply, (-1, -1))
        return self.index(row, col)

    def plies_at(self, index: Index) -> list[int]:
        if not index.isValid() or index.row() >= len(self._cells):
            return []
        return self._cells[index.row()][index.column()]

    def ply_of(self, index: Index) -> int:
        """The ply a click on this cell shows (the last of the cell); 0 for an empty cell."""
        plies = self.plies_at(index)
        return plies[-1] if plies else 0

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self._cells)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else 2

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        plies = self.plies_at(index)
        if not plies:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return ", ".join(self._texts[n - 1] for n in plies)
        if role == Qt.ItemDataRole.FontRole and self._view_ply in plies:
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.ToolTipRole:
            return _("Move {n}: click to see the position after it").format(n=plies[-1])
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not self.plies_at(index):
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
        self.table.setAccessibleName(_("Moves"))
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        self.table.clicked.connect(self._clicked)
        self.table.selectionModel().currentChanged.connect(self._current_changed)

        self.buttons: dict[str, QToolButton] = {}
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        for name, tip, slot in (
            ("first", _("First position (Home)"), controller.first),
            ("back", _("Back one move (Left arrow)"), controller.back),
            ("forward", _("Forward one move (Right arrow)"), controller.forward),
            ("last", _("Last position, back to the game (End)"), controller.last),
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
        self.table.placeholder = _("No moves yet. {start}.").format(
            start=c.rules.variant.begins_text(c.rules.side_to_move(c.game.start)))
        self._syncing = True
        try:
            self.model.refresh()
            sel = self.table.selectionModel()
            idx = self.model.ply_index(c.view_ply)
            if c.view_ply and idx.isValid():
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
        ply = self.model.ply_of(index)
        if 0 < ply <= len(self._controller.game.plies):
            self._controller.goto(ply)

    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if self._syncing or not current.isValid():
            return
        self._clicked(current)
