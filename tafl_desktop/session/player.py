"""The players as objects, one interface for all of them (as Cute Chess has it): a human, our
computer at a level, or an external engine speaking the OpenTafl Engine Protocol or HTP.

The session asks the player of the side to move to ``start_turn`` with a
:class:`~tafl_desktop.session.engine.TurnRequest`; a human does nothing (the board brings the
move), a computer player hands the request to its back-end, which later answers through the
request's ``on_move`` or ``on_failure``.  The back-ends come from the session's
:class:`~tafl_desktop.session.engine.EngineHub` (one search process for both computer sides, one
host for the external engines), which the session's owner builds with the back-ends it has;
nothing here imports Qt.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from tafl_desktop.session.engine import EngineHub, TurnRequest
from tafl_desktop.session.players import COMPUTER, EXTERNAL, PlayerSpec


class Player(ABC):
    """One side's player.  ``spec`` is what a record and the New Game dialog say of it."""

    def __init__(self, spec: PlayerSpec) -> None:
        self.spec = spec

    @property
    def is_human(self) -> bool:
        return self.spec.is_human

    def label(self) -> str:
        return self.spec.label()

    @abstractmethod
    def start_turn(self, request: TurnRequest) -> bool:
        """Begin choosing a move for the request's game; True if an answer will come through the
        request's callbacks (False: a human, or no back-end to ask)."""

    def cancel(self) -> None:  # noqa: B027 - a human has nothing to stop
        """Stop choosing; a late answer is ignored by the session anyway."""

    def move_now(self) -> None:  # noqa: B027 - nor anything to hurry
        """Answer at once with the best move found so far."""


class HumanPlayer(Player):
    """A person at the board: the move comes from the board's clicks, not from here."""

    def start_turn(self, request: TurnRequest) -> bool:
        return False


class EnginePlayer(Player):
    """A side played by a back-end of the hub: our search at ``spec.level`` (a clock may shorten
    its think time), or an external program whose command line is ``spec.level`` (the host tells
    it the clock)."""

    def __init__(self, spec: PlayerSpec, hub: EngineHub) -> None:
        super().__init__(spec)
        self.hub = hub

    def start_turn(self, request: TurnRequest) -> bool:
        engine = self.hub.engine(self.spec.kind)
        if engine is None:
            return False
        engine.start(request)
        return True

    def cancel(self) -> None:
        engine = self.hub.computer if self.spec.kind == COMPUTER else self.hub.external
        if engine is not None:
            engine.cancel()

    def move_now(self) -> None:
        engine = self.hub.computer if self.spec.kind == COMPUTER else self.hub.external
        if engine is not None:
            engine.move_now()


def make_player(spec: PlayerSpec, hub: EngineHub) -> Player:
    """The player object for ``spec``."""
    if spec.kind in (COMPUTER, EXTERNAL):
        return EnginePlayer(spec, hub)
    return HumanPlayer(spec)
