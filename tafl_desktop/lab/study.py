"""What a study is: a variant, the toggles to vary, the players, games per cell and a seed.

A study is plain data (``study.json`` in its folder), so it can be resumed, compared, shipped as
an example and run anywhere.  Its *cells* are the combinations of the varied values; its *jobs*
are (cell, game) pairs, each with a seed derived from the study's seed alone, so the same study
plays the same games on a process pool, a Dask cluster or a later resumed run.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from tafl_desktop.core.quoting import clip
from tafl_desktop.i18n import _, ngettext

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
                    key=clip(a.key, 40)))
        study = cls(variant=name or base.id, axes=tuple(axes), attackers=attackers, defenders=defenders,
                    games=games, seed=seed, max_plies=max_plies, base=base.to_data(),
                    engine=_engine(base, engine))
        if len(study.cells()) > MAX_CELLS:
            raise StudyError(ngettext("a study may have at most {most} cell", "a study may have at most {most} cells",
                                      MAX_CELLS).format(most=MAX_CELLS))
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

    def jobs(self) -> Iterator[Job]:
        """Every game of the study, game-major (game 0 of every cell, then game 1 ...), each with
        its own seed; made one at a time, as the largest study has millions of them."""
        data = [self.cell_variant_data(cell) for cell in self.cells()]
        for g in range(self.games):
            for ci, cell_data in enumerate(data):
                yield Job(ci, g, game_seed(self.seed, ci, g), cell_data, self.attackers, self.defenders,
                          self.max_plies, self.engine)

    @property
    def side_keys(self) -> tuple[str, str]:
        """The family's result keys of the two sides (as ``play --json`` gives them)."""
        v = variant_of(self.base)
        return v.side_key(0), v.side_key(1)

    # ---------------------------------------------------------------------------- files
    def to_data(self) -> dict[str, Any]:
        d = asdict(self)
        d["axes"] = [{"key": a.key, "values": list(a.values)} for a in self.axes]
        return d

    @classmethod
    def from_data(cls, data: Any) -> Study:
        """A study from a ``study.json``'s data, held to the same limits as one made by
        :meth:`create` (a file claiming 10^12 games or 10^6 cells is refused, not run);
        StudyError with one line otherwise."""
        from tafl_desktop.core.quoting import quote

        if not isinstance(data, Mapping):
            raise StudyError(_("not a study file: it holds no table of keys"))
        missing = [k for k in ("variant", "axes", "attackers", "defenders", "games", "seed", "max_plies", "base")
                   if k not in data]
        if missing:
            raise StudyError(_("not a study file: the key {key} is missing").format(key=quote(missing[0])))
        try:
            if not isinstance(data["axes"], list) or not isinstance(data["base"], Mapping):
                raise TypeError(_("'axes' must be a list and 'base' a table"))
            axes = []
            for a in data["axes"][:3]:
                if not isinstance(a, Mapping) or not isinstance(a.get("values"), list) \
                        or not isinstance(a.get("key"), str):
                    raise TypeError(_("each axis must have a 'key' and a list of 'values'"))
                if not all(isinstance(v, (str, int, float)) and v == v for v in a["values"]):
                    raise TypeError(_("the values of an axis must be texts, numbers or true/false"))
                axes.append(Axis(a["key"], tuple(a["values"])))
            if len(data["axes"]) > 2:
                raise ValueError(_("a study varies one or two toggles, not {n}").format(n=len(data["axes"])))
            study = cls(variant=str(data["variant"]), axes=tuple(axes), attackers=str(data["attackers"]),
                        defenders=str(data["defenders"]), games=_whole(data["games"]), seed=_whole(data["seed"]),
                        max_plies=_whole(data["max_plies"]), base=dict(data["base"]),
                        engine=_stored_engine(data.get("engine", "python")))
        except (TypeError, ValueError) as exc:
            raise StudyError(_("not a study file: {problem}").format(problem=quote(str(exc), 200))) from None
        study.check()
        return study

    def check(self) -> None:
        """StudyError unless the study keeps every limit :meth:`for_variant` enforces and each of
        its cells is a variant that builds (checked without listing a single game)."""
        from tafl_desktop.ai.levels import get_level
        from tafl_desktop.core.variants import VariantError

        try:
            get_level(self.attackers), get_level(self.defenders)
        except ValueError as exc:
            raise StudyError(str(exc)) from None
        if not 1 <= self.games <= MAX_GAMES_PER_CELL:
            raise StudyError(_("games per cell must be from 1 to {most}").format(most=MAX_GAMES_PER_CELL))
        if not 10 <= self.max_plies <= 5000:
            raise StudyError(_("the ply cap must be from 10 to 5000"))
        if not 1 <= len(self.axes) <= 2 or len({a.key for a in self.axes}) != len(self.axes):
            raise StudyError(_("name at least one toggle to vary: --vary KEY=V1,V2"))
        cells = 1
        for a in self.axes:
            if len(a.values) < 2:
                raise StudyError(_("--vary {key} needs at least two values, separated by commas").format(
                    key=clip(a.key, 40)))
            if len(a.values) <= MAX_CELLS and len(set(a.values)) != len(a.values):
                raise StudyError(_("--vary {key} names a value twice").format(key=clip(a.key, 40)))
            cells *= len(a.values)
        if cells > MAX_CELLS:
            raise StudyError(ngettext("a study may have at most {most} cell", "a study may have at most {most} cells",
                                      MAX_CELLS).format(most=MAX_CELLS))
        try:
            base = variant_of(self.base)
            for a in self.axes:
                if a.key != PRESET_AXIS and a.key not in base.schema:
                    raise StudyError(_("unknown option '{key}' for {variant}; known: {known}").format(
                        key=clip(a.key, 40), variant=base.id, known=", ".join(base.schema.keys())))
            for cell in self.cells():
                variant_of(self.cell_variant_data(cell))
        except (VariantError, TypeError, KeyError, AttributeError, RecursionError) as exc:
            raise StudyError(_("not a study file: {problem}").format(problem=str(exc)[:200])) from None

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


def variant_of(data: Mapping[str, Any]) -> Any:
    """The :class:`~tafl_desktop.core.variants.Variant` of plain variant data, built once per
    distinct data (a study's base and cells are read by every report, replay and check)."""
    return _variant_from_json(json.dumps(data, sort_keys=True))


def rules_of(data: Mapping[str, Any]) -> Any:
    """The rules of plain variant data, built once per distinct data (VariantError if it is not
    a variant)."""
    return _rules_from_json(json.dumps(data, sort_keys=True))


@functools.lru_cache(maxsize=256)
def _variant_from_json(text: str) -> Any:
    from tafl_desktop.core.variants import variant_from_data

    return variant_from_data(json.loads(text))


@functools.lru_cache(maxsize=64)
def _rules_from_json(text: str) -> Any:
    return _variant_from_json(text).make_rules()


def _whole(value: Any) -> int:
    """A whole number from a study file (not true/false, not 1.5, not a text of digits)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(_("{value} is not a whole number").format(value=repr(value)[:40]))
    return value


def game_seed(study_seed: int, cell: int, game: int) -> int:
    """The seed of one game: depends only on the study seed, the cell and the game number."""
    digest = hashlib.sha256(f"{study_seed}:{cell}:{game}".encode()).digest()
    return int.from_bytes(digest[:6], "big")


def _parse_axis(item: str, base: Any) -> Axis:
    from tafl_desktop.core.variants import VariantError, find_variant

    if "=" not in item:
        raise StudyError(_("--vary expects KEY=V1,V2, got '{item}'").format(item=clip(item, 60)))
    key, text = (s.strip() for s in item.split("=", 1))
    words = [w.strip() for w in text.split(",") if w.strip()]
    if len(words) < 2:
        raise StudyError(_("--vary {key} needs at least two values, separated by commas").format(key=clip(key, 40)))
    if len(set(words)) != len(words):
        raise StudyError(_("--vary {key} names a value twice").format(key=clip(key, 40)))
    if key == PRESET_AXIS:
        for w in words:
            try:
                find_variant(w)
            except VariantError as exc:
                raise StudyError(str(exc)) from None
        return Axis(key, tuple(words))
    if key not in base.schema:
        raise StudyError(_("unknown option '{key}' for {variant}; known: {known}").format(
            key=clip(key, 40), variant=base.id, known=", ".join(base.schema.keys())))
    spec = base.schema[key]
    try:
        return Axis(key, tuple(spec.parse_text(w) for w in words))
    except ValueError as exc:
        raise StudyError(str(exc)) from None
