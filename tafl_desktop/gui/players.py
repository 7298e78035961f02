"""Who plays each side: a small data model, so adding the computer player later is configuration.

The window only ever asks a :class:`PlayerSpec` whether it is human.  The computer player plugs in
through :func:`register_engine`: the AI package (added later, running its search in a separate
process) registers a factory of :class:`ComputerEngine` objects; the controller then calls
``engine.start(...)`` whenever a computer side is to move and ``engine.cancel()`` on undo or a
new game.  Until an engine is registered the New Game dialog shows "Computer" greyed out, with
its levels already listed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

HUMAN = "human"
COMPUTER = "computer"

#: Computer strengths, weakest first: (value, label).  Level 1 must be beatable by a beginner.
COMPUTER_LEVELS: tuple[tuple[str, str], ...] = (
    ("1", "1 - Beginner"),
    ("2", "2 - Casual"),
    ("3", "3 - Club"),
    ("4", "4 - Strong"),
    ("5", "5 - Strongest"),
)


@dataclass(frozen=True)
class PlayerSpec:
    """One side's player: ``kind`` is 'human' or 'computer'; ``level`` a COMPUTER_LEVELS value."""

    kind: str = HUMAN
    level: str = ""

    def __post_init__(self) -> None:
        if self.kind not in (HUMAN, COMPUTER):
            raise ValueError(f"player kind must be '{HUMAN}' or '{COMPUTER}', not {self.kind!r}")
        if self.kind == COMPUTER and self.level not in {v for v, _ in COMPUTER_LEVELS}:
            raise ValueError(f"computer level must be one of {', '.join(v for v, _ in COMPUTER_LEVELS)}")

    @property
    def is_human(self) -> bool:
        return self.kind == HUMAN

    def label(self) -> str:
        if self.is_human:
            return "Human"
        return f"Computer (level {self.level})"

    def to_text(self) -> str:
        """Compact form for settings and record tags: 'human' or 'computer:3'."""
        return self.kind if self.is_human else f"{self.kind}:{self.level}"

    @classmethod
    def from_text(cls, text: str) -> PlayerSpec:
        """Inverse of :meth:`to_text`; anything unreadable becomes a human player."""
        kind, _, level = str(text).partition(":")
        try:
            return cls(kind, level)
        except ValueError:
            return cls()


HUMANS = (PlayerSpec(), PlayerSpec())


class ComputerEngine(Protocol):
    """What the controller needs from a computer player."""

    def start(self, game: Any, level: str, on_move: Callable[[tuple[int, ...]], None]) -> None:
        """Begin searching ``game``'s position; call ``on_move(move)`` later, on the GUI thread."""

    def cancel(self) -> None:
        """Stop searching; a late ``on_move`` after this is ignored by the controller anyway."""


_engine_factory: Callable[[], ComputerEngine] | None = None


def register_engine(factory: Callable[[], ComputerEngine] | None) -> None:
    """Install (or with None remove) the computer player; called by the AI package."""
    global _engine_factory
    _engine_factory = factory


def make_engine() -> ComputerEngine | None:
    return _engine_factory() if _engine_factory is not None else None


def computer_available() -> bool:
    """True once an engine is registered (the New Game dialog then enables 'Computer')."""
    return _engine_factory is not None
