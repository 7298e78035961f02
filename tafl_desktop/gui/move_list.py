"""The move list: the game's tree of moves in notation, the viewed move highlighted, and the
first/back/forward/last buttons.

The main line is laid out one turn to a row (column 0 the side that moved first in this game,
column 1 the other).  After the row holding a move come the comment on it and the variations
played instead of it, indented one step per level, each laid out the same way.  Clicking a move
shows its position (a move in another line makes that line the one on screen); the context menu
comments, promotes and deletes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QItemSelectionModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QMenu,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from tafl_desktop.core.game import Position
from tafl_desktop.core.game_tree import Node
from tafl_desktop.core.marks import N_
from tafl_desktop.core.move_numbers import node_move_text
from tafl_desktop.gui.icons import set_glyph
from tafl_desktop.gui.texts import tr
from tafl_desktop.i18n import _, ngettext
from tafl_desktop.session.session import GameSession, move_cell_text

Index = QModelIndex | QPersistentModelIndex
#: The signs and cell tints of review classes (:meth:`MoveListModel.set_annotations`).
ANNOTATION_SIGNS = {"inaccuracy": " ?!", "mistake": " ?", "blunder": " ??"}
ANNOTATION_TINTS = {"inaccuracy": "#f3e6a0", "mistake": "#f6c28b", "blunder": "#ef9a9a"}
#: Item role carrying a row's nesting level (0 = main line) for the indenting delegate.
DEPTH_ROLE = Qt.ItemDataRole.UserRole + 1
INDENT_PX = 14
#: Levels of variations drawn as steps of indentation; deeper ones stay at this step, so a move
#: 64 variations deep still shows its text beside the guide lines.
MAX_INDENT_LEVELS = 8


@dataclass
class _Row:
    """One row of the list: a turn of some line (``cells`` per column), or a comment row."""

    depth: int
    number: int = 0
    cells: list[list[Node]] = field(default_factory=lambda: [[], []])
    comment: Node | None = None


class MoveListModel(QAbstractTableModel):
    """The tree laid out as rows of turns; a side that makes several plies in one turn (Dablot's
    action points) shares a cell."""

    def __init__(self, session: GameSession) -> None:
        super().__init__()
        self._session = session
        self._rows: list[_Row] = []
        self._where: dict[int, tuple[int, int]] = {}   # id(node) -> (row, column)
        self._texts: dict[int, str] = {}
        self._headers = ("", "")
        self._signature: tuple = ()
        self._viewed: Node | None = None
        self._line: list[Node] = []
        #: Review classes by node (see :meth:`set_annotations`).
        self._annotations: dict[Node, str] = {}
        #: What a marked move allowed, by node (the review's sentence for the tip).
        self._reasons: dict[Node, str] = {}
        self.refresh()

    # ------------------------------------------------------------------------------- layout
    def refresh(self) -> None:
        c = self._session
        first = int(c.rules.side_to_move(c.game.start))
        headers = (c.sides[first], c.sides[1 - first])
        self._line = c.line_nodes()
        signature = (id(c.tree), c.tree.revision, id(c.game), len(c.game.plies), headers)
        if signature != self._signature:
            self.beginResetModel()
            self._signature, self._headers = signature, headers
            self._layout(first)
            self._viewed = c.viewed_node()
            self.endResetModel()
            return
        viewed = c.viewed_node()
        if viewed is not self._viewed:
            old, self._viewed = self._viewed, viewed
            for node in (old, viewed):
                idx = self.node_index(node)
                if idx.isValid():
                    self.dataChanged.emit(idx, idx)

    def _layout(self, first: int) -> None:
        c = self._session
        tree, rules = c.tree, c.rules
        self._rows, self._where, self._texts = [], {}, {}

        def text(node: Node) -> str:
            # the session's one wording of a move: a piece lost by its own move is not a capture
            assert node.parent is not None and node.ply is not None
            return move_cell_text(rules, tree.position(node.parent), node.ply)

        def rows_of(line: list[Node[Position]], depth: int, turn: int) -> list[_Row]:
            rows: list[_Row] = []
            prev_col = -1
            for node in line:
                assert node.parent is not None  # a line holds moves, never the root
                col = 0 if int(rules.side_to_move(tree.position(node.parent))) == first else 1
                if not rows or (col == 0 and prev_col == 1):
                    if rows:
                        turn += 1
                    rows.append(_Row(depth, turn))
                rows[-1].cells[col].append(node)
                self._texts[id(node)] = text(node)
                prev_col = col
            return rows

        if tree.root.comment:
            self._rows.append(_Row(0, comment=tree.root))
        # A stack of rows still to place, not recursion (variations may nest as deep as a record
        # allows): after each row come its comments and then each variation played instead of one
        # of its moves, laid out whole, before the next row of the same line.
        pending: list[list[_Row]] = [list(reversed(rows_of(tree.main_line(), 0, 1)))]
        while pending:
            if not pending[-1]:
                pending.pop()
                continue
            row = pending[-1].pop()
            self._rows.append(row)
            r = len(self._rows) - 1
            for col in (0, 1):
                for node in row.cells[col]:
                    self._where[id(node)] = (r, col)
            after: list[list[_Row]] = []  # each move's comment, then the variations played instead of it
            for node in (*row.cells[0], *row.cells[1]):
                if node.comment:
                    after.append([_Row(row.depth, comment=node)])
                if node.is_main_child and node.parent is not None:
                    for alt in node.parent.children[1:]:
                        after.append(rows_of([alt, *tree.continuation(alt)], row.depth + 1, row.number))
            pending.extend(list(reversed(rows)) for rows in reversed(after))

    # ------------------------------------------------------------------------------- lookups
    def node_index(self, node: Node | None) -> QModelIndex:
        if node is None:
            return QModelIndex()
        row, col = self._where.get(id(node), (-1, -1))
        return self.index(row, col) if row >= 0 else QModelIndex()

    def ply_index(self, ply: int) -> QModelIndex:
        """Model index of the cell holding move ``ply`` (1-based) of the line on screen."""
        return self.node_index(self._line[ply - 1]) if 0 < ply <= len(self._line) else QModelIndex()

    def nodes_at(self, index: Index) -> list[Node]:
        if not index.isValid() or index.row() >= len(self._rows):
            return []
        row = self._rows[index.row()]
        if row.comment is not None:
            return [row.comment] if index.column() == 0 else []
        return row.cells[index.column()]

    def node_at(self, index: Index) -> Node | None:
        """The move a click on this cell shows (the last of the cell); None for an empty cell."""
        nodes = self.nodes_at(index)
        return nodes[-1] if nodes else None

    def plies_at(self, index: Index) -> list[int]:
        """The move numbers (from the start of the game) in this cell."""
        return [n.depth for n in self.nodes_at(index) if n.ply is not None]

    def ply_of(self, index: Index) -> int:
        plies = self.plies_at(index)
        return plies[-1] if plies else 0

    def comment_rows(self) -> list[int]:
        return [r for r, row in enumerate(self._rows) if row.comment is not None]

    # ------------------------------------------------------------------------------- annotations
    def set_annotations(self, marks: dict[int, str], reasons: dict[int, str] | None = None) -> None:
        """Mark plies with a game-review class: ``{ply: "best" | "good" | "inaccuracy" | "mistake" |
        "blunder"}`` (ply 1-based along the line on screen, the main line unless a variation is
        shown); ``{}`` clears.  The marks stay with those moves when another line is shown.
        Inaccuracies, mistakes and blunders get the usual sign (?!, ?, ??) and a tinted cell;
        ``reasons`` (by ply) say in the move's tip what it allowed."""
        line = self._session.line_nodes()
        self._annotations = {line[p - 1]: cls for p, cls in marks.items() if 0 < p <= len(line)}
        self._reasons = {line[p - 1]: why for p, why in (reasons or {}).items() if 0 < p <= len(line)}
        if self._rows:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._rows) - 1, 1))

    def annotation(self, ply: int) -> str:
        """The review class of move ``ply`` of the line on screen, or "" when it has none."""
        line = self._session.line_nodes()
        return self._annotations.get(line[ply - 1], "") if 0 < ply <= len(line) else ""

    # ------------------------------------------------------------------------------- Qt model
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else 2

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.row() >= len(self._rows):
            return None
        row = self._rows[index.row()]
        if role == DEPTH_ROLE:
            return row.depth
        if row.comment is not None:
            return self._comment_data(row, index, role)
        nodes = row.cells[index.column()]
        if not nodes:
            if role == Qt.ItemDataRole.DisplayRole and row.depth and index.column() == 0 and row.cells[1]:
                return "…"
            return None
        last = nodes[-1]
        mark = self._annotations.get(last, "")
        if role == Qt.ItemDataRole.DisplayRole:
            return ", ".join(self._texts[id(n)] + ANNOTATION_SIGNS.get(self._annotations.get(n, ""), "")
                             for n in nodes)
        if role == Qt.ItemDataRole.BackgroundRole:
            tint = ANNOTATION_TINTS.get(mark)
            return QColor(tint) if tint else None
        if role == Qt.ItemDataRole.ForegroundRole and mark in ANNOTATION_TINTS:
            return QColor("#1b1b1b")  # the tints are light: dark text on them in a dark theme too
        if role == Qt.ItemDataRole.FontRole:
            viewed = self._viewed is not None and any(n is self._viewed for n in nodes)
            if viewed or row.depth:
                font = QFont()
                font.setBold(viewed)
                font.setItalic(row.depth > 0)
                return font
            return None
        if role == Qt.ItemDataRole.ToolTipRole:
            move = node_move_text(self._session.tree, last)
            tip = (_("{move} (a variation): click to see the position after it; right-click for comments and "
                     "variations") if row.depth else
                   _("{move} (the main line): click to see the position after it; right-click for comments and "
                     "variations")).format(move=move)
            why = self._reasons.get(last)
            return (f"{why}\n\n" if why else "") + tip + (f"\n\n{last.comment}" if last.comment else "")
        return None

    def _comment_data(self, row: _Row, index: Index, role: int) -> Any:
        if index.column() != 0:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return "“" + " ".join(row.comment.comment.split()) + "”"
        if role == Qt.ItemDataRole.ToolTipRole:
            return row.comment.comment
        if role == Qt.ItemDataRole.FontRole:
            font = QFont()
            font.setItalic(True)
            return font
        if role == Qt.ItemDataRole.ForegroundRole:
            return QColor("#6b5b45")
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not self.nodes_at(index):
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # noqa: N802
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal:
            return self._headers[section]
        if 0 <= section < len(self._rows) and self._rows[section].comment is None:
            return f"{self._rows[section].number}."
        return ""


class _IndentDelegate(QStyledItemDelegate):
    """Indents the first column of variation rows, one step per level, with a guide line."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        depth = index.data(DEPTH_ROLE) or 0
        if not depth or index.column() != 0:
            super().paint(painter, option, index)
            return
        opt = QStyleOptionViewItem(option)
        shown = min(depth, MAX_INDENT_LEVELS)
        indent = shown * INDENT_PX
        painter.save()
        painter.setPen(option.palette.color(QPalette.ColorRole.Mid))
        r = option.rect
        for level in range(shown):
            x = r.left() + level * INDENT_PX + INDENT_PX // 2
            painter.drawLine(x, r.top() + 1, x, r.bottom() - 1)
        painter.restore()
        opt.rect = r.adjusted(indent, 0, 0, 0)
        super().paint(painter, opt, index)


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
    """Move list plus navigation buttons, kept in step with the session."""

    def __init__(self, session: GameSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._session = session
        self.model = MoveListModel(session)
        self.table = MoveTable(self)
        self.table.setModel(self.model)
        self.table.setItemDelegate(_IndentDelegate(self.table))
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setShowGrid(False)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        tr(self.table, "setAccessibleName", "Moves")
        tr(self.table, "setAccessibleDescription", "The moves played, one row per turn; pick one to see the board "
                                                   "after it")
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        self.table.clicked.connect(self._clicked)
        self.table.selectionModel().currentChanged.connect(self._current_changed)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._context_menu)

        self.buttons: dict[str, QToolButton] = {}
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        for name, tip, slot in (
            ("first", N_("First position (Home)"), session.first),
            ("back", N_("Back one move (Left arrow)"), session.back),
            ("forward", N_("Forward one move (Right arrow)"), session.forward),
            ("last", N_("Last position, back to the game (End)"), session.last),
        ):
            b = QToolButton(self)
            set_glyph(b, name)
            tr(b, "setToolTip", tip)
            tr(b, "setAccessibleName", tip)
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
        self._spans: list[int] = []
        self.refresh()

    def refresh(self) -> None:
        c = self._session
        self.table.placeholder = _("No moves yet. {start}.").format(
            start=c.rules.variant.begins_text(c.rules.side_to_move(c.game.start)))
        self._syncing = True
        try:
            self.model.refresh()
            spans = self.model.comment_rows()
            if spans != self._spans:
                self.table.clearSpans()
                for r in spans:
                    self.table.setSpan(r, 0, 1, 2)
                self._spans = spans
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

    def set_annotations(self, marks: dict[int, str], reasons: dict[int, str] | None = None) -> None:
        """See :meth:`MoveListModel.set_annotations`."""
        self.model.set_annotations(marks, reasons)

    def _clicked(self, index: QModelIndex) -> None:
        node = self.model.node_at(index)
        if node is not None and node.ply is not None:
            self._session.show_node(node)

    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if self._syncing or not current.isValid():
            return
        self._clicked(current)

    # ------------------------------------------------------------------------------- context menu
    def _context_menu(self, pos) -> None:
        node = self.model.node_at(self.table.indexAt(pos))
        if node is None:
            node = self._session.viewed_node()
        self.menu_for(node).exec(self.table.viewport().mapToGlobal(pos))

    def menu_for(self, node: Node) -> QMenu:
        """The actions on one move: comment, promote, delete (built fresh for each right-click)."""
        c = self._session
        menu = QMenu(self)
        text = (_("Comment on the start position...") if node.ply is None else
                _("Comment on {move}...").format(move=node_move_text(c.tree, node)))
        menu.addAction(text, lambda: edit_comment(self, c, node))
        in_variation = c.tree.variation_start(node) is not None
        a = tr(menu.addAction("", lambda: c.promote(node)), "setText", "Promote Variation")
        a.setEnabled(in_variation)
        a = tr(menu.addAction("", lambda: c.promote(node, to_main=True)), "setText", "Make Main Line")
        a.setEnabled(in_variation)
        menu.addSeparator()
        start = c.tree.variation_start(node)
        a = tr(menu.addAction("", lambda: confirm_delete(self, c, start)), "setText", "Delete Variation")
        a.setEnabled(start is not None)
        a = tr(menu.addAction("", lambda: confirm_delete(self, c, node)), "setText", "Delete From Here")
        a.setEnabled(node.ply is not None)
        return menu


def edit_comment(parent: QWidget, session: GameSession, node: Node) -> None:
    """Ask for the comment on ``node`` (empty removes it)."""
    from PySide6.QtWidgets import QInputDialog

    from tafl_desktop.core.record_limits import comment_refusal
    from tafl_desktop.gui import dialogs

    label = (_("Comment on the start position:") if node.ply is None else
             _("Comment on {move}:").format(move=node_move_text(session.tree, node)))
    text = node.comment
    while True:
        text, ok = QInputDialog.getMultiLineText(parent, _("Comment"), label, text)
        if not ok:
            return
        why = comment_refusal(session.tree, node, text)
        if why is None:
            break
        # refused as it is written, not when the game is saved; the text comes back to be shortened
        dialogs.show_error(parent, _("Comment too long"), _("The comment is not saved: {reason}.").format(reason=why))
    session.set_comment(node, text)


def confirm_delete(parent: QWidget, session: GameSession, node: Node | None) -> None:
    """Delete ``node`` and the moves after it, once the player agrees."""
    from tafl_desktop.gui import dialogs

    if node is None or node.ply is None:
        return
    count = 1 + sum(1 for _n in _below(node))
    move = node_move_text(session.tree, node)
    if count == 1:
        text = _("Delete {move}?").format(move=move)
    else:
        text = ngettext("Delete {move} and the ply after it?", "Delete {move} and the {count} plies after it "
                        "(variations included)?", count - 1).format(move=move, count=count - 1)
    if dialogs.confirm(parent, _("Delete moves?"), text, _("Delete")):
        session.delete_node(node)


def _below(node: Node):
    stack = list(node.children)
    while stack:
        n = stack.pop()
        yield n
        stack.extend(n.children)
