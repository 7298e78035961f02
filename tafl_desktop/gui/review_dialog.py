"""Review Game's question before it starts: how hard to search each position.

Three choices, each a fixed quality, so that the same game always gets the same review:

* **Standard**: the depth the review uses by default for this board and engine
  (:func:`tafl_desktop.ai.review.default_budget`);
* **Depth**: every position searched to that many plies;
* **Positions**: every position searched until that many positions were seen (the same on any
  machine; deeper where the position is simple).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import (
    QButtonGroup,
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QLabel,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from tafl_desktop.i18n import _


class ReviewDialog(QDialog):
    """Asks for a :class:`~tafl_desktop.ai.review.Budget`; ``budget()`` after ``exec()``."""

    def __init__(self, parent: QWidget, rules: Any, engine: str, last: Any = None) -> None:
        from tafl_desktop.ai.review import MAX_DEPTH, MAX_NODES, MIN_NODES, default_budget

        super().__init__(parent)
        self.setObjectName("reviewDialog")
        self.setWindowTitle(_("Review Game"))
        self.standard = default_budget(rules, engine)
        intro = QLabel(_("Every position of the game is searched with the same effort, so the same game always "
                         "gets the same review. Deeper is better and slower."))
        intro.setWordWrap(True)
        self.standard_button = QRadioButton(_("Standard (depth {depth})").format(depth=self.standard.depth))
        self.depth_button = QRadioButton(_("Depth:"))
        self.nodes_button = QRadioButton(_("Positions per move:"))
        self.group = QButtonGroup(self)
        for b in (self.standard_button, self.depth_button, self.nodes_button):
            self.group.addButton(b)
        self.depth_box = QSpinBox()
        self.depth_box.setRange(1, MAX_DEPTH)
        self.depth_box.setValue(self.standard.depth)
        self.depth_box.setSuffix(_(" plies"))
        self.depth_box.setAccessibleName(_("Search depth"))
        self.nodes_box = QSpinBox()
        self.nodes_box.setRange(MIN_NODES, MAX_NODES)
        self.nodes_box.setSingleStep(10_000)
        self.nodes_box.setValue(50_000 if engine == "python" else 2_000_000)
        self.nodes_box.setGroupSeparatorShown(True)
        self.nodes_box.setAccessibleName(_("Positions per move"))
        self.depth_box.valueChanged.connect(lambda _v: self.depth_button.setChecked(True))
        self.nodes_box.valueChanged.connect(lambda _v: self.nodes_button.setChecked(True))
        engine_note = QLabel(_("Engine: native (fast)") if engine == "native" else
                             _("Engine: Python (slower: prefer small depths)"))
        grid = QGridLayout()
        grid.addWidget(self.standard_button, 0, 0, 1, 2)
        grid.addWidget(self.depth_button, 1, 0)
        grid.addWidget(self.depth_box, 1, 1)
        grid.addWidget(self.nodes_button, 2, 0)
        grid.addWidget(self.nodes_box, 2, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(_("Review"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.buttons = buttons
        lay = QVBoxLayout(self)
        lay.addWidget(intro)
        lay.addLayout(grid)
        lay.addWidget(engine_note)
        lay.addWidget(buttons)
        self.standard_button.setChecked(True)
        if last is not None and last != self.standard:
            if last.depth:
                self.depth_box.setValue(last.depth)
            elif last.nodes:
                self.nodes_box.setValue(last.nodes)

    def budget(self) -> Any:
        """The budget chosen."""
        from tafl_desktop.ai.review import Budget

        if self.depth_button.isChecked():
            return Budget(depth=self.depth_box.value())
        if self.nodes_button.isChecked():
            return Budget(nodes=self.nodes_box.value())
        return self.standard
