"""OpenTafl game records (``.otg``), read and written.

Grammar as OpenTafl really reads it (``shared/reference/turn2-research.md`` 4.2): ``[key:value]``
tag lines in any order (a tag ends at its first ``]``, the key at its first ``:``), the rules
string in the ``rules`` tag, then turns ``N. move move`` each optionally followed by a comment
line ``[first|second]``.  Moves are OpenTafl move records (``e5-e8xe9``, ``Ke1-a1--``; the
notation spec, tafl-rules.md 2.4).  Variation lines (``2a.1.1a. ...``) are skipped with a warning:
our game record has no variations yet.
"""

from __future__ import annotations

import re

from tafl_desktop import __version__
from tafl_desktop.core.game import Game, Side
from tafl_desktop.core.rules_string import RulesStringError, to_rules_string, variant_from_rules_string
from tafl_desktop.i18n import _
from tafl_desktop.interop.transfer import MAX_TEXT, GameTransfer, InteropError, play_listed

#: Tags we write from the game itself and so do not copy from the record's tags.
GENERATED = ("rules", "result", "termination", "compiler", "td-start")
MAX_BYTES = 2 * 1024 * 1024
_TURN = re.compile(r"^(\d+)\.$")
_VARIATION = re.compile(r"^\d+[a-z]\.")
_MOVE = re.compile(r"^[tcnkmgTCNKMG]?([a-s]\d{1,2})-([a-s]\d{1,2})(?:x([a-zA-Z0-9/]+?))?([+-]{0,2})$")


def _clean(text: str) -> str:
    """A tag or comment value OpenTafl can read back: no ``]``, ``|`` or line breaks."""
    return " ".join(text.replace("]", ")").replace("|", "/").split())[:MAX_TEXT]


def move_record(game: Game, index: int) -> str:
    """OpenTafl's record of ply ``index`` (0-based): ``from-to`` and ``x`` + captured squares."""
    rules = game.rules
    g = rules.variant.geometry
    ply = game.plies[index]
    before = game.position_at(index)
    letter = "K" if ply.move[0] == before.king else ""
    text = letter + rules.move_text(ply.move)
    if ply.captures:
        text += "x" + "/".join(g.name(s) for s in sorted(ply.captures))
    out = game.outcome
    if index == len(game.plies) - 1 and out is not None:
        # the notation's info marks: "++" the king is captured, "--" he escaped (tafl-rules.md 2.4)
        text += {"king_captured": "++", "king_escaped": "--", "edge_fort": "--"}.get(out.reason, "")
    return text


def write_otg(t: GameTransfer) -> tuple[str, list[str]]:
    """The ``.otg`` text of a game and the warnings about rules OpenTafl cannot express."""
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
    lines.append("")
    if 0 in t.comments:
        lines.append(f"[start-comment:{_clean(t.comments[0])}]")
    n = len(game.plies)
    for turn, i in enumerate(range(0, n, 2), 1):
        pair = [move_record(game, j) for j in range(i, min(i + 2, n))]
        lines.append(f"{turn}. " + " ".join(pair) + " ")
        notes = [_clean(t.comments.get(j + 1, "")) for j in range(i, i + 2)]
        if any(notes):
            lines.append(f"[{notes[0]}|{notes[1]}]")
    return "\n".join(lines) + "\n", exported.warnings


def _tag(line: str) -> tuple[str, str] | None:
    if not line.startswith("[") or "]" not in line:
        return None
    body = line[1:line.index("]")]
    key, colon, value = body.partition(":")
    return (key.strip(), value.strip()) if colon else None


def read_otg(text: str, where: str = "game") -> GameTransfer:
    """Parse an ``.otg`` text into a game replayed under our rules; InteropError otherwise."""
    if len(text) > MAX_BYTES:
        raise InteropError(_("{where}: larger than the {limit} bytes a game record may have").format(
            where=where, limit=MAX_BYTES))
    tags: dict[str, str] = {}
    moves: list[tuple[str, tuple[str, ...] | None]] = []
    comments: dict[int, str] = {}
    warnings: list[str] = []
    last_turn_plies: list[int] = []
    expect = 1
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith("[") and last_turn_plies:  # a comment line: [first half|second half]
            body = line[1:line.index("]")] if "]" in line else line[1:]
            for ply, note in zip(last_turn_plies, body.split("|"), strict=False):
                if note.strip():
                    comments[ply] = note.strip()[:MAX_TEXT]
            continue
        if line.startswith("["):
            tag = _tag(line)
            if tag is None:
                raise InteropError(_("{where}: cannot read the line '{line}'").format(where=where, line=line[:60]))
            key, value = tag
            if key == "start-comment":
                comments[0] = value[:MAX_TEXT]
            else:
                tags[key] = value[:MAX_TEXT]
            continue
        if _VARIATION.match(line):
            if not warnings:
                warnings.append(_("{where}: variations were skipped (only the main line is imported)").format(
                    where=where))
            continue
        tokens = line.split()
        m = _TURN.match(tokens[0])
        if not m:
            raise InteropError(_("{where}: expected a turn like '{expect}. e1-e5 e6-e7', got '{line}'").format(
                where=where, expect=expect, line=line[:60]))
        if int(m.group(1)) != expect:
            raise InteropError(_("{where}: turn {turn} comes where turn {expect} was expected").format(
                where=where, turn=m.group(1), expect=expect))
        expect += 1
        last_turn_plies = []
        for tok in tokens[1:]:
            if tok == "---":
                tags["termination"] = tags.get("termination", "resigned")
                break
            if tok == ".....":
                raise InteropError(_("{where}: turn {turn} skips a half-move, which Tafl Desktop cannot replay").format(
                    where=where, turn=m.group(1)))
            mm = _MOVE.match(tok)
            if not mm:
                if "^" in tok or "=" in tok:
                    raise InteropError(_("{where}: '{tok}' is a jump or berserk move, which Tafl Desktop "
                                         "has not").format(where=where, tok=tok))
                raise InteropError(_("{where}: '{tok}' in turn {turn} is not a move").format(
                    where=where, tok=tok, turn=m.group(1)))
            caps = tuple(c[1:] if len(c) > 1 and c[1].isalpha() else c
                         for c in mm.group(3).split("/")) if mm.group(3) else ()  # "ce7": a piece letter first
            moves.append((f"{mm.group(1)}-{mm.group(2)}", caps))
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
    play_listed(game, moves, where)
    for k in ("result", "compiler"):
        tags.pop(k, None)
    if game.outcome is not None:
        tags.pop("termination", None)
    return GameTransfer(game, tags, comments, warnings)
