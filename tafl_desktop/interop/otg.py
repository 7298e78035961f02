"""OpenTafl game records (``.otg``), read and written.

Grammar as OpenTafl really reads it (``shared/reference/turn2-research.md`` 4.2): ``[key:value]``
tag lines in any order (a tag ends at its first ``]``, the key at its first ``:``), the rules
string in the ``rules`` tag, then turns ``N. move move`` each optionally followed by a comment
line ``[first|second]``.  Moves are OpenTafl move records (``e5-e8xe9``, ``Ke1-a1--``; the
notation spec, tafl-rules.md 2.4).  Variation lines (``2a.1.1a. ...``) are read into the
game tree and written from it: their syntax, as read in OpenTafl's own source, is in
:mod:`tafl_desktop.interop.otg_variations`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from tafl_desktop import __version__
from tafl_desktop.core.game import Game, Side
from tafl_desktop.core.game_tree import GameTree
from tafl_desktop.core.record import MAX_MOVES
from tafl_desktop.core.rules_string import RulesStringError, to_rules_string, variant_from_rules_string
from tafl_desktop.i18n import _
from tafl_desktop.interop.otg_variations import (
    ADDRESS_START,
    VariationLine,
    add_variations,
    clean_comment,
    split_address,
    write_lines,
)
from tafl_desktop.interop.transfer import MAX_TEXT, GameTransfer, InteropError, play_listed

#: Tags we write from the game itself and so do not copy from the record's tags.
GENERATED = ("rules", "result", "termination", "compiler", "td-start")
MAX_BYTES = 2 * 1024 * 1024
_TURN = re.compile(r"^(\d+)\.$")
_MOVE = re.compile(r"^[tcnkmgTCNKMG]?([a-s]\d{1,2})-([a-s]\d{1,2})(?:x([a-zA-Z0-9/]+?))?([+-]{0,2})$")


def _clean(text: str) -> str:
    """A tag value OpenTafl can read back: no ``]``, ``|`` or line breaks."""
    return " ".join(text.replace("]", ")").replace("|", "/").split())[:MAX_TEXT]


def move_record(game: Game, index: int) -> str:
    """OpenTafl's record of ply ``index`` (0-based) of ``game``'s main line."""
    out = game.outcome if index == len(game.plies) - 1 else None
    return _record(game.rules, game.position_at(index), game.plies[index], out)


def _record(rules, before, ply, outcome) -> str:
    """OpenTafl's record of one move: ``from-to``, ``x`` + captured squares, and the info mark of a
    move that ends the game."""
    g = rules.variant.geometry
    text = ("K" if ply.move[0] == before.king else "") + rules.move_text(ply.move)
    if ply.captures:
        text += "x" + "/".join(g.name(s) for s in sorted(ply.captures))
    if outcome is not None:
        # the notation's info marks: "++" the king is captured, "--" he escaped (tafl-rules.md 2.4)
        text += {"king_captured": "++", "king_escaped": "--", "edge_fort": "--"}.get(outcome.reason, "")
    return text


def write_otg(t: GameTransfer) -> tuple[str, list[str]]:
    """The ``.otg`` text of a game, its comments and variations, and the warnings about rules
    OpenTafl cannot express."""
    game = t.game
    rules = game.rules
    exported = to_rules_string(rules.variant)
    lines = []
    tags = {k: v for k, v in t.tags.items() if k not in GENERATED}
    for k, v in tags.items():
        key = "".join(c for c in k if c.isalnum() or c in "-_.")
        if key:
            lines.append(f"[{key}:{_clean(v)}]")
    out = game.outcome
    lines.append(f"[result:{'?' if out is None else '0' if out.winner is None else '1' if out.winner == 0 else '-1'}]")
    if out is not None:
        lines.append(f"[termination:{_clean(out.describe(rules.variant))}]")
    lines.append(f"[compiler:Tafl Desktop {__version__}]")
    if game.start != rules.initial_position():
        lines.append(f"[td-start:{rules.position_text(game.start)} {rules.side_to_move(game.start).key}]")
    lines.append(f"[rules:{exported.text}]")
    tree = t.to_tree()
    if tree.root.comment:
        lines.append(f"[start-comment:{clean_comment(tree.root.comment)}]")
    lines.append("")
    main = tree.main_line()[:len(game.plies)]
    last = main[-1] if main else None

    def record(node) -> str:
        outcome = out if node is last else rules.outcome(node.ply.position)
        return _record(rules, tree.position(node.parent), node.ply, outcome)

    lines.extend(write_lines(tree, main, record))
    return "\n".join(lines) + "\n", exported.warnings


def _items(text: str) -> Iterator[tuple[int, str, str]]:
    """(line number, kind, text) in reading order: ``[`` a bracketed block (a tag, or after the
    moves a comment; either may span lines, as OpenTafl's own files do), ``open`` a block never
    closed, ``moves`` a line of moves (up to its end or a ``[``)."""
    i, n, line = 0, len(text), 1
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif c.isspace():
            i += 1
        elif c == "[":
            end = text.find("]", i)
            if end < 0:
                stop = text.find("\n", i)
                yield line, "open", text[i:stop if stop >= 0 else n]
                return
            body = text[i + 1:end]
            yield line, "[", body
            line += body.count("\n")
            i = end + 1
        else:
            stops = [j for j in (text.find("\n", i), text.find("[", i)) if j >= 0]
            end = min(stops) if stops else n
            yield line, "moves", text[i:end].strip()
            i = end


def _move(tok: str, where: str, turn: str) -> tuple[str, tuple[str, ...]]:
    """A move token of a record as (``from-to``, the captured squares it lists)."""
    mm = _MOVE.match(tok)
    if not mm:
        if "^" in tok or "=" in tok:
            raise InteropError(_("{where}: '{tok}' is a jump or berserk move, which Tafl Desktop "
                                 "has not").format(where=where, tok=tok))
        raise InteropError(_("{where}: '{tok}' in turn {turn} is not a move").format(where=where, tok=tok, turn=turn))
    caps = tuple(c[1:] if len(c) > 1 and c[1].isalpha() else c
                 for c in mm.group(3).split("/")) if mm.group(3) else ()  # "ce7": a piece letter first
    return f"{mm.group(1)}-{mm.group(2)}", caps


def read_otg(text: str, where: str = "game") -> GameTransfer:
    """Parse an ``.otg`` text into a game replayed under our rules, its variations in its tree;
    InteropError (one line) otherwise."""
    if len(text) > MAX_BYTES:
        raise InteropError(_("{where}: larger than the {limit} bytes a game record may have").format(
            where=where, limit=MAX_BYTES))
    tags: dict[str, str] = {}
    moves: list[tuple[str, tuple[str, ...] | None]] = []
    comments: dict[int, str] = {}
    variations: list[VariationLine] = []
    last_turn_plies: list[int] = []
    last_variation: VariationLine | None = None
    expect = 1
    for number, kind, body in _items(text.replace("\r\n", "\n")):
        if kind == "open":
            raise InteropError(_("{where}: cannot read the line '{line}'").format(where=where, line=body[:60]))
        if kind == "[" and last_variation is not None:  # the comments on a variation line's moves
            last_variation.comments = body.split("|")
            continue
        if kind == "[" and last_turn_plies:  # a comment block: [first half|second half]
            for ply, note in zip(last_turn_plies, body.split("|"), strict=False):
                if note.strip():
                    comments[ply] = note.strip()[:MAX_TEXT]
            continue
        if kind == "[":
            key, colon, value = body.partition(":")
            if not colon or "\n" in key or "[" in key:
                raise InteropError(_("{where}: cannot read the line '{line}'").format(
                    where=where, line=("[" + body).splitlines()[0][:60]))
            key, value = key.strip(), value.strip()
            if key == "start-comment":
                comments[0] = value[:MAX_TEXT]
            else:
                tags[key] = value[:MAX_TEXT]
            continue
        tokens = body.split()
        address = split_address(tokens[0])
        if address is not None:
            here = _("{where}, line {line}").format(where=where, line=number)
            found: list[tuple[str, tuple[str, ...] | None]] = []
            for tok in tokens[1:]:
                if tok == "---":
                    break
                if not tok.strip("."):  # "....." stands for the half-move the variation does not replace
                    continue
                found.append(_move(tok, here, tokens[0]))
            last_variation = VariationLine(address, found, number)
            variations.append(last_variation)
            last_turn_plies = []
            continue
        if ADDRESS_START.match(tokens[0]):
            raise InteropError(_("{where}, line {line}: '{address}' is not a variation address like "
                                 "'2a.1.1a.'").format(where=where, line=number, address=tokens[0][:40]))
        line = body
        m = _TURN.match(tokens[0])
        if not m:
            raise InteropError(_("{where}: expected a turn like '{expect}. e1-e5 e6-e7', got '{line}'").format(
                where=where, expect=expect, line=line[:60]))
        if int(m.group(1)) != expect:
            raise InteropError(_("{where}: turn {turn} comes where turn {expect} was expected").format(
                where=where, turn=m.group(1), expect=expect))
        expect += 1
        last_turn_plies = []
        last_variation = None
        for tok in tokens[1:]:
            if tok == "---":
                tags["termination"] = tags.get("termination", "resigned")
                break
            if tok == ".....":
                raise InteropError(_("{where}: turn {turn} skips a half-move, which Tafl Desktop cannot replay").format(
                    where=where, turn=m.group(1)))
            moves.append(_move(tok, where, m.group(1)))
            last_turn_plies.append(len(moves))
    if "rules" not in tags:
        raise InteropError(_("{where}: the [rules:...] tag is missing, so the variant is unknown").format(where=where))
    try:
        variant = variant_from_rules_string(tags.pop("rules"))
    except RulesStringError as exc:
        raise InteropError(_("{where}: {problem}").format(where=where, problem=exc)) from None
    rules = variant.make_rules()
    start = None
    if "td-start" in tags:
        pos_text, _sep, side = tags.pop("td-start").partition(" ")
        try:
            start = rules.parse_position(pos_text, Side.parse(side or "attackers"))
        except ValueError as exc:
            raise InteropError(_("{where}: td-start: {problem}").format(where=where, problem=exc)) from None
    game = Game(rules, start)
    if len(moves) > MAX_MOVES:
        raise InteropError(_("{where}: the record holds more than the {n} moves a game record may have").format(
            where=where, n=MAX_MOVES))
    play_listed(game, moves, where)
    for k in ("result", "compiler"):
        tags.pop(k, None)
    if game.outcome is not None:
        tags.pop("termination", None)
    tree = GameTree.from_game(game)
    nodes = [tree.root, *tree.main_line()]
    for n, note in comments.items():
        if n < len(nodes):
            nodes[n].comment = note
    add_variations(tree, variations, where, MAX_MOVES)
    tree.revision = 0
    return GameTransfer(game, tags, comments, [], tree=tree)
