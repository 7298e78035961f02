"""The levels' ratings as measured: what New Game shows beside each level.

The ratings come from a gauntlet of matches between the levels (``benchmarks/level_ratings.py``
plays it with ``tafl-desktop match`` and fits every result at once with
:func:`tafl_desktop.match.ratings.fit_ratings`), anchored at Beginner = 1000, and ship as
``resources/ai/level_ratings.json``.  A game measured (Brandubh, Copenhagen) shows its own
ratings; any other Tafl game shows the scale fitted over both together, as the nearest measured
guide; the Fox games and Dablot were not measured, so they show none rather than a Tafl figure.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tafl_desktop.core.variants import Variant

FILE_NAME = "level_ratings.json"


@lru_cache(maxsize=1)
def shipped() -> dict[str, Any]:
    """The shipped ratings file ({} when it is missing or cannot be read: no ratings shown)."""
    from tafl_desktop.core.paths import resources_dir

    try:
        data = json.loads((resources_dir() / "ai" / FILE_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def ratings_for(variant: Variant, data: dict[str, Any] | None = None) -> dict[str, int]:
    """Each level's rating for ``variant`` (level name -> rating), or {} when it has none."""
    data = shipped() if data is None else data
    measured = data.get("variants", {})
    own = measured.get(getattr(variant, "id", ""))
    if own is None and getattr(variant, "family", "") == "tafl":
        own = data.get("all")
    if not isinstance(own, dict):
        return {}
    ratings = own.get("ratings", {})
    return {k: int(v) for k, v in ratings.items() if isinstance(v, (int, float))}
