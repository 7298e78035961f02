"""Where a game comes from: everything :meth:`GameSession.load` needs, whichever way it arrived.

Before there was one entry point, a pasted or imported game kept the previous game's clock and
skipped what New and Open did; now every path (New Game, Open, Import, Paste, a dropped file, the
autosave restored, a puzzle, a lesson step, the position editor, a Rules Lab game) builds a
:class:`GameSource` and hands it to the same ``load``.  What differs between them is data here
(the tree, players, clock, tags, file and whether it counts as saved), not code in the session.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING

from tafl_desktop.core.clock import TimeControl
from tafl_desktop.core.game import Game, Position
from tafl_desktop.core.game_tree import GameTree, Node
from tafl_desktop.session.players import HUMANS, PlayerSpec

if TYPE_CHECKING:
    from tafl_desktop.core.variants import Variant

#: The file name ending of our own game records.
GAME_SUFFIX = ".tafl.json"
#: Record tags the session writes itself (players, clocks, a normal exit): taken from a loaded
#: record's tags, never copied back blindly.
PLAYER_TAGS = ("player1", "player2")
#: The autosave's mark that the window was closed normally (see ``gui.main_window``).
EXIT_TAG = "exit"


class Origin(StrEnum):
    """How a game arrived; the messages and a few capabilities (export keeps an imported game's
    own tags) read it, the session treats them all alike."""

    NEW = "new"
    OPEN = "open"
    IMPORT = "import"
    PASTE = "paste"
    DROP = "drop"
    RESTORE = "restore"
    PUZZLE = "puzzle"
    LESSON = "lesson"
    EDITOR = "editor"
    LAB = "lab"


@dataclass(frozen=True)
class GameSource:
    """A game ready to load: its tree of moves, who plays, its clock (``time_control`` for a new
    clock; else the record's ``time-control``/``time-remaining`` tags, if any), the record's
    tags, the file it lives in (None: not saved anywhere) and whether it counts as saved as it
    is (an opened file does; a pasted list or a restored autosave does not)."""

    origin: Origin
    tree: GameTree[Position]
    players: tuple[PlayerSpec, PlayerSpec] = HUMANS
    time_control: TimeControl | None = None
    tags: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    path: str | None = None
    saved: bool = True
    #: The live end of the line to show (a node of ``tree``); None: the end of the main line.
    end: Node[Position] | None = None

    # ------------------------------------------------------------------------------ builders
    @classmethod
    def new(cls, variant: Variant, players: tuple[PlayerSpec, PlayerSpec] = HUMANS, start: Position | None = None,
            time_control: TimeControl | None = None, origin: Origin = Origin.NEW) -> GameSource:
        """A new game of ``variant`` from its start position (or ``start``, a set-up position)."""
        return cls(origin, GameTree(variant.make_rules(), start), players, time_control)

    @classmethod
    def of_game(cls, game: Game[Position], origin: Origin, players: tuple[PlayerSpec, PlayerSpec] = HUMANS,
                tags: Mapping[str, str] | None = None, saved: bool = True) -> GameSource:
        """A game already played (a pasted move list, a lab game): its moves become the main line."""
        return cls(origin, GameTree.from_game(game), players, None, MappingProxyType(dict(tags or {})), None, saved)

    @classmethod
    def of_tree(cls, tree: GameTree[Position], origin: Origin, players: tuple[PlayerSpec, PlayerSpec] = HUMANS,
                tags: Mapping[str, str] | None = None, path: str | None = None, saved: bool = True,
                end: Node[Position] | None = None) -> GameSource:
        """A tree of moves; ``end`` the node whose line is shown, at its live end."""
        return cls(origin, tree, players, None, MappingProxyType(dict(tags or {})), path, saved, end)

    @classmethod
    def from_record(cls, path: str | Path, origin: Origin = Origin.OPEN, keep_path: bool = True,
                    saved: bool = True) -> GameSource:
        """A saved game (``.tafl.json``) with its variations, tags, players and clocks.
        RecordError (one line) for a file that is not a readable record."""
        from tafl_desktop.core.record import load_tree, read_record_tags

        tree = load_tree(path)
        tags = read_record_tags(path)
        players = (PlayerSpec.from_text(tags.get("player1", "human")),
                   PlayerSpec.from_text(tags.get("player2", "human")))
        return cls(origin, tree, players, None, MappingProxyType(tags), str(path) if keep_path else None, saved)

    # ------------------------------------------------------------------------------ reading
    def record_tags(self) -> dict[str, str]:
        """The tags the session keeps: all but the ones it writes itself (players, exit mark)."""
        return {k: v for k, v in self.tags.items() if k not in (*PLAYER_TAGS, EXIT_TAG)}
