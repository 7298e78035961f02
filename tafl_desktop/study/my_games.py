"""Puzzles from the player's own games: a reviewed mistake, or every position of a game.

:func:`puzzle_from_mistake` turns (game record, ply, better move) into a puzzle when the better
move starts the only forced win of the position (a review names such moves: the winning line the
player missed); :func:`mine_game` tries every position of a game, as the miner tries the real
games, so a player's lost chances become their own puzzle set.  Both prove what they keep with the
exhaustive prover under the game's rules (a preset, with the toggles the game changed), so the
puzzles play in the Puzzles window like the shipped ones.

``tafl-desktop puzzles mine GAME... [--out FILE]`` and the window's Learn > Puzzles from My
Games... write them to :func:`default_path` (``puzzles/my_games.json`` in the app's data folder),
which the Puzzles window reads beside the shipped sets.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tafl_desktop.ai.prover import prove_unique
from tafl_desktop.core.game import Game, Move, Position
from tafl_desktop.core.marks import gettext as _
from tafl_desktop.core.quoting import shown
from tafl_desktop.study.puzzles import MIXED_SET, PuzzleError, PuzzleSet, is_preset_set, puzzle_from_proof

#: The set's name in its file, and the prefix of its puzzles' ids.
SET_NAME = MIXED_SET
#: Longest forced win tried (plies) and positions one proof may visit.
MAX_PLIES = 5
NODE_BUDGET = 20_000
#: Two puzzles of one game are at least this many plies apart.
MIN_GAP = 8


def default_path() -> Path:
    """``puzzles/my_games.json`` in the app's data folder, where the window reads it
    (:func:`tafl_desktop.core.paths.app_data_dir`: found without Qt, so the command line runs
    headless)."""
    from tafl_desktop.core.paths import app_data_dir

    return app_data_dir() / "puzzles" / f"{SET_NAME}.json"


def _preset_variant(game: Game[Position]) -> Any:
    """The game's rules as a preset with changed toggles (a puzzle names its rules that way);
    PuzzleError for rules that are not a preset's (a variant file of the player's own)."""
    from tafl_desktop.core.variants import VariantError, find_variant

    variant = game.rules.variant
    not_a_preset = _("{variant}: puzzles need the rules of a preset").format(variant=variant.title)
    try:
        preset = find_variant(variant.id)
    except VariantError:
        raise PuzzleError(not_a_preset) from None
    if preset.geometry.size != variant.geometry.size or preset.setup != variant.setup:
        raise PuzzleError(not_a_preset) from None
    return preset.with_options(dict(variant.changed_options()))


def game_id(game: Game[Position]) -> str:
    """A short stable id of a game (its rules, start and moves), for puzzle ids and sources."""
    rules = game.rules
    text = rules.variant.id + "|" + rules.position_text(game.start) + "|" + " ".join(
        rules.move_text(p.move) for p in game.plies)
    return hashlib.sha256(text.encode()).hexdigest()[:8]


def puzzle_from_mistake(game: Game[Position], ply: int, best: Move | str, *, max_plies: int = MAX_PLIES,
                        node_budget: int = NODE_BUDGET, source: str = "") -> dict[str, Any] | None:
    """The puzzle of the position before move ``ply`` of ``game`` (1-based, as a review numbers
    its entries), if ``best`` (a move or its text) is the only first move of a forced win within
    ``max_plies`` there; None otherwise (no forced win, another move wins too, or the proof ran
    past its budget).  PuzzleError when the ply is not in the game or the rules are no preset's."""
    if not 1 <= ply <= len(game.plies) + 1:
        raise PuzzleError(_("the game has no ply {ply}").format(ply=ply))
    variant = _preset_variant(game)
    rules = variant.make_rules()
    before = game.position_at(ply - 1)
    pos = rules.parse_position(rules.position_text(before), rules.side_to_move(before))
    try:
        move = rules.parse_move(pos, best) if isinstance(best, str) else tuple(best)
    except ValueError as exc:
        raise PuzzleError(_("ply {ply}: {error}").format(ply=ply, error=exc)) from None
    if move not in rules.legal_moves(pos):
        raise PuzzleError(_("ply {ply}: {move} is not legal there").format(ply=ply, move=rules.move_text(move)))
    proof = prove_unique(rules, pos, max_plies, max_nodes=node_budget, hint=move, hint_only=True)
    if proof is None or proof.first != move:
        return None
    name = source or f"game {game_id(game)}"
    puzzle = puzzle_from_proof(variant, pos, proof, f"{name} ply {ply - 1}", 0)
    puzzle["id"] = f"{SET_NAME}-{game_id(game)}-{ply - 1:03d}"
    return puzzle


def mine_game(game: Game[Position], source: str = "", *, max_plies: int = MAX_PLIES, node_budget: int = NODE_BUDGET,
              should_stop: Callable[[], bool] | None = None,
              progress: Callable[[int, int], None] | None = None) -> list[dict[str, Any]]:
    """Every puzzle of a game: each position (from the start) where the side to move has a
    unique forced win within ``max_plies``, no two within :data:`MIN_GAP` plies (the first,
    longest, of a winning line stays).  ``progress(done, total)`` after each position."""
    variant = _preset_variant(game)
    rules = variant.make_rules()
    name = source or f"game {game_id(game)}"
    found: list[dict[str, Any]] = []
    last = -MIN_GAP
    total = len(game.plies)
    for k in range(total):
        if should_stop is not None and should_stop():
            break
        if k - last >= MIN_GAP:
            before = game.position_at(k)
            pos = rules.parse_position(rules.position_text(before), rules.side_to_move(before))
            proof = prove_unique(rules, pos, max_plies, max_nodes=node_budget, hint=game.plies[k].move)
            if proof is not None:
                puzzle = puzzle_from_proof(variant, pos, proof, f"{name} ply {k}", 0)
                puzzle["id"] = f"{SET_NAME}-{game_id(game)}-{k:03d}"
                found.append(puzzle)
                last = k
        if progress is not None:
            progress(k + 1, total)
    return found


def add_to_set(puzzles: list[dict[str, Any]], path: Path) -> int:
    """Add puzzles to the set at ``path`` (made if missing), skipping ids it has; returns how
    many were new.  The file is written atomically."""
    exists = path.exists()
    pset = PuzzleSet.load(path) if exists else PuzzleSet.empty(SET_NAME, path)
    if is_preset_set(pset.variant):  # a preset's set: its puzzles are of that preset only
        other = next((pz["variant"] for pz in puzzles if pz["variant"] != pset.variant), None)
        if other is not None:
            raise PuzzleError(_(
                "{path} is a set of {variant} puzzles: puzzles of {other} cannot be added to it").format(
                path=shown(str(path)), variant=shown(pset.variant, 40), other=shown(other, 40)))
    have = {pz["id"] for pz in pset.puzzles}
    new = [pz for pz in puzzles if pz["id"] not in have]
    if exists and not new:
        return 0  # nothing to add: the file is left as it was, not re-stamped
    pset.puzzles.extend(new)
    pset.scanned["seconds"] = round(float(pset.scanned.get("seconds", 0.0)), 1)
    pset.scanned["updated"] = round(time.time())
    pset.save(path)
    return len(new)
