"""How long a level thinks on this machine: measured once, then read from a cache.

Without a clock a level is bound by its node budget (see :mod:`tafl_desktop.ai.levels`), so it
plays the same on any machine but takes longer on a slow or busy one.  New Game tells the player
how long: the level's first move from the game's start position, searched with the level's own
limits and engine, timed once and kept in a small JSON file.  The key names the machine (host,
processor, cores), the engine and the game with its rules, so a figure never comes from another
machine or other rules; a new engine version measures afresh.

The file is a cache: an unreadable or foreign one is ignored (and replaced by the next
measurement), never an error for the player.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tafl_desktop.core.game import P, Rules

if TYPE_CHECKING:
    from tafl_desktop.ai.levels import Level
    from tafl_desktop.core.variants import Variant

#: The cache file's name in the app's data folder.
CACHE_NAME = "think_times.json"
#: Bumped when what is measured changes, so older figures are measured again.
CACHE_VERSION = 2  # 2: Dablot's levels search their whole node budgets (no depth cap)
#: Figures kept at most (a player with many variants does not grow the file without end).
MAX_ENTRIES = 200


def _engine_tag(rules: Rules[P]) -> str:
    """The engine that plays ``rules`` here, with the native module's version."""
    from tafl_desktop.ai.engine import engine_name

    name = engine_name(rules)
    if name == "native":
        try:
            import tafl_native

            name += "-" + str(getattr(tafl_native, "__version__", "?"))
        except ImportError:  # pragma: no cover - engine_name said native
            pass
    return name


def machine_tag() -> str:
    """This machine as far as speed goes: host name, processor and cores."""
    return f"{platform.node()}|{platform.machine()}|{platform.processor()}|{os.cpu_count()}"


def cache_key(variant: Variant, level: str) -> str:
    """The key of ``level``'s figure in ``variant`` (with its rules) on this machine and engine."""
    rules_text = json.dumps(variant.to_data(), sort_keys=True, default=str)
    rules = variant.make_rules()
    raw = "\n".join((str(CACHE_VERSION), machine_tag(), _engine_tag(rules), level, rules_text))
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()[:32]


def _read(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return {}
    if not isinstance(data, dict) or data.get("version") != CACHE_VERSION or not isinstance(data.get("times"), dict):
        return {}
    return data


def cached(folder: str | os.PathLike[str], variant: Variant, level: str) -> float | None:
    """The measured seconds of ``level``'s move in ``variant`` on this machine, or None if not yet."""
    entry = _read(Path(folder) / CACHE_NAME).get("times", {}).get(cache_key(variant, level))
    if isinstance(entry, dict) and isinstance(entry.get("seconds"), (int, float)) and entry["seconds"] >= 0:
        return float(entry["seconds"])
    return None


def store(folder: str | os.PathLike[str], variant: Variant, level: str, seconds: float, nodes: int) -> None:
    """Keep a measurement (the oldest go past :data:`MAX_ENTRIES`); a folder that cannot be
    written only means measuring again next time."""
    from tafl_desktop.core.safe_files import write_safely

    path = Path(folder) / CACHE_NAME
    data = _read(path) or {"version": CACHE_VERSION, "times": {}}
    times: dict[str, Any] = data["times"]
    times.pop(cache_key(variant, level), None)
    times[cache_key(variant, level)] = {"level": level, "variant": variant.id, "seconds": round(seconds, 3),
                                        "nodes": nodes}
    while len(times) > MAX_ENTRIES:
        times.pop(next(iter(times)))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_safely(path, json.dumps(data, indent=1))
    except OSError:
        pass


def measure(variant: Variant, level: str, should_stop: Callable[[], bool] | None = None) -> tuple[float, int] | None:
    """Time ``level``'s first move from ``variant``'s start position with the level's own limits
    (no clock: its node budget binds).  (seconds, nodes), or None when stopped before the end."""
    from tafl_desktop.ai.player import ComputerPlayer

    rules = variant.make_rules()
    player = ComputerPlayer(rules, level, seed=0)
    player.level = _unblundering(player.level)
    stopped = [False]

    def stop() -> bool:
        if should_stop is not None and should_stop():
            stopped[0] = True
        return stopped[0]

    res = player.choose(rules.initial_position(), should_stop=stop)
    return None if stopped[0] else (res.seconds, res.nodes)


def _unblundering(level: Level) -> Level:
    """``level`` without its random blunders: a blunder is a random move, not a search, and
    would measure nothing."""
    from dataclasses import replace

    return replace(level, blunder=0.0) if level.blunder and not level.blunder_margin else level


def measured(folder: str | os.PathLike[str], variant: Variant, level: str,
             should_stop: Callable[[], bool] | None = None) -> float | None:
    """The cached figure, or a new measurement stored for next time (None when stopped)."""
    seconds = cached(folder, variant, level)
    if seconds is not None:
        return seconds
    got = measure(variant, level, should_stop)
    if got is None:
        return None
    store(folder, variant, level, *got)
    return got[0]
