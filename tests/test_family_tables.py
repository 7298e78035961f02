"""One table a family (issue 41, item 5): every family of the registry has an entry in every
per-family and per-piece table of the layers above the core, or is named as falling back on
purpose, and every such table is on the one list (``core/family_tables.py``) a new family's
author walks."""

from __future__ import annotations

import ast
import importlib
from collections.abc import Mapping
from pathlib import Path

import pytest

from tafl_desktop.core.families import FAMILIES
from tafl_desktop.core.family_tables import FAMILY_RESOURCES, FAMILY_TABLES, FamilyTable
from tafl_desktop.core.paths import resources_dir

PACKAGE = Path(__file__).resolve().parent.parent / "tafl_desktop"
ALL_PIECES = {k for fam in FAMILIES.values() for k in fam.piece_kinds}


def _table(where: str) -> Mapping[str, object]:
    module, _, name = where.partition(":")
    table = getattr(importlib.import_module(module), name)
    assert isinstance(table, Mapping), where
    return table


def _missing(entry: FamilyTable, table: Mapping[str, object]) -> list[str]:
    """What ``table`` lacks for the families that do not fall back, and keys it should not have."""
    wanted = [f for f in FAMILIES if f not in entry.falls_back]
    if entry.keyed_by == "family":
        out = [f"no entry for {f}" for f in wanted if f not in table]
        out += [f"an entry for unknown family {k!r}" for k in table if k not in FAMILIES]
        out += [f"{f} has an entry but is listed as falling back" for f in entry.falls_back if f in table]
        return out
    out = [f"no entry for {f}'s piece {k!r}" for f in wanted for k in FAMILIES[f].piece_kinds
           if k not in table and k.lower() not in table]
    return out + [f"an entry for unknown piece {k!r}" for k in table if k not in ALL_PIECES]


@pytest.mark.parametrize("entry", FAMILY_TABLES, ids=lambda e: e.where)
def test_every_family_has_an_entry_in_every_table(entry):
    assert entry.keyed_by in ("family", "piece")
    assert set(entry.falls_back) <= set(FAMILIES), entry.where
    assert _missing(entry, _table(entry.where)) == []


def test_a_missing_entry_is_found():
    """The check above can fail: a table without the Fox games' diagrams is reported."""
    entry = next(e for e in FAMILY_TABLES if e.where.endswith(":_DIAGRAMS"))
    table = {k: v for k, v in _table(entry.where).items() if k != "hunt"}
    assert _missing(entry, table) == ["no entry for hunt"]
    looks = next(e for e in FAMILY_TABLES if e.where.endswith(":LOOKS"))
    without_officer = {k: v for k, v in _table(looks.where).items() if k != "o"}
    assert _missing(looks, without_officer) == ["no entry for dablot's piece 'o'"]


def _family_keyed_dicts() -> set[str]:
    """``module:NAME`` of every module-level dict literal in the package keyed by the names of two
    families or more, or by the piece letters of two families or more."""
    found: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__")
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            target, value = ((node.targets[0], node.value) if isinstance(node, ast.Assign)
                             else (node.target, node.value) if isinstance(node, ast.AnnAssign) else (None, None))
            if not isinstance(target, ast.Name) or not isinstance(value, ast.Dict):
                continue
            keys = {k.value for k in value.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}
            by_family = len(keys & set(FAMILIES)) >= 2
            by_piece = sum(1 for fam in FAMILIES.values() if len(keys & set(fam.piece_kinds)) >= 2) >= 2
            if by_family or by_piece:
                found.add(f"{module}:{target.id}")
    return found


def test_every_table_keyed_by_family_is_on_the_list():
    """A new table with the families' names (or pieces) for keys goes on the list, so the check
    above covers it.  The registry itself (``FAMILIES``) is what the tables follow."""
    listed = {e.where for e in FAMILY_TABLES}
    found = _family_keyed_dicts() - {"tafl_desktop.core.families:FAMILIES"}
    assert found - listed == set()
    assert len(found) >= 8  # the scan sees the tables (a scan that found nothing would pass)


@pytest.mark.parametrize("pattern", FAMILY_RESOURCES)
def test_every_family_has_its_resources(pattern):
    for name in FAMILIES:
        assert list(resources_dir().glob(pattern.format(family=name))), f"{pattern.format(family=name)}"
