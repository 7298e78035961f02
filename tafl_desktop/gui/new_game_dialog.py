"""The New Game dialog: pick a game (presets grouped by family, plus the player's own variant
files), who plays each side, and the rule toggles; save the toggles as a variant file.

The player types come from :mod:`tafl_desktop.session.players`; "Computer" is listed with its levels
and enabled as soon as an engine is registered.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QStandardItemModel
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QPushButton,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from tafl_desktop.core.quoting import os_reason, shown
from tafl_desktop.core.variants import FAMILIES, Variant, VariantError, load_variant, presets, save_variant
from tafl_desktop.gui import dialogs
from tafl_desktop.gui.board_view import BoardState, BoardView
from tafl_desktop.gui.form_labels import describe_buttons, name_fields
from tafl_desktop.gui.options_panel import OptionsPanel
from tafl_desktop.gui.preferences import LAST_VARIANT_KEY
from tafl_desktop.gui.screen_fit import fit_size
from tafl_desktop.gui.texts import add_item, tr
from tafl_desktop.gui.variant_info import is_preset
from tafl_desktop.i18n import _, pgettext
from tafl_desktop.session.players import (
    COMPUTER,
    COMPUTER_LEVELS,
    DEFAULT_LEVEL,
    EXTERNAL,
    HUMAN,
    HUMANS,
    PlayerSpec,
)

USER_VARIANTS_KEY = "variants/files"
MAX_USER_VARIANTS = 12
VARIANT_ROLE = Qt.ItemDataRole.UserRole


@dataclass(frozen=True)
class NewGameChoice:
    """What the dialog returns: the variant with its toggles, and who plays each side."""

    variant: Variant
    players: tuple[PlayerSpec, PlayerSpec]
    time_control: Any = None  # a core.clock.TimeControl, None for an untimed game


def user_variant_files() -> list[str]:
    raw = QSettings().value(USER_VARIANTS_KEY, [])
    items = [raw] if isinstance(raw, str) else raw if isinstance(raw, list) else []
    return [str(x) for x in items if str(x)]


def remember_user_variant(path: str) -> None:
    files = [path] + [f for f in user_variant_files() if f != path]
    QSettings().setValue(USER_VARIANTS_KEY, files[:MAX_USER_VARIANTS])


def custom_variant(base: Variant, values: dict, name: str, path: str) -> Variant:
    """``base`` with the toggles ``values`` as a new named variant (its id from the file name)."""
    variant = base.with_options(values)
    changed = variant.changed_options()
    vid = re.sub(r"[^A-Za-z0-9_-]+", "_", Path(path).name.removesuffix(".toml"))[:64].strip("_") or "my_variant"
    description = base.description
    if changed:
        schema = base.schema
        parts = [_("{name}: {value}").format(name=schema[k].label, value=schema[k].value_label(v))
                 for k, v in changed.items()]
        description = (description + " " if description else "") + _("House rules based on {game}: {changes}.").format(
            game=base.name, changes=pgettext("list separator", "; ").join(parts))
    return replace(variant, id=vid, name=name.strip() or base.name, description=description)


class PlayerChooser(QWidget):
    """'Human' or 'Computer' and, for the computer, its level.  ``computer``: whether the window has
    our computer player (its session's engines); without it "Computer" is greyed out."""

    def __init__(self, spec: PlayerSpec, parent: QWidget | None = None, computer: bool = False) -> None:
        super().__init__(parent)
        self.kind = QComboBox()
        add_item(self.kind, "Human", HUMAN)
        add_item(self.kind, "Computer", COMPUTER)
        self.level = QComboBox()
        tr(self.kind, "setAccessibleDescription", "Who plays this side: you, the computer or an external engine")
        for value, label in COMPUTER_LEVELS:
            number, _dash, name = label.partition(" - ")
            self.level.addItem(f"{number} - {_(name)}" if name else _(label), value)
        if not computer:
            model = self.kind.model()
            if isinstance(model, QStandardItemModel):  # a combo box's own model
                model.item(1).setEnabled(False)
            self.kind.setItemData(1, _("The computer player is not installed in this version yet."),
                                  Qt.ItemDataRole.ToolTipRole)
        self.kind.setCurrentIndex(0 if spec.is_human or not computer else 1)
        from tafl_desktop.gui.external_engine import EnginePicker

        add_item(self.kind, "External engine", EXTERNAL)
        self.engine = EnginePicker(spec.level if spec.kind == EXTERNAL else "")
        if spec.kind == EXTERNAL:
            self.kind.setCurrentIndex(2)
        self.level.setCurrentIndex(max(0, self.level.findData(spec.level or DEFAULT_LEVEL)))
        tr(self.level, "setToolTip", "Beginner blunders on purpose; each level above looks further ahead and thinks "
           "longer (how long on this computer is shown below)")
        self.kind.currentIndexChanged.connect(self._sync)
        lines = QVBoxLayout(self)
        lines.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        # the level's name and rating whole ("3 - Средний (Эло 1559)"): the kind's combo box
        # keeps its own width, the level's takes the rest
        row.addWidget(self.kind)
        self.level.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        row.addWidget(self.level, 1)
        # "Add engine..." where the level is for the computer, so the engine's name and hosting mode
        # (long: "hnefatafl-text-protocol (HTP, --host)") have the line below to themselves
        row.addWidget(self.engine.add_button)
        lines.addLayout(row)
        lines.addWidget(self.engine)
        self._sync()

    def show_ratings(self, ratings: dict[str, int]) -> None:
        """Each level's measured rating beside its name (none where the game has none)."""
        for i, (value, label) in enumerate(COMPUTER_LEVELS):
            number, _dash, name = label.partition(" - ")
            text = f"{number} - {_(name)}" if name else _(label)
            if value in ratings:
                text = _("{level} (Elo {rating})").format(level=text, rating=ratings[value])
            self.level.setItemText(i, text)

    def _sync(self) -> None:
        self.level.setEnabled(self.kind.currentData() == COMPUTER)
        self.level.setVisible(self.kind.currentData() != EXTERNAL)
        self.engine.setVisible(self.kind.currentData() == EXTERNAL)
        self.engine.add_button.setVisible(self.kind.currentData() == EXTERNAL)

    def spec(self) -> PlayerSpec:
        if self.kind.currentData() == COMPUTER:
            return PlayerSpec(COMPUTER, self.level.currentData())
        if self.kind.currentData() == EXTERNAL and self.engine.command():
            return PlayerSpec(EXTERNAL, self.engine.command())
        return PlayerSpec()


class NewGameDialog(QDialog):
    """Choose game, players and toggles.  Use :meth:`ask`."""

    def __init__(self, current: Variant | None = None, players: tuple[PlayerSpec, PlayerSpec] = HUMANS,
                 parent: QWidget | None = None, computer: bool = False) -> None:
        super().__init__(parent)
        tr(self, "setWindowTitle", "New Game")
        self._base: Variant | None = None
        self._current = current

        self.tree = QTreeWidget()
        self.tree.setHeaderHidden(True)
        tr(self.tree, "setAccessibleName", "Games")
        tr(self.tree, "setAccessibleDescription", "The games by family; the one you pick shows its rules and board "
                                                  "beside")
        self.tree.setMinimumWidth(240)
        self._fill_tree(current)
        from tafl_desktop.gui.fit_text import fit_tree_to_items

        fit_tree_to_items(self.tree)  # long names whole, not elided
        self.tree.currentItemChanged.connect(self._item_changed)

        self.name = QLabel()
        font = self.name.font()
        font.setPointSizeF(font.pointSizeF() * 1.3)
        font.setBold(True)
        self.name.setFont(font)
        self.description = QLabel()
        self.description.setWordWrap(True)
        self.preview = BoardView()
        self.preview.setFixedSize(210, 210)
        self.preview.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.preview.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents, True)
        self.players_box = tr(QGroupBox(), "setTitle", "Players")
        self.player_form = QFormLayout(self.players_box)
        self.choosers = (PlayerChooser(players[0], computer=computer), PlayerChooser(players[1], computer=computer))
        self.player_labels = (QLabel(), QLabel())
        for i in (0, 1):
            self.player_form.addRow(self.player_labels[i], self.choosers[i])
        from tafl_desktop.gui.clock_chooser import ClockChooser

        self.clock_chooser = ClockChooser()
        self.player_form.addRow(tr(QLabel(), "setText", "Clock:"), self.clock_chooser)
        from tafl_desktop.gui.think_times import ThinkTimeLabel

        # how long each chosen level thinks here: measured on this computer, not guessed
        self.think_times = ThinkTimeLabel(parent=self)
        self.player_form.addRow(self.think_times)
        # each level's rating and the player's own record against it (tafl_desktop.gui.level_record)
        self.level_record = QLabel()
        self.level_record.setWordWrap(True)
        tr(self.level_record, "setToolTip", "Ratings measured by matches between the levels, Beginner = 1000")
        self.player_form.addRow(self.level_record)
        for chooser in self.choosers:
            chooser.kind.currentIndexChanged.connect(self._show_think_times)
            chooser.level.currentIndexChanged.connect(self._show_think_times)
        name_fields(self.player_form)
        info = QVBoxLayout()
        info.addWidget(self.name)
        info.addWidget(self.description)
        info.addWidget(self.players_box)
        info.addStretch(1)
        head = QHBoxLayout()
        head.addLayout(info, 1)
        head.addWidget(self.preview, 0, Qt.AlignmentFlag.AlignTop)

        self.options = OptionsPanel()
        rules_box = tr(QGroupBox(), "setTitle", "Rules")
        rl = QVBoxLayout(rules_box)
        rl.addWidget(self.options)
        right = QWidget()
        rv = QVBoxLayout(right)
        rv.setContentsMargins(0, 0, 0, 0)
        rv.addLayout(head)
        rv.addWidget(rules_box, 1)

        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.tree)
        split.addWidget(right)
        split.setStretchFactor(1, 1)
        split.setChildrenCollapsible(False)
        split.setSizes([285, 755])

        self.save_variant_button = tr(QPushButton(), "setText", "Save as variant...")
        tr(self.save_variant_button, "setToolTip", "Write these rules to a variant file you can open again "
                                              "(File > Open Variant)")
        self.save_variant_button.clicked.connect(self.save_as_variant)
        self.balance_button = tr(QPushButton(), "setText", "How does this change the balance?")
        tr(self.balance_button, "setToolTip", "Open the Rules Lab: computer games with these rules, one toggle varied")
        self.balance_button.clicked.connect(self.open_rules_lab)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.start_button = tr(self.buttons.addButton("", QDialogButtonBox.ButtonRole.AcceptRole), "setText", "Start "
                               "game")
        self.start_button.setDefault(True)
        tr(self.start_button, "setAccessibleDescription", "Start a game with these rules, players and clock")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        describe_buttons(self.buttons)
        bottom = QHBoxLayout()
        bottom.addWidget(self.save_variant_button)
        bottom.addWidget(self.balance_button)
        bottom.addStretch(1)
        bottom.addWidget(self.buttons)
        layout = QVBoxLayout(self)
        layout.addWidget(split, 1)
        layout.addLayout(bottom)
        fit_size(self, 1040, 740)
        self._select_initial(current)
        self.options.changed.connect(self._show_think_times)
        self._show_think_times()

    # ------------------------------------------------------------------------------- the list
    def _fill_tree(self, current: Variant | None) -> None:
        groups: dict[str, QTreeWidgetItem] = {}
        for family in FAMILIES.values():
            item = QTreeWidgetItem([_(family.label)])
            item.setFlags(Qt.ItemFlag.ItemIsEnabled)
            f = item.font(0)
            f.setBold(True)
            item.setFont(0, f)
            groups[family.name] = item
        for v in presets().values():
            # the Tafl family's games differ most by their board's size: it goes beside their names
            child = QTreeWidgetItem([f"{v.title}  ({v.size_words})" if v.traits.opentafl else v.title])
            child.setData(0, VARIANT_ROLE, v)
            child.setToolTip(0, v.blurb)
            groups.setdefault(v.family, QTreeWidgetItem([v.family])).addChild(child)
        own = QTreeWidgetItem([_("Your variants")])
        own.setFlags(Qt.ItemFlag.ItemIsEnabled)
        f = own.font(0)
        f.setBold(True)
        own.setFont(0, f)
        seen: set[str] = set()
        extra: list[Variant] = []
        if current is not None and not is_preset(current):
            extra.append(current)
        for path in user_variant_files():
            try:
                extra.append(load_variant(path))
            except VariantError:
                continue
        for v in extra:
            key = v.path or v.id
            if key in seen:
                continue
            seen.add(key)
            child = QTreeWidgetItem([v.name])
            child.setData(0, VARIANT_ROLE, v)
            child.setToolTip(0, v.path or v.description)
            own.addChild(child)
        for item in groups.values():
            if item.childCount():
                self.tree.addTopLevelItem(item)
        if own.childCount():
            self.tree.addTopLevelItem(own)
        self.tree.expandAll()

    def _items(self):
        for i in range(self.tree.topLevelItemCount()):
            top = self.tree.topLevelItem(i)
            for j in range(top.childCount()):
                yield top.child(j)

    def _select_initial(self, current: Variant | None) -> None:
        target = None
        for item in self._items():
            v: Variant = item.data(0, VARIANT_ROLE)
            if current is not None and v.id == current.id and (v.path or "") == (current.path or ""):
                target = item
                break
        if target is None:
            target = next(iter(self._items()), None)
        if target is not None:
            self.tree.setCurrentItem(target)
            if current is not None and target.data(0, VARIANT_ROLE).id == current.id:
                self.options.set_values(dict(current.options))

    def select_variant(self, variant_id: str) -> bool:
        """Pick a game by id (for callers and tests)."""
        for item in self._items():
            if item.data(0, VARIANT_ROLE).id == variant_id:
                self.tree.setCurrentItem(item)
                return True
        return False

    def _item_changed(self, item: QTreeWidgetItem | None, _previous=None) -> None:
        if item is None:
            return
        v = item.data(0, VARIANT_ROLE)
        if v is None:
            return
        self._base = v
        self.name.setText(v.title)
        self.description.setText(v.blurb)
        for i in (0, 1):
            self.player_labels[i].setText(_("{side}:").format(side=v.side_names[i]))
        self.options.set_schema(v.schema, dict(v.options), dict(v.preset_options or v.options))
        self._show_preview(v)
        if hasattr(self, "think_times"):
            self._show_think_times()

    def _show_think_times(self, *_args: Any) -> None:
        """The think-time line for the computer sides chosen, in the rules chosen."""
        try:
            variant = self.chosen_variant() if self._base is not None else None
        except VariantError:
            variant = None
        from tafl_desktop.ai.levels import get_level

        levels = [(c.level.currentData(), get_level(c.level.currentData()).label)
                  for c in self.choosers if c.kind.currentData() == COMPUTER]
        self.think_times.show_levels(variant, levels)
        self._show_level_record(variant or self._base)

    def _show_level_record(self, variant: Variant | None) -> None:
        """Ratings beside the levels, and the player's record against the level chosen."""
        from tafl_desktop.ai.level_ratings import ratings_for
        from tafl_desktop.core.level_record import load, record_of
        from tafl_desktop.gui.level_record import opponent_level, record_path

        for chooser in self.choosers:
            chooser.show_ratings(ratings_for(variant) if variant is not None else {})
        found = opponent_level(self.chosen_players()) if variant is not None else None
        if found is None:
            self.level_record.hide()
            return
        from tafl_desktop.ai.levels import get_level

        level = found[1]
        row = record_of(load(record_path()), variant.id, level)
        self.level_record.setText(_("Your record against {level} in {game}: wins {wins}, draws {draws}, "
                                    "losses {losses}.").format(level=_(get_level(level).label), game=variant.title,
                                                               **row))
        self.level_record.show()

    def done(self, result: int) -> None:
        """Closing stops a think-time measurement (a stopped one is measured again next time)."""
        self.think_times.stop()
        super().done(result)

    def _show_preview(self, v: Variant) -> None:
        rules = v.make_rules()
        self.preview.set_coordinates(False)
        from tafl_desktop.core.board_marks import marks_in_force

        self.preview.set_state(BoardState(geometry=v.geometry, pieces=rules.pieces(rules.initial_position()),
                                          interactive=False, marks=marks_in_force(v, rules)))

    # ------------------------------------------------------------------------------- results
    def chosen_variant(self) -> Variant:
        return self._base.with_options(self.options.values())

    def chosen_players(self) -> tuple[PlayerSpec, PlayerSpec]:
        return self.choosers[0].spec(), self.choosers[1].spec()

    def choice(self) -> NewGameChoice:
        return NewGameChoice(self.chosen_variant(), self.chosen_players(), self.clock_chooser.control())

    def accept(self) -> None:
        try:
            variant = self.chosen_variant()
        except VariantError as exc:
            dialogs.show_error(self, _("These rules cannot be used"), str(exc))
            return
        from tafl_desktop.gui.engine_rules import settle_engine_rules

        # an engine is told the rules in OpenTafl's rules string: say what it will play otherwise first
        if not settle_engine_rules(self, variant, self.chosen_players(), self.use_options):
            return
        if self._base is not None and is_preset(self._base):
            QSettings().setValue(LAST_VARIANT_KEY, self._base.id)
        super().accept()

    def use_options(self, values: dict) -> None:
        """Set the toggles to ``values`` as if the player had (the changed ones show as changed)."""
        self.options.set_values(values)
        self.options.changed.emit(self.options.values())

    def save_as_variant(self) -> str:
        """Ask a name and a file, write the variant; returns the path written ('' if not)."""
        base = self._base
        if base is None:
            return ""
        suggested_name = (base.name if not self.options.changed_keys()
                          else _("{game} (house rules)").format(game=base.title))
        name, ok = QInputDialog.getText(self, _("Save as variant"), _("Name of your variant:"), text=suggested_name)
        if not ok:
            return ""
        stem = re.sub(r"[^A-Za-z0-9_-]+", "_", name.strip().lower()).strip("_") or "my_variant"
        path = dialogs.ask_save_path(self, _("Save the variant"), dialogs.VARIANT_FILTER, f"{stem}.toml")
        if not path:
            return ""
        if not path.endswith(".toml"):
            path += ".toml"
        try:
            variant = custom_variant(base, self.options.values(), name, path)
            save_variant(variant, path)
            load_variant(path)  # prove it opens again before telling the player it is saved
        except (OSError, VariantError) as exc:
            text = os_reason(exc) if isinstance(exc, OSError) else str(exc)
            dialogs.show_error(self, _("Cannot save the variant"), _("{where}: {problem}").format(
                where=shown(path), problem=text))
            return ""
        remember_user_variant(str(Path(path).resolve()))
        dialogs.show_info(self, _("Variant saved"), _(
            "Saved {file}. Open it again with File > Open Variant, or find it under 'Your variants' in this "
            "dialog.").format(file=Path(path).name))
        return path

    def open_rules_lab(self):
        """The Rules Lab for the rules chosen here, the first toggle the player changed preselected."""
        from tafl_desktop.gui.rules_lab import RulesLabDialog

        try:
            variant = self.chosen_variant()
        except VariantError as exc:
            dialogs.show_error(self, _("These rules cannot be used"), str(exc))
            return None
        changed = self.options.changed_keys()
        return RulesLabDialog.open_for(self.parent(), variant, changed[0] if changed else None)

    @classmethod
    def ask(cls, parent: QWidget | None, current: Variant | None = None,
            players: tuple[PlayerSpec, PlayerSpec] = HUMANS, computer: bool = False) -> NewGameChoice | None:
        dlg = cls(current, players, parent, computer)
        if dlg.exec() != QDialog.DialogCode.Accepted:
            return None
        return dlg.choice()
