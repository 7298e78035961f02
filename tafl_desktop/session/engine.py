"""The engine contract: what the session asks of a move-making back-end, and what comes back.

Why one typed contract: the session drives two kinds of back-end (our search in a worker process,
external programs over the OpenTafl or Hnefatafl Text Protocol), and used to learn what each could
do by probing it (``getattr``/``hasattr``), and to learn that a failure ended the game from the
class of a string.  Here every back-end meets one :class:`Engine` Protocol; a turn is asked with
one :class:`TurnRequest` (the game, the level or command, the time it may take, the clocks as the
protocols tell them, where progress goes) and ends in a move or one :class:`TurnFailure`, whose
``kind`` says whether the game goes on.

The session never picks a back-end itself: its :class:`EngineHub` is built with the factories of
the back-ends this program has (the window passes its Qt clients, a test its fakes, a headless
caller none), so nothing is installed through module globals.  No Qt here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from tafl_desktop.core.game import Game, Move, Position
from tafl_desktop.game_loop import Reply

#: The clocks as the OpenTafl protocol reports them (``GameSession.engine_clock``):
#: ((attackers ms, defenders ms), (overtime period s, attackers' periods, defenders' periods),
#: (attackers in overtime, defenders in overtime)).
ClockReport = tuple[tuple[int, int], tuple[int, int, int], tuple[bool, bool]]

FailureKind = Literal["problem", "forfeit", "resigned"]


@dataclass(frozen=True)
class TurnFailure:
    """Why an engine gave no move.

    ``problem``: it could not answer (the game waits, the player may try again or take over);
    ``forfeit``: it broke the game (an illegal move, a crash, silence past its clock), its side
    loses; ``resigned``: it resigned, its side loses by resignation.  ``text`` is a clause for
    the sentences the session builds ("the engine 'x' did not answer within its time")."""

    text: str
    kind: FailureKind = "problem"

    @property
    def ends_game(self) -> bool:
        """Whether the engine's side loses (a forfeit or a resignation), not merely a pause."""
        return self.kind != "problem"

    def __str__(self) -> str:
        return self.text

    def reply(self) -> Reply:
        """The failure as the game loop's :class:`~tafl_desktop.game_loop.Reply`, which the loop's
        step judges as it judges every player's: a resignation; a forfeit (the side loses); a
        problem, no move and no failure (the game stops where it is and waits)."""
        if self.kind == "resigned":
            return Reply(resigned=True, text=self.text)
        if self.kind == "forfeit":
            return Reply(failure="forfeit", text=self.text)
        return Reply(text=self.text)


@dataclass(frozen=True)
class TurnLimits:
    """The time a move may take under the game's clock; both None without a clock (the level
    decides).  ``hard``: seconds never passed; ``soft``: the clock's share for this move, which
    the search may stretch at a critical moment up to ``hard``."""

    hard: float | None = None
    soft: float | None = None


@dataclass(frozen=True)
class TurnRequest:
    """One turn asked of an engine: choose a move in ``game``'s live position.

    ``level`` is our search's level, or an external engine's command line; ``clock`` the game's
    clocks for a protocol that tells them (None: no clock).  The answer comes through
    ``on_move`` or ``on_failure``, once, on the caller's thread (the window's event loop);
    ``on_progress`` may be called any number of times before it with the search's reports
    (depth, score, line)."""

    game: Game[Position]
    level: str
    on_move: Callable[[Move], None]
    on_failure: Callable[[TurnFailure], None]
    on_progress: Callable[[Any], None]
    limits: TurnLimits = TurnLimits()
    clock: ClockReport | None = None


class Engine(Protocol):
    """A back-end that makes moves: our search's client, or the host of external engines."""

    def start(self, request: TurnRequest) -> None:
        """Begin choosing a move; a request still running is abandoned (never answered)."""
        ...

    def cancel(self) -> None:
        """Stop choosing; nothing of the abandoned request is delivered after this."""
        ...

    def move_now(self) -> None:
        """Answer at once with the best move found so far (a no-op where the protocol has none)."""
        ...

    def finish(self, game: Game[Position]) -> None:
        """``game`` ended: tell the engines that play it (OpenTafl's ``finish``)."""
        ...

    def end_game(self) -> None:
        """A new game begins: the last game's engine processes leave (never waited for)."""
        ...

    def shutdown(self) -> None:
        """Release every process (the window is closing); a later request starts anew."""
        ...


#: Makes an engine on first use (a class, or any callable returning one).
EngineFactory = Callable[[], Engine]


class EngineHub:
    """The back-ends the players share, made on first use by the factories given and stopped with
    the session: one for our computer levels, one host for external engines.  A game between two
    computers costs one search process.  A factory left out means this program cannot play that
    kind of player (a record naming one is played by a person)."""

    def __init__(self, computer: EngineFactory | None = None, external: EngineFactory | None = None) -> None:
        self._factories: dict[str, EngineFactory | None] = {"computer": computer, "engine": external}
        self._started: dict[str, Engine] = {}

    @property
    def has_computer(self) -> bool:
        """Whether our computer player is available (the New Game dialog enables it)."""
        return self._factories["computer"] is not None

    def can_play(self, kind: str) -> bool:
        """Whether a player of ``kind`` ("human", "computer", "engine") can be played here."""
        return kind == "human" or self._factories.get(kind) is not None

    @property
    def computer(self) -> Engine | None:
        """Our search's back-end if it has been started (tests look at its process)."""
        return self._started.get("computer")

    @property
    def external(self) -> Engine | None:
        """The external engines' host if it has been started."""
        return self._started.get("engine")

    def engine(self, kind: str) -> Engine | None:
        """The back-end for players of ``kind``, made now if this is its first use."""
        engine = self._started.get(kind)
        factory = self._factories.get(kind)
        if engine is None and factory is not None:
            engine = self._started[kind] = factory()
        return engine

    def cancel(self) -> None:
        for engine in self._started.values():
            engine.cancel()

    def game_over(self, game: Game[Position]) -> None:
        """Tell the engines how ``game`` ended."""
        for engine in self._started.values():
            engine.finish(game)

    def end_game(self) -> None:
        """A new game: the last game's engine processes leave; the back-ends stay for the next."""
        for engine in self._started.values():
            engine.end_game()

    def shutdown(self) -> None:
        self.cancel()
        for engine in self._started.values():
            engine.shutdown()
        self._started.clear()


class IdleEngine:
    """An engine that answers nothing: the base of a simple back-end (a test's fake), which
    overrides :meth:`start` and whatever else it needs."""

    def start(self, request: TurnRequest) -> None:
        """Take the request and never answer."""

    def cancel(self) -> None:
        """Nothing runs."""

    def move_now(self) -> None:
        """Nothing to hurry."""

    def finish(self, game: Game[Position]) -> None:
        """No process to tell."""

    def end_game(self) -> None:
        """No process to end."""

    def shutdown(self) -> None:
        """No process to release."""
