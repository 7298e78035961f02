"""Rules an external engine can play, settled before the game starts.

An engine speaking the OpenTafl Engine Protocol is told the rules as an OpenTafl rules string
(:func:`tafl_desktop.core.rules_string.to_rules_string`), which cannot carry every toggle: Brandubh
as shipped goes out as a king captured by four on and beside the throne, and the engine plays that.
Our rules still referee every move, so an engine playing its own reading loses on a move ours
refuse.  The New Game dialog therefore says so before such a game starts and lets the player take
the rules the engine can play (those the rules string carries) instead.

Kept apart from the dialog so the dialog gains one call, and testable without a running engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QPushButton, QVBoxLayout, QWidget

from tafl_desktop.core.rules_string import RulesStringError, to_rules_string, variant_from_rules_string
from tafl_desktop.core.variants import Variant, VariantError
from tafl_desktop.gui.texts import tr
from tafl_desktop.i18n import _
from tafl_desktop.session.players import EXTERNAL, PlayerSpec, engine_name


@dataclass(frozen=True)
class EngineRules:
    """What an OpenTafl-protocol engine makes of ``variant``: the differences, one line each (empty
    when it plays the rules exactly), and the toggles it would play when the board can be sent as it
    is (None otherwise: walls, marked escape squares, a board OpenTafl lacks)."""

    lines: tuple[str, ...]
    playable: dict[str, Any] | None
    #: False when the rules cannot be sent at all (not a Tafl game, a board OpenTafl cannot hold)
    sendable: bool = True


def engine_rules(variant: Variant) -> EngineRules:
    """How the rules string an engine receives differs from ``variant``."""
    try:
        exported = to_rules_string(variant)
    except RulesStringError as exc:
        return EngineRules((str(exc),), None, sendable=False)
    if not exported.warnings:
        return EngineRules((), None)
    as_read = " ".join(tok for tok in exported.text.split() if not tok.startswith("td-"))
    try:
        theirs = variant_from_rules_string(as_read)
        fitted = variant.with_options(theirs.options)
        playable = dict(fitted.options) if not to_rules_string(fitted).warnings else None
    except (RulesStringError, VariantError):
        playable = None
    if playable is None:
        return EngineRules(tuple(exported.warnings), None)
    schema = variant.schema
    lines = tuple(
        _("{rule}: {ours}; the engine plays {theirs}").format(
            rule=schema[k].label, ours=schema[k].value_label(v), theirs=schema[k].value_label(playable[k]))
        for k, v in variant.options.items()
        if k in schema and playable[k] != v and schema.is_active(k, variant.options))
    return EngineRules(lines or tuple(exported.warnings), playable)


class EngineRulesDialog(QDialog):
    """Says which rules an engine will play differently; the player keeps the rules (and the
    engine may lose on a move they refuse), takes the rules the engine can play, or goes back."""

    KEEP, FIT, BACK = "keep", "fit", "back"

    def __init__(self, engine: str, found: EngineRules, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        tr(self, "setWindowTitle", "Rules the engine cannot play")
        self.setMinimumWidth(460)
        self.choice = self.BACK
        text = tr(QLabel(), "setText", "{engine} is told the rules in OpenTafl's rules string, which cannot carry "
                  "all of them. It will play:", engine=engine)
        text.setWordWrap(True)
        listing = QLabel("\n".join(f"\u2022 {line}" for line in found.lines))
        listing.setWordWrap(True)
        note = tr(QLabel(), "setText", "These rules still referee every move: a move the engine makes under its own "
                  "reading that they refuse ends the game as the engine's loss.")
        note.setWordWrap(True)
        buttons = QDialogButtonBox()
        self.fit_button: QPushButton | None = None
        if found.playable is not None:
            self.fit_button = tr(buttons.addButton("", QDialogButtonBox.ButtonRole.AcceptRole), "setText", "Use "
                                 "rules the engine can play")
            self.fit_button.clicked.connect(lambda: self._choose(self.FIT))
        self.keep_button = tr(buttons.addButton("", QDialogButtonBox.ButtonRole.AcceptRole), "setText", "Keep these "
                              "rules")
        self.keep_button.clicked.connect(lambda: self._choose(self.KEEP))
        self.keep_button.setEnabled(found.sendable)
        self.back_button = tr(buttons.addButton("", QDialogButtonBox.ButtonRole.RejectRole), "setText", "Back")
        self.back_button.clicked.connect(self.reject)
        lay = QVBoxLayout(self)
        for w in (text, listing, note):
            lay.addWidget(w)
        lay.addWidget(buttons)
        (self.fit_button or (self.keep_button if found.sendable else None) or self.back_button).setDefault(True)

    def _choose(self, choice: str) -> None:
        self.choice = choice
        self.accept()


def settle_engine_rules(parent: QWidget, variant: Variant, players: tuple[PlayerSpec, PlayerSpec],
                        apply_options: Any) -> bool:
    """Before a game with an external engine: True to start it now; False to stay in the New Game
    dialog (the player went back, or took the rules the engine can play, which ``apply_options``
    puts into the dialog's toggles for the player to see before starting)."""
    from tafl_desktop.gui import dialogs
    from tafl_desktop.interop.htp_host import htp_player, htp_plays

    engines = [p for p in players if p.kind == EXTERNAL]
    htp = [p for p in engines if htp_player(p.level) is not None]
    if htp and not htp_plays(variant):  # the protocol tells an engine no rules: the site's only
        from tafl_desktop.core.variants import presets

        dialogs.show_error(parent, _("Rules the engine cannot play"), _(
            "{engine} speaks hnefatafl.org's Hnefatafl Text Protocol, which plays that site's rules only: choose "
            "{game} with its rules unchanged, or another player.").format(
            engine=" / ".join(dict.fromkeys(engine_name(p.level) for p in htp)), game=presets()["copenhagen_org"].name))
        return False
    engines = [p for p in engines if p not in htp]
    if not engines:
        return True
    found = engine_rules(variant)
    if not found.lines:
        return True
    names = " / ".join(dict.fromkeys(engine_name(p.level) for p in engines))
    dlg = EngineRulesDialog(names, found, parent)
    dlg.exec()
    if dlg.choice == EngineRulesDialog.FIT and found.playable is not None:
        apply_options(found.playable)
        return False
    return dlg.choice == EngineRulesDialog.KEEP and found.sendable
