"""Labels that name their fields for screen readers.

``QFormLayout.addRow(label_widget, field)`` lays a label beside its field but, unlike the
``addRow(text, field)`` form, does not make the label the field's buddy; Qt's accessibility bridge
names a field (and, on Linux, relates it to its label) through that buddy, so without it a screen
reader reads a combo box as its current value alone ("Human combo box").  :func:`name_fields` makes
every label of a form the buddy of its field.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QFormLayout, QLabel, QLayoutItem, QWidget


def name_fields(form: QFormLayout) -> QFormLayout:
    """Make each label of ``form`` the buddy of its field (the field keeps any name it has)."""
    for row in range(form.rowCount()):
        label = form.itemAt(row, QFormLayout.ItemRole.LabelRole)
        field = form.itemAt(row, QFormLayout.ItemRole.FieldRole)
        if label is None or field is None:
            continue
        widget = label.widget()
        target = _control(field)
        if isinstance(widget, QLabel) and target is not None and widget.buddy() is None:
            widget.setBuddy(target)
    return form


def _control(item: QLayoutItem) -> QWidget | None:
    """The control a field names: the widget itself when it takes focus, else the first control
    in it (a player chooser's combo box) or in its row of widgets (a size and its check box)."""
    widget = item.widget()
    if widget is not None:
        if widget.focusPolicy() & Qt.FocusPolicy.TabFocus:
            return widget
        inner = [w for w in widget.findChildren(QWidget) if w.focusPolicy() & Qt.FocusPolicy.TabFocus]
        return inner[0] if inner else None
    layout = item.layout()
    if layout is None:
        return None
    for i in range(layout.count()):
        child = layout.itemAt(i)
        found = _control(child) if child is not None else None
        if found is not None:
            return found
    return None


def describe_buttons(box: QDialogButtonBox) -> QDialogButtonBox:
    """Give the standard buttons of ``box`` a description a screen reader says after the name:
    "OK" or "Close" alone does not say whether the settings are kept."""
    from tafl_desktop.core.marks import N_
    from tafl_desktop.gui.texts import tr

    texts = {
        QDialogButtonBox.StandardButton.Ok: N_("Keep these settings and close the window"),
        QDialogButtonBox.StandardButton.Cancel: N_("Close the window and change nothing"),
        QDialogButtonBox.StandardButton.Close: N_("Close this window"),
    }
    for which, source in texts.items():
        button = box.button(which)
        if button is not None and not button.accessibleDescription():
            tr(button, "setAccessibleDescription", source)
    return box
