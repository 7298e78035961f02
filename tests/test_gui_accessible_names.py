"""Every control a keyboard reaches has a name a screen reader can say, in every language, and Tab
reaches every control (issue 40): the main window of each family and every dialog (New Game,
Rules in Force, Rules Lab, Preferences, Print Set, a lesson, a puzzle, the position editor).

The name is the one Qt's accessibility bridge hands to AT-SPI and UI Automation
(``QAccessibleInterface.text(Name)``: a button's text, a label's buddy, or an accessible name
set by hand); a field must have a name of its own or a label whose buddy it is.  A control is one
that takes focus by Tab; the line edit inside a spin box is the spin box's own (its focus proxy)
and is not counted twice.  Tab is pressed as a player presses it, from the first control round
the whole chain.

Every control, shown now or later (a hidden dock, the maker's settings), also has a description:
what it does, said after the name (``text(Description)``: the accessible description, else the
tool tip), translated in every language.
"""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QLabel,
    QLineEdit,
    QWidget,
)

from tafl_desktop.gui.texts import PREFIX

#: English and Russian (the longest words, another script) on every run; the others are slow
#: (some 9 s each): pytest -m slow tests/test_gui_accessible_names.py (make test-slow).
LANGUAGES = ["en", "ru", *(pytest.param(lang, marks=pytest.mark.slow) for lang in ("da", "de", "fr"))]


def controls(root: QWidget) -> list[QWidget]:
    """The widgets of ``root`` that Tab can focus (shown and enabled)."""
    out = []
    for w in [root, *root.findChildren(QWidget)]:
        if not w.focusPolicy() & Qt.FocusPolicy.TabFocus or not w.isVisibleTo(root) or not w.isEnabled():
            continue
        if isinstance(w.parent(), QAbstractSpinBox):
            continue  # the spin box's own line edit
        if w.window() is not root.window():
            continue
        out.append(w)
    return out


def unnamed(root: QWidget) -> list[str]:
    """Controls without a name; a field (combo box, spin box, line edit) needs a name of its own or
    a label whose buddy it is: without one, Qt names a combo box by its current value ("Human")
    and a spin box by its group's title, and a screen reader never says what the value is for."""
    labelled = {id(label.buddy()) for label in root.findChildren(QLabel) if label.buddy() is not None}
    bad = []
    for w in controls(root):
        iface = QAccessible.queryAccessibleInterface(w)
        name = iface.text(QAccessible.Text.Name) if iface is not None else ""
        field = isinstance(w, (QComboBox, QAbstractSpinBox, QLineEdit))
        if not name.strip() or (field and not w.accessibleName() and id(w) not in labelled):
            bad.append(f"{type(w).__name__} in {type(w.parent()).__name__} (shown as {name!r})")
    return bad


def all_controls(root: QWidget) -> list[QWidget]:
    """Every widget of ``root`` that Tab can focus, shown or not: a dock, a Stop button or the
    maker's settings hidden now are shown later, and a player meets them then."""
    return [w for w in [root, *root.findChildren(QWidget)]
            if w.focusPolicy() & Qt.FocusPolicy.TabFocus and not isinstance(w.parent(), QAbstractSpinBox)
            and w.window() is root.window()]


def undescribed(root: QWidget, lang: str) -> list[str]:
    """Controls without a description a screen reader says after the name (what the control
    does): Qt's ``text(Description)``, the accessible description or else the tool tip.  One
    that only repeats the name says nothing; one set through the catalogue but still in English
    in another language was never translated."""
    bad = []
    for w in all_controls(root):
        iface = QAccessible.queryAccessibleInterface(w)
        name = iface.text(QAccessible.Text.Name).strip() if iface is not None else ""
        about = iface.text(QAccessible.Text.Description).strip() if iface is not None else ""
        what = f"{type(w).__name__} {name!r} in {type(w.parent()).__name__}"
        if not about or about == name:
            bad.append(f"{what}: no description" + (" (only its name)" if about else ""))
            continue
        source = w.property(PREFIX + "setAccessibleDescription")
        if lang != "en" and source and about == json.loads(source)[0]:
            bad.append(f"{what}: description {about!r} not translated")
    return bad


def _owner(w: QWidget | None) -> QWidget | None:
    return w.parent() if w is not None and isinstance(w.parent(), QAbstractSpinBox) else w


def _grouped(w: QWidget) -> list[QWidget]:
    """The other buttons of ``w``'s exclusive group (a palette of tools): Tab stops at the checked
    one, the arrow keys move between them, as between radio buttons."""
    group = w.group() if isinstance(w, QAbstractButton) else None
    return [b for b in group.buttons() if b is not w] if group is not None and group.exclusive() else []


def unreached_by_arrows(qtbot, root: QWidget) -> list[str]:
    """The buttons of exclusive groups that the arrow keys, from the group's checked button, miss."""
    missed = []
    for w in controls(root):
        others = _grouped(w)
        if not others or not w.isChecked():
            continue
        reached, todo = {id(w): w}, [w]
        while todo:  # every button the arrows lead to, from every button reached so far
            at = todo.pop()
            for key in (Qt.Key.Key_Right, Qt.Key.Key_Down, Qt.Key.Key_Left, Qt.Key.Key_Up):
                at.setFocus(Qt.FocusReason.TabFocusReason)
                qtbot.keyClick(at, key)
                now = QApplication.focusWidget()
                if now is not None and id(now) not in reached:
                    reached[id(now)] = now
                    todo.append(now)
        missed += [f"{type(b).__name__} {b.text()!r}" for b in others if id(b) not in reached]
    return missed


def unreached_by_tab(qtbot, root: QWidget) -> list[str]:
    """The controls of ``root`` that pressing Tab round the chain never focuses (of an exclusive
    group, the checked button; the arrows reach the rest: ``unreached_by_arrows``)."""
    root.activateWindow()
    qtbot.waitUntil(root.isActiveWindow, timeout=2000)
    want = [w for w in controls(root) if not _grouped(w) or w.isChecked()]
    if not want:
        return []
    want[0].setFocus(Qt.FocusReason.TabFocusReason)
    reached = set()
    for _ in range(2 * len(want) + 4):
        now = _owner(QApplication.focusWidget())
        if now is not None:
            reached.add(id(now))
        qtbot.keyClick(QApplication.focusWidget() or root, Qt.Key.Key_Tab)
    missed = [f"{type(w).__name__} in {type(w.parent()).__name__}" for w in want if id(w) not in reached]
    return missed + [f"(arrow keys) {x}" for x in unreached_by_arrows(qtbot, root)]


@pytest.fixture
def in_language(make_window):
    from tafl_desktop import i18n

    def use(lang: str):
        i18n.set_language(lang, explicit=True)
        return make_window

    yield use
    i18n.set_language("en", explicit=True)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_control_is_named_described_and_reached_by_tab(qtbot, in_language, lang, dialogs_recorder):
    from tafl_desktop.core.variants import find_variant
    from tafl_desktop.gui.learn import LessonDialog, PuzzleDialog
    from tafl_desktop.gui.matches import MatchesDialog
    from tafl_desktop.gui.new_game_dialog import NewGameDialog
    from tafl_desktop.gui.position_editor import open_editor
    from tafl_desktop.gui.preferences import PreferencesDialog
    from tafl_desktop.gui.print_dialog import PrintSetDialog
    from tafl_desktop.gui.rules_lab import RulesLabDialog
    from tafl_desktop.gui.rules_viewer import RulesViewer
    from tafl_desktop.study.lessons import load_lessons
    from tafl_desktop.study.puzzles import all_puzzles

    make_window = in_language(lang)
    problems: dict[str, list[str]] = {}
    for variant_id in ("brandubh", "fox_geese_13", "dablot"):
        w = make_window(variant_id)
        w.board_table_dock.show()
        problems[f"main window {variant_id}"] = unnamed(w) + undescribed(w, lang) + [
            f"Tab never reaches {x}" for x in unreached_by_tab(qtbot, w)]
    v = find_variant("brandubh")
    dialogs = {
        "New Game": NewGameDialog(v, parent=w), "Rules in force": RulesViewer(v, w),
        "Rules Lab": RulesLabDialog(v, w, w), "Preferences": PreferencesDialog(w.prefs, w),
        "Print Set": PrintSetDialog(v, w, persist=False), "lesson": LessonDialog(load_lessons()[0], w),
        "puzzle": PuzzleDialog(all_puzzles()[:2], w), "Matches": MatchesDialog(w, w),
    }
    for name, dlg in dialogs.items():
        qtbot.addWidget(dlg)
        dlg.show()
        qtbot.waitExposed(dlg)
        problems[name] = unnamed(dlg) + undescribed(dlg, lang) + [
            f"Tab never reaches {x}" for x in unreached_by_tab(qtbot, dlg)]
        dlg.close()
    editor = open_editor(w)
    problems["position editor"] = unnamed(editor) + undescribed(editor, lang) + [
        f"Tab never reaches {x}" for x in unreached_by_tab(qtbot, editor)]
    editor.close()
    found = {k: v for k, v in problems.items() if v}
    assert found == {}
