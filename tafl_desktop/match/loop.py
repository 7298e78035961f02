"""The match tool's game loop: the one headless loop of :mod:`tafl_desktop.game_loop` (which
self-play and the engine host's referee stand on too), under the names the match tool and its
callers import.  The match's agents are in :mod:`tafl_desktop.match.players`."""

from __future__ import annotations

from tafl_desktop.game_loop import MAX_PLIES, Adjudication, GameResult, TimeControl, play_game

__all__ = ["MAX_PLIES", "Adjudication", "GameResult", "TimeControl", "play_game"]
