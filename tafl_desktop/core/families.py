"""The registry of game families: what each family is, as data every layer reads.

Before this registry the code asked ``variant.family == "tafl"`` in some forty places (the move
list, the announcements, the board's orientation, the printer, the position editor...).  Each such
question is a property of the family, so it is written once here and asked by name
(``variant.traits.captures_in_notation``); a new family is one more entry, not a hunt for switches.
Layers with code of their own per family (the AI's evaluations, the printer's diagrams) keep a
table keyed by the family's ``name`` (all listed in :mod:`tafl_desktop.core.family_tables`).

Pure data: the rules classes are named as ``"module:Class"`` and imported when a game of that
family is first made, so starting the window pays only for the family it shows.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, cast

from tafl_desktop.core.dablot_options import DABLOT_OPTIONS
from tafl_desktop.core.hunt_options import HUNT_OPTIONS
from tafl_desktop.core.marks import N_
from tafl_desktop.core.options import OptionSchema
from tafl_desktop.core.tafl_options import TAFL_OPTIONS

if TYPE_CHECKING:
    from tafl_desktop.core.game import Position, Rules
    from tafl_desktop.core.variants import Variant


def _frozen(table: dict[str, int]) -> Mapping[str, int]:
    return MappingProxyType(table)


@dataclass(frozen=True)
class Family:
    """A game family and the facts about it that the window, the printer and the AI ask."""

    #: Key in variant files and records ("tafl", "hunt", "dablot").
    name: str
    #: Its name for people (translated at the edge).
    label: str
    #: The rule toggles every variant of the family has.
    schema: OptionSchema
    #: Default side names, when a variant file gives none.
    sides: tuple[str, str]
    #: Keys a variant file's ``[board]`` table may hold.
    board_keys: tuple[str, ...]
    #: How the ``[board]`` table is read: "grid" (squares), "graph" (points and lines), "lattice" (Dablot).
    board_style: str
    #: The rules class, ``"module:Class"``.
    rules_class: str
    #: The option values that name each side (``first_move``): Tafl's "attackers"/"defenders".
    side_values: tuple[str, str]
    #: The piece letters of the family in the order a palette shows them.
    piece_kinds: tuple[str, ...]
    #: Which side owns a piece letter; a letter not listed belongs to side 1 when upper case.
    piece_sides: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    #: The piece that stands for each side (turn badge, winner's icon, the colours of graphs).
    emblems: tuple[str, str] = ("t", "K")
    #: The piece counted when a side loses pieces.
    lost_emblems: tuple[str, str] = ("t", "T")
    #: How a set-up is written: "rows" (OpenTafl's rows of letters), "points" (each side's points,
    #: ``hunters=d4 flock=a3,b3``) or "lettered" (each side's pieces, ``south=sa1,pe6 north=...``).
    setup_form: str = "rows"
    #: The names of the two lists of a "points" or "lettered" set-up, side 0 first.
    setup_labels: tuple[str, str] = ("", "")
    #: JSON and command-line keys of the sides are "attackers"/"defenders", whatever the names.
    generic_side_keys: bool = False
    #: Side names are proper names (Saami, Swedes): a sentence keeps them as they are ("Saami
    #: resigned"), where common nouns take an article ("the geese resigned").
    proper_side_names: bool = False
    #: Pieces are taken by enclosing them, so a piece that stops between two enemies may die by
    #: its own move (strict custodian); a self-capture elsewhere is a penalty (a huffed officer).
    custodial: bool = False
    #: Move lists name the squares a move captured (``e1-e5 x e6``); in the other families a
    #: capture is part of the move's own notation (a jump ``c3xc5``).
    captures_in_notation: bool = False
    #: The king's escape routes and the threat to him are announced (Raichi, Tuichi, Watch your king).
    king_announcements: bool = False
    #: One side starts at the bottom of the board and one at the top (a lone human of the top side
    #: sees the board turned round); Tafl boards have no top side.
    has_top_side: bool = False
    #: OpenTafl's rules strings, its records and PGN-like files can hold the family's games.
    opentafl: bool = False
    #: Pieces carry ranks (a legend, rank badges, printed rank markers for draughts).
    ranked_pieces: bool = False
    #: The native engine (``tafl_native``, :mod:`tafl_desktop.native`) plays the family's games.
    native_engine: bool = False

    def piece_side(self, kind: str) -> int:
        """The side (0 or 1) owning piece letter ``kind``."""
        return self.piece_sides.get(kind, 1 if kind.isupper() else 0)

    def make_rules(self, variant: Variant) -> Rules[Position]:
        """The family's rules object for ``variant``.  Family-independent code holds it as rules
        of *some* position type; each family's rules only ever see their own positions, since
        positions come from the same rules object (this is where that is asserted)."""
        module, _, name = self.rules_class.partition(":")
        return cast("Rules[Position]", getattr(importlib.import_module(module), name)(variant))


TAFL_BOARD_KEYS = ("width", "height", "throne", "corners", "camps", "escape_squares", "walls", "room", "doorways",
                   "setup")
GRAPH_BOARD_KEYS = ("kind", "diagonals", "size", "pen", "home", "setup")
DABLOT_BOARD_KEYS = ("kind", "cols", "rows", "setup")

FAMILIES: Mapping[str, Family] = MappingProxyType({
    "tafl": Family(
        "tafl", N_("Tafl"), TAFL_OPTIONS, (N_("Attackers"), N_("Defenders")), TAFL_BOARD_KEYS, "grid",
        "tafl_desktop.core.tafl:TaflRules", ("attackers", "defenders"), ("t", "T", "K"),
        piece_sides=_frozen({"t": 0, "T": 1, "K": 1}), emblems=("t", "K"), lost_emblems=("t", "T"),
        generic_side_keys=True, custodial=True, captures_in_notation=True, king_announcements=True,
        opentafl=True, native_engine=True),
    "hunt": Family(
        "hunt", N_("Fox games"), HUNT_OPTIONS, (N_("Flock"), N_("Hunters")), GRAPH_BOARD_KEYS, "graph",
        "tafl_desktop.core.hunt:HuntRules", ("flock", "hunters"), ("f", "h"),
        piece_sides=_frozen({"f": 0, "h": 1}), emblems=("f", "h"), lost_emblems=("f", "h"),
        setup_form="points", setup_labels=("flock", "hunters"), has_top_side=True),
    "dablot": Family(
        "dablot", N_("Dablot"), DABLOT_OPTIONS, (N_("South"), N_("North")), DABLOT_BOARD_KEYS, "lattice",
        "tafl_desktop.core.dablot:DablotRules", ("south", "north"), ("s", "r", "o", "p", "k", "S", "R", "O", "P", "K"),
        emblems=("k", "K"), lost_emblems=("s", "S"), setup_form="lettered", setup_labels=("south", "north"),
        proper_side_names=True, has_top_side=True, ranked_pieces=True),
})


def family(name: str) -> Family:
    """The family called ``name`` (KeyError for one the registry lacks)."""
    return FAMILIES[name]
