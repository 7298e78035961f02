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
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from tafl_desktop.core import marks
from tafl_desktop.core.families import FAMILIES as FAMILIES  # re-exported: the registry of families
from tafl_desktop.core.families import Family
from tafl_desktop.core.game import Position, Rules, Side
from tafl_desktop.core.geometry import GraphGeometry, GridGeometry, checkerboard, cross_board, dablot_lattice
from tafl_desktop.core.marks import gettext as _
from tafl_desktop.core.marks import ngettext
from tafl_desktop.core.options import OptionSchema, OptionValue
from tafl_desktop.core.quoting import known, os_reason, quote, shown
from tafl_desktop.core.safe_files import read_limited, write_safely
from tafl_desktop.core.side_words import (
    agree,
    fill,
    nouns_keep_capitals,
    pair_text,
    paragraphs,
    sentence,
    side_context,
    side_name,
    side_subject,
    side_words,
    sides_context,
)

MAX_FILE_BYTES = 256 * 1024

TOP_KEYS = ("id", "name", "family", "description", "sources", "notes", "sides", "board", "options")


class VariantError(ValueError):
    """A variant that cannot be used; the message is one clear line for the user."""


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
    def grid(self) -> GridGeometry:
        """The board as squares (Tafl's boards); VariantError for a point-and-line board."""
        if isinstance(self.geometry, GraphGeometry):
            raise VariantError(f"{self.name} has no board of squares")
        return self.geometry

    @property
    def graph(self) -> GraphGeometry:
        """The board as points and lines (the Fox games, Dablot); VariantError for squares."""
        if not isinstance(self.geometry, GraphGeometry):
            raise VariantError(f"{self.name} has no board of points and lines")
        return self.geometry

    @property
    def traits(self) -> Family:
        """The family this variant belongs to, with what is true of every game in it."""
        return FAMILIES[self.family]

    @property
    def schema(self) -> OptionSchema:
        """The family's toggles on this board, in this variant's words: toggles about special
        squares the board lacks (corners, throne, camps) are inactive, so panel and rule sheet
        leave them out, and the texts name the sides as the variant does ("the fox")."""
        return FAMILIES[self.family].schema.for_board(self.board_features).for_words(self.words, self.sides_context)

    @property
    def board_features(self) -> frozenset[str]:
        """The kinds of special squares the board has (throne, corner, camp, pen...), plus
        ``"diagonal_lines"`` on a point-and-line board that draws diagonals: what a toggle's
        ``needs_mark`` asks for."""
        g = self.geometry
        diagonal = isinstance(g, GraphGeometry) and any(kind == "diag" for _a, _b, kind in g.lines)
        return frozenset(g.marks) | ({"diagonal_lines"} if diagonal else frozenset())

    @property
    def words(self) -> dict[str, str]:
        """The side names the rule texts use (see :mod:`tafl_desktop.core.side_words`), in the
        reader's language."""
        names = self.side_names
        words = side_words(names, self.side_count(Side.DEFENDERS), english=marks.language() == "en")
        if nouns_keep_capitals():  # German nouns keep their capital inside a sentence
            words.update(many=names[0], hunters=names[1])
        return words

    @property
    def sides_context(self) -> str:
        """The catalogue context of texts about this variant's pair of sides ("sides: Geese,
        Fox"): a Fox game's rule sentences are translated once per pair (see ``marks.N_pair``)."""
        return sides_context(self.sides)

    def side_context(self, side: Side | int) -> str:
        """The catalogue context of a text about one side ("side: Fox (of Geese, Fox)")."""
        return side_context(self.sides, int(side))

    def pair_text(self, text: str) -> str:
        """``text`` (marked ``N_pair``) in the reader's language as written for this pair of
        sides, its side placeholders filled; the family's sentence where the catalogue has no
        sentence for this pair (a variant file's own side names)."""
        return pair_text(self.sides, text, self.words)

    def pair_ntext(self, singular: str, plural: str, n: int) -> str:
        """:meth:`pair_text` for a text with a count."""
        return fill(marks.npgettext(self.sides_context, singular, plural, n), self.words)

    def side_text(self, side: Side | int, text: str, field: str = "side") -> str:
        """``text`` (marked ``N_side``) as written for ``side`` of this variant; ``{field}`` in
        the family's sentence (for side names the catalogue does not know) is the side as a
        sentence's subject (see :meth:`side_subject`)."""
        found = marks.pgettext(self.side_context(side), text)
        return fill(found, self.words).replace("{" + field + "}", self.side_subject(side))

    @property
    def title(self) -> marks.Title:
        """The variant's name in the reader's language (``name`` stays the file's own text); a
        translation may write ``{game:de}`` to put it after a preposition (:class:`marks.Title`)."""
        return marks.Title(marks.gettext(self.name))

    @property
    def blurb(self) -> str:
        """The description in the reader's language."""
        return marks.gettext(self.description) if self.description else ""

    @property
    def notes_text(self) -> str:
        """The notes in the reader's language (paragraphs as blank lines separate them)."""
        return marks.gettext(paragraphs(self.notes)) if self.notes.strip() else ""

    @property
    def sources_text(self) -> tuple[str, ...]:
        """The sources in the reader's language."""
        return tuple(marks.gettext(paragraphs(s)) for s in self.sources)

    @property
    def side_names(self) -> tuple[str, str]:
        """The two sides' names in the reader's language, as a heading or label shows them alone
        (``sides`` stays the file's own text, which the ``--to-move`` words and the JSON keys
        use).  Looked up for this pair of sides first: the German "Fox and Hounds" is "Wolf und
        Schafe", so its "Fox" is a "Wolf"."""
        return (side_name(self.sides, 0), side_name(self.sides, 1))

    def side_subject(self, side: Side | int) -> str:
        """The side as the subject of a sentence, with the article the language needs and in
        lower case ("the geese": Danish "gæssene", French "les oies", German "die Gänse"); a
        variant file's own side names, which the catalogue does not know, as they are.  A message puts it
        where its grammar wants it; :func:`~tafl_desktop.core.side_words.sentence` gives a
        sentence that starts with it its capital."""
        if marks.language() == "en":  # a people keeps its capital: "the Saami"
            name = self.sides[int(side)]
            return f"the {name if self.family == 'dablot' else name.lower()}"
        return side_subject(self.sides, int(side))

    def side_count(self, side: Side | int) -> int:
        """Pieces of ``side`` in the starting setup (read from the setup text, so asking costs no
        rules object): Tafl rows count ``t`` against ``T`` and ``K``; the other families list
        each side's points after ``flock=``/``hunters=`` or ``south=``/``north=``."""
        traits = self.traits
        if traits.setup_form == "rows":
            return sum(self.setup.count(c) for c in traits.piece_kinds if traits.piece_side(c) == int(side))
        for part in self.setup.split():
            name, _sep, squares = part.partition("=")
            if name == traits.setup_labels[int(side)]:
                return len([s for s in squares.split(",") if s])
        return 0

    def side_number(self, side: Side | int) -> int:
        """1 for a side of one piece (the fox), else 2: the count to give ``ngettext`` so that a
        verb agrees with the side ("der Fuchs beginnt", "die Gänse beginnen")."""
        return 1 if self.side_count(side) == 1 else 2

    def begins_text(self, side: Side | int) -> str:
        """"Geese begin" / "Fox begins": the side's name with a verb that agrees with it."""
        if marks.language() == "en":
            return f"{self.sides[int(side)]} {agree('begin', self.side_count(side))}"
        return sentence(marks.ngettext("{side} begins", "{side} begin", self.side_number(side)).format(
            side=self.side_subject(side)))

    def with_options(self, changes: Mapping[str, Any]) -> Variant:
        """The same variant with some toggles changed (validated); the preset values are kept for
        showing what changed."""
        opts = dict(self.options)
        schema = self.schema
        for k, v in changes.items():
            if k not in schema:
                raise VariantError(_("unknown option {key} for {family}; known: {known}").format(
                    key=quote(k), family=self.family, known=known(schema.keys())))
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

    def make_rules(self) -> Rules[Position]:
        """The rules of this variant (its family's rules object, built from its toggles)."""
        return self.traits.make_rules(self)

    @property
    def first_side(self) -> Side:
        values = self.traits.side_values
        first = str(self.options.get("first_move", values[0]))
        return Side(values.index(first)) if first in values else Side.parse(first)

    def side_key(self, side: Side | int) -> str:
        """Name of a side in JSON and the CLI: attackers/defenders for Tafl, else the variant's
        own side names in lower case (e.g. geese/fox)."""
        if self.traits.generic_side_keys:
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
            raise ValueError(_("{text} is not a side of {game}: use {first} or {second}").format(
                text=quote(text), game=self.title, first=self.sides[0].lower(), second=self.sides[1].lower())) from None

    @property
    def size_text(self) -> str:
        """The board's size as files and the command line's JSON write it ("11x11")."""
        return f"{self.geometry.width}x{self.geometry.height}"

    @property
    def size_words(self) -> str:
        """The board's size as a reader's language writes it ("11x11", "11×11")."""
        # TRANSLATORS: a board's size in columns and rows, e.g. 11x11; use your typography's sign.
        return _("{width}x{height}").format(width=self.geometry.width, height=self.geometry.height)

    @property
    def board_text(self) -> str:
        """The board in a few words for the window ("11x11 board", "33-point cross",
        "8x8 checkerboard", "32-point lattice")."""
        g = self.geometry
        if not isinstance(g, GraphGeometry):
            return _("{size} board").format(size=self.size_words)
        if g.style == "checker":
            return _("{size} checkerboard").format(size=self.size_words)
        if self.traits.board_style == "lattice":
            return marks.ngettext("{n}-point lattice", "{n}-point lattice", g.size).format(n=g.size)
        return marks.ngettext("{n}-point cross", "{n}-point cross", g.size).format(n=g.size)

    def to_data(self) -> dict[str, Any]:
        """The variant as plain data (what a variant file and a saved game hold); a deep copy, so
        callers may change it without touching the cached preset."""
        schema = self.schema  # built anew on each reading (the reader's language): read it once
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
                        if not (k in schema and schema[k].omit_default and v == schema[k].default)},
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
        raise VariantError(_('{where} must be a list of square names like ["a1", "k11"]').format(where=where))
    out = set()
    for v in value:
        try:
            out.add(g.parse_square(v))
        except ValueError as exc:
            raise VariantError(_("{where}: {problem}").format(where=where, problem=exc)) from None
    return frozenset(out)


def _dablot_geometry(board: Mapping[str, Any], where: str) -> GraphGeometry:
    if board.get("kind", "dablot") != "dablot":
        raise VariantError(_('{where}: \'board.kind\' must be "dablot" for the Dablot family').format(where=where))
    cols, rows = board.get("cols", 6), board.get("rows", 7)
    for name, v in (("cols", cols), ("rows", rows)):
        if not isinstance(v, int) or isinstance(v, bool) or not 3 <= v <= 10:
            raise VariantError(_("{where}: 'board.{name}' must be a whole number of lines from 3 to 10").format(
                where=where, name=name))
    return dablot_lattice(cols, rows)


def _graph_geometry(board: Mapping[str, Any], where: str) -> GraphGeometry:
    kind = board.get("kind")
    if kind == "cross33":
        diag = board.get("diagonals", "alternating")
        if diag not in ("none", "alternating", "full"):
            raise VariantError(_('{where}: \'board.diagonals\' must be "none", "alternating" or "full"').format(
                where=where))
        geo = cross_board(diag)
    elif kind == "checker":
        size = board.get("size", 8)
        if not isinstance(size, int) or isinstance(size, bool) or not 4 <= size <= 12 or size % 2:
            raise VariantError(_("{where}: 'board.size' must be an even number from 4 to 12").format(where=where))
        geo = checkerboard(size)
    else:
        raise VariantError(_('{where}: \'board.kind\' must be "cross33" or "checker", got {kind}').format(
            where=where, kind=quote(kind)))
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
            raise VariantError(_("{where}: unknown key {key}; allowed: {known}").format(
                where=where, key=quote('board.' + str(k)), known=known(allowed)))
    style = FAMILIES[family].board_style
    if style == "lattice":
        return _dablot_geometry(board, where)
    if style == "graph":
        return _graph_geometry(board, where)
    w = _board_size(board.get("width"), "width", where)
    h = _board_size(board.get("height", w), "height", where)
    plain = GridGeometry(w, h)
    marks: dict[str, frozenset[int]] = {}
    throne = board.get("throne", "centre")
    if throne == "centre":
        if w % 2 == 0 or h % 2 == 0:
            raise VariantError(_("{where}: 'board.throne' = \"centre\" needs an odd board; use \"none\" or a "
                                 "square").format(where=where))
        marks["throne"] = frozenset({plain.centre})
    elif throne == "none":
        pass
    elif isinstance(throne, str):
        marks["throne"] = _square_list(plain, [throne], f"{where}: 'board.throne'")
    else:
        raise VariantError(_('{where}: \'board.throne\' must be "centre", "none" or a square name').format(where=where))
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


def _board_size(v: Any, name: str, where: str) -> int:
    """A grid board's width or height as the file gives it: a whole number from 5 to 19."""
    if not isinstance(v, int) or isinstance(v, bool) or not 5 <= v <= 19:
        raise VariantError(_("{where}: 'board.{name}' must be a whole number from 5 to 19, got {value}").format(
            where=where, name=name, value=quote(v)))
    return v


def _wall(g: GridGeometry, text: Any, where: str) -> tuple[int, int]:
    """One wall written ``"c5|c6"``: between two orthogonally adjacent squares."""
    if not isinstance(text, str) or text.count("|") != 1:
        raise VariantError(_('{where} must be walls written like "c5|c6" (two adjacent squares), got {text}').format(
            where=where, text=quote(text)))
    try:
        a, b = (g.parse_square(part) for part in text.split("|"))
    except ValueError as exc:
        raise VariantError(_("{where}: {problem}").format(where=where, problem=exc)) from None
    if b not in g.neighbours(a):
        raise VariantError(_("{where}: {text} is not two side-by-side squares, so no wall can stand between "
                             "them").format(where=where, text=quote(text)))
    return (min(a, b), max(a, b))


def _walls(g: GridGeometry, board: Mapping[str, Any], where: str) -> frozenset[tuple[int, int]]:
    """Walls as data: ``walls`` lists single walls; ``room`` ("c3:e5", opposite corners) walls a
    rectangle all round, less its ``doorways`` (walls of the room written like single walls)."""
    walls: set[tuple[int, int]] = set()
    listed = board.get("walls", [])
    if not isinstance(listed, list):
        raise VariantError(_('{where}: \'board.walls\' must be a list like ["c5|c6", "e5|f5"]').format(where=where))
    walls.update(_wall(g, w, f"{where}: 'board.walls'") for w in listed)
    if "doorways" in board and "room" not in board:
        raise VariantError(_("{where}: 'board.doorways' needs a 'board.room' to open").format(where=where))
    if "room" in board:
        room = board["room"]
        parts = room.split(":") if isinstance(room, str) else []
        try:
            if len(parts) != 2:
                raise ValueError(room)
            (f1, r1), (f2, r2) = (g.file_rank(g.parse_square(p)) for p in parts)
        except ValueError:
            raise VariantError(_('{where}: \'board.room\' must be two opposite corner squares like "c3:e5"').format(
                where=where)) from None
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
            raise VariantError(_('{where}: \'board.doorways\' must be a list like ["d5|d6"]').format(where=where))
        for d in doors:
            pair = _wall(g, d, f"{where}: 'board.doorways'")
            if pair not in ring:
                raise VariantError(_("{where}: 'board.doorways': {doorway} is not in the wall of the room "
                                     "{room}").format(where=where, doorway=quote(d), room=quote(room)))
            ring.discard(pair)
        walls |= ring
    return frozenset(walls)


def variant_from_data(data: object, where: str = "variant", overrides: Mapping[str, Any] | None = None,
                      path: str = "") -> Variant:
    """Validate plain data (from TOML or a saved game: anything, checked here) into a Variant;
    VariantError otherwise."""
    if not isinstance(data, Mapping):
        raise VariantError(_("{where}: a variant must be a table of keys").format(where=where))
    for k in data:
        if k not in TOP_KEYS:
            raise VariantError(_("{where}: unknown key {key}; allowed: {known}").format(
                where=where, key=quote(k), known=known(TOP_KEYS)))
    for k in ("id", "name"):
        if not isinstance(data.get(k), str) or not data[k].strip():
            raise VariantError(_("{where}: '{key}' must be a non-empty text").format(where=where, key=k))
    if len(data["name"]) > MAX_NAME or any(ch != " " and unicodedata.category(ch)[0] in "CZ" for ch in data["name"]):
        # control, format (direction marks and overrides), separator: a name is shown in messages
        raise VariantError(ngettext("{where}: 'name' must be one line of at most {n} character",
                                    "{where}: 'name' must be one line of at most {n} characters", MAX_NAME).format(
            where=where, n=MAX_NAME))
    vid = data["id"]
    if not all(ch.isalnum() or ch in "_-" for ch in vid) or len(vid) > 64:
        raise VariantError(_("{where}: 'id' may use only letters, digits, '_' and '-' (64 at most)").format(
            where=where))
    family = data.get("family", "tafl")
    if not isinstance(family, str) or family not in FAMILIES:
        raise VariantError(_("{where}: 'family' = {family} is unknown; known: {known}").format(
            where=where, family=quote(family), known=known(FAMILIES)))
    for k in ("description", "notes"):
        if not isinstance(data.get(k, ""), str):
            raise VariantError(_("{where}: '{key}' must be text").format(where=where, key=k))
    sources = data.get("sources", [])
    if not isinstance(sources, list) or not all(isinstance(s, str) for s in sources):
        raise VariantError(_("{where}: 'sources' must be a list of texts").format(where=where))
    board = data.get("board")
    if not isinstance(board, Mapping):
        raise VariantError(_("{where}: the [board] table is missing").format(where=where))
    geometry = _geometry(board, where, family)
    sides = data.get("sides", list(FAMILIES[family].sides))
    if (not isinstance(sides, list) or len(sides) != 2 or not all(_side_name_ok(x) for x in sides)
            or sides[0].lower() == sides[1].lower()):
        raise VariantError(ngettext(
            "{where}: 'sides' must be two different names of up to {n} character (letters, digits, spaces, "
            'hyphens or apostrophes), e.g. ["Geese", "Fox"]',
            "{where}: 'sides' must be two different names of up to {n} characters (letters, digits, spaces, "
            'hyphens or apostrophes), e.g. ["Geese", "Fox"]', MAX_SIDE_NAME).format(where=where, n=MAX_SIDE_NAME))
    setup = board.get("setup")
    if not isinstance(setup, str):
        raise VariantError(_("{where}: 'board.setup' must be the starting position in row notation").format(
            where=where))
    options = data.get("options", {})
    if not isinstance(options, Mapping):
        raise VariantError(_("{where}: [options] must be a table").format(where=where))
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
            raise VariantError(_("{where}: {why}").format(where=where, why=why))
    try:
        variant.make_rules()
    except ValueError as exc:
        raise VariantError(_("{where}: 'board.setup': {problem}").format(where=where, problem=exc)) from None
    return variant


def load_variant(path: str | Path, overrides: Mapping[str, Any] | None = None) -> Variant:
    """Read and validate a variant file."""
    p = Path(path)
    where = shown(p.name or str(path))
    try:
        raw = read_limited(p, MAX_FILE_BYTES)
    except OSError as exc:
        raise VariantError(_("{where}: cannot read the file ({reason})").format(
            where=where, reason=os_reason(exc))) from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise VariantError(_("{where}: not a UTF-8 text file").format(where=where)) from None
    except tomllib.TOMLDecodeError as exc:
        raise VariantError(_("{where}: not valid TOML: {problem}").format(
            where=where, problem=shown(exc, 160))) from None
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
        from tafl_desktop.core.paths import variants_dir

        out: dict[str, Variant] = {}
        for p in sorted(variants_dir().glob("*.toml")):
            v = load_variant(p)
            out[v.id] = v
        _PRESETS = out
    return _PRESETS


#: Readers of variant names written in another notation, by the prefix that marks them: ``dim:``,
#: an OpenTafl rules string, is registered by :mod:`tafl_desktop.core.rules_string` (which the core
#: package imports first).  A registry rather than an import, because the rules-string reader
#: builds its variants with this module: importing it from here made an import cycle.
_NAME_READERS: dict[str, Callable[[str], Variant]] = {}


def register_name_reader(prefix: str, reader: Callable[[str], Variant]) -> None:
    """Let :func:`find_variant` read names that start with ``prefix`` with ``reader``."""
    _NAME_READERS[prefix] = reader


_ONE_PRESET: dict[str, Variant] = {}


def preset(name: str) -> Variant | None:
    """The shipped preset ``name``, or None.  Reads only that preset's own file while the whole
    set has not been read: an engine host asking whether its variant is a preset (the rules
    string's ``td-id``) must not pay for reading and checking every preset (~0.3 s)."""
    if _PRESETS is None:
        one = _one_preset(name)
        if one is not None:
            return one
    return presets().get(name)


def _one_preset(name: str) -> Variant | None:
    """The preset ``name`` read from its own file (``<id>.toml``), or None when there is no such
    file or it holds another id (then :func:`presets` decides)."""
    if name in _ONE_PRESET:
        return _ONE_PRESET[name]
    if not name or not all(ch.isalnum() or ch in "_-" for ch in name) or len(name) > 64:
        return None
    from tafl_desktop.core.paths import variants_dir

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
    for prefix, reader in _NAME_READERS.items():
        if name.lstrip().startswith(prefix):
            v = reader(name)
            return v.with_options(overrides) if overrides else v
    if name.endswith(".toml") or "/" in name or "\\" in name:
        return load_variant(name, overrides)
    if _PRESETS is None:  # a command naming one preset need not read and check all of them
        one = _one_preset(name)
        if one is not None:
            return one.with_options(overrides) if overrides else one
    table = presets()
    if name not in table:
        raise VariantError(_("unknown variant {name}; presets: {known} (or give a .toml file)").format(
            name=quote(name), known=known(table)))
    v = table[name]
    return v.with_options(overrides) if overrides else v
