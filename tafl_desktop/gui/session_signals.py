"""The session's events as Qt signals: the one place the window subscribes to the game.

The :class:`~tafl_desktop.session.session.GameSession` is headless; its events
(:mod:`tafl_desktop.session.events`) are plain callbacks.  Widgets want Qt's wiring (a slot on a
deleted widget is dropped, lambdas and bound methods alike), so the window makes one
:class:`SessionSignals` per session and every view connects here.  Each signal carries its event's
value unchanged and fires at once, in the order the session emits, on the GUI thread.

The board's own gestures (a piece picked, a hint drawn) are not session events: they come from
the controller (:mod:`tafl_desktop.gui.controller`).
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from tafl_desktop.session.session import GameSession

#: Every event of the session, by name; each is a signal of the same name below.
EVENTS = ("changed", "message", "moved", "played", "loaded", "finished", "computer_to_move",
          "thinking_changed", "computer_failed", "computer_progress")


class SessionSignals(QObject):
    """A Qt signal for each of the session's events (see :class:`GameSession` for their meaning)."""

    changed = Signal()
    message = Signal(str)
    moved = Signal(object)            # a move to animate (played, replayed or stepped to)
    played = Signal(object)           # a new move (Ply) at the live end: clocks and sounds react
    loaded = Signal(object)           # a GameSource was loaded (new, open, import, paste...)
    finished = Signal(object)         # Outcome, once, when the game ends
    computer_to_move = Signal(int)    # Side about to be played by the computer
    thinking_changed = Signal(bool)   # the computer started (True) or stopped (False) thinking
    computer_failed = Signal(str)     # the computer could not answer (one sentence)
    computer_progress = Signal(object)  # the search's latest iteration: {"depth", "score", "pv", ...}

    def __init__(self, session: GameSession, parent: QObject | None = None) -> None:
        super().__init__(parent)
        for name in EVENTS:
            getattr(session, name).connect(getattr(self, name).emit)
