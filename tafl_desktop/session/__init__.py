"""The game session: one model of the game that the window and every capability are views of.

A :class:`~tafl_desktop.session.session.GameSession` owns the tree of moves and the node shown, the
two players (human, computer level or external engine, behind one interface), the clock, the
record's tags, the file and whether it is saved.  Every way a game arrives (new, open, import,
paste, drop, restore, puzzle, lesson, editor, lab game) goes through its one ``load()``; undo and
redo walk the tree.  Headless: no Qt here; the window turns its events into Qt signals in one
adapter (``tafl_desktop.gui.session_signals``).  Beside it, headless too: what views say about
the game (``readout``) and the autosave (``autosave``).
"""

from tafl_desktop.session.session import GameSession
from tafl_desktop.session.source import GameSource, Origin

__all__ = ["GameSession", "GameSource", "Origin"]
