"""User preferences, kept with QSettings, and the dialog that edits them.

QSettings is always constructed without arguments, so it follows the application's organisation
and name (set in :mod:`tafl_desktop.gui.app`); tests point it at a temporary folder.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QSlider,
    QVBoxLayout,
    QWidget,
)

from tafl_desktop.gui.form_labels import describe_buttons, name_fields
from tafl_desktop.gui.texts import add_item, tr
from tafl_desktop.gui.themes import DEFAULT_PIECE_STYLE, DEFAULT_THEME, PIECE_STYLES, THEMES
from tafl_desktop.i18n import LANGUAGES, _

GROUP = "preferences"
RECENT_KEY = "recent/files"
LAST_VARIANT_KEY = "newgame/variant"
MAX_RECENT = 8


@dataclass(frozen=True)
class Preferences:
    """What the player can switch.  Unknown or damaged stored values fall back to these defaults."""

    theme: str = DEFAULT_THEME
    piece_style: str = DEFAULT_PIECE_STYLE
    coordinates: bool = True
    announcements: bool = True
    animation: bool = True
    show_targets: bool = True
    eval_bar: bool = False
    language: str = ""  # "" follows the system (or $TAFL_LANG); else a code of tafl_desktop.i18n.LANGUAGES
    show_ranks: bool = True   # rank numbers on Dablot pieces
    sound: bool = True        # move, capture, announcement and game-end sounds
    volume: int = 70          # 0..100
    add_finished_games: bool = True  # each game finished in the window goes into the game database
    add_lab_games: bool = True  # Rules Lab studies' and computer-against-computer games too (source lab)


def _as_bool(value: object, default: bool) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        if value.lower() in ("true", "1", "yes"):
            return True
        if value.lower() in ("false", "0", "no"):
            return False
    return default


def load_preferences(settings: QSettings | None = None) -> Preferences:
    s = settings or QSettings()
    d = Preferences()
    s.beginGroup(GROUP)
    try:
        values: dict[str, Any] = {}
        for f in fields(Preferences):
            raw = s.value(f.name, getattr(d, f.name))
            default = getattr(d, f.name)
            if isinstance(default, bool):
                values[f.name] = _as_bool(raw, default)
            elif isinstance(default, int):
                try:
                    values[f.name] = max(0, min(100, int(str(raw))))
                except ValueError:
                    values[f.name] = default
            else:
                values[f.name] = str(raw)
    finally:
        s.endGroup()
    if values["theme"] not in THEMES:
        values["theme"] = d.theme
    if values["piece_style"] not in PIECE_STYLES:
        values["piece_style"] = d.piece_style
    if values["language"] not in LANGUAGES:
        values["language"] = d.language
    return Preferences(**values)


def save_preferences(prefs: Preferences, settings: QSettings | None = None) -> str:
    """Store ``prefs``; return '' when they are on disk, else a sentence saying why they are not
    (a read-only configuration folder, a settings file that is not a file)."""
    s = settings or QSettings()
    s.beginGroup(GROUP)
    for k, v in asdict(prefs).items():
        s.setValue(k, v)
    s.endGroup()
    s.sync()
    return settings_problem(s)


def settings_problem(settings: QSettings) -> str:
    """'' if ``settings`` were written (or read) without trouble, else what went wrong, naming the file."""
    from tafl_desktop.core.quoting import shown

    status = settings.status()
    if status == QSettings.Status.NoError:
        return ""
    if status == QSettings.Status.AccessError:
        return _("The settings file {path} cannot be written (the folder may be read-only).").format(
            path=shown(settings.fileName(), 200))
    return _("The settings file {path} is damaged and cannot be read.").format(path=shown(settings.fileName(), 200))


def recent_files(settings: QSettings | None = None) -> list[str]:
    s = settings or QSettings()
    raw = s.value(RECENT_KEY, [])
    items = [raw] if isinstance(raw, str) else raw if isinstance(raw, list) else []
    return [str(x) for x in items if str(x)][:MAX_RECENT]


def add_recent_file(path: str, settings: QSettings | None = None) -> list[str]:
    s = settings or QSettings()
    files = [path] + [f for f in recent_files(s) if f != path]
    s.setValue(RECENT_KEY, files[:MAX_RECENT])
    return files[:MAX_RECENT]


def remove_recent_file(path: str, settings: QSettings | None = None) -> None:
    s = settings or QSettings()
    s.setValue(RECENT_KEY, [f for f in recent_files(s) if f != path])


class PreferencesDialog(QDialog):
    """Edits a Preferences value; ``result_preferences()`` gives the edited copy."""

    def __init__(self, prefs: Preferences, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        tr(self, "setWindowTitle", "Preferences")
        self.theme = QComboBox()
        for key, t in THEMES.items():
            add_item(self.theme, t.label, key)
        self.theme.setCurrentIndex(max(0, self.theme.findData(prefs.theme)))
        tr(self.theme, "setAccessibleDescription", "The colours of the board and its squares, with themes for colour "
                                                   "blindness")
        self.piece_style = QComboBox()
        for key, label in PIECE_STYLES.items():
            add_item(self.piece_style, label, key)
        self.piece_style.setCurrentIndex(max(0, self.piece_style.findData(prefs.piece_style)))
        tr(self.piece_style, "setAccessibleDescription", "How the pieces are drawn on the board")
        self.coordinates = tr(QCheckBox(), "setText", "Show coordinates around the board")
        self.coordinates.setChecked(prefs.coordinates)
        tr(self.coordinates, "setAccessibleDescription", "Letters and numbers of the files and ranks beside the board")
        self.targets = tr(QCheckBox(), "setText", "Show the legal targets of the picked piece")
        self.targets.setChecked(prefs.show_targets)
        tr(self.targets, "setAccessibleDescription", "Mark every square the picked piece may move to")
        self.announcements = tr(QCheckBox(), "setText", 'Announce "Raichi", "Tuichi" and "Watch your king"')
        self.announcements.setChecked(prefs.announcements)
        tr(self.announcements, "setToolTip", "Raichi: the king has an open path to escape; Tuichi: two paths; "
                                        "Watch your king: the king can be captured next move.")
        self.animation = tr(QCheckBox(), "setText", "Animate moves")
        self.animation.setChecked(prefs.animation)
        tr(self.animation, "setAccessibleDescription", "Pieces slide to their new square instead of jumping there")
        self.eval_bar = tr(QCheckBox(), "setText", "Show the computer's evaluation bar")
        tr(self.eval_bar, "setToolTip", "After every move the computer judges who is better; the bar shows it")
        self.eval_bar.setChecked(prefs.eval_bar)
        self.language = QComboBox()
        add_item(self.language, "System default", "")
        for code, name in LANGUAGES.items():
            self.language.addItem(name, code)
        self.language.setCurrentIndex(max(0, self.language.findData(prefs.language)))
        tr(self.language, "setToolTip", "The language of the window, the rules and the printed sets; the game on the "
                                   "board stays as it is")

        self.show_ranks = tr(QCheckBox(), "setText", "Show rank numbers on Dablot pieces")
        self.show_ranks.setChecked(prefs.show_ranks)
        tr(self.show_ranks, "setAccessibleDescription", "Each Dablot piece shows its rank as a number")
        self.sound = tr(QCheckBox(), "setText", "Play sounds (moves, captures, announcements, end of game)")
        self.sound.setChecked(prefs.sound)
        tr(self.sound, "setAccessibleDescription", "A sound for every move, capture, announcement and the end of a "
                                                   "game")
        self.volume = QSlider(Qt.Orientation.Horizontal)
        self.volume.setRange(0, 100)
        self.volume.setValue(prefs.volume)
        tr(self.volume, "setAccessibleName", "Sound volume")
        tr(self.volume, "setAccessibleDescription", "How loud the sounds are, from silent to full")
        self.volume.setEnabled(prefs.sound)
        self.sound.toggled.connect(self.volume.setEnabled)
        self.add_finished = tr(QCheckBox(), "setText", "Add my finished games to the game database")
        tr(self.add_finished, "setToolTip", "The Explorer's source My games: how you did from a position")
        self.add_finished.setChecked(prefs.add_finished_games)
        self.add_lab = tr(QCheckBox(), "setText", "Add Rules Lab and self-play games to the game database")
        tr(self.add_lab, "setToolTip", "The Explorer's source Rules Lab and self-play: the games of your studies "
           "and of computer against computer, with their levels as players")
        self.add_lab.setChecked(prefs.add_lab_games)
        form = QFormLayout()
        form.addRow(tr(QLabel(), "setText", "Language:"), self.language)
        form.addRow(tr(QLabel(), "setText", "Board theme:"), self.theme)
        form.addRow(tr(QLabel(), "setText", "Pieces:"), self.piece_style)
        form.addRow("", self.coordinates)
        form.addRow("", self.targets)
        form.addRow("", self.announcements)
        form.addRow("", self.animation)
        form.addRow("", self.eval_bar)
        form.addRow("", self.show_ranks)
        form.addRow("", self.sound)
        form.addRow(tr(QLabel(), "setText", "Volume:"), self.volume)
        form.addRow("", self.add_finished)
        form.addRow("", self.add_lab)
        name_fields(form)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        describe_buttons(buttons)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(buttons)

    def result_preferences(self) -> Preferences:
        return Preferences(
            theme=self.theme.currentData(), piece_style=self.piece_style.currentData(),
            coordinates=self.coordinates.isChecked(), announcements=self.announcements.isChecked(),
            animation=self.animation.isChecked(), show_targets=self.targets.isChecked(),
            eval_bar=self.eval_bar.isChecked(), language=self.language.currentData() or "",
            show_ranks=self.show_ranks.isChecked(), sound=self.sound.isChecked(), volume=self.volume.value(),
            add_finished_games=self.add_finished.isChecked(), add_lab_games=self.add_lab.isChecked())
