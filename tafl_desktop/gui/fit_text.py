"""Widths that follow the words: a list wide enough for its longest name, so no game is cut off."""

from __future__ import annotations

from PySide6.QtWidgets import QStyle, QTreeWidget, QTreeWidgetItemIterator


def fit_tree_to_items(tree: QTreeWidget, floor: int = 240) -> int:
    """Give ``tree`` a minimum width that shows every item's text whole (long variant names such
    as "Fox and Geese (19th-century diagonals)" were elided); returns the width set."""
    widest = 0
    it = QTreeWidgetItemIterator(tree)
    while it.value() is not None:
        item = it.value()
        depth = 0
        parent = item.parent()
        while parent is not None:
            depth += 1
            parent = parent.parent()
        fm = tree.fontMetrics() if not item.font(0).bold() else _bold_metrics(tree)
        widest = max(widest, fm.horizontalAdvance(item.text(0)) + (depth + 1) * tree.indentation())
        it += 1
    scroll = tree.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
    width = max(floor, widest + scroll + 2 * tree.frameWidth() + 16)
    tree.setMinimumWidth(width)
    return width


def _bold_metrics(tree: QTreeWidget):
    from PySide6.QtGui import QFontMetrics

    font = tree.font()
    font.setBold(True)
    return QFontMetrics(font)
