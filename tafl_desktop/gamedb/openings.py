"""Openings' names, as data per rule set (``resources/openings/<variant id>.toml``), recognised in
every orientation of the board: each named line is played under the rules asked about and its last
position folded (:mod:`.keys`), so ``d1-d4`` is the Canadian as much as ``h1-h4`` is.

A line that the rules in force refuse names nothing (the file is for its variant's rules; a
changed toggle may still allow the moves, and then the names apply).
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from typing import Any

from tafl_desktop.core.game import Game, Position
from tafl_desktop.core.move_list_text import MoveListError, listed_moves, play_listed
from tafl_desktop.core.paths import resources_dir
from tafl_desktop.gamedb.keys import Folding

_cache: dict[str, dict[int, str]] = {}


def _named_lines(variant_id: str) -> list[tuple[str, str]]:
    path = resources_dir() / "openings" / f"{variant_id}.toml"
    if not path.is_file():
        return []
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return []
    return [(str(o["name"]), str(o["moves"])) for o in data.get("opening", [])
            if isinstance(o, dict) and "name" in o and "moves" in o]


def names(folding: Folding) -> dict[int, str]:
    """Folded position key -> the opening's name, for the rules of ``folding``."""
    rules: Any = folding.rules
    if folding.rules_key not in _cache:
        out: dict[int, str] = {}
        for name, moves in _named_lines(rules.variant.id):
            game = Game(rules)
            try:
                play_listed(game, listed_moves(moves, rules.variant.traits))
            except MoveListError:
                continue
            out[folding.fold(game.position).key] = name
        _cache[folding.rules_key] = out
    return _cache[folding.rules_key]


def opening_of(folding: Folding, line: Iterable[Position]) -> str | None:
    """The name of the deepest named position along ``line`` (the positions from the start to
    the one shown), or None."""
    table = names(folding)
    found = None
    for pos in line:
        found = table.get(folding.fold(pos).key, found)
    return found
