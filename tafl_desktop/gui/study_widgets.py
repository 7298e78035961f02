"""Pieces the lesson and puzzle dialogs share (``learn``, ``record_puzzle``): feedback labels whose
text is made again after a language switch, and the line that says which rules a puzzle is played
under.  A module of their own so that the OpenTafl puzzle window need not import the Learn menu
(which opens it: that was an import cycle)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QSizePolicy

from tafl_desktop.i18n import _, pgettext


def _wrap_label(text: str = "") -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
    return label


def _set_feedback(label: QLabel, text: str | Callable[[], str], good: bool | None) -> None:
    """Say how a move went; ``text`` may be a function making it, called again after a
    language switch (:func:`_redo_feedback`)."""
    color = {True: "#1b6e1b", False: "#a02020", None: "palette(text)"}[good]
    label.setStyleSheet(f"color: {color}; font-weight: bold;" if good is not None else "")
    label.setText(text() if callable(text) else text)
    label.setProperty("feedback-good", good)
    _FEEDBACK[id(label)] = text


def _redo_feedback(label: QLabel) -> None:
    maker = _FEEDBACK.get(id(label))
    if callable(maker):
        label.setText(maker())


#: The function behind each feedback label's text (id of the label -> maker or text).
_FEEDBACK: dict[int, str | Callable[[], str]] = {}


def puzzle_rules_text(variant: Any) -> str:
    """'Rules: Brandubh, rules as in the preset' or 'Rules: Brandubh, 2 rules changed (king captured
    by, encirclement): King captured by: ...; Encirclement: yes', so a puzzle's rules are known
    before its first move."""
    from tafl_desktop.gui.variant_info import rules_summary

    text = _("Rules: {variant}, {summary}").format(variant=variant.title, summary=rules_summary(variant))
    changed = variant.changed_options()
    if changed:
        schema = variant.schema
        changes = pgettext("list separator", "; ").join(
            _("{name}: {value}").format(name=schema[k].label, value=schema[k].value_label(v))
            for k, v in changed.items())
        text = _("{name}: {value}").format(name=text, value=changes)
    return text
