"""Counting the player's games against the computer's levels (the record New Game shows).

A game counts when it ends on the main line with one human and one computer level playing, and
only once: the game is marked with a record tag (``level-record``) as it is counted, and the tag
travels with the game (the session keeps it, a save or the autosave writes it, a reopened game
reads it), so taking moves back and ending the game again, stepping through it, or reopening it
never counts it a second time; a new game starts without the tag.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from PySide6.QtCore import QStandardPaths

from tafl_desktop.i18n import _

#: The record tag a counted game carries.
COUNTED_TAG = "level-record"
FILE_NAME = "level_record.json"


def record_path() -> Path:
    """The player's record, in the app's data folder."""
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(base or tempfile.gettempdir()) / FILE_NAME


def install(window: Any) -> None:
    """Count each finished game against a computer level."""
    window.events.finished.connect(lambda outcome: count_game(window, outcome))


def opponent_level(specs: Any) -> tuple[int, str] | None:
    """(the human's side, the computer's level) when one human plays one computer level."""
    from tafl_desktop.ai.levels import PLAYER_LEVELS
    from tafl_desktop.session.players import COMPUTER

    humans = [i for i, s in enumerate(specs) if s.is_human]
    computers = [i for i, s in enumerate(specs) if s.kind == COMPUTER and s.level in PLAYER_LEVELS]
    if len(humans) != 1 or len(computers) != 1:
        return None
    return humans[0], specs[computers[0]].level


def count_game(window: Any, outcome: Any) -> bool:
    """Add the finished game to the record, once; True when it was counted now."""
    from tafl_desktop.core.level_record import add_result
    from tafl_desktop.gui.dialogs import describe_problem

    session = window.session
    found = opponent_level(session.specs)
    if found is None or session.tags.get(COUNTED_TAG):
        return False
    human, level = found
    result = "draws" if outcome.winner is None else "wins" if int(outcome.winner) == human else "losses"
    session.tags[COUNTED_TAG] = "counted"
    try:
        add_result(record_path(), session.variant.id, level, result)
    except OSError as exc:
        window.show_message(_("Your record against the computer could not be saved: {why}.").format(
            why=describe_problem(exc)))
        return False
    return True
