"""The board as a table, for screen readers (View > Board as Table, Ctrl+Shift+B).

The board itself is one painted widget, which assistive technology sees as a single object with
no children.  Qt's accessibility bridge does expose an item view as a table (rows, columns,
headers, each cell's name), and PySide6 does not let Python implement a table interface for a
painted widget, so this dock holds a table widget that mirrors the board: one row per rank (or row
of points, from the top as the board is drawn), one column per file, each cell named in the
language in use ("d4: king on the throne", "e5: empty"; :meth:`BoardView.describe_square`), the
rank numbers and file letters as its headers.  On the Fox games' and Dablot's point-and-line
boards the table is the grid of the points, and a place of the grid without a point is an empty,
unselectable cell.

The table's current cell and the board's keyboard cursor are one: moving either moves the other,
so the screen reader's focus follows the cursor; Enter or Space on a cell picks up or puts down
as on the board.  The visible text of a cell is short (the piece's letter), its accessible name
the whole description.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QDockWidget, QTableWidget, QTableWidgetItem

from tafl_desktop.core.marks import N_
from tafl_desktop.gui.texts import tr
from tafl_desktop.i18n import _

if TYPE_CHECKING:
    from tafl_desktop.gui.main_window import MainWindow

_LETTERS = re.compile(r"[a-z]+")
_DIGITS = re.compile(r"[0-9]+")


def grid_of(geometry: Any) -> tuple[list[float], list[float], dict[int, tuple[int, int]]]:
    """(row ys from the top, column xs from the left, square -> (row, column)) of a board's points."""
    xs = sorted({round(geometry.point_xy(s)[0], 3) for s in range(geometry.size)})
    ys = sorted({round(geometry.point_xy(s)[1], 3) for s in range(geometry.size)})
    cell = {s: (ys.index(round(geometry.point_xy(s)[1], 3)), xs.index(round(geometry.point_xy(s)[0], 3)))
            for s in range(geometry.size)}
    return ys, xs, cell


class BoardTable(QTableWidget):
    """A table of the board's squares (or points), kept in step with the board and its cursor."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__()
        self.main = window
        self._geometry: Any = None
        self._cells: dict[int, tuple[int, int]] = {}
        self._squares: dict[tuple[int, int], int] = {}
        self._syncing = False
        tr(self, "setAccessibleName", "Board as a table")
        tr(self, "setAccessibleDescription",
           "One cell per square: arrow keys move, Enter or Space picks up and puts down, as on the board")
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setTabKeyNavigation(False)
        self.horizontalHeader().setMinimumSectionSize(18)
        self.verticalHeader().setMinimumSectionSize(18)
        self.currentCellChanged.connect(self._current_changed)
        self.installEventFilter(self)

    def refresh(self) -> None:
        """Rebuild the cells from the board's state (after every change of the game shown)."""
        board = self.main.board
        st = board.state()
        if st is None:
            return
        g = st.geometry
        self._syncing = True
        try:
            if g is not self._geometry:
                self._build(g)
            for s, (r, c) in self._cells.items():
                item = self.item(r, c)
                kind = st.pieces.get(s)
                letter = st.letters.get(kind, kind) if kind else ""
                item.setText(letter or "")
                item.setData(Qt.ItemDataRole.AccessibleTextRole, board.describe_square(s))
                item.setToolTip(board.describe_square(s))
            cursor = board.cursor_square()
            if cursor is not None and cursor in self._cells:
                self.setCurrentCell(*self._cells[cursor])
        finally:
            self._syncing = False

    def _build(self, g: Any) -> None:
        self._geometry = g
        ys, xs, cells = grid_of(g)
        self.clear()
        self.setRowCount(len(ys))
        self.setColumnCount(len(xs))
        self._cells = cells
        self._squares = {rc: s for s, rc in cells.items()}
        rows = ["" for _y in ys]
        cols = ["" for _x in xs]
        for s, (r, c) in cells.items():
            name = g.name(s)
            letters, digits = _LETTERS.findall(name), _DIGITS.findall(name)
            rows[r] = rows[r] or (digits[0] if digits else "")
            cols[c] = cols[c] or (letters[0] if letters else "")
        self.setVerticalHeaderLabels(rows)
        self.setHorizontalHeaderLabels(cols)
        for r in range(len(ys)):
            for c in range(len(xs)):
                item = QTableWidgetItem()
                if (r, c) not in self._squares:
                    item.setFlags(Qt.ItemFlag.NoItemFlags)
                    item.setData(Qt.ItemDataRole.AccessibleTextRole, _("no point"))
                else:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                self.setItem(r, c, item)
        self.resizeColumnsToContents()

    def square_at_cell(self, row: int, column: int) -> int | None:
        return self._squares.get((row, column))

    def _current_changed(self, row: int, column: int, _prev_row: int, _prev_column: int) -> None:
        """The table's cell moved: the board's cursor follows (and is said by the announcer)."""
        if self._syncing:
            return
        square = self._squares.get((row, column))
        if square is not None and square != self.main.board.cursor_square():
            self.main.board.set_cursor_square(square)

    def follow_cursor(self, square: int) -> None:
        """The board's cursor moved: the table's current cell follows."""
        if square in self._cells and not self._syncing:
            self._syncing = True
            try:
                self.setCurrentCell(*self._cells[square])
            finally:
                self._syncing = False

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt API)
        if obj is self and event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent) \
                and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space):
            square = self._squares.get((self.currentRow(), self.currentColumn()))
            if square is not None:
                self.main.controller.press(square)
            return True
        return False


def install(window: MainWindow) -> None:
    """A dock with the table, hidden until View > Board as Table (Ctrl+Shift+B) shows it and
    puts the focus in it (hiding it gives the focus back to the board)."""
    table = BoardTable(window)
    dock = QDockWidget()
    tr(dock, "setWindowTitle", "Board as a table")
    dock.setObjectName("boardTableDock")
    dock.setWidget(table)
    window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, dock)
    dock.hide()
    window.board_table = table
    window.board_table_dock = dock
    # an action of its own: a dock's toggleViewAction takes the dock's title again after a language switch
    def show(on: bool) -> None:
        dock.setVisible(on)
        (table if on else window.board).setFocus(Qt.FocusReason.ShortcutFocusReason)

    act = window.add_action(N_("Board as &Table"), lambda on: show(bool(on)), QKeySequence("Ctrl+Shift+B"),
                            N_("The board as a table of cells, for screen readers (Ctrl+Shift+B)"), checkable=True)
    dock.visibilityChanged.connect(lambda shown: act.setChecked(dock.isVisible()))
    window.view_menu.addAction(act)
    window.act_board_table = act
    window.board.state_changed.connect(table.refresh)
    window.board.cursor_moved.connect(table.follow_cursor)
    dock.visibilityChanged.connect(lambda shown: table.refresh() if shown else None)
