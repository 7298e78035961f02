"""Game records: variant (with its toggles) + start position + moves + result, as JSON files.

A record carries its whole variant, so a game played under a user's own rules opens anywhere.
Loading replays every move through the rules: a record with an illegal move is rejected with a
message naming the move number and why, never half-loaded.  Writes are atomic.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from tafl_desktop.core.game import Game, IllegalMove, Side
from tafl_desktop.core.variants import Variant, VariantError, variant_from_data

FORMAT = "tafl-desktop-game"
VERSION = 1
MAX_RECORD_BYTES = 2 * 1024 * 1024
MAX_MOVES = 20_000
RECORD_KEYS = ("format", "version", "variant", "start", "to_move", "moves", "result", "reason", "tags")


class RecordError(ValueError):
    """A game record that cannot be opened; the message is one clear line."""


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that either the old or the new file exists, never half of one."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def game_to_data(game: Game, tags: dict[str, str] | None = None) -> dict[str, Any]:
    rules = game.rules
    variant: Variant = rules.variant
    out = game.outcome
    return {
        "format": FORMAT,
        "version": VERSION,
        "variant": variant.to_data(),
        "start": rules.position_text(game.start),
        "to_move": rules.side_to_move(game.start).key,
        "moves": game.move_texts(),
        "result": out.result_key if out else None,
        "reason": out.reason if out else None,
        "tags": dict(tags or {}),
    }


def save_game(game: Game, path: str | Path, tags: dict[str, str] | None = None) -> None:
    atomic_write_text(Path(path), json.dumps(game_to_data(game, tags), indent=1) + "\n")


def game_from_data(data: Any, where: str = "game") -> Game:
    """Validate record data and replay it into a Game; RecordError explains any problem."""
    if not isinstance(data, dict):
        raise RecordError(f"{where}: not a Tafl Desktop game record")
    if data.get("format") != FORMAT:
        raise RecordError(f"{where}: not a Tafl Desktop game record (format is {data.get('format')!r})")
    if data.get("version") != VERSION:
        raise RecordError(f"{where}: record version {data.get('version')!r} is not supported (expected {VERSION})")
    for k in data:
        if k not in RECORD_KEYS:
            raise RecordError(f"{where}: unknown key {k!r}; allowed: {', '.join(RECORD_KEYS)}")
    try:
        variant = variant_from_data(data.get("variant"), f"{where} (variant)")
    except VariantError as exc:
        raise RecordError(str(exc)) from None
    rules = variant.make_rules()
    start = rules.initial_position()
    if "start" in data:
        if not isinstance(data["start"], str) or not isinstance(data.get("to_move"), str):
            raise RecordError(f"{where}: 'start' must be a position text and 'to_move' a side")
        try:
            start = rules.parse_position(data["start"], Side.parse(data["to_move"]))
        except ValueError as exc:
            raise RecordError(f"{where}: start position: {exc}") from None
    moves = data.get("moves", [])
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise RecordError(f"{where}: 'moves' must be a list of move texts like \"e1-e5\"")
    if len(moves) > MAX_MOVES:
        raise RecordError(f"{where}: {len(moves)} moves is more than the {MAX_MOVES} a record may hold")
    tags = data.get("tags", {})
    if not isinstance(tags, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in tags.items()):
        raise RecordError(f"{where}: 'tags' must be a table of texts")
    game = Game(rules, start)
    for i, text in enumerate(moves, 1):
        try:
            game.play_text(text)
        except IllegalMove as exc:
            raise RecordError(f"{where}: move {i} ({text}) cannot be played: {exc}") from None
    _restore_off_board_ending(game, data, where)
    return game


def _restore_off_board_ending(game: Game, data: dict[str, Any], where: str) -> None:
    """A resignation, draw or flag fall is not in the moves: take it from 'result' and 'reason'."""
    from tafl_desktop.core.game import OFF_BOARD_REASONS, Outcome

    reason, result = data.get("reason"), data.get("result")
    if reason not in OFF_BOARD_REASONS or game.outcome is not None:
        return
    winners = {"attackers": Side.ATTACKERS, "defenders": Side.DEFENDERS, "draw": None}
    if result not in winners or (result == "draw") != reason.startswith("draw"):
        raise RecordError(f"{where}: result {result!r} does not fit the ending {reason!r}")
    game.finish(Outcome(winners[result], reason))


def load_game(path: str | Path) -> Game:
    p = Path(path)
    where = p.name
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise RecordError(f"{where}: cannot read the file ({exc.strerror or exc})") from None
    if len(raw) > MAX_RECORD_BYTES:
        raise RecordError(f"{where}: file is larger than the {MAX_RECORD_BYTES} bytes a game record may have")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RecordError(f"{where}: not a readable game record ({exc})") from None
    return game_from_data(data, where)
