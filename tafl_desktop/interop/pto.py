"""Import of PlayTaflOnline games (its JSON API's game objects).

The schema is OpenTafl's reading of it (``PTOConstants``/``PlayTaflOnlineJsonTranslator``, in
``shared/reference/turn2-research.md`` 4.4): ``Layout`` names the board, ``Objective``,
``KingCapture``, ``KingStrength``, ``Throne``, ``Hostile``, ``Speed``, ``Surround``, ``ExitFort``
and ``ShieldWall`` are numbers that map onto OpenTafl rules-string entries, and ``Move`` lists
the moves newest first as ``MoveX/MoveY -> MoveXTo/MoveYTo`` (x = file from a, y = rank from 1,
as OpenTafl's ``Coord.get(x, y)``).  We build the rules string and read it like any other.
Layouts whose positions the notes do not give are refused by name.

Values are taken only of the type the schema gives them (a number for a number, a text for a
name): a list, ``Infinity``, ``true`` or a number of 5,000 digits where a coordinate belongs is
refused with one line, like any other value the schema does not know.
"""

from __future__ import annotations

import math
from typing import Any

from tafl_desktop.core.game import Game
from tafl_desktop.core.quoting import quote, shown
from tafl_desktop.core.record_limits import MAX_MOVES, MAX_RECORD_BYTES, MAX_TAG_TEXT, too_many_moves
from tafl_desktop.core.rules_string import RulesStringError, variant_from_rules_string
from tafl_desktop.i18n import _
from tafl_desktop.interop.transfer import GameTransfer, InteropError, finish_from_tags, json_data, play_listed

MAX_BYTES = MAX_RECORD_BYTES
_BRANDUBH = "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"
_TABLUT = "/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/"
_HNEFATAFL = "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/"
#: Layout name -> (size, position top row first); positions from tafl-rules.md section 1.
LAYOUTS = {
    **{k: (7, _BRANDUBH) for k in ("brandubh", "hhbrandubh", "magpie", "hhardri")},
    "ardri": (7, "/2ttt2/3t3/t1TTT1t/ttTKTtt/t1TTT1t/3t3/2ttt2/"),
    **{k: (9, _TABLUT) for k in ("tablut", "hhtablut", "seabattletablut")},
    "papillon": (9, "/3ttt3/4t4/9/t2TTT2t/tt1TKT1tt/t2TTT2t/9/4t4/3ttt3/"),
    **{k: (11, _HNEFATAFL) for k in ("copenhagen", "fetlar", "hnefatafl")},
    **{k: (11, "/4ttt4/4t1t4/5t5/5T5/tt2TTT2tt/t1tTTKTTt1t/tt2TTT2tt/5T5/5t5/4t1t4/4ttt4/")
       for k in ("tawlbwrdd", "hhtawlbwrdd")},
}
OBJECTIVE = {0: "esc:e cor:", 1: "esc:c"}
KING_CAPTURE = {0: "ks:w", 1: "ks:c", 2: "ks:s", 3: "ks:m"}
KING_STRENGTH = {0: "ka:y", 1: "ka:n", 2: "ka:h", 3: "ka:a"}
THRONE = {0: "cen: cens:tcnkTCNK cenp:tcnkTCNK", 1: "cens:K cenp:tcnkTCNK", 2: "cens: cenp:tcnkTCNK",
          3: "cens: cenp:K", 4: "cens: cenp:"}
HOSTILE = {0: "cenh: cenhe:", 1: "cenh:tcnk cenhe:tcnkTCNK"}
SPEED = {0: "", 1: "spd:-1,-1,-1,-1,-1,-1,-1,1", 2: "spd:1,1,1,1,1,1,1,-1", 3: "spd:1"}
SURROUND = {0: "surf:y", 1: "surf:n"}
EXIT_FORT = {0: "efe:n", 1: "efe:y"}
SHIELD_WALL = {0: "sw:n", 1: "sw:s swf:y"}
END_STATE = {1: ("1", "attackers win"), 2: ("-1", "defenders win"), 3: ("0", "draw"),
             4: ("1", "the defenders resigned"), 5: ("-1", "the attackers resigned"),
             6: ("1", "the defenders ran out of time"), 7: ("-1", "the attackers ran out of time"),
             8: ("?", "the game was declined")}
#: End states decided off the board (resignations and flag falls).
OFF_BOARD_STATES = (4, 5, 6, 7)


def _number(value: Any) -> int | None:
    """A whole number from the JSON (an integer, or a float without a fraction, as OpenTafl's
    ``getInt`` takes it; a text of ASCII digits, as PlayTaflOnline's API sometimes sends); None
    for anything else (a list, ``true``, ``Infinity``, ``NaN``, '٣', a 5,000-digit number)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if abs(value) < 1 << 31 else None
    if isinstance(value, float):
        return int(value) if math.isfinite(value) and value.is_integer() and abs(value) < 1 << 31 else None
    if isinstance(value, str):
        t = value.strip()
        digits = t[1:] if t.startswith("-") else t
        return int(t) if digits.isascii() and digits.isdigit() and len(digits) < 10 else None
    return None


def _field(data: dict[str, Any], key: str, table: dict[int, Any], where: str, default: int | None = 0) -> Any:
    value = data.get(key, default)
    number = _number(value)
    if number not in table:
        raise InteropError(_("{where}: {key} = {value} is not a PlayTaflOnline value Tafl Desktop knows").format(
            where=where, key=shown(key), value=quote(value)))
    return table[number]


def looks_like_pto(data: Any) -> bool:
    return isinstance(data, dict) and "Layout" in data and "Move" in data


def rules_string_of(data: dict[str, Any], where: str = "game") -> str:
    raw = data.get("Layout", "")
    layout = raw.strip().lower() if isinstance(raw, str) else None
    if layout not in LAYOUTS:
        raise InteropError(_("{where}: the PlayTaflOnline layout {layout} is not one Tafl Desktop knows (known: "
                             "{known})").format(where=where, layout=quote(raw), known=', '.join(sorted(LAYOUTS))))
    size, position = LAYOUTS[layout]
    parts = [f"dim:{size}", f"name:PlayTaflOnline_{layout}", "atkf:y"]
    for key, table in (("Objective", OBJECTIVE), ("KingCapture", KING_CAPTURE), ("KingStrength", KING_STRENGTH),
                       ("Throne", THRONE), ("Hostile", HOSTILE), ("Speed", SPEED), ("Surround", SURROUND),
                       ("ExitFort", EXIT_FORT), ("ShieldWall", SHIELD_WALL)):
        parts.append(_field(data, key, table, where))
    parts.append(f"starti:{position}")
    return " ".join(p for p in parts if p)


def read_pto(text: str, where: str = "game") -> GameTransfer:
    """A PlayTaflOnline game from its JSON text; InteropError (one line) otherwise."""
    data = json_data(text, where)
    if not looks_like_pto(data):
        raise InteropError(_("{where}: not a PlayTaflOnline game (no Layout and Move)").format(where=where))
    return pto_game(data, where)


def pto_game(data: dict[str, Any], where: str = "game") -> GameTransfer:
    """The game of a PlayTaflOnline game object (parsed JSON)."""
    try:
        variant = variant_from_rules_string(rules_string_of(data, where))
    except RulesStringError as exc:
        raise InteropError(_("{where}: {problem}").format(where=where, problem=exc)) from None
    raw_moves = data["Move"]
    if not isinstance(raw_moves, list):
        raise InteropError(_("{where}: Move must be a list").format(where=where))
    if len(raw_moves) > MAX_MOVES:
        raise InteropError(_("{where}: {problem}").format(where=where, problem=too_many_moves(len(raw_moves))))
    g = grid = variant.grid  # PlayTaflOnline plays Tafl only: a board of squares
    moves: list[tuple[str, tuple[str, ...] | None]] = []
    for i, m in enumerate(reversed(raw_moves), 1):
        if not isinstance(m, dict):
            raise InteropError(_("{where}: move {i} is not an object").format(where=where, i=i))
        read = [_number(m.get(k)) for k in ("MoveX", "MoveY", "MoveXTo", "MoveYTo")]
        coords = [c for c in read if c is not None]
        if len(coords) < 4:
            raise InteropError(_("{where}: move {i} lacks MoveX, MoveY, MoveXTo or MoveYTo").format(
                where=where, i=i)) from None
        x, y, x2, y2 = coords
        if -1 in (x, y, x2, y2):
            continue
        if not all(0 <= c < g.width for c in (x, y, x2, y2)):
            raise InteropError(_("{where}: move {i} leaves the {size}x{size} board").format(
                where=where, i=i, size=g.width))
        moves.append((f"{g.name(grid.index(x, y))}-{g.name(grid.index(x2, y2))}", None))
    game = Game(variant.make_rules())
    play_listed(game, moves, where)
    tags = {}
    for key, tag in (("Attacker", "attackers"), ("Defender", "defenders")):
        name = data.get(key)
        if isinstance(name, str):
            tags[tag] = name[:MAX_TAG_TEXT]
        elif _number(name) is not None:
            tags[tag] = str(_number(name))
    start = _number(data.get("StartDate"))
    if start is not None:
        import datetime

        try:
            tags["date"] = datetime.datetime.fromtimestamp(start, datetime.UTC).strftime("%Y.%m.%d")
        except (OverflowError, OSError, ValueError):
            pass
    if raw_moves and isinstance(raw_moves[0], dict) and game.outcome is None:
        end = _number(raw_moves[0].get("EndState"))
        if end in OFF_BOARD_STATES:  # a resignation or a flag fall: the moves cannot show it
            tags["result"], tags["termination"] = END_STATE[end]
            finish_from_tags(game, tags)
        elif end in END_STATE:  # an ending our rules do not see in the moves: said, not claimed
            tags["termination"] = END_STATE[end][1]
    return GameTransfer(game, tags)
