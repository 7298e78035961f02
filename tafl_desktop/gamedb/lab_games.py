"""Computer-against-computer games into the game database as they finish: the Rules Lab's
studies (source ``lab``) and the self-play command's games (source ``selfplay``), the explorer's
filter *Rules Lab and self-play*, never mixed with the real games or the player's own.

Each game is replayed by the rules it was played under (the study's cell, or the self-play
variant) and added with its levels as its players (``computer:hard``, the form a record's
player tags take), so the explorer's player filter picks one level's games; the engine, the
study and the seed are tags.  The same game played twice (the same seed) is one game.

Why a sink that never raises: a study runs for hours and the database is an index of its games,
not their record (the study's own ``games.jsonl`` is); a database that cannot be used is said in
one line (:attr:`GameSink.problem`) and the study goes on without it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tafl_desktop.gamedb.store import GameDbError


class GameSink:
    """Adds finished games to the database at ``path`` (the player's by default) under ``source``;
    opened at the first game."""

    def __init__(self, source: str, path: str | Path | None = None) -> None:
        self.source = source
        self.path = path
        self.added = 0
        #: One line when the database could not be used (then no more games are tried).
        self.problem = ""
        self._db: Any = None
        self._rules: dict[str, Any] = {}

    def _rules_of(self, variant_data: dict[str, Any]) -> Any:
        from tafl_desktop.core.variants import variant_from_data
        from tafl_desktop.gamedb.library import fast_rules

        key = json.dumps(variant_data, sort_keys=True, default=str)
        rules = self._rules.get(key)
        if rules is None:
            if len(self._rules) > 64:
                self._rules.clear()
            rules = self._rules[key] = fast_rules(variant_from_data(variant_data))
        return rules

    def add(self, variant_data: dict[str, Any], moves: list[str], tags: dict[str, str]) -> int | None:
        """Replay ``moves`` under the variant and add the game; its id, or None when held already,
        the database cannot be used, or the moves do not replay (said in :attr:`problem`)."""
        from tafl_desktop.core.game import Game
        from tafl_desktop.core.move_list_text import MoveListError, listed_moves, play_listed
        from tafl_desktop.core.variants import VariantError
        from tafl_desktop.gamedb.library import add_finished, default_path
        from tafl_desktop.gamedb.store import GameDb
        from tafl_desktop.i18n import _

        if self.problem:
            return None
        try:
            rules = self._rules_of(variant_data)
            game = Game(rules)
            play_listed(game, listed_moves(" ".join(moves), rules.variant.traits))
            if self._db is None:
                self._db = GameDb(self.path or default_path())
            gid = add_finished(self._db, game, tags, self.source)
        except GameDbError as exc:
            self.problem = _("The games are not added to the game database: {problem}").format(problem=exc)
            self.close()
            return None
        except (MoveListError, VariantError, ValueError, OSError) as exc:
            self.problem = _("The games are not added to the game database: {problem}").format(problem=exc)
            self.close()
            return None
        if gid is not None:
            self.added += 1
        return gid

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None


def level_tags(attackers: str, defenders: str, engine: str, **more: Any) -> dict[str, str]:
    """The tags of a computer-against-computer game: its levels as players, the engine, and more."""
    tags = {"attackers": f"computer:{attackers}", "defenders": f"computer:{defenders}", "engine": str(engine)}
    tags.update({k: str(v) for k, v in more.items() if v is not None})
    return tags


def add_study_result(sink: GameSink, study: Any, result: dict[str, Any]) -> int | None:
    """One finished game of a Rules Lab study (a line of its ``games.jsonl``) into the database."""
    cells = study.cells()
    cell = int(result["cell"])
    if not 0 <= cell < len(cells):
        return None
    variant = study.cell_variant_data(cells[cell])
    cell_text = ", ".join(f"{k}={v}" for k, v in cells[cell].items())
    tags = level_tags(study.attackers, study.defenders, result.get("engine", ""), study=study.variant,
                      cell=cell_text, seed=result.get("seed"), game=result.get("game"))
    return sink.add(variant, list(result.get("moves") or []), tags)
