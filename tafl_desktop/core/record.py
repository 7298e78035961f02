"""Game records: variant (with its toggles) + start position + moves + result, as JSON files.

A record carries its whole variant, so a game played under a user's own rules opens anywhere.
Loading replays every move through the rules: a record with an illegal move is rejected with a
message naming the move number and why, never half-loaded.  Writes are atomic.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tafl_desktop.core import progress
from tafl_desktop.core.game import Game, IllegalMove, Position, Side
from tafl_desktop.core.game_tree import GameTree
from tafl_desktop.core.marks import gettext as _
from tafl_desktop.core.marks import ngettext
from tafl_desktop.core.quoting import json_problem, known, os_reason, quote, shown
from tafl_desktop.core.record_limits import MAX_MOVES, MAX_RECORD_BYTES, file_too_large, tags_problem, tree_problem
from tafl_desktop.core.record_tree import TREE_KEYS, TreeFormatError, read_tree_extras, tree_extras
from tafl_desktop.core.safe_files import read_limited, write_safely
from tafl_desktop.core.variants import Variant, VariantError, variant_from_data

FORMAT = "tafl-desktop-game"
VERSION = 1
_SURROGATE = re.compile("[\ud800-\udfff]")
RECORD_KEYS = ("format", "version", "variant", "start", "to_move", "moves", "result", "reason", "tags", *TREE_KEYS)


class RecordError(ValueError):
    """A game record that cannot be opened; the message is one clear line."""


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that either the old or the new file exists, never half of one
    (through a link to its file; a device, folder or pipe is refused: see ``safe_files``)."""
    write_safely(path, text)


def game_to_data(game: Game[Position], tags: dict[str, str] | None = None,
                 tree: GameTree[Position] | None = None,
                 variant_data: dict[str, Any] | None = None) -> dict[str, Any]:
    """The record of ``game``; with ``tree``, of the tree's main line, variations and comments
    (``game`` is then only the line on screen, which may be a variation).  ``variant_data``: the
    game's ``variant.to_data()`` made before, for a caller writing many games of one variant
    (making it costs more than the rest of a record)."""
    if tree is not None:
        game = tree.main_game()
    rules = game.rules
    variant: Variant = rules.variant
    out = game.outcome
    return {
        "format": FORMAT,
        "version": VERSION,
        "variant": variant.to_data() if variant_data is None else variant_data,
        "start": rules.position_text(game.start),
        "to_move": rules.side_to_move(game.start).key,
        "moves": game.move_texts(),
        "result": out.result_key if out else None,
        "reason": out.reason if out else None,
        "tags": dict(tags or {}),
        **(tree_extras(tree) if tree is not None else {}),
    }


def record_text(game: Game[Position], tags: dict[str, str] | None = None,
                tree: GameTree[Position] | None = None) -> str:
    """The text of a record file for ``game`` (and ``tree``), checked against the same limits
    that reading applies (``core.record_limits``), so a file written is a file that opens.
    RecordError (one sentence) for a game past them; the window refuses to build one.

    Indented for people to read; written compactly when indenting alone would pass the size
    limit (deeply nested variations indent every move deeply)."""
    problem = tree_problem(tree if tree is not None else GameTree.from_game(game)) or tags_problem(tags or {})
    if problem:
        raise RecordError(_("This game cannot be saved: {problem}.").format(problem=problem))
    data = game_to_data(game, tags, tree)
    text = _encodable(json.dumps(data, indent=1, ensure_ascii=False)) + "\n"
    if len(text) * 4 > MAX_RECORD_BYTES and len(text.encode("utf-8")) > MAX_RECORD_BYTES:
        text = _encodable(json.dumps(data, separators=(",", ":"), ensure_ascii=False)) + "\n"
        size = len(text.encode("utf-8"))
        if size > MAX_RECORD_BYTES:
            raise RecordError(_("This game cannot be saved: {problem}.").format(problem=file_too_large(size)))
    return text


def _encodable(text: str) -> str:
    """JSON text whose lone surrogates (a comment pasted from a broken file) are written as
    ``\\udXXX`` escapes, which read back as the same characters; everything else stays as it
    is (UTF-8 needs at most 4 bytes a character, an escape 12 for characters beyond U+FFFF)."""
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def save_game(game: Game[Position], path: str | Path, tags: dict[str, str] | None = None,
              tree: GameTree[Position] | None = None) -> None:
    """Write the record atomically; RecordError for a game past the limits, OSError for a path
    that cannot be written (nothing is changed in either case)."""
    atomic_write_text(Path(path), record_text(game, tags, tree))


def tree_from_data(data: Any, where: str = "game") -> GameTree[Position]:
    """Validate record data and replay it, variations included, into a GameTree."""
    tree = GameTree.from_game(game_from_data(data, where))
    try:
        read_tree_extras(tree, data, MAX_MOVES)
    except TreeFormatError as exc:
        raise RecordError(_("{where}: {exc}").format(where=where, exc=exc)) from None
    problem = tree_problem(tree)
    if problem:
        raise RecordError(_("{where}: {problem}").format(where=where, problem=problem))
    tree.revision = 0
    return tree


def game_from_data(data: Any, where: str = "game") -> Game[Position]:
    """Validate record data and replay its main line into a Game; RecordError explains any problem."""
    if not isinstance(data, dict):
        raise RecordError(_("{where}: not a Tafl Desktop game record").format(where=where))
    if data.get("format") != FORMAT:
        raise RecordError(_("{where}: not a Tafl Desktop game record (format is {format})").format(
            where=where, format=quote(data.get('format'))))
    if data.get("version") != VERSION:
        raise RecordError(_("{where}: record version {version} is not supported (expected {expected})").format(
            where=where, version=quote(data.get('version')), expected=VERSION))
    for k in data:
        if k not in RECORD_KEYS:
            raise RecordError(_("{where}: unknown key {key}; allowed: {known}").format(
                where=where, key=quote(k), known=known(RECORD_KEYS)))
    try:
        variant = variant_from_data(data.get("variant"), f"{where} (variant)")
    except VariantError as exc:
        raise RecordError(str(exc)) from None
    rules = variant.make_rules()
    start = rules.initial_position()
    if "start" in data:
        if not isinstance(data["start"], str) or not isinstance(data.get("to_move"), str):
            raise RecordError(_("{where}: 'start' must be a position text and 'to_move' a side").format(where=where))
        try:
            start = rules.parse_position(data["start"], Side.parse(data["to_move"]))
        except ValueError as exc:
            raise RecordError(_("{where}: start position: {exc}").format(where=where, exc=exc)) from None
    moves = data.get("moves", [])
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise RecordError(_('{where}: \'moves\' must be a list of move texts like "e1-e5"').format(where=where))
    if len(moves) > MAX_MOVES:
        raise RecordError(ngettext("{where}: {n} ply is more than the {most} a record may hold",
                                   "{where}: {n} plies is more than the {most} a record may hold", len(moves)).format(
            where=where, n=len(moves), most=MAX_MOVES))
    tags = data.get("tags", {})
    if not isinstance(tags, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in tags.items()):
        raise RecordError(_("{where}: 'tags' must be a table of texts").format(where=where))
    problem = tags_problem(tags)
    if problem:
        raise RecordError(_("{where}: {problem}").format(where=where, problem=problem))
    game = Game(rules, start)
    for i, text in enumerate(moves, 1):
        try:
            game.play_text(text)
        except IllegalMove as exc:
            raise RecordError(_("{where}: ply {i} ({text}) cannot be played: {exc}").format(
                where=where, i=i, text=shown(text, 40), exc=exc)) from None
        if not i % 256:
            progress.moves(i, len(moves))
    _restore_off_board_ending(game, data, where)
    return game


def _restore_off_board_ending(game: Game[Position], data: dict[str, Any], where: str) -> None:
    """A resignation, draw or flag fall is not in the moves: take it from 'result' and 'reason'."""
    from tafl_desktop.core.game import OFF_BOARD_REASONS, Outcome

    reason, result = data.get("reason"), data.get("result")
    winners = {"attackers": Side.ATTACKERS, "defenders": Side.DEFENDERS, "draw": None}
    outcome = game.outcome
    if outcome is not None and result in winners and outcome.winner != winners[result]:
        # the moves end the game otherwise than the file says: a file edited by hand, or
        # written under other rules; keeping either result would misreport the game
        from tafl_desktop.core.rule_fit import stated_words

        variant = game.rules.variant
        raise RecordError(_("{where}: the record gives {stated}, but under these rules the game ends at move {move} "
                            "({outcome})").format(where=where, stated=stated_words(variant, winners[result]),
                                                  move=len(game.plies), outcome=outcome.describe(variant).rstrip(".")))
    if reason not in OFF_BOARD_REASONS or game.outcome is not None:
        return
    if result not in winners or (result == "draw") != reason.startswith("draw"):
        raise RecordError(_("{where}: result {result} does not fit the ending {reason}").format(
            where=where, result=shown(result, 40), reason=shown(reason, 40)))
    game.finish(Outcome(winners[result], reason))


def load_game(path: str | Path) -> Game[Position]:
    """The main line of a saved game (variations are checked but left out); RecordError (one
    line) for anything that is not a record.

    The file is read with :func:`read_limited` (no FIFO, device or oversized file is read), and
    the parser's own limits (nesting depth, digits in a number) become RecordErrors too."""
    data, where = _read_record(path)
    return tree_from_data(data, where).main_game()


def load_tree(path: str | Path) -> GameTree[Position]:
    """A saved game with its variations and comments."""
    return tree_from_data(*_read_record(path))


def _read_record(path: str | Path) -> tuple[Any, str]:
    p = Path(path)
    where = shown(p.name or str(path))
    try:
        raw = read_limited(p, MAX_RECORD_BYTES)
    except OSError as exc:
        raise RecordError(_("{where}: cannot read the file ({reason})").format(where=where, reason=os_reason(exc))) \
            from None
    return parse_record_text(raw, where), where


def parse_record_text(raw: bytes, where: str) -> Any:
    """The JSON data of a record file's bytes; RecordError for bytes that are no JSON document or
    one past the parser's limits (``[[[[...`` 100,000 deep, a number of 5,000 digits)."""
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise RecordError(_("{where}: not a readable game record (not UTF-8 text)").format(where=where)) from None
    except RecursionError:
        raise RecordError(_("{where}: not a readable game record (nested too deeply)").format(where=where)) from None
    except ValueError as exc:  # JSONDecodeError, and a number with more digits than Python converts
        raise RecordError(_("{where}: not a readable game record ({problem})").format(
            where=where, problem=json_problem(exc))) from None


def read_record_tags(path: str | Path) -> dict[str, str]:
    """The tags of a record file (who played), read safely; empty when there are none."""
    try:
        data = parse_record_text(read_limited(path, MAX_RECORD_BYTES), "")
    except (OSError, RecordError):
        return {}
    tags = data.get("tags", {}) if isinstance(data, dict) else {}
    return {str(k): str(v) for k, v in tags.items()} if isinstance(tags, dict) else {}
