"""Who plays each side, as data: a :class:`PlayerSpec` (human, computer at a level, external
engine by its command line), which records and the New Game dialog read and write.

The players as objects that play (one interface for all three) are in
:mod:`tafl_desktop.session.player`; their back-ends (the engine contract) in
:mod:`tafl_desktop.session.engine`, handed to the session by its owner.  Without a computer
back-end (some tests, headless callers) the New Game dialog shows "Computer" greyed out and a
record naming a computer player is played by a person.
"""

from __future__ import annotations

from dataclasses import dataclass

from tafl_desktop.core.quoting import quote
from tafl_desktop.i18n import _

HUMAN = "human"
COMPUTER = "computer"
#: An external engine; its ``level`` is its command line, for an engine speaking the OpenTafl Engine
#: Protocol, or ``htp:COMMAND`` / ``htp-host[@PORT]:COMMAND`` for one speaking hnefatafl.org's
#: Hnefatafl Text Protocol on its stdin or in its ``--host`` mode (``interop.htp_host.htp_player``).
EXTERNAL = "engine"

def _computer_levels() -> tuple[tuple[str, str], ...]:
    """The AI's player levels (one source of truth: ``tafl_desktop.ai.levels``), weakest first."""
    from tafl_desktop.ai.levels import LEVELS, PLAYER_LEVELS

    return tuple((name, f"{i} - {LEVELS[name].label}") for i, name in enumerate(PLAYER_LEVELS, 1))


#: Computer strengths, weakest first: (value, label).  Level 1 must be beatable by a beginner.
COMPUTER_LEVELS: tuple[tuple[str, str], ...] = _computer_levels()
#: The level a new computer player gets unless the player picks another.
DEFAULT_LEVEL = "medium"
#: Older records named the levels by number.
_NUMBERED = {str(i): name for i, (name, _label) in enumerate(COMPUTER_LEVELS, 1)}


@dataclass(frozen=True)
class PlayerSpec:
    """One side's player: ``kind`` is 'human' or 'computer'; ``level`` a COMPUTER_LEVELS value."""

    kind: str = HUMAN
    level: str = ""

    def __post_init__(self) -> None:
        if self.kind not in (HUMAN, COMPUTER, EXTERNAL):
            raise ValueError(f"player kind must be '{HUMAN}', '{COMPUTER}' or '{EXTERNAL}', not {quote(self.kind)}")
        if self.kind == EXTERNAL and not self.level.strip():
            raise ValueError("an external engine needs its command line")
        if self.kind == COMPUTER and self.level not in {v for v, _ in COMPUTER_LEVELS}:
            raise ValueError(f"computer level must be one of {', '.join(v for v, _ in COMPUTER_LEVELS)}")

    @property
    def is_human(self) -> bool:
        return self.kind == HUMAN

    def label(self) -> str:
        if self.is_human:
            return _("Human")
        if self.kind == EXTERNAL:
            return _("Engine ({name})").format(name=engine_name(self.level))
        from tafl_desktop.ai.levels import LEVELS

        return _("Computer ({level})").format(level=_(LEVELS[self.level].label))

    def to_text(self) -> str:
        """Compact form for settings and record tags: 'human' or 'computer:3'."""
        return self.kind if self.is_human else f"{self.kind}:{self.level}"

    @classmethod
    def from_text(cls, text: str) -> PlayerSpec:
        """Inverse of :meth:`to_text`; anything unreadable becomes a human player."""
        kind, _, level = str(text).partition(":")
        if kind == EXTERNAL:  # a file never starts a program: engines are chosen in New Game
            return cls()
        level = _NUMBERED.get(level, level)
        try:
            return cls(kind, level)
        except ValueError:
            return cls()


HUMANS = (PlayerSpec(), PlayerSpec())


#: Options of an interpreter that take a value (skipped when looking for what it runs).
_VALUE_OPTIONS = {"-cp", "-classpath", "--class-path", "-p", "--module-path", "-X", "-W", "--require", "-r"}


def engine_name(command: str) -> str:
    """A short name for an engine's command line (the protocol has no name of its own): the program's
    file name, or for an interpreter what it runs: a Java main class or jar (``OpenTafl``, not its
    class path), a Python module or script, a Node script."""
    import os
    import re
    import shlex

    command = re.sub(r"^\s*(?i:htp|htp-host(?:@\d+)?):", "", command)  # an HTP engine's hosting mode
    try:
        words = shlex.split(command, posix=os.name != "nt")
    except ValueError:
        words = command.split()
    if not words:
        return command
    name = re.sub(r"\.exe$", "", os.path.basename(words[0]), flags=re.IGNORECASE)
    if not name.lower().startswith(("python", "pypy", "java", "node")):
        return name
    i = 1
    while i < len(words):
        word = words[i]
        if word in ("-jar", "-m") and i + 1 < len(words):
            target = words[i + 1]
            return os.path.splitext(os.path.basename(target))[0] if word == "-jar" else target
        if word in _VALUE_OPTIONS:
            i += 2
            continue
        if word.startswith("-"):
            i += 1
            continue
        base = os.path.basename(word.replace("\\", "/"))
        if base.endswith((".py", ".js")):
            return base  # a script is known by its file name
        if base.endswith((".jar", ".class")):
            return os.path.splitext(base)[0]
        return base.rsplit(".", 1)[-1] if "/" not in word and "." in base else base  # com.x.OpenTafl -> OpenTafl
    return name
