"""The rule-toggle panel, generated from a family's option schema.

Each toggle gets its label, a widget for its values (check box, list of choices or number), its
one-line help under it and, as a tooltip, its help and source.  Toggles that do not matter under
the other values (``schema.is_active``) are greyed out; toggles that differ from the preset are
marked and can be reset one by one or all at once.  Nothing here knows a rule: it is all schema.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from tafl_desktop.core.options import OptionSchema, OptionSpec, OptionValue
from tafl_desktop.gui.texts import tr
from tafl_desktop.i18n import _, ngettext

CHANGED_MARK = "\u25cf "  # a dot before the label of a changed toggle


def _soften(label: QLabel) -> None:
    """Help text: smaller and between the text and background colours, readable in any palette."""
    pal = label.palette()
    text, back = pal.color(QPalette.ColorRole.WindowText), pal.color(QPalette.ColorRole.Window)
    mixed = QColor((text.red() * 3 + back.red() * 2) // 5, (text.green() * 3 + back.green() * 2) // 5,
                   (text.blue() * 3 + back.blue() * 2) // 5)
    pal.setColor(QPalette.ColorRole.WindowText, mixed)
    label.setPalette(pal)
    font = label.font()
    font.setPointSizeF(max(7.0, font.pointSizeF() * 0.9))
    label.setFont(font)


class ToggleRow:
    """The widgets of one toggle (label, editor, reset button, help line)."""

    def __init__(self, spec: OptionSpec, on_change) -> None:
        self.spec = spec
        self.label = QLabel(spec.label)
        self.label.setToolTip(self._tooltip())
        self.editor: QCheckBox | QComboBox | QSpinBox
        if spec.kind == "bool":
            self.editor = QCheckBox()
            self.editor.toggled.connect(on_change)
        elif spec.kind == "choice":
            self.editor = QComboBox()
            for c in spec.choices:
                self.editor.addItem(c.label, c.value)
                self.editor.setItemData(self.editor.count() - 1, c.sentence, Qt.ItemDataRole.ToolTipRole)
            self.editor.currentIndexChanged.connect(on_change)
        else:
            self.editor = QSpinBox()
            self.editor.setRange(spec.minimum, spec.maximum)
            if spec.minimum == 0:
                self.editor.setSpecialValueText(spec.value_label(0))
            self.editor.valueChanged.connect(on_change)
        self.editor.setToolTip(self._tooltip())
        self.editor.setAccessibleName(spec.label)
        self.reset = QToolButton()
        tr(self.reset, "setText", "\u21ba")
        self.reset.setAutoRaise(True)
        tr(self.reset, "setToolTip", "Back to the preset's value")
        self.help = QLabel(spec.help)
        self.help.setWordWrap(True)
        self.help.setToolTip(self._tooltip())
        _soften(self.help)

    def offer_only(self, fits) -> None:
        """Grey out the choices this board cannot honour (``fits(value)`` is False), e.g. marked
        escape squares on a board that marks none."""
        if not isinstance(self.editor, QComboBox):
            return
        model = self.editor.model()
        for i, c in enumerate(self.spec.choices):
            if not fits(c.value):
                item = model.item(i) if hasattr(model, "item") else None
                if item is not None:
                    item.setEnabled(False)
                    tr(item, "setToolTip", "This board has no squares for this choice.")

    def _tooltip(self) -> str:
        text = self.spec.help
        if self.spec.source:
            text += "\n" + _("Source: {source}").format(source=_(self.spec.source))
        return text

    def value(self) -> OptionValue:
        e = self.editor
        if isinstance(e, QCheckBox):
            return e.isChecked()
        if isinstance(e, QComboBox):
            return e.currentData()
        return e.value()

    def set_value(self, value: OptionValue) -> None:
        e = self.editor
        if isinstance(e, QCheckBox):
            e.setChecked(bool(value))
        elif isinstance(e, QComboBox):
            i = e.findData(value)
            e.setCurrentIndex(max(0, i))
        else:
            e.setValue(int(value))

    def show_state(self, active: bool, changed: bool, preset_value: OptionValue) -> None:
        for w in (self.label, self.editor, self.help):
            w.setEnabled(active)
        font = self.label.font()
        font.setBold(changed)
        self.label.setFont(font)
        self.label.setText((CHANGED_MARK if changed else "") + self.spec.label)
        tip = self._tooltip()
        if changed:
            tip += f"\nChanged from the preset (preset: {self.spec.value_label(preset_value)})"
        if not active:
            tip += "\n" + _("Not used with the other rules as they are set now.")
        self.label.setToolTip(tip)
        self.reset.setVisible(changed)


class OptionsPanel(QWidget):
    """All toggles of a schema, in their groups.  ``changed`` carries the full value dict."""

    changed = Signal(dict)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._schema: OptionSchema | None = None
        self._preset: dict[str, OptionValue] = {}
        self._rows: dict[str, ToggleRow] = {}
        self._loading = False
        self.summary = QLabel()
        self.reset_all = tr(QPushButton(), "setText", "Reset all to preset")
        self.reset_all.clicked.connect(self.reset_to_preset)
        tr(self.reset_all, "setAccessibleDescription", "Undo every change to the rules: back to the chosen game's own")
        top = QHBoxLayout()
        top.addWidget(self.summary, 1)
        top.addWidget(self.reset_all)
        self.scroll_area = QScrollArea()
        tr(self.scroll_area, "setAccessibleName", "Rule options")
        tr(self.scroll_area, "setAccessibleDescription", "Every rule of the game, each one you can change")
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QScrollArea.Shape.NoFrame)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.scroll_area, 1)

    def set_schema(self, schema: OptionSchema, values: dict[str, OptionValue], preset: dict[str, OptionValue]) -> None:
        """Build the widgets for ``schema`` showing ``values``; ``preset`` is what "changed" compares to."""
        self._schema = schema
        self._preset = dict(preset)
        self._rows = {}
        body = QWidget()
        outer = QVBoxLayout(body)
        outer.setContentsMargins(0, 0, 6, 0)
        for group, all_specs in schema.groups():
            specs = [spec for spec in all_specs if schema.fits_board(spec.key)]
            for spec in all_specs:
                if spec not in specs:  # about squares this board lacks: kept (its value travels on), not shown
                    self._rows[spec.key] = ToggleRow(spec, self._edited)
            if not specs:
                continue
            box = QGroupBox(group)
            grid = QGridLayout(box)
            grid.setColumnStretch(3, 1)
            grid.setColumnMinimumWidth(0, 150)
            grid.setVerticalSpacing(2)
            r = 0
            for spec in specs:
                row = ToggleRow(spec, self._edited)
                row.offer_only(lambda value, k=spec.key: schema.choice_fits(k, value))
                row.reset.clicked.connect(lambda _c=False, k=spec.key: self.reset_key(k))
                self._rows[spec.key] = row
                grid.addWidget(row.label, r, 0)
                grid.addWidget(row.editor, r, 1)
                grid.addWidget(row.reset, r, 2)
                row.editor.setMinimumWidth(220)
                grid.addWidget(row.help, r + 1, 0, 1, 4)
                grid.setRowMinimumHeight(r + 2, 6)
                r += 3
            outer.addWidget(box)
        outer.addStretch(1)
        self.scroll_area.setWidget(body)
        self.set_values(values)

    def set_values(self, values: dict[str, OptionValue]) -> None:
        self._loading = True
        try:
            for key, row in self._rows.items():
                if key in values:
                    row.set_value(values[key])
        finally:
            self._loading = False
        self._refresh_states()

    def values(self) -> dict[str, OptionValue]:
        return {k: row.value() for k, row in self._rows.items()}

    def changed_keys(self) -> list[str]:
        fits = self._schema.fits_board if self._schema is not None else (lambda _k: True)
        return [k for k, v in self.values().items() if k in self._preset and self._preset[k] != v and fits(k)]

    def row(self, key: str) -> ToggleRow:
        return self._rows[key]

    def set_value(self, key: str, value: Any) -> None:
        """Change one toggle as if the player had (for the dialog's callers and tests)."""
        self._rows[key].set_value(value)

    def reset_key(self, key: str) -> None:
        if key in self._preset:
            self._rows[key].set_value(self._preset[key])

    def reset_to_preset(self) -> None:
        self.set_values(self._preset)
        self.changed.emit(self.values())

    def _edited(self, *_args) -> None:
        if self._loading:
            return
        self._refresh_states()
        self.changed.emit(self.values())

    def _refresh_states(self) -> None:
        if self._schema is None:
            return
        values = self.values()
        for key, row in self._rows.items():
            preset_value = self._preset.get(key, row.spec.default)
            row.show_state(self._schema.is_active(key, values), values[key] != preset_value, preset_value)
        n = len(self.changed_keys())
        self.summary.setText(_("Rules as in the preset.") if n == 0 else
                             ngettext("{n} rule changed from the preset (marked \u25cf).",
                                      "{n} rules changed from the preset (marked \u25cf).", n).format(n=n))
        self.reset_all.setEnabled(n > 0)
