"""The PGN-like files of hnefatafl.org and playtafl.com.

As their reader has it (``dcampbell24/hnefatafl`` ``portable_game_notation.rs``, summarised in
``shared/reference/turn2-research.md`` 4.3): ``[Key "value"]`` tags, a blank line, then
``1. h1h3 g5g2 2. h3h2`` with no hyphen and no captures; 11x11 Copenhagen is assumed, attackers
first.  We write that form, plus a ``[Rules "..."]`` tag (an OpenTafl rules string) when the
game is not Copenhagen, which their reader skips and ours uses.
"""

from __future__ import annotations

import re

from tafl_desktop.core.game import Game
from tafl_desktop.core.rules_string import RulesStringError, to_rules_string, variant_from_rules_string
from tafl_desktop.i18n import _
from tafl_desktop.interop.move_list import parse_moves
from tafl_desktop.interop.transfer import MAX_TEXT, GameTransfer, InteropError, play_listed

MAX_BYTES = 2 * 1024 * 1024
_TAG = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]$')
DEFAULT_VARIANT = "copenhagen"


def write_pgn(t: GameTransfer) -> tuple[str, list[str]]:
    game = t.game
    variant = game.rules.variant
    warnings: list[str] = []
    tags = {k.capitalize(): v for k, v in t.tags.items()}
    if variant.id != DEFAULT_VARIANT or variant.changed_options():
        exported = to_rules_string(variant)
        tags["Rules"] = exported.text
        warnings += exported.warnings
        warnings.append(_("hnefatafl.org assumes Copenhagen; the rules of {variant} travel in a Rules tag").format(
            variant=variant.name))
    if game.start != game.rules.initial_position():
        warnings.append(_("the game starts from a set-up position, which PGN-like files cannot hold"))
    lines = [f'[{k} "{v[:MAX_TEXT]}"]'.replace("\n", " ") for k, v in tags.items() if k.isalnum()]
    n = len(game.plies)
    turns = []
    for turn, i in enumerate(range(0, n, 2), 1):
        pair = [game.rules.move_text(game.plies[j].move).replace("-", "") for j in range(i, min(i + 2, n))]
        turns.append(f"{turn}. " + " ".join(pair))
    return "\n".join(lines) + "\n\n" + "\n".join(turns) + "\n", warnings


def read_pgn(text: str, where: str = "game", variant=None) -> GameTransfer:
    """A PGN-like game; its variant from a ``Rules`` tag, else ``variant``, else Copenhagen."""
    if len(text) > MAX_BYTES:
        raise InteropError(_("{where}: larger than the {limit} bytes a game record may have").format(
            where=where, limit=MAX_BYTES))
    tags: dict[str, str] = {}
    body = []
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("["):
            m = _TAG.match(line)
            if m is None:
                raise InteropError(_("{where}: cannot read the tag line '{line}'").format(where=where, line=line[:60]))
            tags[m.group(1).lower()] = m.group(2).replace('\\"', '"')[:MAX_TEXT]
        elif line:
            body.append(line)
    if "rules" in tags:
        try:
            variant = variant_from_rules_string(tags.pop("rules"))
        except RulesStringError as exc:
            raise InteropError(_("{where}: {problem}").format(where=where, problem=exc)) from None
    if variant is None:
        from tafl_desktop.core.variants import find_variant

        variant = find_variant(DEFAULT_VARIANT)
    moves = " ".join(body)
    for result in ("1-0", "0-1", "1/2-1/2", "*"):
        moves = moves.replace(f" {result}", " ") if moves.endswith(result) else moves
    game = Game(variant.make_rules())
    play_listed(game, parse_moves(moves, where), where)
    return GameTransfer(game, tags)
