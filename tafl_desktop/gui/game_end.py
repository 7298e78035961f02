"""Game > Resign, Offer Draw and Claim Draw: endings decided off the board.

Each ends the game through ``GameSession.finish`` with a reason the record keeps
(``resigned``, ``draw_agreed``, ``draw_claimed``).  Against the computer, a draw offer is answered
from the computer's own evaluation of the position (``core.draws.computer_accepts``); between two
people the other side is asked.  Every sentence names the sides as the variant does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QAction

from tafl_desktop.core.draws import computer_accepts, draw_claimable
from tafl_desktop.core.game import Outcome, Side
from tafl_desktop.core.marks import N_
from tafl_desktop.core.side_words import sentence
from tafl_desktop.gui import dialogs
from tafl_desktop.gui.texts import tr
from tafl_desktop.i18n import _, ngettext

if TYPE_CHECKING:
    from tafl_desktop.gui.main_window import MainWindow


class GameEndActions:
    """The three actions and what they do."""

    def __init__(self, window: MainWindow) -> None:
        self.window = window
        self._asking = False
        self.act_resign = self._action(N_("Re&sign..."), self.resign, N_("Give up this game"))
        self.act_offer = self._action(N_("Offer a &Draw..."), self.offer_draw, N_("Propose to end the game as a draw"))
        self.act_claim = self._action(N_("&Claim a Draw"), self.claim_draw,
                                      N_("End the game as a draw: the same position has occurred three times "
                                        "and these rules give repetitions no consequence"))
        menu = window.game_menu
        sep = QAction(window)
        sep.setSeparator(True)
        menu.insertActions(window.act_rules, [self.act_resign, self.act_offer, self.act_claim, sep])
        window.events.changed.connect(self.update)
        self.update()

    def _action(self, text: str, slot, tip: str) -> QAction:
        a = tr(QAction(self.window), "setText", text)
        tr(a, "setStatusTip", tip)
        tr(a, "setToolTip", tip)
        a.triggered.connect(lambda _checked=False: slot())
        self.window.addAction(a)
        return a

    # ------------------------------------------------------------------------------ who
    def _humans(self) -> list[int]:
        return [i for i, p in enumerate(self.window.session.specs) if p.is_human]

    def _acting_side(self) -> int | None:
        """The side a player acts for: the one human, or the side to move between two people."""
        c = self.window.session
        humans = self._humans()
        if not humans:
            return None
        if len(humans) == 1:
            return humans[0]
        return int(c.rules.side_to_move(c.game.position))

    def update(self) -> None:
        c = self.window.session
        over = c.game.outcome is not None
        acting = self._acting_side()
        open_game = not over and acting is not None and not self._asking
        self.act_resign.setEnabled(open_game)
        self.act_offer.setEnabled(open_game)
        self.act_claim.setEnabled(open_game and draw_claimable(c.game))

    # ------------------------------------------------------------------------------ actions
    def resign(self) -> None:
        c = self.window.session
        side = self._acting_side()
        if side is None or c.game.outcome is not None:
            return
        name = c.sides[side]
        if not dialogs.confirm(self.window, _("Resign?"), _("{side}: give up this game?").format(side=name),
                               _("Resign")):
            return
        c.finish(Outcome(Side(1 - side), "resigned"))

    def offer_draw(self) -> None:
        c = self.window.session
        side = self._acting_side()
        if side is None or c.game.outcome is not None:
            return
        other = 1 - side
        if c.specs[other].is_human:
            v = c.variant
            question = sentence(ngettext("{side} offers a draw. Accept it?", "{side} offer a draw. Accept it?",
                                         v.side_number(side)).format(side=v.side_subject(side)))
            if dialogs.confirm(self.window, _("Draw offered"), question, _("Accept the draw")):
                c.finish(Outcome(None, "draw_agreed"))
            else:
                self.window.show_message(sentence(ngettext(
                    "{side} declines the draw: the game goes on.", "{side} decline the draw: the game goes on.",
                    v.side_number(other)).format(side=v.side_subject(other))))
            return
        self._ask_computer(other)

    def _ask_computer(self, computer: int) -> None:
        """The computer weighs the offer with a short search of the live position."""
        c = self.window.session
        game, plies = c.game, len(c.game.plies)
        self._asking = True
        self.update()
        self.window.show_message(_("The computer ({side}) is considering the draw offer...").format(
            side=c.sides[computer]))

        def answered(result) -> None:
            self._asking = False
            if c.game is not game or len(game.plies) != plies or game.outcome is not None:
                self.update()
                return
            if getattr(result, "error", None):
                self.window.show_message(_("The computer could not weigh the offer: the game goes on."))
            elif computer_accepts(float(result.defenders_win_chance), computer):
                c.finish(Outcome(None, "draw_agreed"))
            else:
                self.window.show_message(_("The computer ({side}) declines the draw: it judges its position "
                                            "the better one.").format(side=c.sides[computer]))
            self.update()

        self.window.ensure_analyst().evaluate(game, answered)

    def claim_draw(self) -> None:
        c = self.window.session
        if self._acting_side() is None or not draw_claimable(c.game):
            self.window.show_message(_("A draw can be claimed only when the same position has occurred three "
                                        "times and these rules give repetitions no consequence."))
            return
        c.finish(Outcome(None, "draw_claimed"))


def install(window: MainWindow) -> None:
    """Add Resign, Offer a Draw and Claim a Draw to the Game menu."""
    window.game_end = GameEndActions(window)
