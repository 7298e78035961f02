"""What a study is: a variant, the toggles to vary, the players, games per cell and a seed.

A study is plain data (``study.json`` in its folder), so it can be resumed, compared, shipped as
an example and run anywhere.  Its *cells* are the combinations of the varied values; its *jobs*
are (cell, game) pairs, each with a seed derived from the study's seed alone, so the same study
plays the same games on a process pool, a Dask cluster or a later resumed run.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from tafl_desktop.i18n import _

#: The axis key that varies whole presets instead of one toggle.
PRESET_AXIS = "preset"
#: Plies after which a game stops as "capped" (a draw, reported apart).
DEFAULT_MAX_PLIES = 300
#: Most cells and games a study may ask for (a typo should not queue a billion games).
MAX_CELLS = 64
MAX_GAMES_PER_CELL = 100_000


class StudyError(ValueError):
    """A study that cannot be run as described: one line for the user."""


@dataclass(frozen=True)
class Axis:
    """One varied toggle (or ``preset``) and the values it takes, in the order given."""

    key: str
    values: tuple[Any, ...]


@dataclass(frozen=True)
class Job:
    """One game to play: everything a worker anywhere needs, as plain picklable data."""

    cell: int
    game: int
    seed: int
    variant: dict[str, Any]
    attackers: str
    defenders: str
    max_plies: int
    #: The search engine both players use ("native" or "python"; the Fox games and Dablot always
    #: search in Python whatever it says).
    engine: str = "python"


@dataclass(frozen=True)
class Study:
    """A rule-balance study.  ``variant`` is a preset id or a variant file's path; ``base``
    holds that variant's data (so a study does not depend on the file staying where it was)."""

    variant: str
    axes: tuple[Axis, ...]
    attackers: str
    defenders: str
    games: int
    seed: int = 1
    max_plies: int = DEFAULT_MAX_PLIES
    base: dict[str, Any] = field(default_factory=dict, compare=False)
    #: The players' search engine.  Different engines play different games, so it is part of
    #: what a study is; a study file without it predates the native engine and was played in Python.
    engine: str = "python"

    # ------------------------------------------------------------------------ building
    @classmethod
    def create(cls, variant: str, vary: Sequence[str], attackers: str, defenders: str, games: int,
               seed: int = 1, max_plies: int = DEFAULT_MAX_PLIES, engine: str | None = None) -> Study:
        """A study from command-line words (``vary`` items are ``KEY=V1,V2``); StudyError on any
        unknown variant, option, value or level."""
        from tafl_desktop.core.variants import VariantError, find_variant

        try:
            base = find_variant(variant)
        except VariantError as exc:
            raise StudyError(str(exc)) from None
        axes = tuple(_parse_axis(item, base) for item in vary)
        name = base.id if variant == base.id else variant
        return cls.for_variant(base, axes, attackers, defenders, games, seed, max_plies, name, engine)

    @classmethod
    def for_variant(cls, base: Any, axes: Sequence[Axis], attackers: str, defenders: str, games: int,
                    seed: int = 1, max_plies: int = DEFAULT_MAX_PLIES, name: str | None = None,
                    engine: str | None = None) -> Study:
        """A study of a loaded :class:`~tafl_desktop.core.variants.Variant` (with its toggles as
        they are set: the varied ones are overridden per cell)."""
        from tafl_desktop.ai.levels import get_level

        try:
            attackers, defenders = get_level(attackers).name, get_level(defenders).name
        except ValueError as exc:
            raise StudyError(str(exc)) from None
        if not 1 <= games <= MAX_GAMES_PER_CELL:
            raise StudyError(_("games per cell must be from 1 to {most}").format(most=MAX_GAMES_PER_CELL))
        if not 10 <= max_plies <= 5000:
            raise StudyError(_("the ply cap must be from 10 to 5000"))
        if not axes:
            raise StudyError(_("name at least one toggle to vary: --vary KEY=V1,V2"))
        if len(axes) > 2:
            raise StudyError(_("a study varies one or two toggles, not {n}").format(n=len(axes)))
        if len({a.key for a in axes}) != len(axes):
            raise StudyError(_("each toggle may be varied only once"))
        for a in axes:
            if len(a.values) < 2:
                raise StudyError(_("--vary {key} needs at least two values, separated by commas").format(
                    key=a.key[:40]))
        study = cls(variant=name or base.id, axes=tuple(axes), attackers=attackers, defenders=defenders,
                    games=games, seed=seed, max_plies=max_plies, base=base.to_data(),
                    engine=_engine(base, engine))
        if len(study.cells()) > MAX_CELLS:
            raise StudyError(_("a study may have at most {most} cells").format(most=MAX_CELLS))
        return study

    # ----------------------------------------------------------------------- the design
    def cells(self) -> list[dict[str, Any]]:
        """Every combination of the varied values, first axis slowest."""
        return [dict(zip((a.key for a in self.axes), combo, strict=True))
                for combo in itertools.product(*(a.values for a in self.axes))]

    def cell_variant_data(self, cell: Mapping[str, Any]) -> dict[str, Any]:
        """The variant data a cell's games are played with."""
        from tafl_desktop.core.variants import find_variant

        data = find_variant(str(cell[PRESET_AXIS])).to_data() if PRESET_AXIS in cell else json.loads(
            json.dumps(self.base))
        data["options"].update({k: v for k, v in cell.items() if k != PRESET_AXIS})
        return data

    def jobs(self) -> list[Job]:
        """Every game of the study, cell by cell, with its own seed."""
        out = []
        for ci, cell in enumerate(self.cells()):
            data = self.cell_variant_data(cell)
            for g in range(self.games):
                out.append(Job(ci, g, game_seed(self.seed, ci, g), data, self.attackers, self.defenders,
                               self.max_plies, self.engine))
        return out

    @property
    def side_keys(self) -> tuple[str, str]:
        """The family's result keys of the two sides (as ``play --json`` gives them)."""
        from tafl_desktop.core.variants import variant_from_data

        v = variant_from_data(self.base)
        return v.side_key(0), v.side_key(1)

    # ---------------------------------------------------------------------------- files
    def to_data(self) -> dict[str, Any]:
        d = asdict(self)
        d["axes"] = [{"key": a.key, "values": list(a.values)} for a in self.axes]
        return d

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Study:
        try:
            return cls(variant=str(data["variant"]),
                       axes=tuple(Axis(str(a["key"]), tuple(a["values"])) for a in data["axes"]),
                       attackers=str(data["attackers"]), defenders=str(data["defenders"]),
                       games=int(data["games"]), seed=int(data["seed"]), max_plies=int(data["max_plies"]),
                       base=dict(data["base"]), engine=_stored_engine(data.get("engine", "python")))
        except (KeyError, TypeError, ValueError) as exc:
            raise StudyError(_("not a study file: {problem}").format(problem=exc)) from None

    def fingerprint(self) -> str:
        """A short id of what the study plays (not of how many games): studies with the same
        fingerprint share games, so a study with more games per cell extends a smaller one."""
        d = self.to_data()
        d.pop("games")
        if d.get("engine") == "python":
            d.pop("engine")  # studies from before the native engine keep their fingerprint
        return hashlib.sha256(json.dumps(d, sort_keys=True).encode()).hexdigest()[:12]


def _engine(base: Any, engine: str | None) -> str:
    """The engine a new study of ``base`` plays with (``engine`` if given, else native where it
    is built and plays the family)."""
    from tafl_desktop.ai.engine import resolve

    try:
        return resolve(base.make_rules(), engine)
    except ValueError as exc:
        raise StudyError(str(exc)) from None


def _stored_engine(value: Any) -> str:
    if value not in ("native", "python"):
        raise ValueError(f"unknown engine {str(value)[:20]!r}")
    return str(value)


def game_seed(study_seed: int, cell: int, game: int) -> int:
    """The seed of one game: depends only on the study seed, the cell and the game number."""
    digest = hashlib.sha256(f"{study_seed}:{cell}:{game}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def _parse_axis(item: str, base: Any) -> Axis:
    from tafl_desktop.core.variants import VariantError, find_variant

    if "=" not in item:
        raise StudyError(_("--vary expects KEY=V1,V2, got '{item}'").format(item=item[:60]))
    key, text = (s.strip() for s in item.split("=", 1))
    words = [w.strip() for w in text.split(",") if w.strip()]
    if len(words) < 2:
        raise StudyError(_("--vary {key} needs at least two values, separated by commas").format(key=key[:40]))
    if len(set(words)) != len(words):
        raise StudyError(_("--vary {key} names a value twice").format(key=key[:40]))
    if key == PRESET_AXIS:
        for w in words:
            try:
                find_variant(w)
            except VariantError as exc:
                raise StudyError(str(exc)) from None
        return Axis(key, tuple(words))
    if key not in base.schema:
        raise StudyError(_("unknown option '{key}' for {variant}; known: {known}").format(
            key=key[:40], variant=base.id, known=", ".join(base.schema.keys())))
    spec = base.schema[key]
    try:
        return Axis(key, tuple(spec.parse_text(w) for w in words))
    except ValueError as exc:
        raise StudyError(str(exc)) from None
