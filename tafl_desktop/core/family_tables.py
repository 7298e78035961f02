"""Every table, above the family registry, that holds code or words per family or per piece:
the one list a new family's author walks (``docs/ARCHITECTURE.md`` §7), and that
``tests/test_family_tables.py`` reads.

Why a list: the registry (:mod:`tafl_desktop.core.families`) says what a family *is*; the layers
with code of their own per family (the evaluation, the hashing, the piece labels, the diagrams,
the piece sheets, the 3D parts, the rulebook, the pieces' looks and names) keep a table keyed by
the family's name or by its piece letters.  A family missing from one of them fails late and
quietly (a printed sheet without diagrams, a piece drawn as a plain disc).  The test checks that
every family has an entry in every table listed here, or is named as falling back on purpose,
and that no table with the families' names for keys is left off this list.

Pure data, as the registry is: tables are named ``"module:NAME"`` (the core imports nothing
above it), and a family's deliberate absence carries the reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType


@dataclass(frozen=True)
class FamilyTable:
    """One per-family (or per-piece) table somewhere above the core."""

    #: Where it is, ``"tafl_desktop.module:NAME"``.
    where: str
    #: ``"family"``: keyed by a family's name; ``"piece"``: keyed by the piece letters of every
    #: family (a Dablot North letter may fall back on its South letter, as the readers do).
    keyed_by: str
    #: What it holds, for the reader of this list.
    holds: str
    #: Families with no entry on purpose -> why (the code's fallback for them).
    falls_back: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))


FAMILY_TABLES: tuple[FamilyTable, ...] = (
    FamilyTable("tafl_desktop.ai.evaluation:EVALUATORS", "family", "the family's evaluator class"),
    FamilyTable("tafl_desktop.ai.zobrist:FAST_HASHES", "family", "a faster position hash than position_key",
                MappingProxyType({"hunt": "hashes the rules' position_key (key_hasher's generic hash)",
                                  "dablot": "hashes the rules' position_key (key_hasher's generic hash)"})),
    FamilyTable("tafl_desktop.core.rulebook:_BOARD_SENTENCES", "family", "the rule sheet's board sentences",
                MappingProxyType({"tafl": "board_sentences' own text for square boards"})),
    FamilyTable("tafl_desktop.gui.piece_labels:_LETTERS", "family", "the lettered piece style's letters",
                MappingProxyType({"dablot": "its pieces show their ranks instead (piece_ranks)"})),
    FamilyTable("tafl_desktop.printing.diagrams:_DIAGRAMS", "family", "the rule sheet's diagrams"),
    FamilyTable("tafl_desktop.printing.pieces_sheet:_KINDS", "family", "the printed pieces' kinds and counts"),
    FamilyTable("tafl_desktop.printing.pieces_sheet:_FACES", "family", "the printed pieces' faces"),
    FamilyTable("tafl_desktop.printing.maker.parts_3d:_SOLIDS", "family", "the 3D-printed pieces' solids"),
    FamilyTable("tafl_desktop.printing.maker.parts_3d:_TACTILE", "family", "the tactile set's solids (--tactile)"),
    FamilyTable("tafl_desktop.printing.maker.tactile:KINDS", "family", "the tactile pieces' footprint, height and top",
                MappingProxyType({"dablot": "dablot_kind builds each piece from its army, rank and leader"})),
    FamilyTable("tafl_desktop.gui.themes:PIECE_NAMES", "piece", "a piece's name (tooltips, accessibility)"),
    FamilyTable("tafl_desktop.gui.piece_painter:LOOKS", "piece", "a piece's face and mark on the board"),
    FamilyTable("tafl_desktop.gui.piece_painter:LETTERS", "piece", "a piece's default letter (lettered style)",
                MappingProxyType({"dablot": "its pieces show their ranks instead (piece_ranks)"})),
)

#: Resource files a family has, ``resources/`` patterns with ``{family}`` in them.
FAMILY_RESOURCES: tuple[str, ...] = ("lessons/{family}_*.toml",)
