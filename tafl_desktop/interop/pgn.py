"""The PGN-like files of hnefatafl.org and playtafl.com.

As their reader has it (``dcampbell24/hnefatafl`` ``portable_game_notation.rs``, summarised in
``shared/reference/turn2-research.md`` 4.3): ``[Key "value"]`` tags, a blank line, then
``1. h1h3 g5g2 2. h3h2`` with no hyphen and no captures; 11x11 Copenhagen is assumed, attackers
first.  hnefatafl.org's own writer (the same file, crate 6.4.1) puts ``[Event "Game N"]``,
``[Site "hnefatafl.org"]`` and sometimes ``[Date "%F %T %z"]`` straight above the moves, with no
blank line, no result and no final newline, and leaves resignations out; a file with that
``Site`` tag (and no ``Rules`` tag) is read under the site's rules, the ``copenhagen_org`` preset.
We write that form, plus a ``[Rules "..."]`` tag (an OpenTafl rules string) when the game is not
Copenhagen, which their reader skips and ours uses; a game of the site's own rules gets the site's
``Site`` tag instead, as its client writes, and no ``Rules`` tag.

Tag values are written with PGN's own escapes (``\\"`` and ``\\\\``) and ours for what a
line cannot hold (``\\n``, ``\\r``, control characters: :mod:`tafl_desktop.interop.escapes`),
and read back the same way.  An ending decided off the board travels in ``Result`` (OpenTafl's
1, -1 or 0), ``Termination`` and ``Ending`` (our reason) tags.  What a PGN-like file cannot hold
(variations, comments, a set-up position, tag names that are not letters and digits) is named
in a warning.
"""

from __future__ import annotations

import re

from tafl_desktop.core.game import OFF_BOARD_REASONS, Game
from tafl_desktop.core.quoting import listing, quote, shown
from tafl_desktop.core.record_limits import MAX_RECORD_BYTES
from tafl_desktop.core.rules_string import RulesStringError, to_rules_string, variant_from_rules_string
from tafl_desktop.i18n import _, ngettext
from tafl_desktop.interop.escapes import escape, unescape
from tafl_desktop.interop.move_list import parse_moves
from tafl_desktop.interop.transfer import (
    GameTransfer,
    InteropError,
    finish_from_tags,
    play_listed,
    result_code,
    termination_text,
)

MAX_BYTES = MAX_RECORD_BYTES
_TAG = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]$')
DEFAULT_VARIANT = "copenhagen"
#: The site whose exports are read under its own rules, and the preset of those rules.
SITE, SITE_VARIANT = "hnefatafl.org", "copenhagen_org"


def _pgn_key(key: str) -> str:
    return key[:1].upper() + key[1:]


def _our_key(key: str) -> str:
    return key[:1].lower() + key[1:]


def write_pgn(t: GameTransfer) -> tuple[str, list[str]]:
    game = t.game
    variant = game.rules.variant
    warnings: list[str] = []
    # the ending's tags are written from the game; a copy of them would be read as an ending
    reserved = ("rules", "result", "ending", *(("termination",) if game.outcome is not None else ()))
    tags = {_pgn_key(k): v for k, v in t.tags.items() if k not in reserved and k.isalnum() and k.isascii()}
    left_out = [k for k in t.tags if k not in reserved and not (k.isalnum() and k.isascii())]
    if left_out:
        warnings.append(_("PGN-like tag names hold only letters and digits; these tags were left out: {names}").format(
            names=listing(quote(k) for k in left_out)))
    own = [k for k in t.tags if k in reserved]
    if own:
        warnings.append(_("these tags were left out, as the file writes them from the game itself: {names}").format(
            names=listing(quote(k) for k in own)))
    site = tags.get("Site", "").strip().lower()
    if variant.id == SITE_VARIANT and not variant.changed_options() and site in ("", SITE):
        tags["Site"] = tags.get("Site") or SITE  # the site's own game: its own tag says so, as its client writes
    elif variant.id != DEFAULT_VARIANT or variant.changed_options():
        exported = to_rules_string(variant)
        tags["Rules"] = exported.text
        warnings += exported.warnings
        warnings.append(_("hnefatafl.org assumes Copenhagen; the rules of {variant} travel in a Rules tag").format(
            variant=variant.name))
    if game.start != game.rules.initial_position():
        warnings.append(_("the game starts from a set-up position, which PGN-like files cannot hold"))
    tree = t.to_tree()
    if tree.root.comment or any(n.comment for n in tree.nodes()):
        warnings.append(_("PGN-like files have no place for comments; they were left out"))
    out = game.outcome
    if out is not None and out.reason in OFF_BOARD_REASONS:
        tags.update({"Result": result_code(out), "Termination": termination_text(out), "Ending": out.reason})
    lines = [f'[{k} "{escape(v, quote_char=chr(34))}"]' for k, v in tags.items()]
    n = len(game.plies)
    turns = []
    for turn, i in enumerate(range(0, n, 2), 1):
        pair = [game.rules.move_text(game.plies[j].move).replace("-", "") for j in range(i, min(i + 2, n))]
        turns.append(f"{turn}. " + " ".join(pair))
    return "\n".join(lines) + "\n\n" + "\n".join(turns) + "\n", warnings


def read_pgn(text: str, where: str = "game", variant=None) -> GameTransfer:
    """A PGN-like game; its variant from a ``Rules`` tag, else ``variant``, else Copenhagen."""
    if len(text) > MAX_BYTES:
        raise InteropError(ngettext("{where}: larger than the {limit} byte a game record may have",
                                    "{where}: larger than the {limit} bytes a game record may have", MAX_BYTES).format(
            where=where, limit=MAX_BYTES))
    tags: dict[str, str] = {}
    body = []
    for raw in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        line = raw.strip()
        if line.startswith("["):
            m = _TAG.match(line)
            if m is None:
                raise InteropError(_("{where}: cannot read the tag line '{line}'").format(
                    where=where, line=shown(line, 60)))
            tags[_our_key(m.group(1))] = unescape(m.group(2))
        elif line:
            body.append(line)
    if "rules" in tags:
        try:
            variant = variant_from_rules_string(tags.pop("rules"))
        except RulesStringError as exc:
            raise InteropError(_("{where}: {problem}").format(where=where, problem=exc)) from None
    if variant is None:
        from tafl_desktop.core.variants import find_variant

        # hnefatafl.org's client writes [Site "hnefatafl.org"] into every game it exports
        # (portable_game_notation.rs): its games are played under the site's own rules
        site = tags.get("site", "").strip().lower()
        variant = find_variant(SITE_VARIANT if site == SITE else DEFAULT_VARIANT)
    moves = " ".join(body)
    for result in ("1-0", "0-1", "1/2-1/2", "*"):
        moves = moves.replace(f" {result}", " ") if moves.endswith(result) else moves
    game = Game(variant.make_rules())
    listed = parse_moves(moves, where)
    play_listed(game, listed, where)
    exact = tags.pop("ending", None)
    finish_from_tags(game, {**tags, "td-ending": exact} if exact else tags, where, listed)
    if game.outcome is not None:
        for key in ("result", "termination"):
            tags.pop(key, None)
    return GameTransfer(game, tags)
