"""The autosave: the session's unfinished game kept in a file after every change, so a crash (a
kill, a power cut) loses nothing.

A service of the session, headless: it listens to the session's ``changed`` and rewrites its file
when the game moved on (a move, an undo, a new line, an ending), right away and not later, since a
crash one second after a move must not lose it (a record is a few kilobytes, written in about a
millisecond).  A finished or empty game removes the file: there is nothing to restore.  A record
written by a normal close carries the tag ``exit = "normal"``, so the next start offers it back
without speaking of a crash.

What the player is told about a failure is the window's business: :attr:`Autosave.on_problem`
hears the reason (one sentence) and whether the window is closing.  The file's slot and its lock
(:mod:`tafl_desktop.core.autosave_slots`) are chosen at start-up; until then :attr:`path` is None
and nothing is written (an empty new game must not remove a file that is being offered back).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from tafl_desktop.core.quoting import os_reason, shown
from tafl_desktop.i18n import _
from tafl_desktop.session.session import GameSession
from tafl_desktop.session.source import EXIT_TAG

if TYPE_CHECKING:
    from tafl_desktop.core.autosave_slots import SlotLock

#: The record's tag saying the window was closed normally (no crash) with this game unfinished.
CLOSED_TAG, CLOSED_NORMALLY = EXIT_TAG, "normal"


class Autosave:
    """Keeps ``session``'s game in :attr:`path` (None: off) after every change."""

    def __init__(self, session: GameSession, path: str | None = None) -> None:
        self.session = session
        self.path = path
        #: The lock on this file's slot: while it is held no other window takes, offers or removes
        #: the file.  Released by :meth:`release` (the window closing).
        self.lock: SlotLock | None = None
        #: Told the reason (one sentence) when the file cannot be written; ``closing``: the
        #: window is being closed.
        self.on_problem: Callable[[str, bool], None] | None = None
        self._written: tuple[object, ...] | None = None  # (game, plies, outcome, revision) last kept
        session.changed.connect(self.if_changed)

    def _state(self) -> tuple[object, ...]:
        g = self.session.game
        return (id(g), len(g.plies), g.outcome, self.session.tree.revision)

    def if_changed(self) -> None:
        """Write the file if the game changed since it was last written."""
        if self.path and self._state() != self._written:
            self.now()

    def now(self, closing: bool = False) -> str | None:
        """Keep the game in the file now (or remove the file when there is nothing to keep).
        ``closing``: the window is being closed normally, and the record says so.  Returns the
        reason when the file cannot be written (also told to :attr:`on_problem`), else None."""
        if not self.path:
            return None
        g = self.session.game
        self._written = self._state()
        try:
            if g.plies and g.outcome is None:
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
                self.session.save(self.path, {CLOSED_TAG: CLOSED_NORMALLY} if closing else {}, mark=False)
            elif os.path.lexists(self.path):
                os.remove(self.path)
        except (OSError, ValueError) as exc:  # ValueError: a RecordError, a game past the record's limits
            reason = os_reason(exc) if isinstance(exc, OSError) else shown(exc, 200)
            if isinstance(exc, (FileExistsError, NotADirectoryError)):
                reason = _("a file stands where its folder should be")
            if self.on_problem is not None:
                self.on_problem(reason, closing)
            return reason
        return None

    def release(self) -> None:
        """Let the slot go: its game (if any) is now for the next start to offer."""
        if self.lock is not None:
            self.lock.release()
            self.lock = None
