"""Every text a player can read in a window: for the pseudo-locale and live-switching tests.

:func:`visible_texts` walks a window (and the dialogs it owns, and every other open top-level
window) and returns ``(where, text)`` pairs: menu titles, actions (text, tool tip, status tip),
labels, buttons, group boxes, combo items, tabs, tool tips, window titles, table and list cells
with their headers, text browsers, spin box suffixes and the status bar.  Hidden widgets count
too when they belong to a visible window (a text shown later must be right as well), except
where a widget is deliberately empty.
"""

from __future__ import annotations

from typing import Any


def _model_texts(view: Any, where: str) -> list[tuple[str, str]]:
    from PySide6.QtCore import Qt

    model = view.model()
    if model is None:
        return []
    out = []
    rows, cols = model.rowCount(), model.columnCount()
    for c in range(cols):
        for orient in (Qt.Orientation.Horizontal,):
            h = model.headerData(c, orient, Qt.ItemDataRole.DisplayRole)
            if isinstance(h, str) and h:
                out.append((f"{where} header {c}", h))
            t = model.headerData(c, orient, Qt.ItemDataRole.ToolTipRole)
            if isinstance(t, str) and t:
                out.append((f"{where} header tip {c}", t))
    for r in range(min(rows, 200)):
        for c in range(cols):
            idx = model.index(r, c)
            for role, name in ((Qt.ItemDataRole.DisplayRole, "cell"), (Qt.ItemDataRole.ToolTipRole, "tip")):
                v = model.data(idx, role)
                if isinstance(v, str) and v:
                    out.append((f"{where} {name} {r},{c}", v))
    return out


def visible_texts(root: Any, include_others: bool = True) -> list[tuple[str, str]]:
    """``(where, text)`` for every readable text of ``root`` and the windows open beside it."""
    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import (
        QAbstractButton,
        QAbstractItemView,
        QAbstractSpinBox,
        QApplication,
        QComboBox,
        QDialogButtonBox,
        QDoubleSpinBox,
        QGroupBox,
        QLabel,
        QListWidget,
        QMainWindow,
        QMenu,
        QSpinBox,
        QTabBar,
        QTextBrowser,
        QTextEdit,
        QWidget,
    )

    roots = [root]
    if include_others:
        roots += [w for w in QApplication.topLevelWidgets() if w is not root and w.isVisible()]
    out: list[tuple[str, str]] = []
    seen: set[int] = set()

    def add(where: str, text: Any) -> None:
        if isinstance(text, str) and text.strip():
            out.append((where, text))

    for r in roots:
        for obj in (r, *r.findChildren(QWidget), *r.findChildren(QAction)):
            key = id(obj)
            if key in seen:
                continue
            seen.add(key)
            if obj.objectName().startswith("qt_"):
                continue  # Qt's own parts (a dock's float button): Qt's catalogue speaks for them
            name = f"{type(obj).__name__}({obj.objectName() or ''})"
            if isinstance(obj, QAction):
                if obj.isSeparator():
                    continue
                add(f"{name} text", obj.text())
                add(f"{name} tip", obj.toolTip() if obj.toolTip() != obj.text().replace("&", "") else "")
                add(f"{name} status", obj.statusTip())
                continue
            add(f"{name} tooltip", obj.toolTip())
            if obj.isWindow() or isinstance(obj, QMainWindow):
                add(f"{name} title", obj.windowTitle())
            add(f"{name} accessible", obj.accessibleName())
            if isinstance(obj, QMenu):
                add(f"{name} title", obj.title())
            box = obj.parent()
            if (isinstance(obj, QAbstractButton) and isinstance(box, QDialogButtonBox)
                    and box.standardButton(obj) != QDialogButtonBox.StandardButton.NoButton):
                continue  # OK, Cancel...: Qt's own catalogue (installed for the language) names them
            if isinstance(obj, (QLabel, QAbstractButton)):
                add(f"{name} text", obj.text())
            if isinstance(obj, QGroupBox):
                add(f"{name} title", obj.title())
            if isinstance(obj, QComboBox):
                for i in range(obj.count()):
                    add(f"{name} item {i}", obj.itemText(i))
            if isinstance(obj, QTabBar):
                for i in range(obj.count()):
                    add(f"{name} tab {i}", obj.tabText(i))
            if isinstance(obj, (QSpinBox, QDoubleSpinBox)):
                add(f"{name} suffix", obj.suffix())
                add(f"{name} prefix", obj.prefix())
                add(f"{name} special", obj.specialValueText())
            if isinstance(obj, QAbstractSpinBox):
                pass
            if isinstance(obj, (QTextBrowser, QTextEdit)):
                add(f"{name} text", obj.toPlainText())
            if isinstance(obj, QListWidget):
                for i in range(obj.count()):
                    add(f"{name} item {i}", obj.item(i).text())
            elif isinstance(obj, QAbstractItemView):
                out.extend(_model_texts(obj, name))
            figure = getattr(obj, "figure", None)  # a matplotlib canvas: the graph's own words
            if figure is not None and hasattr(figure, "findobj"):
                from matplotlib.text import Text

                words = [t.get_text() for t in figure.findobj(Text)]
                for i, t in enumerate(w for w in words if not w.strip().lstrip("−-").replace(".", "").isdigit()):
                    add(f"{name} figure text {i}", t)  # the words; tick numbers come and go with each draw
            if isinstance(obj, QMainWindow) and obj.statusBar() is not None:
                add(f"{name} status bar", obj.statusBar().currentMessage())
    return out
