"""OpenTafl rules strings ("rules records") to and from our Tafl variants.

A rules string is one line of ``key:value`` entries, ``dim:`` first and ``start:``/``starti:``
last (OpenTafl's notation spec, section 3; the keys and their defaults are summarised in
``shared/reference/tafl-rules.md`` 2.3, checked there against OpenTafl's ``RulesSerializer``).

It lives in the core (pure Python, importing only the core) so that a rules string is accepted
wherever a preset id is (:func:`tafl_desktop.core.variants.find_variant`).

Exactness is checked, not hoped for: :func:`to_rules_string` maps every toggle to OpenTafl's
keys, decodes the result again, and every toggle whose value did not survive is written as a
``td-KEY:VALUE`` entry (OpenTafl ignores keys it does not know) and named in a warning when it
matters on this board.  So our variant -> rules string -> variant is the identity, and a user
exporting to OpenTafl is told exactly which rule OpenTafl will play differently.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tafl_desktop.core.geometry import GridGeometry
from tafl_desktop.core.marks import gettext as _
from tafl_desktop.core.options import OptionValue
from tafl_desktop.core.quoting import LIMIT, clip, known
from tafl_desktop.core.tafl_options import TAFL_OPTIONS
from tafl_desktop.core.variants import Variant, VariantError, preset, register_name_reader, variant_from_data


def _v(text: object) -> str:
    """A value from the rules string, escaped and shortened for a message."""
    return clip(str(text), LIMIT)


#: Every key OpenTafl's parser reads (tafl-rules.md 2.3).
OT_KEYS = frozenset(
    "dim name esc surf atkf tfr ka ks kj nj cj mj gj spd cor cen afor dfor corh cenh cenhe aforh dforh corp cenp "
    "aforp dforp cors cens afors dfors corre cenre aforre dforre sw swf efe linc ber start starti".split())
#: Prefix of our own entries, for toggles OpenTafl cannot express (OpenTafl ignores them).
TD = "td-"
#: Board facts OpenTafl cannot hold, carried as our own entries.
TD_BOARD = ("td-id", "td-escapes")
#: Board keys OpenTafl's own entries hold (``dim``, ``cen``, ``cor``, ``afor``, ``start``); any other
#: key of a board (walls, a throne room...) travels as ``td-board-KEY`` with its value as compact JSON.
OT_BOARD_KEYS = ("width", "height", "throne", "corners", "camps", "escape_squares", "setup")
TD_BOARD_PREFIX = "td-board-"
#: Brackets a ``td-board-`` value may hold: the board's walls are one list of texts, so a value
#: nested deeper is no board at all (and JSON nested 3,000 deep would exhaust the parser's stack).
MAX_BOARD_BRACKETS = 64

ALL_TYPES = "tcnkmTCNKM"
ATT_TYPES = "tcnkm"
DEF_TYPES = "TCNKM"
#: Per-piece speed lists of 8, 10 and 12 entries: where the defenders' king (K) and the two
#: ordinary soldiers (t, T) stand (OpenTafl accepts these legacy lengths; its own dump writes 12).
SPEED_SLOTS = {8: (7, 0, 4), 10: (8, 0, 5), 12: (9, 0, 6)}


class RulesStringError(VariantError):
    """A rules string we cannot use; the message is one line naming the key at fault."""


@dataclass
class Export:
    """A rules string and the warnings about toggles OpenTafl will play differently."""

    text: str
    warnings: list[str] = field(default_factory=list)


# ------------------------------------------------------------------------------------- helpers
def _yn(value: bool) -> str:
    return "y" if value else "n"


def _squares(g: GridGeometry, squares: Iterable[int]) -> str:
    return "".join(g.name(s) + "," for s in sorted(squares))


def _position_rank1_first(setup: str) -> str:
    """Our rows (top row first) as OpenTafl's ``start:`` record (rank 1 first)."""
    rows = [r for r in setup.strip().strip("/").split("/")]
    return "/" + "/".join(reversed(rows)) + "/"


def split_entries(text: str) -> list[tuple[str, str]]:
    """``key:value`` pairs in order; RulesStringError for an entry without a colon."""
    out = []
    for token in text.split():
        key, colon, value = token.partition(":")
        if not colon or not key:
            raise RulesStringError(_("rules string: '{token}' is not a key:value entry").format(token=_v(token)))
        out.append((key, value))
    return out


# ------------------------------------------------------------------------------------- export
def _ot_entries(v: Variant) -> list[tuple[str, str]]:
    """OpenTafl's keys for this variant: every toggle as close as OpenTafl can say it (values
    equal to OpenTafl's defaults are left out, as OpenTafl's own serializer does)."""
    o = v.options
    g = v.grid
    board = v.board_data
    out: list[tuple[str, str]] = [("dim", str(g.width)), ("name", v.name.replace(" ", "_"))]
    if o["escape"] == "edge":
        out.append(("esc", "e"))
    out.append(("surf", _yn(bool(o["encirclement"]))))
    out.append(("atkf", _yn(o["first_move"] == "attackers")))
    # OpenTafl's parser knows d, w and l only (anything else, its own 'i' too, is read as a draw), so
    # "allowed" goes out as the draw it will be played as, and the export warns
    tfr = {"allowed": "d", "draw": "d", "mover_loses": "w", "mover_wins": "l"}.get(str(o["repetition"]), "w")
    if tfr != "d":
        out.append(("tfr", tfr))
    if o["king_armed"] != "yes":
        out.append(("ka", {"no": "n", "hammer": "h", "anvil": "a"}[str(o["king_armed"])]))
    kc = o["king_capture"]
    ks = "s" if kc == "strong" else "w" if kc == "custodial" else "c"
    if kc == "strong" and o["king_edge_capture"]:
        ks = "m"
    if ks != "s":
        out.append(("ks", ks))
    soldier = 1 if o["movement"] == "single_step" else -1
    king = 1 if soldier == 1 else (int(o["king_speed"]) or -1)
    if soldier == king == 1:
        out.append(("spd", "1"))
    elif soldier != king:
        speeds = [soldier] * 12
        speeds[SPEED_SLOTS[12][0]] = king
        out.append(("spd", "".join(f"{x}," for x in speeds)))
    corners = board.get("corners", "corners")
    if corners != "corners":
        out.append(("cor", "" if corners == "none" else _squares(g, g.marked("corner"))))
    throne = board.get("throne", "centre")
    if throne != "centre":
        out.append(("cen", "" if throne == "none" else _squares(g, g.marked("throne"))))
    camps = g.marked("camp")
    if camps:
        out.append(("afor", _squares(g, camps)))
    if not o["corners_hostile"]:
        out.append(("corh", ""))
    if o.get("corner_entry") == "defenders":
        out += [("cors", DEF_TYPES), ("corp", DEF_TYPES)]
    th = o["throne_hostile"]
    if th != "empty_all":
        occupied, empty = {"never": ("", ""), "attackers": (ATT_TYPES, ATT_TYPES),
                           "always": (ALL_TYPES, ALL_TYPES)}[str(th)]
        out += [("cenh", occupied), ("cenhe", empty)]
    if o["throne_passable"] != "everyone":
        out.append(("cenp", "K" if o["throne_passable"] == "king" else ""))
    if not o["throne_reentry"]:
        out.append(("cens", ""))
    if camps:
        out.append(("aforh", {"none": "", "defenders": DEF_TYPES, "all": ALL_TYPES,
                              "always": ALL_TYPES, "always_but_middle": ALL_TYPES}[str(o["camps_hostile"])]))
        # OpenTafl (GenericRules.canTaflmanMoveThrough/StopOn): a piece may pass a camp square if its type
        # is in aforp and either in aforre or standing on a camp square; it may stop there if also in
        # afors.  Attackers standing in a camp move inside it, so they are always in aforp and afors;
        # defenders may only cross, and only where attackers from outside may enter a camp too (else
        # the pair is not expressible and the decoded value, hence the warning, says what OpenTafl plays)
        reenter = bool(o["camp_reentry"])
        cross = o["camp_crossing"] == "everyone" and reenter
        out.append(("aforp", ATT_TYPES + (DEF_TYPES if cross else "")))
        out.append(("afors", ATT_TYPES))
        # OpenTafl reads aforre and corre only when a cenre entry is present, and then an absent one
        # means "nobody" (tafl-rules.md 2.3, parser quirk): all three are written
        out.append(("cenre", ALL_TYPES))
        out.append(("aforre", (ATT_TYPES if reenter else "") + (DEF_TYPES if cross else "")))
        out.append(("corre", ALL_TYPES))
    if o["shield_wall"]:
        out.append(("sw", "s" if o["shield_wall_corners"] else "w"))
    if not o["shield_wall_flank"]:
        out.append(("swf", "n"))
    if o["edge_forts"]:
        out.append(("efe", "y"))
    if o["linnaean_capture"]:
        out.append(("linc", "y"))
    return out


def _td_text(value: OptionValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def to_rules_string(v: Variant) -> Export:
    """The variant as an OpenTafl rules string, with a warning per active toggle OpenTafl cannot
    express (that toggle is also kept as a ``td-`` entry, so we read our own strings back exactly).
    RulesStringError if the board itself cannot be written (not Tafl, not square)."""
    if not v.traits.opentafl:
        raise RulesStringError(_("{name} is not a Tafl game: OpenTafl rules strings hold only Tafl variants")
                               .format(name=v.name))
    g = v.grid
    if g.width != g.height:
        raise RulesStringError(_("OpenTafl boards are square; {name} is {size}").format(name=v.name,
                                                                                        size=v.size_words))
    entries = _ot_entries(v)
    decoded = _decode_options(dict(entries), g)
    warnings: list[str] = []
    extra: list[tuple[str, str]] = []
    shipped = preset(v.id)
    if shipped is not None and shipped.board_data == v.board_data:
        extra.append(("td-id", v.id))
    escape = g.marked("escape")
    if escape:
        extra.append(("td-escapes", _squares(g, escape)))
    import json

    for key, value in v.board_data.items():
        if key not in OT_BOARD_KEYS:
            text = json.dumps(value, separators=(",", ":"), ensure_ascii=True)
            if any(c.isspace() for c in text):
                raise RulesStringError(_("board.{key} cannot be written in a rules string").format(key=_v(key)))
            extra.append((TD_BOARD_PREFIX + key, text))
            warnings.append(_("OpenTafl cannot express the board's {key}; it will play without it").format(key=key))
    for spec in TAFL_OPTIONS:
        ours, theirs = v.options[spec.key], decoded[spec.key]
        if ours != theirs:
            extra.append((TD + spec.key, _td_text(ours)))
            if v.schema.is_active(spec.key, v.options):
                warnings.append(_("OpenTafl cannot express {option} = {ours}; it will play {theirs}")
                                .format(option=spec.key, ours=_td_text(ours), theirs=_td_text(theirs)))
    entries += extra
    entries.append(("start", _position_rank1_first(v.setup)))
    return Export(" ".join(f"{k}:{val}" for k, val in entries), warnings)


# ------------------------------------------------------------------------------------- import
def _types(text: str, key: str) -> str:
    bad = [c for c in text if c not in "tcnkmgTCNKMG"]
    if bad:
        raise RulesStringError(_("rules string: '{key}' has '{char}', which is not a piece letter")
                               .format(key=_v(key), char=_v(bad[0])))
    return text


def _choice(cfg: Mapping[str, str], key: str, table: Mapping[str, Any], default: str) -> Any:
    value = cfg.get(key, default)
    if value not in table:
        raise RulesStringError(_("rules string: {key}:{value} is not supported (allowed: {allowed})")
                               .format(key=_v(key), value=_v(value), allowed=known(table)))
    return table[value]


def _unsupported(key: str, value: str, why: str) -> RulesStringError:
    return RulesStringError(_("rules string: {key}:{value} is not supported: {why}")
                            .format(key=_v(key), value=_v(value), why=why))


def _speed(cfg: Mapping[str, str]) -> tuple[str, int]:
    """(movement, king_speed) from ``spd``."""
    text = cfg.get("spd", "-1").strip(",")
    try:
        values = [_whole(x) for x in text.split(",")]
    except ValueError:
        problem = _("rules string: spd:{value} is not a list of numbers").format(value=_v(text))
        raise RulesStringError(problem) from None
    if len(values) == 1:
        soldier_a = soldier_d = king = values[0]
    elif len(values) == 2:
        soldier_a, soldier_d = values
        king = soldier_d
    elif len(values) in SPEED_SLOTS:
        k, t, tt = SPEED_SLOTS[len(values)]
        king, soldier_a, soldier_d = values[k], values[t], values[tt]
    else:
        raise _unsupported("spd", text, "give 1, 2, 8, 10 or 12 speeds")
    if soldier_a != soldier_d or soldier_a not in (-1, 1):
        raise _unsupported("spd", text, "soldiers of both sides must move one square, or any distance")
    if king == 0 or king < -1:
        raise _unsupported("spd", text, "the king must be able to move")
    if soldier_a == 1:
        return "single_step", 0
    return "rook", 0 if king == -1 else king


def _decode_options(cfg: Mapping[str, str], g: GridGeometry) -> dict[str, OptionValue]:
    """Our toggles from OpenTafl entries (defaults where an entry is absent); td- entries are not read."""
    o: dict[str, OptionValue] = dict(TAFL_OPTIONS.defaults())
    o["first_move"] = _choice(cfg, "atkf", {"y": "attackers", "n": "defenders"}, "y")
    o["escape"] = _choice(cfg, "esc", {"c": "corner", "e": "edge"}, "c")
    o["encirclement"] = _choice(cfg, "surf", {"y": True, "n": False}, "y")
    # OpenTafl reads any tfr but w and l as a draw (RulesSerializer.getThreefoldResultForString)
    o["repetition"] = _choice(cfg, "tfr", {"i": "draw", "d": "draw", "w": "mover_loses", "l": "mover_wins"}, "d")
    o["king_armed"] = _choice(cfg, "ka", {"y": "yes", "n": "no", "h": "hammer", "a": "anvil"}, "y")
    ks = _choice(cfg, "ks", {"s": "s", "y": "s", "c": "c", "m": "m", "w": "w", "n": "w"}, "s")
    o["king_capture"] = {"s": "strong", "m": "strong", "c": "weak_near_throne", "w": "custodial"}[ks]
    o["king_edge_capture"] = ks == "m"
    o["movement"], o["king_speed"] = _speed(cfg)
    o["edge_forts"] = _choice(cfg, "efe", {"y": True, "n": False}, "n")
    o["linnaean_capture"] = _choice(cfg, "linc", {"y": True, "n": False}, "n")
    sw = _choice(cfg, "sw", {"n": "n", "w": "w", "s": "s"}, "n")
    o["shield_wall"] = sw != "n"
    if sw != "n":
        o["shield_wall_corners"] = sw == "s"
    o["shield_wall_flank"] = _choice(cfg, "swf", {"y": True, "n": False}, "y")

    # toggles about squares the board lacks are read when readable, else left at our defaults
    # (PlayTaflOnline writes "cen: cens:tcnkTCNK" for "no throne")
    for present, part in ((cfg.get("cor", "default") != "", _decode_corners),
                          (cfg.get("cen", "default") != "", _decode_throne)):
        try:
            o.update(part(cfg))
        except RulesStringError:
            if present:
                raise
    if cfg.get("afor"):
        o.update(_decode_camps(cfg))
    return o


def _reentry(cfg: Mapping[str, str], key: str) -> str:
    """A re-entry list as OpenTafl's parser reads it: only when ``cenre`` is present, and then an
    absent entry is the empty list (RulesSerializer.loadRulesRecord)."""
    if "cenre" not in cfg:
        return ALL_TYPES
    return _types(cfg.get(key, ""), key)


def _decode_camps(cfg: Mapping[str, str]) -> dict[str, OptionValue]:
    """Camp toggles from OpenTafl's attacker-fort lists, as its GenericRules plays them.

    Hostility (isSpaceHostileToSide) looks at the letters t and T only, whoever stands on the camp.
    A piece may pass a camp square when its letter is in ``aforp`` and either in ``aforre`` or it
    stands on a camp square itself (any camp); it may stop there when its letter is in ``afors`` too."""
    o: dict[str, OptionValue] = {"camps": True}
    aforh = _types(cfg.get("aforh", DEF_TYPES), "aforh")
    hostile = ("t" in aforh, "T" in aforh)
    table = {(False, False): "none", (False, True): "defenders", (True, True): "always"}
    if hostile not in table:
        raise _unsupported("aforh", aforh, _("camps hostile to attackers are hostile to defenders too"))
    o["camps_hostile"] = table[hostile]
    aforp = _types(cfg.get("aforp", ALL_TYPES), "aforp")
    afors = _types(cfg.get("afors", ALL_TYPES), "afors")
    aforre = _reentry(cfg, "aforre")
    if not ("t" in aforp and "t" in afors):
        raise _unsupported("aforp/afors", f"{aforp}/{afors}", _("attackers standing in a camp must be able to "
                                                                 "move inside it"))
    reenter = "t" in aforre
    o["camp_reentry"] = reenter
    o["camp_to_camp"] = not reenter
    crossing = {}
    for letter in "TK":  # defenders and the king never stand on a camp: they pass only with re-entry
        passes = letter in aforp and letter in aforre
        if passes and letter in afors:
            raise _unsupported("afors", afors, _("defenders and the king may never stop on a camp"))
        crossing[letter] = passes
    if crossing["T"] != crossing["K"]:
        raise _unsupported("aforp", aforp, _("the king and the defenders cross camps alike"))
    if crossing["T"] and not reenter:
        raise _unsupported("aforre", aforre, _("defenders may cross a camp only where attackers may enter one"))
    o["camp_crossing"] = "everyone" if crossing["T"] else "nobody"
    return o


def _decode_corners(cfg: Mapping[str, str]) -> dict[str, OptionValue]:
    """Corner toggles as OpenTafl plays its corner lists: hostility by the letters t and T whoever
    stands there; a piece reaches a corner when its letter is in ``corp`` and ``corre`` and stops
    there when it is in ``cors`` too (the king never starts on a corner, a soldier never does)."""
    o: dict[str, OptionValue] = {}
    corh = _types(cfg.get("corh", ALL_TYPES), "corh")
    if ("t" in corh) != ("T" in corh):
        raise _unsupported("corh", corh, "corners are hostile to both sides or to neither")
    o["corners_hostile"] = "t" in corh
    corp = _types(cfg.get("corp", "K"), "corp")
    cors = _types(cfg.get("cors", "K"), "cors")
    corre = _reentry(cfg, "corre")

    def enters(letter: str) -> bool:
        return letter in corp and letter in corre and letter in cors

    if enters("t"):
        raise _unsupported("cors", cors, "attackers may never enter a corner")
    if not enters("K"):
        raise _unsupported("corp/cors", f"{corp}/{cors}", _("the king may always enter a corner"))
    o["corner_entry"] = "defenders" if enters("T") else "king"
    return o


def _decode_throne(cfg: Mapping[str, str]) -> dict[str, OptionValue]:
    """Throne toggles as OpenTafl plays its centre lists: ``cenh`` (occupied) and ``cenhe`` (empty)
    by the letters t and T; a piece passes the throne when its letter is in ``cenp`` and in
    ``cenre`` (none of them starts on it but the king, who then leaves it), and stops there when
    its letter is in ``cens`` too."""
    o: dict[str, OptionValue] = {}
    cenh = _types(cfg.get("cenh", ATT_TYPES), "cenh")
    cenhe = _types(cfg.get("cenhe", ALL_TYPES), "cenhe")
    # the occupied throne holds the king: an armed king is an anvil against attackers anyway
    king_anvil = cfg.get("ka", "y") in ("y", "a")
    occupied_t = "t" in cenhe if king_anvil else "t" in cenh
    hostile = ("t" in cenhe, occupied_t, "T" in cenhe, "T" in cenh)
    table = {(False, False, False, False): "never", (True, True, False, False): "attackers",
             (True, True, True, False): "empty_all", (True, True, True, True): "always"}
    if hostile not in table:
        raise _unsupported("cenh/cenhe", f"{cenh}/{cenhe}", "the throne must be hostile to attackers whenever it "
                           "is hostile to defenders")
    o["throne_hostile"] = table[hostile]
    cenp = _types(cfg.get("cenp", ALL_TYPES), "cenp")
    cens = _types(cfg.get("cens", "K"), "cens")
    cenre = _types(cfg.get("cenre", ALL_TYPES), "cenre")

    def passes(letter: str) -> bool:
        return letter in cenp and letter in cenre

    if passes("t") != passes("T"):
        raise _unsupported("cenp", cenp, "both sides may cross the throne, or neither")
    if passes("t") and ("t" in cens or "T" in cens):
        raise _unsupported("cens", cens, "only the king may stop on the throne")
    if passes("t") and not passes("K"):
        raise _unsupported("cenp", cenp, _("the king may cross the throne wherever soldiers may"))
    o["throne_passable"] = "everyone" if passes("t") else "king" if passes("K") else "nobody"
    o["throne_reentry"] = passes("K") and "K" in cens
    return o


def _whole(text: str) -> int:
    """A whole number written in ASCII digits (``int`` would also take '٣' or ' 7'); ValueError otherwise."""
    if not re.fullmatch(r"-?[0-9]{1,9}", text):
        raise ValueError(text)
    return int(text)


def _board_squares(g: GridGeometry, text: str, key: str) -> list[str]:
    names = [s for s in text.split(",") if s]
    seen: set[int] = set()
    for name in names:
        try:
            square = g.parse_square(name)
        except ValueError as exc:
            raise RulesStringError(_("rules string: {key}: {problem}").format(key=_v(key), problem=exc)) from None
        if square in seen:
            raise RulesStringError(_("rules string: {key} names the square {square} twice").format(
                key=_v(key), square=_v(name)))
        seen.add(square)
    return names


def _check_keys(entries: list[tuple[str, str]]) -> dict[str, str]:
    cfg: dict[str, str] = {}
    for key, value in entries:
        if key in cfg:  # OpenTafl keeps the last; a string that says two things is refused, not guessed at
            raise RulesStringError(_("rules string: the key '{key}' is given twice").format(key=_v(key)))
        if key.startswith(TD_BOARD_PREFIX) and key[len(TD_BOARD_PREFIX):] in OT_BOARD_KEYS:
            raise RulesStringError(_("rules string: '{key}' is not an entry: the board's {what} is given by OpenTafl's "
                                     "own entries (dim, cen, cor, afor, start)").format(
                key=_v(key), what=_v(key[len(TD_BOARD_PREFIX):])))
        if key not in OT_KEYS and not key.startswith(TD):
            raise RulesStringError(_("rules string: the key '{key}' is not one Tafl Desktop supports")
                                   .format(key=_v(key)))
        if key.startswith(TD) and key not in TD_BOARD and key[len(TD):] not in TAFL_OPTIONS \
                and not key.startswith(TD_BOARD_PREFIX):
            raise RulesStringError(_("rules string: the key '{key}' is not one Tafl Desktop supports")
                                   .format(key=_v(key)))
        cfg[key] = value
    if "dim" not in cfg:
        raise RulesStringError(_("rules string: 'dim' (the board size) is missing"))
    if "start" not in cfg and "starti" not in cfg:
        raise RulesStringError(_("rules string: the starting position ('start' or 'starti') is missing"))
    if "start" in cfg and "starti" in cfg:
        raise RulesStringError(_("rules string: give the starting position once, as 'start' or as 'starti'"))
    for key in ("kj", "ber"):
        if cfg.get(key, "n") != "n":
            raise _unsupported(key, cfg[key], "Tafl Desktop has no jumping kings or berserk moves")
    if cfg.get("dfor"):
        raise _unsupported("dfor", cfg["dfor"], "Tafl Desktop has no defender forts")
    return cfg


def variant_from_rules_string(text: str) -> Variant:
    """The variant a rules string describes: a preset when it names one (``td-id``) on the same
    board, otherwise a new variant named after its ``name``.  RulesStringError names the key at fault."""
    cfg = _check_keys(split_entries(text))
    try:
        size = _whole(cfg["dim"])
    except ValueError:
        raise RulesStringError(_("rules string: dim:{value} is not a number").format(value=_v(cfg["dim"]))) from None
    if not 5 <= size <= 19:
        raise RulesStringError(_("rules string: dim:{value} is outside 5 to 19").format(value=size))
    g = GridGeometry(size, size)
    if "starti" in cfg:
        setup = cfg["starti"]
    else:
        rows = [r for r in cfg["start"].strip().strip("/").split("/")]
        setup = "/" + "/".join(reversed(rows)) + "/"
    board: dict[str, Any] = {"width": size, "height": size}
    if "cen" in cfg:
        cen = _board_squares(g, cfg["cen"], "cen")
        if len(cen) > 1:
            raise _unsupported("cen", cfg["cen"], "Tafl Desktop boards have one throne")
        board["throne"] = ("centre" if g.parse_square(cen[0]) == g.centre and size % 2 else cen[0]) if cen else "none"
    elif size % 2 == 0:
        board["throne"] = "none"
    if "cor" in cfg:
        cor = _board_squares(g, cfg["cor"], "cor")
        board["corners"] = ("corners" if {g.parse_square(s) for s in cor} == set(g.corner_squares) else cor) \
            if cor else "none"
    if cfg.get("afor"):
        board["camps"] = _board_squares(g, cfg["afor"], "afor")
    if cfg.get("td-escapes"):
        board["escape_squares"] = _board_squares(g, cfg["td-escapes"], "td-escapes")
    for key, value in cfg.items():
        if key.startswith(TD_BOARD_PREFIX):
            import json

            if value.count("[") + value.count("{") > MAX_BOARD_BRACKETS:
                raise RulesStringError(_("rules string: {key} is nested too deeply").format(key=_v(key)))
            try:
                board[key[len(TD_BOARD_PREFIX):]] = json.loads(value)
            except (ValueError, RecursionError):
                raise RulesStringError(_("rules string: {key} is not readable").format(key=_v(key))) from None
    board["setup"] = setup
    options = _decode_options(cfg, g)
    for key, value in cfg.items():
        if key.startswith(TD) and key not in TD_BOARD and not key.startswith(TD_BOARD_PREFIX):
            spec = TAFL_OPTIONS[key[len(TD):]]
            try:
                options[spec.key] = spec.parse_text(value)
            except ValueError as exc:
                raise RulesStringError(_("rules string: {key}: {problem}").format(key=_v(key), problem=exc)) from None
    name = cfg.get("name", "").replace("_", " ").strip() or "OpenTafl variant"
    slug = "".join(c if c.isalnum() else "_" for c in name.lower()).strip("_")[:48] or "opentafl"
    data = {"id": f"ot_{slug}", "name": name[:80], "family": "tafl", "board": board, "options": options,
            "sources": ["OpenTafl rules string"]}
    try:
        variant = variant_from_data(data, where=_("rules string"))
    except RulesStringError:
        raise
    except VariantError as exc:  # a string that parses but describes no playable board: one kind of error
        raise RulesStringError(str(exc)) from None
    td_id = cfg.get("td-id", "")
    base = preset(td_id) if td_id else None
    if base is not None and base.traits.opentafl and _same_board(base, variant):
        return base.with_options(options)
    return variant


def _same_board(a: Variant, b: Variant) -> bool:
    """Same squares, marks and starting position (however the setup text is spelled)."""
    if a.geometry != b.geometry:
        return False
    ra, rb = a.make_rules(), b.make_rules()
    return ra.position_key(ra.initial_position()) == rb.position_key(rb.initial_position())


def looks_like_rules_string(text: str) -> bool:
    """A rules string starts with its board size (``dim:``)."""
    return text.lstrip().startswith("dim:")


register_name_reader("dim:", variant_from_rules_string)  # find_variant("dim:11 ...") reads rules strings
