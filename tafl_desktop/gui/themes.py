"""Board themes and piece styles: plain data (hex colours), so preferences can name them and tests
can list them without drawing anything.

Pieces are told apart by lightness *and* by marks (attackers dark with a light diamond, defenders
light with a dark ring, the king light with a crown), so a colour-blind player or a grey-scale
screenshot still reads the board.  Special squares differ by a drawn symbol as well as a tint.
"""

from __future__ import annotations

from dataclasses import dataclass

from tafl_desktop.core.families import FAMILIES
from tafl_desktop.core.marks import N_
from tafl_desktop.i18n import _


@dataclass(frozen=True)
class BoardTheme:
    """Colours of one board theme (``#rrggbb`` or ``#aarrggbb``)."""

    key: str
    label: str
    window: str          # behind the board
    frame: str           # the rim that carries the coordinates
    frame_text: str
    square: str          # ordinary squares
    square_alt: str      # dark squares of a checkerboard (Fox and Hounds)
    line: str            # grid and graph lines
    special: str         # throne / corner fill
    special_mark: str    # the symbol drawn on special squares
    camp: str
    escape: str
    pen: str             # the Asalto/Halatafl fortress points
    last_move: str
    selected: str
    target: str          # legal-target dots
    capture: str         # cross over a piece just captured
    threat: str          # "watch your king"
    route: str           # Raichi/Tuichi escape squares
    cursor: str          # keyboard cursor
    attacker: str
    attacker_mark: str
    defender: str
    defender_mark: str
    king_rim: str
    outline: str


THEMES: dict[str, BoardTheme] = {
    "wood": BoardTheme(
        key="wood", label=N_("Light wood"), window="#efe6d6", frame="#7a4a24", frame_text="#f6e7c8",
        square="#e9c98f", square_alt="#b98c55", line="#8a5a2e", special="#c4935a", special_mark="#5a3418",
        camp="#d7ab78", escape="#b8cf8a", pen="#cfe0a8", last_move="#80f3d35a", selected="#9065a544",
        target="#90402a14", capture="#c0392b", threat="#d0302b", route="#2f8f46", cursor="#1f5fbf",
        attacker="#2b2522", attacker_mark="#e8dcc4", defender="#f4ecdc", defender_mark="#3a2c22",
        king_rim="#c8962a", outline="#1b1512"),
    "dark": BoardTheme(
        key="dark", label=N_("Dark"), window="#1e2126", frame="#2c3139", frame_text="#aeb6c2",
        square="#4d5663", square_alt="#2e343c", line="#6c7685", special="#323842", special_mark="#9aa6b6",
        camp="#5a4e46", escape="#3f5a48", pen="#3f5a48", last_move="#70c9a640", selected="#8059b0ff",
        target="#a0e8eef5", capture="#ff6b5b", threat="#ff5f56", route="#5fd08a", cursor="#ffd166",
        attacker="#15171a", attacker_mark="#d9c7a3", defender="#e9e4da", defender_mark="#2a2f36",
        king_rim="#e0b040", outline="#0b0c0e"),
    "contrast": BoardTheme(
        key="contrast", label=N_("High contrast"), window="#ffffff", frame="#000000", frame_text="#ffffff",
        square="#ffffff", square_alt="#bdbdbd", line="#000000", special="#9e9e9e", special_mark="#000000",
        camp="#d0d0d0", escape="#c8f0c8", pen="#dcdcdc", last_move="#90ffd500", selected="#800077ff",
        target="#c0000000", capture="#d00000", threat="#d00000", route="#007a2e", cursor="#0050ff",
        attacker="#000000", attacker_mark="#ffffff", defender="#ffffff", defender_mark="#000000",
        king_rim="#000000", outline="#000000"),
    # Paul Tol's colour-blind-safe schemes (personal.sron.nl/~pault, "high-contrast" and "light"):
    # blue, yellow and red stay apart for every kind of colour blindness and differ in lightness
    # too, so the board still reads in grey; the shape marks stay as in every theme.
    "tol": BoardTheme(
        key="tol", label=N_("Colour-blind safe (Paul Tol)"), window="#f4f4f4", frame="#004488", frame_text="#ffffff",
        square="#eeeeee", square_alt="#bbbbbb", line="#555555", special="#bbbbbb", special_mark="#000000",
        camp="#ffaabb", escape="#99ddff", pen="#eedd88", last_move="#90ddaa33", selected="#80004488",
        target="#c0004488", capture="#bb5566", threat="#bb5566", route="#004488", cursor="#ddaa33",
        attacker="#004488", attacker_mark="#ffffff", defender="#ddaa33", defender_mark="#000000",
        king_rim="#bb5566", outline="#000000"),
}

#: Piece styles: key -> label.  "stones" are shaded discs, "flat" plain discs with bold marks,
#: "lettered" flat discs with a letter (A, D, K; F, H for the Fox games) for the clearest reading.
PIECE_STYLES: dict[str, str] = {
    "stones": N_("Shaded stones"),
    "flat": N_("Flat discs"),
    "lettered": N_("Discs with letters"),
}

DEFAULT_THEME = "wood"
DEFAULT_PIECE_STYLE = "stones"

#: What each piece letter is called, for tooltips, the side panel and accessibility text.
PIECE_NAMES = {"t": N_("attacker"), "T": N_("defender"), "K": N_("king"), "f": N_("flock piece"), "h": N_("hunter"),
               "s": N_("soldier"), "r": N_("soldier (marked)"), "o": N_("officer"), "p": N_("leader's son"),
               "k": N_("leader")}

#: Which side owns each piece letter (0 = first side of the family, 1 = second), from the family
#: registry (the letters mean the same side in every family).
PIECE_SIDE = {k: v for fam in FAMILIES.values() for k, v in fam.piece_sides.items()}


def piece_side(kind: str) -> int:
    """Side of a piece letter: the table above, else upper case is side 1 (Dablot's North)."""
    return PIECE_SIDE.get(kind, 1 if kind.isupper() else 0)


def piece_name(kind: str) -> str:
    return _(PIECE_NAMES.get(kind, PIECE_NAMES.get(kind.lower(), _("piece"))))


def theme(key: str) -> BoardTheme:
    """The theme called ``key``, or the default one for an unknown key (an old settings file)."""
    return THEMES.get(key, THEMES[DEFAULT_THEME])
