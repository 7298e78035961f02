"""Dablot in the side panel: the ranks legend and the Action Points left this turn.

The rank numbers come from the rules' own ``rank`` (via ``piece_labels.piece_ranks``), so the
legend, the badges on the pieces and the capture rule agree: a piece takes only pieces of equal
or lower rank.  View > Show Ranks switches the badges on the board.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QVBoxLayout

from tafl_desktop.core.marks import N_
from tafl_desktop.gui.icons import piece_pixmap
from tafl_desktop.gui.piece_labels import piece_ranks
from tafl_desktop.gui.texts import tr
from tafl_desktop.i18n import _, ngettext

if TYPE_CHECKING:
    from tafl_desktop.gui.main_window import MainWindow
    from tafl_desktop.gui.preferences import Preferences


def legend_rows(variant, rules) -> list[tuple[str, str]]:
    """(piece kind, sentence) for the pieces this game's options can put on the board."""
    ranks = piece_ranks(rules)
    o = variant.options
    rows = [("s", _("Soldier: rank {n}.").format(n=ranks["s"]))]
    if o.get("officer_material") and o.get("promotion"):
        rows.append(("r", _("Soldier marked by a retreat: rank {n}; it can no longer be promoted.").format(
            n=ranks["r"])))
    if o.get("promotion") or o.get("four_ranks"):
        rows.append(("o", _("Officer: rank {n}.").format(n=ranks["o"])))
    rows.append(("p", _("The leader's son: rank {n}.").format(n=ranks["p"])))
    rows.append(("k", _("The leader: rank {n}.").format(n=ranks["k"])))
    return rows


class DablotPanel(QFrame):
    """The legend and the actions counter; shown only in games whose pieces have ranks (Dablot)."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__()
        self.main_window = window
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.actions_left = QLabel()
        tr(self.actions_left, "setAccessibleName", "Actions left")
        font = self.actions_left.font()
        font.setBold(True)
        self.actions_left.setFont(font)
        self.actions_left.setWordWrap(True)  # the panel is narrow: a long side name wraps, never clips
        self.title = tr(QLabel(), "setText", "Ranks: a piece captures only pieces of equal or lower rank")
        self.title.setWordWrap(True)
        self.grid = QGridLayout()
        self.grid.setContentsMargins(0, 0, 0, 0)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(8, 4, 8, 4)
        lay.addWidget(self.actions_left)
        lay.addWidget(self.title)
        lay.addLayout(self.grid)
        self._shown_for: tuple | None = None
        self.rows: list[tuple[str, str]] = []

    def forget_legend(self) -> None:
        """Draw the legend again at the next refresh (the theme or piece style changed)."""
        self._shown_for = None

    def refresh(self) -> None:
        c = self.main_window.session
        if not c.variant.traits.ranked_pieces:
            self.hide()
            return
        self.show()
        per_turn = getattr(c.rules, "actions_per_turn", 0)
        pos: Any = c.viewed_position  # a Dablot position (its actions left this turn)
        if per_turn and c.game.outcome is None:
            left = pos.actions
            side = c.sides[int(c.rules.side_to_move(pos))]
            self.actions_left.setText(ngettext("{side}: {n} action left this turn {pips}",
                                               "{side}: {n} actions left this turn {pips}",
                                               left).format(side=side, n=left,
                                                            pips="\u25cf" * left + "\u25cb" * (per_turn - left)))
            tr(self.actions_left, "setToolTip", "Action Points")
            self.actions_left.show()
        else:
            self.actions_left.hide()
        key: tuple | None = (id(c.variant), self.main_window.prefs.theme, self.main_window.prefs.piece_style)
        if key == self._shown_for:
            return
        self._shown_for = key
        while self.grid.count():
            item = self.grid.takeAt(0)
            if item.widget() is not None:
                item.widget().deleteLater()
        from tafl_desktop.gui.themes import theme

        t = theme(self.main_window.prefs.theme)
        ranks = piece_ranks(c.rules)
        self.rows = legend_rows(c.variant, c.rules)
        for i, (kind, text) in enumerate(self.rows):
            icon = QLabel()
            icon.setPixmap(piece_pixmap(kind, t, self.main_window.prefs.piece_style, 26, rank=ranks[kind]))
            label = QLabel(text)
            label.setWordWrap(True)
            self.grid.addWidget(icon, i, 0)
            self.grid.addWidget(label, i, 1)
        self.grid.setColumnStretch(1, 1)


def install(window: MainWindow) -> None:
    """The Dablot panel under the turn badge, and View > Show Ranks."""
    panel = DablotPanel(window)
    window.panel.layout().insertWidget(2, panel)
    window.dablot_panel = panel
    act = window.add_action(N_("Show &Ranks"), lambda on: window.apply_preferences(
        replace(window.prefs, show_ranks=bool(on))), None, N_("Rank numbers on the Dablot pieces"), checkable=True)
    window.view_menu.insertAction(window.act_eval, act)
    window.act_show_ranks = act

    def follow(prefs: Preferences) -> None:
        window.controller.show_ranks = prefs.show_ranks
        act.setChecked(prefs.show_ranks)
        panel.forget_legend()  # the legend's icons follow the theme and style

    window.preferences_changed.connect(follow)
    follow(window.prefs)

    def offer() -> None:  # only Dablot's pieces have ranks: elsewhere the item would do nothing
        act.setEnabled(bool(window.session.variant.traits.ranked_pieces))

    window.events.changed.connect(panel.refresh)
    window.events.changed.connect(offer)
    panel.refresh()
    offer()
