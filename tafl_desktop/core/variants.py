"""Variant files: a game as data (board, setup, rule toggles, sources), read and written as TOML.

Presets live in ``resources/variants/*.toml``; a user copies one, changes toggles and loads it
back.  Files are parsed as data only (``tomllib``), size-limited, and every field is checked:
errors name the file, the key (or the line, for TOML syntax) and what is allowed, and are raised
as :class:`VariantError` so no caller ever shows a traceback.
"""

from __future__ import annotations

import copy
import tomllib
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from tafl_desktop.core import marks
from tafl_desktop.core.dablot_options import DABLOT_OPTIONS
from tafl_desktop.core.game import Side
from tafl_desktop.core.geometry import GraphGeometry, GridGeometry, checkerboard, cross_board, dablot_lattice
from tafl_desktop.core.hunt_options import HUNT_OPTIONS
from tafl_desktop.core.marks import N_
from tafl_desktop.core.marks import gettext as _
from tafl_desktop.core.options import OptionSchema, OptionValue
from tafl_desktop.core.quoting import known, quote, shown
from tafl_desktop.core.safe_files import read_limited, write_safely
from tafl_desktop.core.side_words import agree, side_words
from tafl_desktop.core.tafl_options import TAFL_OPTIONS

MAX_FILE_BYTES = 256 * 1024

TOP_KEYS = ("id", "name", "family", "description", "sources", "notes", "sides", "board", "options")
GRID_BOARD_KEYS = ("width", "height", "throne", "corners", "camps", "escape_squares", "walls", "room", "doorways",
                   "setup")
GRAPH_BOARD_KEYS = ("kind", "diagonals", "size", "pen", "home", "setup")
DABLOT_BOARD_KEYS = ("kind", "cols", "rows", "setup")


class VariantError(ValueError):
    """A variant that cannot be used; the message is one clear line for the user."""


@dataclass(frozen=True)
class Family:
    """A game family: its option schema and how to build its rules object."""

    name: str
    label: str
    schema: OptionSchema
    sides: tuple[str, str]
    board_keys: tuple[str, ...]

    def make_rules(self, variant: Variant):
        if self.name == "tafl":
            from tafl_desktop.core.tafl import TaflRules

            return TaflRules(variant)
        if self.name == "hunt":
            from tafl_desktop.core.hunt import HuntRules

            return HuntRules(variant)
        if self.name == "dablot":
            from tafl_desktop.core.dablot import DablotRules

            return DablotRules(variant)
        raise VariantError(f"family '{self.name}' has no rules engine yet")


FAMILIES: dict[str, Family] = {
    "tafl": Family("tafl", N_("Tafl"), TAFL_OPTIONS, (N_("Attackers"), N_("Defenders")), GRID_BOARD_KEYS),
    "hunt": Family("hunt", N_("Fox games"), HUNT_OPTIONS, (N_("Flock"), N_("Hunters")), GRAPH_BOARD_KEYS),
    "dablot": Family("dablot", N_("Dablot"), DABLOT_OPTIONS, (N_("South"), N_("North")), DABLOT_BOARD_KEYS),
}


@dataclass(frozen=True)
class Variant:
    """A playable game: geometry, starting setup and resolved option values, plus its sources."""

    id: str
    name: str
    family: str
    geometry: GridGeometry | GraphGeometry
    setup: str
    options: dict[str, OptionValue]
    description: str = ""
    sources: tuple[str, ...] = ()
    notes: str = ""
    board_data: dict[str, Any] = field(default_factory=dict, compare=False)
    preset_options: dict[str, OptionValue] = field(default_factory=dict, compare=False)
    path: str = field(default="", compare=False)
    sides: tuple[str, str] = ("Attackers", "Defenders")

    @property
    def schema(self) -> OptionSchema:
        """The family's toggles on this board, in this variant's words: toggles about special
        squares the board lacks (corners, throne, camps) are inactive, so panel and rule sheet
        leave them out, and the texts name the sides as the variant does ("the fox")."""
        return FAMILIES[self.family].schema.for_board(self.board_features).for_words(self.words)

    @property
    def board_features(self) -> frozenset[str]:
        """The kinds of special squares the board has (throne, corner, camp, pen...), plus
        ``"diagonal_lines"`` on a point-and-line board that draws diagonals: what a toggle's
        ``needs_mark`` asks for."""
        g = self.geometry
        diagonal = g.kind == "graph" and any(kind == "diag" for _a, _b, kind in g.lines)
        return frozenset(g.marks) | ({"diagonal_lines"} if diagonal else frozenset())

    @property
    def words(self) -> dict[str, str]:
        """The side names the rule texts use (see :mod:`tafl_desktop.core.side_words`), in the
        reader's language."""
        names = self.side_names
        words = side_words(names, self.side_count(Side.DEFENDERS))
        if marks.language() == "de":  # German nouns keep their capital inside a sentence
            words.update(many=names[0], hunters=names[1])
        return words

    @property
    def title(self) -> str:
        """The variant's name in the reader's language (``name`` stays the file's own text)."""
        return marks.gettext(self.name)

    @property
    def blurb(self) -> str:
        """The description in the reader's language."""
        return marks.gettext(self.description) if self.description else ""

    @property
    def side_names(self) -> tuple[str, str]:
        """The two sides' names in the reader's language (``sides`` stays the file's own text,
        which the ``--to-move`` words and the JSON keys use)."""
        return (marks.gettext(self.sides[0]), marks.gettext(self.sides[1]))

    def side_count(self, side: Side | int) -> int:
        """Pieces of ``side`` in the starting setup (read from the setup text, so asking costs no
        rules object): Tafl rows count ``t`` against ``T`` and ``K``; the other families list
        each side's points after ``flock=``/``hunters=`` or ``south=``/``north=``."""
        if self.family == "tafl":
            return sum(self.setup.count(c) for c in (("t",) if int(side) == 0 else ("T", "K")))
        label = {"hunt": ("flock", "hunters"), "dablot": ("south", "north")}.get(self.family, ("", ""))
        for part in self.setup.split():
            name, _, squares = part.partition("=")
            if name == label[int(side)]:
                return len([s for s in squares.split(",") if s])
        return 0

    def begins_text(self, side: Side | int) -> str:
        """"Geese begin" / "Fox begins": the side's name with a verb that agrees with it."""
        if marks.language() == "en":
            return f"{self.sides[int(side)]} {agree('begin', self.side_count(side))}"
        return marks.ngettext("{side} begins", "{side} begin", self.side_count(side)).format(
            side=self.side_names[int(side)])

    def with_options(self, changes: Mapping[str, Any]) -> Variant:
        """The same variant with some toggles changed (validated); the preset values are kept for
        showing what changed."""
        opts = dict(self.options)
        schema = self.schema
        for k, v in changes.items():
            if k not in schema:
                raise VariantError(f"unknown option {quote(k)} for {self.family}; known: {known(schema.keys())}")
            try:
                opts[k] = schema[k].validate(v)
            except ValueError as exc:
                raise VariantError(str(exc)) from None
            why = schema.unfit_reason(k, opts[k], self.options.get(k, schema[k].default))
            if why:
                raise VariantError(why)
        return replace(self, options=opts)

    def changed_options(self) -> dict[str, OptionValue]:
        """Toggles whose value differs from the preset this variant was loaded from."""
        return {k: v for k, v in self.options.items() if self.preset_options.get(k, v) != v}

    def make_rules(self):
        return FAMILIES[self.family].make_rules(self)

    @property
    def first_side(self) -> Side:
        first = str(self.options.get("first_move", "attackers"))
        if self.family == "tafl":
            return Side.parse(first)
        return Side(0 if first in ("flock", "south") else 1)

    def side_key(self, side: Side | int) -> str:
        """Name of a side in JSON and the CLI: attackers/defenders for Tafl, else the variant's
        own side names in lower case (e.g. geese/fox)."""
        if self.family == "tafl":
            return Side(side).key
        return self.sides[int(side)].lower()

    def parse_side(self, text: str) -> Side:
        t = text.strip().lower()
        for i, name in enumerate(self.sides):
            if t == name.lower():
                return Side(i)
        try:
            return Side.parse(t)
        except ValueError:
            names = " or ".join(n.lower() for n in self.sides)
            raise ValueError(f"{quote(text)} is not a side of {self.name}: use {names}") from None

    @property
    def size_text(self) -> str:
        return f"{self.geometry.width}x{self.geometry.height}"

    @property
    def board_text(self) -> str:
        """The board in a few words for the window ("11x11 board", "33-point cross",
        "8x8 checkerboard", "32-point lattice")."""
        g = self.geometry
        if g.kind == "grid":
            return _("{size} board").format(size=self.size_text)
        if g.style == "checker":
            return _("{size} checkerboard").format(size=self.size_text)
        if self.family == "dablot":
            return _("{n}-point lattice").format(n=g.size)
        return _("{n}-point cross").format(n=g.size)

    def to_data(self) -> dict[str, Any]:
        """The variant as plain data (what a variant file and a saved game hold); a deep copy, so
        callers may change it without touching the cached preset."""
        return copy.deepcopy({
            "id": self.id,
            "name": self.name,
            "family": self.family,
            "description": self.description,
            "sources": list(self.sources),
            "notes": self.notes,
            "sides": list(self.sides),
            "board": dict(self.board_data),
            "options": {k: v for k, v in self.options.items()
                        if not (k in self.schema and self.schema[k].omit_default and v == self.schema[k].default)},
        })


#: Longest variant name (it is the window's title and heads every printed page).
MAX_NAME = 100
#: Longest side name a variant file may give (it is printed in headings and move lists).
MAX_SIDE_NAME = 30


def _side_name_ok(name: Any) -> bool:
    """A side name is words: it goes into rule sentences, headings and the move list (any
    alphabet: "Sámi" is fine; braces, markup and control characters are not)."""
    return (isinstance(name, str) and 0 < len(name.strip()) <= MAX_SIDE_NAME
            and all(ch.isalnum() or ch in " -'’." for ch in name))


# ------------------------------------------------------------------------------------- parsing
def _square_list(g: GridGeometry | GraphGeometry, value: Any, where: str) -> frozenset[int]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise VariantError(f"{where} must be a list of square names like [\"a1\", \"k11\"]")
    out = set()
    for v in value:
        try:
            out.add(g.parse_square(v))
        except ValueError as exc:
            raise VariantError(f"{where}: {exc}") from None
    return frozenset(out)


def _dablot_geometry(board: Mapping[str, Any], where: str) -> GraphGeometry:
    if board.get("kind", "dablot") != "dablot":
        raise VariantError(f"{where}: 'board.kind' must be \"dablot\" for the Dablot family")
    cols, rows = board.get("cols", 6), board.get("rows", 7)
    for name, v in (("cols", cols), ("rows", rows)):
        if not isinstance(v, int) or isinstance(v, bool) or not 3 <= v <= 10:
            raise VariantError(f"{where}: 'board.{name}' must be a whole number of lines from 3 to 10")
    return dablot_lattice(cols, rows)


def _graph_geometry(board: Mapping[str, Any], where: str) -> GraphGeometry:
    kind = board.get("kind")
    if kind == "cross33":
        diag = board.get("diagonals", "alternating")
        if diag not in ("none", "alternating", "full"):
            raise VariantError(f"{where}: 'board.diagonals' must be \"none\", \"alternating\" or \"full\"")
        geo = cross_board(diag)
    elif kind == "checker":
        size = board.get("size", 8)
        if not isinstance(size, int) or isinstance(size, bool) or not 4 <= size <= 12 or size % 2:
            raise VariantError(f"{where}: 'board.size' must be an even number from 4 to 12")
        geo = checkerboard(size)
    else:
        raise VariantError(f"{where}: 'board.kind' must be \"cross33\" or \"checker\", got {quote(kind)}")
    marks = {}
    for key in ("pen", "home"):
        if key in board:
            marks[key] = _square_list(geo, board[key], f"{where}: 'board.{key}'")
    if "home" not in marks:
        low = min(c[1] for c in geo.coords)
        marks["home"] = frozenset(i for i, c in enumerate(geo.coords) if c[1] == low)
    return GraphGeometry(geo.coords, geo.names, geo.lines, marks, geo.unit, geo.style)


def _geometry(board: Mapping[str, Any], where: str, family: str = "tafl") -> GridGeometry | GraphGeometry:
    allowed = FAMILIES[family].board_keys
    for k in board:
        if k not in allowed:
            raise VariantError(f"{where}: unknown key {quote('board.' + str(k))}; allowed: {known(allowed)}")
    if family == "dablot":
        return _dablot_geometry(board, where)
    if family != "tafl":
        return _graph_geometry(board, where)
    w = board.get("width")
    h = board.get("height", w)
    for name, v in (("width", w), ("height", h)):
        if not isinstance(v, int) or isinstance(v, bool) or not 5 <= v <= 19:
            raise VariantError(f"{where}: 'board.{name}' must be a whole number from 5 to 19, got {quote(v)}")
    plain = GridGeometry(w, h)
    marks: dict[str, frozenset[int]] = {}
    throne = board.get("throne", "centre")
    if throne == "centre":
        if w % 2 == 0 or h % 2 == 0:
            raise VariantError(f"{where}: 'board.throne' = \"centre\" needs an odd board; use \"none\" or a square")
        marks["throne"] = frozenset({plain.centre})
    elif throne == "none":
        pass
    elif isinstance(throne, str):
        marks["throne"] = _square_list(plain, [throne], f"{where}: 'board.throne'")
    else:
        raise VariantError(f"{where}: 'board.throne' must be \"centre\", \"none\" or a square name")
    corners = board.get("corners", "corners")
    if corners == "corners":
        marks["corner"] = plain.corner_squares
    elif corners == "none":
        pass
    else:
        marks["corner"] = _square_list(plain, corners, f"{where}: 'board.corners'")
    if "camps" in board:
        marks["camp"] = _square_list(plain, board["camps"], f"{where}: 'board.camps'")
    if "escape_squares" in board:
        marks["escape"] = _square_list(plain, board["escape_squares"], f"{where}: 'board.escape_squares'")
    return GridGeometry(w, h, {k: v for k, v in marks.items() if v}, _walls(plain, board, where))


def _wall(g: GridGeometry, text: Any, where: str) -> tuple[int, int]:
    """One wall written ``"c5|c6"``: between two orthogonally adjacent squares."""
    if not isinstance(text, str) or text.count("|") != 1:
        raise VariantError(f"{where} must be walls written like \"c5|c6\" (two adjacent squares), got {quote(text)}")
    try:
        a, b = (g.parse_square(part) for part in text.split("|"))
    except ValueError as exc:
        raise VariantError(f"{where}: {exc}") from None
    if b not in g.neighbours(a):
        raise VariantError(f"{where}: {quote(text)} is not two side-by-side squares, so no wall can stand between them")
    return (min(a, b), max(a, b))


def _walls(g: GridGeometry, board: Mapping[str, Any], where: str) -> frozenset[tuple[int, int]]:
    """Walls as data: ``walls`` lists single walls; ``room`` ("c3:e5", opposite corners) walls a
    rectangle all round, less its ``doorways`` (walls of the room written like single walls)."""
    walls: set[tuple[int, int]] = set()
    listed = board.get("walls", [])
    if not isinstance(listed, list):
        raise VariantError(f"{where}: 'board.walls' must be a list like [\"c5|c6\", \"e5|f5\"]")
    walls.update(_wall(g, w, f"{where}: 'board.walls'") for w in listed)
    if "doorways" in board and "room" not in board:
        raise VariantError(f"{where}: 'board.doorways' needs a 'board.room' to open")
    if "room" in board:
        room = board["room"]
        parts = room.split(":") if isinstance(room, str) else []
        try:
            if len(parts) != 2:
                raise ValueError(room)
            (f1, r1), (f2, r2) = (g.file_rank(g.parse_square(p)) for p in parts)
        except ValueError:
            raise VariantError(f"{where}: 'board.room' must be two opposite corner squares like \"c3:e5\"") from None
        lo_f, hi_f, lo_r, hi_r = min(f1, f2), max(f1, f2), min(r1, r2), max(r1, r2)
        ring: set[tuple[int, int]] = set()
        for f in range(lo_f, hi_f + 1):
            for r in range(lo_r, hi_r + 1):
                inside = g.index(f, r)
                for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    nf, nr = f + df, r + dr
                    if g.on_board(nf, nr) and not (lo_f <= nf <= hi_f and lo_r <= nr <= hi_r):
                        out = g.index(nf, nr)
                        ring.add((min(inside, out), max(inside, out)))
        doors = board.get("doorways", [])
        if not isinstance(doors, list):
            raise VariantError(f"{where}: 'board.doorways' must be a list like [\"d5|d6\"]")
        for d in doors:
            pair = _wall(g, d, f"{where}: 'board.doorways'")
            if pair not in ring:
                raise VariantError(f"{where}: 'board.doorways': {quote(d)} is not in the wall of the room "
                                   f"{quote(room)}")
            ring.discard(pair)
        walls |= ring
    return frozenset(walls)


def variant_from_data(data: Mapping[str, Any], where: str = "variant", overrides: Mapping[str, Any] | None = None,
                      path: str = "") -> Variant:
    """Validate plain data (from TOML or a saved game) into a Variant; VariantError otherwise."""
    if not isinstance(data, Mapping):
        raise VariantError(f"{where}: a variant must be a table of keys")
    for k in data:
        if k not in TOP_KEYS:
            raise VariantError(f"{where}: unknown key {quote(k)}; allowed: {known(TOP_KEYS)}")
    for k in ("id", "name"):
        if not isinstance(data.get(k), str) or not data[k].strip():
            raise VariantError(f"{where}: '{k}' must be a non-empty text")
    if len(data["name"]) > MAX_NAME or any(ch != " " and unicodedata.category(ch)[0] in "CZ" for ch in data["name"]):
        # control, format (direction marks and overrides), separator: a name is shown in messages
        raise VariantError(_("{where}: 'name' must be one line of at most {n} characters").format(
            where=where, n=MAX_NAME))
    vid = data["id"]
    if not all(ch.isalnum() or ch in "_-" for ch in vid) or len(vid) > 64:
        raise VariantError(f"{where}: 'id' may use only letters, digits, '_' and '-' (64 at most)")
    family = data.get("family", "tafl")
    if not isinstance(family, str) or family not in FAMILIES:
        raise VariantError(f"{where}: 'family' = {quote(family)} is unknown; known: {known(FAMILIES)}")
    for k in ("description", "notes"):
        if not isinstance(data.get(k, ""), str):
            raise VariantError(f"{where}: '{k}' must be text")
    sources = data.get("sources", [])
    if not isinstance(sources, list) or not all(isinstance(s, str) for s in sources):
        raise VariantError(f"{where}: 'sources' must be a list of texts")
    board = data.get("board")
    if not isinstance(board, Mapping):
        raise VariantError(f"{where}: the [board] table is missing")
    geometry = _geometry(board, where, family)
    sides = data.get("sides", list(FAMILIES[family].sides))
    if (not isinstance(sides, list) or len(sides) != 2 or not all(_side_name_ok(x) for x in sides)
            or sides[0].lower() == sides[1].lower()):
        raise VariantError(f"{where}: 'sides' must be two different names of up to {MAX_SIDE_NAME} letters, digits, "
                           "spaces, hyphens or apostrophes, e.g. [\"Geese\", \"Fox\"]")
    setup = board.get("setup")
    if not isinstance(setup, str):
        raise VariantError(f"{where}: 'board.setup' must be the starting position in row notation")
    options = data.get("options", {})
    if not isinstance(options, Mapping):
        raise VariantError(f"{where}: [options] must be a table")
    schema = FAMILIES[family].schema
    try:
        preset = schema.resolve(options, where=f"{where} [options]")
        resolved = schema.resolve({**preset, **(overrides or {})}, where=f"{where} [options]")
    except ValueError as exc:
        msg = str(exc)
        raise VariantError(msg if where in msg else f"{where}: {msg}") from None
    variant = Variant(
        id=vid, name=data["name"], family=family, geometry=geometry, setup=setup, options=resolved,
        description=data.get("description", ""), sources=tuple(sources), notes=data.get("notes", ""),
        board_data=dict(board), preset_options=preset, path=path, sides=(sides[0], sides[1]),
    )
    bound = variant.schema
    explicit = {**options, **(overrides or {})}
    for key, value in resolved.items():
        why = bound.unfit_reason(key, value, schema[key].default) if key in explicit else (
            None if bound.choice_fits(key, value) else bound.unfit_reason(key, value, value))
        if why:
            raise VariantError(f"{where}: {why}")
    try:
        variant.make_rules()
    except ValueError as exc:
        raise VariantError(f"{where}: 'board.setup': {exc}") from None
    return variant


def load_variant(path: str | Path, overrides: Mapping[str, Any] | None = None) -> Variant:
    """Read and validate a variant file."""
    p = Path(path)
    where = shown(p.name or str(path))
    try:
        raw = read_limited(p, MAX_FILE_BYTES)
    except OSError as exc:
        raise VariantError(f"{where}: cannot read the file ({shown(exc.strerror or exc, 200)})") from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise VariantError(f"{where}: not a UTF-8 text file") from None
    except tomllib.TOMLDecodeError as exc:
        raise VariantError(f"{where}: not valid TOML: {shown(exc, 160)}") from None
    except RecursionError:
        raise VariantError(_("{where}: not valid TOML: nested too deeply").format(where=where)) from None
    except ValueError as exc:  # a number with more digits than Python converts
        raise VariantError(_("{where}: not valid TOML: {problem}").format(where=where, problem=shown(exc, 120))) \
            from None
    return variant_from_data(data, where, overrides, path=str(p))


# ------------------------------------------------------------------------------------- writing
def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        if "\n" in v:
            return '"""\n' + v.replace("\\", "\\\\").replace('"""', '\\"\\"\\"') + '"""'
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise TypeError(f"cannot write {type(v).__name__} to TOML")


def dump_variant(variant: Variant) -> str:
    """TOML text of a variant, loadable by :func:`load_variant`."""
    d = variant.to_data()
    lines = [f"{k} = {_toml_value(d[k])}" for k in ("id", "name", "family", "description", "sources", "notes",
                                                     "sides")]
    lines += ["", "[board]"]
    lines += [f"{k} = {_toml_value(v)}" for k, v in d["board"].items()]
    lines += ["", "[options]"]
    lines += [f"{k} = {_toml_value(v)}" for k, v in d["options"].items()]
    return "\n".join(lines) + "\n"


def save_variant(variant: Variant, path: str | Path) -> None:
    """Write a variant file atomically (temporary file, then rename)."""
    write_safely(path, dump_variant(variant))


# ------------------------------------------------------------------------------------- presets
_PRESETS: dict[str, Variant] | None = None


def presets() -> dict[str, Variant]:
    """All shipped presets by id, in file-name order."""
    global _PRESETS
    if _PRESETS is None:
        from tafl_desktop.paths import variants_dir

        out: dict[str, Variant] = {}
        for p in sorted(variants_dir().glob("*.toml")):
            v = load_variant(p)
            out[v.id] = v
        _PRESETS = out
    return _PRESETS


_ONE_PRESET: dict[str, Variant] = {}


def _one_preset(name: str) -> Variant | None:
    """The preset ``name`` read from its own file (``<id>.toml``), or None when there is no such
    file or it holds another id (then :func:`presets` decides)."""
    if name in _ONE_PRESET:
        return _ONE_PRESET[name]
    if not name or not all(ch.isalnum() or ch in "_-" for ch in name) or len(name) > 64:
        return None
    from tafl_desktop.paths import variants_dir

    path = variants_dir() / f"{name}.toml"
    if not path.is_file():
        return None
    v = load_variant(path)
    if v.id != name:
        return None
    _ONE_PRESET[name] = v
    return v


def find_variant(name: str, overrides: Mapping[str, Any] | None = None) -> Variant:
    """A preset by id, a variant file by path, or an OpenTafl rules string (``dim:...``);
    VariantError with the known ids otherwise."""
    if name.lstrip().startswith("dim:"):
        from tafl_desktop.core.rules_string import variant_from_rules_string

        v = variant_from_rules_string(name)
        return v.with_options(overrides) if overrides else v
    if name.endswith(".toml") or "/" in name or "\\" in name:
        return load_variant(name, overrides)
    if _PRESETS is None:  # a command naming one preset need not read and check all of them
        v = _one_preset(name)
        if v is not None:
            return v.with_options(overrides) if overrides else v
    table = presets()
    if name not in table:
        raise VariantError(f"unknown variant {quote(name)}; presets: {known(table)} (or give a .toml file)")
    v = table[name]
    return v.with_options(overrides) if overrides else v
