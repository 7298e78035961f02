"""The players as objects, one interface for all of them (as Cute Chess has it): a human, our
computer at a level, or an external engine speaking the OpenTafl Engine Protocol.

The session asks the player of the side to move to ``start_turn``; a human does nothing (the
board brings the move), a computer player hands the position to its search back-end and later
calls ``on_move`` (or ``on_error``).  The back-ends are shared through an :class:`EngineHub`:
one search process for both computer sides, one host for the external engines, each started on
first use, so a game between two computers costs one process as before.

The back-ends themselves are registered by the window (``session.players.register_engine``) and
poll their processes from the GUI's event loop; nothing here imports Qt.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

from tafl_desktop.core.game import Game, Move, Position
from tafl_desktop.session.players import (
    COMPUTER,
    EXTERNAL,
    ComputerEngine,
    PlayerSpec,
    make_engine,
    make_external_engine,
)

OnMove = Callable[[Move], None]
OnError = Callable[[str], None]
#: The engines' clock as the OpenTafl protocol reports it (see ``GameSession.engine_clock``).
ClockReport = tuple[tuple[int, int], tuple[int, int, int], tuple[bool, bool]]


class EngineHub:
    """The search back-ends the players share, started on first use and stopped with the game's
    window.  ``on_progress`` receives our search's progress reports (depth, score, line)."""

    def __init__(self, on_progress: Callable[[Any], None] | None = None) -> None:
        self._computer: ComputerEngine | None = None
        self._external: ComputerEngine | None = None
        #: Receives our search's progress reports (the session forwards them to its views).
        self.on_progress = on_progress
        #: The game clock for external engines, when the game has one (set by the session).
        self.clock_source: Callable[[], ClockReport | None] | None = None

    @property
    def computer(self) -> ComputerEngine | None:
        """Our search back-end if it has been started (tests look at its process)."""
        return self._computer

    @property
    def external(self) -> ComputerEngine | None:
        """The external engines' host if it has been started."""
        return self._external

    def computer_engine(self) -> ComputerEngine | None:
        if self._computer is None:
            self._computer = make_engine()
            progress = getattr(self._computer, "progress", None)  # a Qt signal on the window's back-end
            if progress is not None:
                progress.connect(lambda info: self.on_progress(info) if self.on_progress is not None else None)
        return self._computer

    def external_engine(self) -> ComputerEngine | None:
        if self._external is None:
            self._external = make_external_engine()
            if self._external is not None and hasattr(self._external, "clock_source"):
                self._external.clock_source = lambda: self.clock_source() if self.clock_source else None
        return self._external

    def cancel(self) -> None:
        for engine in (self._computer, self._external):
            if engine is not None:
                engine.cancel()

    def game_over(self, game: Game[Position]) -> None:
        """Tell the external engines how the game ended (OpenTafl's ``finish``)."""
        finish = getattr(self._external, "finish", None)
        if finish is not None:
            finish(game)

    def end_external_engines(self) -> None:
        """A new game: the last game's external engines leave (their processes are ended, never
        waited for); the host stays and starts the next game's engines when they are asked."""
        if self._external is not None and hasattr(self._external, "shutdown"):
            self._external.shutdown()

    def shutdown(self) -> None:
        self.cancel()
        for engine in (self._computer, self._external):
            if engine is not None and hasattr(engine, "shutdown"):
                engine.shutdown()
        self._computer = self._external = None


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
    def start_turn(self, game: Game[Position], on_move: OnMove, on_error: OnError, time_limit: float | None,
                   soft_limit: float | None = None) -> bool:
        """Begin choosing a move for ``game``'s live position; True if an answer will come
        through ``on_move``/``on_error`` (False: a human, or no back-end to ask)."""

    def cancel(self) -> None:  # noqa: B027 - a human has nothing to stop
        """Stop choosing; a late answer is ignored by the session anyway."""

    def move_now(self) -> None:  # noqa: B027 - nor anything to hurry
        """Answer at once with the best move found so far."""


class HumanPlayer(Player):
    """A person at the board: the move comes from the board's clicks, not from here."""

    def start_turn(self, game: Game[Position], on_move: OnMove, on_error: OnError, time_limit: float | None,
                   soft_limit: float | None = None) -> bool:
        return False


class ComputerPlayer(Player):
    """Our own search at ``spec.level``, in the hub's search process; a clock may shorten its
    think time (``time_limit``)."""

    def __init__(self, spec: PlayerSpec, hub: EngineHub) -> None:
        super().__init__(spec)
        self.hub = hub

    def start_turn(self, game: Game[Position], on_move: OnMove, on_error: OnError, time_limit: float | None,
                   soft_limit: float | None = None) -> bool:
        engine = self.hub.computer_engine()
        if engine is None:
            return False
        extra: dict[str, float] = {"time_limit": time_limit} if time_limit is not None else {}
        if soft_limit is not None and time_limit is not None:
            extra["soft_limit"] = soft_limit
        engine.start(game, self.spec.level, on_move, on_error=on_error, **extra)
        return True

    def cancel(self) -> None:
        if self.hub.computer is not None:
            self.hub.computer.cancel()

    def move_now(self) -> None:
        move_now = getattr(self.hub.computer, "move_now", None)
        if move_now is not None:
            move_now()


class ExternalEnginePlayer(Player):
    """An external program (``spec.level`` is its command line); the host tells it the clock."""

    def __init__(self, spec: PlayerSpec, hub: EngineHub) -> None:
        super().__init__(spec)
        self.hub = hub

    def start_turn(self, game: Game[Position], on_move: OnMove, on_error: OnError, time_limit: float | None,
                   soft_limit: float | None = None) -> bool:
        engine = self.hub.external_engine()
        if engine is None:
            return False
        engine.start(game, self.spec.level, on_move, on_error=on_error)
        return True

    def cancel(self) -> None:
        if self.hub.external is not None:
            self.hub.external.cancel()


def make_player(spec: PlayerSpec, hub: EngineHub) -> Player:
    """The player object for ``spec``."""
    if spec.kind == COMPUTER:
        return ComputerPlayer(spec, hub)
    if spec.kind == EXTERNAL:
        return ExternalEnginePlayer(spec, hub)
    return HumanPlayer(spec)
