"""The real games on record that ship with the app (``resources/games``, from
``shared/reference/games``; see its README): where they are and how a line of them reads.

Here in the core, and not in ``study/`` where the puzzle miner first read them, because the
evaluation's tuner (``ai/tuning``) reads them too and ``ai/`` sits below ``study/``
(``docs/ARCHITECTURE.md`` section 1).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

#: The record files, the preset they are played on, and the toggles their README states.
REAL_GAME_FILES: dict[str, tuple[str, dict[str, Any]]] = {
    "copenhagen": ("copenhagen.csv", {}),
    "brandubh": ("brandubh.csv", {"king_capture": "weak_near_throne", "encirclement": True}),
}

def default_games_dir() -> Path | None:
    """The real-game folder: ``$TAFL_GAMES_DIR``, else the games the app ships (``resources/games``,
    the same files the game database imports), else ``shared/reference/games`` beside or above the
    checkout."""
    env = os.environ.get("TAFL_GAMES_DIR")
    if env:
        return Path(env)
    from tafl_desktop.core.paths import resources_dir

    shipped = resources_dir() / "games"
    if (shipped / "copenhagen.csv").is_file():
        return shipped
    here = Path(__file__).resolve()
    for parent in here.parents:
        cand = parent / "shared" / "reference" / "games"
        if cand.is_dir():
            return cand
    return None


def read_record_lines(path: Path) -> Iterator[tuple[int, list[str], str]]:
    """(line number, move texts, result) for each game line: moves space-separated with captures
    appended as ``x<square>`` (dropped here: the engine finds them), ``timeout`` tokens skipped."""
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not raw.strip():
            continue
        try:
            moves_text, _a, _b, result = raw.rsplit(",", 3)
        except ValueError:
            continue
        moves = [t.split("x")[0] for t in moves_text.split() if t != "timeout"]
        if moves:
            yield number, moves, result.strip()
