"""The player's record against each computer level, per game: wins, draws and losses.

Kept as one small JSON file in the app's data folder (the window says where), so a newcomer sees
how they fare against each level and when to move up.  Each finished game against the computer
adds one result (the window makes sure a game counts once: see
:mod:`tafl_desktop.gui.level_record`).

A file that cannot be read as a record is never overwritten: it is moved aside (``.unreadable``)
before a new record starts, so nothing the player had is lost.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

FORMAT = "tafl-desktop-level-record"
RESULTS = ("wins", "draws", "losses")
#: The largest record file read (bytes): a few hundred variants and levels fit in far less.
MAX_BYTES = 1_000_000


def _empty() -> dict[str, Any]:
    return {"format": FORMAT, "records": {}}


def load(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The record in ``path`` ({"records": {variant: {level: {"wins": n, ...}}}}); an empty one when
    there is no file, or the file is not a record (see the module docstring)."""
    from tafl_desktop.core.safe_files import read_limited

    try:
        data = json.loads(read_limited(path, MAX_BYTES).decode("utf-8"))
    except FileNotFoundError:
        return _empty()
    except (OSError, ValueError):
        return _empty()
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("records"), dict):
        return _empty()
    return data


def record_of(data: dict[str, Any], variant_id: str, level: str) -> dict[str, int]:
    """The player's wins, draws and losses against ``level`` in ``variant_id``."""
    row = data.get("records", {}).get(variant_id, {}).get(level, {})
    return {k: int(row.get(k, 0)) if isinstance(row, dict) else 0 for k in RESULTS}


def add_result(path: str | os.PathLike[str], variant_id: str, level: str, result: str) -> dict[str, Any]:
    """Count one game (``result``: "wins", "draws" or "losses", from the player's side) and write
    the record back atomically; the record as written.  OSError when it cannot be written."""
    from tafl_desktop.core.safe_files import write_safely

    if result not in RESULTS:
        raise ValueError(f"result must be one of {RESULTS}")
    target = Path(path)
    data = load(target)
    if target.exists() and not data["records"]:
        _set_aside(target)
    row = data["records"].setdefault(variant_id, {}).setdefault(level, {k: 0 for k in RESULTS})
    row[result] = int(row.get(result, 0)) + 1
    target.parent.mkdir(parents=True, exist_ok=True)
    write_safely(target, json.dumps(data, indent=1, sort_keys=True) + "\n")
    return data


def _set_aside(target: Path) -> None:
    """Keep a file that is not a readable record (perhaps damaged) under another name."""
    try:
        raw = json.loads(target.read_text(encoding="utf-8"))
        if isinstance(raw, dict) and raw.get("format") == FORMAT and raw.get("records") == {}:
            return  # an empty record: nothing to keep
    except (OSError, ValueError):
        pass
    try:
        os.replace(target, target.with_name(target.name + ".unreadable"))
    except OSError:
        pass
