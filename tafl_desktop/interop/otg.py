"""OpenTafl game records (``.otg``), read and written.

Grammar as OpenTafl really reads it (``shared/reference/turn2-research.md`` 4.2): ``[key:value]``
tag lines in any order (a tag ends at its first ``]``, the key at its first ``:``), the rules
string in the ``rules`` tag, then turns ``N. move move`` each optionally followed by a comment
line ``[first|second]``.  Moves are OpenTafl move records (``e5-e8xe9``, ``Ke1-a1--``; the
notation spec, tafl-rules.md 2.4).  Variation lines (``2a.1.1a. ...``) are read into the
game tree and written from it: their syntax, as read in OpenTafl's own source, is in
:mod:`tafl_desktop.interop.otg_variations`.

What OpenTafl's reader needs of a file we write (read in jslater89/OpenTafl
``notation/GameSerializer.java``, ``parseTags`` and ``parseMoves``): the moves start at the first
``1. `` anywhere in the file, inside a tag or not, so no tag may hold ``1. ``; a tag ends at its
first ``]``; a comment block ``[a|b]`` is split at every ``|`` and ended by the first ``]``; and
``DetailedMoveRecord.setComment`` takes the digits opening a comment for the time left.  So tag
values and comments are written with :mod:`tafl_desktop.interop.escapes` (``]`` as ``\\x5d``,
``1. `` as ``1.\\_ ``...), and a ``[td-text:escaped]`` tag tells our reader to undo them; a file
without it (OpenTafl's own) is read as it is.

Endings decided off the board: OpenTafl saves a resigned game with ``[result:-1]`` (1 the
attackers won, -1 the defenders, 0 a draw) and, for games it imported, a ``[termination:Attacker
resigns]``; we write both, and ``[td-ending:resigned]`` naming our own reason exactly.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from tafl_desktop import __version__
from tafl_desktop.core.game import OFF_BOARD_REASONS, Game, Side
from tafl_desktop.core.quoting import quote, shown
from tafl_desktop.core.record_limits import MAX_MOVES, MAX_RECORD_BYTES, file_too_large
from tafl_desktop.core.rules_string import RulesStringError, to_rules_string, variant_from_rules_string
from tafl_desktop.i18n import _, ngettext
from tafl_desktop.interop.escapes import escape, guard, guard_leading_digit, unescape
from tafl_desktop.interop.otg_variations import (
    ADDRESS_START,
    VariationLine,
    add_variations,
    split_address,
    write_lines,
)
from tafl_desktop.interop.transfer import (
    ENDING_TAG,
    GameTransfer,
    InteropError,
    finish_from_tags,
    play_listed,
    result_code,
    termination_text,
)

#: Our tag saying that the file's texts are escaped (see the module's docstring).
ESCAPED_TAG, ESCAPED = "td-text", "escaped"
#: Tags we write from the game itself and so do not copy from the record's tags.
GENERATED = ("rules", "result", "compiler", "td-start", "start-comment", ESCAPED_TAG, ENDING_TAG)
MAX_BYTES = MAX_RECORD_BYTES
_TURN = re.compile(r"^(\d{1,9})\.$", re.ASCII)
_MOVE = re.compile(r"^[tcnkmgTCNKMG]?([a-s]\d{1,2})-([a-s]\d{1,2})(?:x([a-zA-Z0-9/]+?))?([+-]{0,2})$", re.ASCII)
#: Characters a tag name may have (OpenTafl's ends at the first ``:``; ours keep to these).
_KEY_CHARS = re.compile(r"[^\w.-]+")


def tag_text(value: str) -> str:
    """A tag value OpenTafl reads to its end and never takes for the moves (no ``]``, no line
    break, no ``1. ``)."""
    return guard(escape(value, "]["), "1. ")


def comment_text(text: str) -> str:
    """A comment OpenTafl reads back whole: no ``|`` or ``]``, no digits opening it."""
    return guard_leading_digit(escape(text, "]|[", keep_newlines=True))


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
    """The ``.otg`` text of a game, its comments and variations, and the warnings: rules OpenTafl
    cannot express, and tags whose names an ``.otg`` cannot hold.  Every text is written so that
    both OpenTafl and we read it back whole (see the module's docstring)."""
    game = t.game
    rules = game.rules
    exported = to_rules_string(rules.variant)
    warnings = list(exported.warnings)
    out = game.outcome
    lines = [f"[{ESCAPED_TAG}:{ESCAPED}]"]
    renamed, dropped, own = [], [], []
    for k, v in t.tags.items():
        if k in GENERATED or (k == "termination" and out is not None):
            own.append(k)
            continue
        key = _KEY_CHARS.sub("", k)
        if not key:
            dropped.append(k)
            continue
        if key != k:
            renamed.append(f"{quote(k)} -> {quote(key)}")
        lines.append(f"[{key}:{tag_text(v)}]")
    if renamed:
        warnings.append(_("tag names hold only letters, digits, '-', '_' and '.' in an .otg file: {names}").format(
            names=", ".join(renamed[:6])))
    if dropped:
        warnings.append(_("tags without a letter or digit in their names were left out: {names}").format(
            names=", ".join(quote(k) for k in dropped[:6])))
    if own:
        warnings.append(_("these tags were left out, as the file writes them from the game itself: {names}").format(
            names=", ".join(quote(k) for k in own[:6])))
    lines.append(f"[result:{result_code(out)}]")
    if out is not None:
        off_board = out.reason in OFF_BOARD_REASONS
        lines.append(f"[termination:{tag_text(termination_text(out) if off_board else out.describe(rules.variant))}]")
        if off_board:
            lines.append(f"[{ENDING_TAG}:{out.reason}]")
    lines.append(f"[compiler:Tafl Desktop {__version__}]")
    if game.start != rules.initial_position():
        lines.append(f"[td-start:{rules.position_text(game.start)} {rules.side_to_move(game.start).key}]")
    lines.append(f"[rules:{tag_text(exported.text)}]")
    tree = t.to_tree()
    if tree.root.comment:
        lines.append(f"[start-comment:{tag_text(tree.root.comment)}]")
    lines.append("")
    main = tree.main_line()[:len(game.plies)]
    last = main[-1] if main else None

    def record(node) -> str:
        outcome = out if node is last else rules.outcome(node.ply.position)
        return _record(rules, tree.position(node.parent), node.ply, outcome)

    lines.extend(write_lines(tree, main, record, comment_text))
    text = "\n".join(lines) + "\n"
    size = len(text.encode("utf-8"))
    if size > MAX_BYTES:
        raise InteropError(_("this game is too large for an .otg file: {problem}").format(problem=file_too_large(size)))
    return text, warnings


def _items(text: str) -> Iterator[tuple[int, str, str]]:
    """(line number, kind, text) in reading order: ``[`` a bracketed block (a tag, or after the
    moves a comment; either may span lines, as OpenTafl's own files do), ``open`` a block never
    closed, ``moves`` a line of moves (up to its end or a ``[``).  Every search stops at the end
    of what it looks for, so reading costs the length of the text, however it is laid out."""
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
            eol = text.find("\n", i)
            eol = n if eol < 0 else eol
            bracket = text.find("[", i, eol)
            end = eol if bracket < 0 else bracket
            yield line, "moves", text[i:end].strip()
            i = end


def _move(tok: str, where: str, turn: str, line: int = 0) -> tuple[str, tuple[str, ...]]:
    """A move token of a record as (``from-to``, the captured squares it lists); ``line`` the
    line of a variation (named in the error)."""
    mm = _MOVE.match(tok)
    if not mm:
        if line:
            where = _("{where}, line {line}").format(where=where, line=line)
        if "^" in tok or "=" in tok:
            raise InteropError(_("{where}: '{tok}' is a jump or berserk move, which Tafl Desktop "
                                 "has not").format(where=where, tok=shown(tok, 40)))
        raise InteropError(_("{where}: '{tok}' in turn {turn} is not a move").format(
            where=where, tok=shown(tok, 40), turn=shown(turn, 12)))
    caps = tuple(c[1:] if len(c) > 1 and c[1].isalpha() else c
                 for c in mm.group(3).split("/")) if mm.group(3) else ()  # "ce7": a piece letter first
    return f"{mm.group(1)}-{mm.group(2)}", caps


def read_otg(text: str, where: str = "game") -> GameTransfer:
    """Parse an ``.otg`` text into a game replayed under our rules, its variations in its tree;
    InteropError (one line) otherwise."""
    if len(text) > MAX_BYTES:
        raise InteropError(ngettext("{where}: larger than the {limit} byte a game record may have",
                                    "{where}: larger than the {limit} bytes a game record may have", MAX_BYTES).format(
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
            raise InteropError(_("{where}: cannot read the line '{line}'").format(where=where, line=shown(body, 60)))
        if kind == "[" and last_variation is not None:  # the comments on a variation line's moves
            last_variation.comments = body.split("|")
            continue
        if kind == "[" and last_turn_plies:  # a comment block: [first half|second half]
            for ply, note in zip(last_turn_plies, body.split("|"), strict=False):
                if note.strip():
                    comments[ply] = note.strip()
            continue
        if kind == "[":
            key, colon, value = body.partition(":")
            if not colon or "\n" in key or "[" in key:
                first = body[:body.find("\n")] if "\n" in body else body
                raise InteropError(_("{where}: cannot read the line '{line}'").format(
                    where=where, line=shown("[" + first, 60)))
            key, value = key.strip(), value.strip()
            if key == "start-comment":
                comments[0] = value
            else:
                tags[key] = value
            continue
        tokens = body.split()
        address = split_address(tokens[0])
        if address is not None:
            found: list[tuple[str, tuple[str, ...] | None]] = []
            for tok in tokens[1:]:
                if tok == "---":
                    break
                if not tok.strip("."):  # "....." stands for the half-move the variation does not replace
                    continue
                found.append(_move(tok, where, tokens[0], number))
            last_variation = VariationLine(address, found, number)
            variations.append(last_variation)
            last_turn_plies = []
            continue
        if ADDRESS_START.match(tokens[0]):
            raise InteropError(_("{where}, line {line}: '{address}' is not a variation address like "
                                 "'2a.1.1a.'").format(where=where, line=number, address=shown(tokens[0], 40)))
        m = _TURN.match(tokens[0])
        if not m:
            raise InteropError(_("{where}: expected a turn like '{expect}. e1-e5 e6-e7', got '{line}'").format(
                where=where, expect=expect, line=shown(body, 60)))
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
            if len(moves) > MAX_MOVES:
                raise InteropError(ngettext("{where}: the record holds more than the {n} move a game record may have",
                                            "{where}: the record holds more than the {n} moves a game record may have",
                                            MAX_MOVES)
                                   .format(where=where, n=MAX_MOVES))
    if tags.get(ESCAPED_TAG) == ESCAPED:  # our own file: undo the escapes (see the docstring)
        tags = {k: unescape(v) for k, v in tags.items()}
        comments = {k: unescape(v) for k, v in comments.items()}
        for v in variations:
            v.comments = [unescape(c) for c in v.comments]
    tags.pop(ESCAPED_TAG, None)
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
    total = len(moves) + sum(len(v.moves) for v in variations)
    play_listed(game, moves, where, total=total)
    finish_from_tags(game, tags, where, moves)
    for key in ("compiler", "result", ENDING_TAG):  # written again from the game itself
        tags.pop(key, None)
    from tafl_desktop.core.game_tree import GameTree

    tree = GameTree.from_game(game)
    nodes = [tree.root, *tree.main_line()]
    for n, note in comments.items():
        if n < len(nodes):
            nodes[n].comment = note
    add_variations(tree, variations, where, MAX_MOVES, done=len(moves), total=total)
    tree.revision = 0
    return GameTransfer(game, tags, comments, [], tree=tree)
