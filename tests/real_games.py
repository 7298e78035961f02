"""Reader for the real-game files in ``shared/reference/games`` (format in that folder's README).

One game a line: space-separated moves (``d1-d3``; captures appended as ``x<square>`` once per
captured piece, the king's capture not written; ``timeout`` when a clock ran out), two numbers,
and the result (Black = attackers, White = defenders, Draw, Ongoing).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

#: The games the app ships; TAFL_GAMES_DIR names another folder of the same files.
GAMES_DIR = Path(os.environ.get("TAFL_GAMES_DIR") or Path(__file__).resolve().parents[1] / "resources" / "games")


@dataclass(frozen=True)
class RecordedMove:
    text: str          # "d1-d3"
    captures: tuple[str, ...]


@dataclass(frozen=True)
class RecordedGame:
    line: int
    moves: tuple[RecordedMove, ...]
    timeout: bool
    result: str        # Black / White / Draw / Ongoing


def parse_move(token: str) -> RecordedMove:
    head, *caps = token.split("x")
    return RecordedMove(head, tuple(caps))


def read_games(name: str) -> list[RecordedGame]:
    games = []
    for i, raw in enumerate((GAMES_DIR / name).read_text().splitlines(), 1):
        if not raw.strip():
            continue
        moves_text, _a, _b, result = raw.rsplit(",", 3)
        tokens = moves_text.split()
        timeout = "timeout" in tokens
        moves = tuple(parse_move(t) for t in tokens if t != "timeout")
        if not moves:
            continue  # the README's "blank lines": a bare timeout with no move and no result
        games.append(RecordedGame(i, moves, timeout, result.strip()))
    return games
