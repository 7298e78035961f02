"""What the Puzzles window remembers between sessions, in the user's settings (QSettings):
solved puzzles and the streak per puzzle set, the player's Glicko-2 rating, each puzzle's rating
as the player's attempts have moved it, and which puzzles were attempted (only the first attempt
of a puzzle is rated, as on lichess)."""

from __future__ import annotations

import json
import time

from PySide6.QtCore import QSettings

from tafl_desktop.study.rating import Glicko, play


class PuzzleProgress:
    """Solved puzzles, streaks and ratings, kept in QSettings."""

    def __init__(self) -> None:
        self.settings = QSettings()

    def _key(self, set_id: str, name: str) -> str:
        return f"puzzles/{set_id}/{name}"

    def _json(self, key: str, default):
        try:
            value = json.loads(str(self.settings.value(key, "") or "null"))
        except (TypeError, ValueError):
            return default
        return default if value is None else value

    # ------------------------------------------------------------------------ solved and streak
    def solved(self, set_id: str) -> set[str]:
        value = self.settings.value(self._key(set_id, "solved"), "")
        return {s for s in str(value or "").split(",") if s}

    def streak(self, set_id: str) -> tuple[int, int]:
        def num(name: str) -> int:
            try:
                return int(str(self.settings.value(self._key(set_id, name), 0) or 0))
            except (TypeError, ValueError):
                return 0

        return num("streak"), num("best")

    def record(self, set_id: str, puzzle_id: str, clean: bool) -> None:
        """A solved puzzle: ``clean`` (no wrong move, no solution shown) extends the streak, else resets it."""
        solved = self.solved(set_id) | {puzzle_id}
        self.settings.setValue(self._key(set_id, "solved"), ",".join(sorted(solved)))
        streak, best = self.streak(set_id)
        streak = streak + 1 if clean else 0
        self.settings.setValue(self._key(set_id, "streak"), streak)
        self.settings.setValue(self._key(set_id, "best"), max(best, streak))
        self.settings.sync()

    def broke(self, set_id: str) -> None:
        self.settings.setValue(self._key(set_id, "streak"), 0)
        self.settings.sync()

    # ------------------------------------------------------------------------------- ratings
    def player_rating(self) -> Glicko:
        return Glicko.from_list(self._json("puzzles/rating", None))

    def attempted(self) -> set[str]:
        value = self._json("puzzles/attempted", [])
        return {str(v) for v in value} if isinstance(value, list) else set()

    def puzzle_ratings(self) -> dict[str, Glicko]:
        table = self._json("puzzles/puzzle_ratings", {})
        if not isinstance(table, dict):
            return {}
        return {str(k): Glicko.from_list(v) for k, v in table.items()}

    def puzzle_rating(self, puzzle: dict) -> Glicko:
        """The puzzle's rating: as the player's attempts left it, else its starting one."""
        from tafl_desktop.study.puzzles import puzzle_rating
        from tafl_desktop.study.rating import PUZZLE_DEVIATION

        start = Glicko(puzzle_rating(puzzle), PUZZLE_DEVIATION)
        table = self._json("puzzles/puzzle_ratings", {})
        stored = table.get(puzzle["id"]) if isinstance(table, dict) else None
        return Glicko.from_list(stored, start) if stored is not None else start

    def rate(self, puzzle: dict, solved: bool, now: float | None = None) -> tuple[Glicko, Glicko] | None:
        """Rate the first attempt at ``puzzle`` (later ones change nothing: None).  Returns the
        player's rating before and after."""
        attempted = self.attempted()
        if puzzle["id"] in attempted:
            return None
        now = time.time() if now is None else now
        before = self.player_rating()
        after, puzzle_after = play(before, self.puzzle_rating(puzzle), solved, now)
        table = self._json("puzzles/puzzle_ratings", {})
        table = table if isinstance(table, dict) else {}
        table[puzzle["id"]] = puzzle_after.as_list()
        self.settings.setValue("puzzles/puzzle_ratings", json.dumps(table))
        self.settings.setValue("puzzles/rating", json.dumps(after.as_list()))
        self.settings.setValue("puzzles/attempted", json.dumps(sorted(attempted | {puzzle["id"]})))
        self.settings.sync()
        return before, after
