"""Which rules a record was played under, when it cannot have been played under the ones chosen.

A record lists its captures (``d3-e3xe2``) and often its result; when our rules make other
captures, end the game before the record does, or refuse a move, the game was played under other
rules.  Refusing it is right (showing a different game would mislead), but a refusal alone leaves
the player guessing: the reference Brandubh games take the king by four on the throne and three
beside it, not by the preset's two, and every one of them was "impossible".

So the refusal says which rule differs: the record is replayed under the chosen variant with one
toggle changed at a time, and under the named readings of the preset listed in
:data:`NAMED_READINGS` (rules a community plays under, with the source that says so; a reading
that is a shipped preset of its own is offered as that preset, so the game is imported under the
name its players know); the ones under which every move, every listed capture and the result hold
are offered.  Pure and quick: a
replay is a few milliseconds, a preset has some thirty toggle values to try.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from tafl_desktop.core import marks
from tafl_desktop.core.game import Game, IllegalMove
from tafl_desktop.core.marks import N_
from tafl_desktop.core.side_words import in_sentence


@dataclass(frozen=True)
class Reading:
    """A named set of toggles for a preset: rules a community plays the game under.  With
    ``target`` (a shipped preset with the same board and those rules) the toggles are that
    preset's, read from its file (``options`` then names the ones that set it apart, said
    first), and a record that fits is imported under it."""

    preset: str
    name: str
    options: dict[str, Any]
    source: str
    target: str = ""

    def changes(self, variant: Any) -> dict[str, Any]:
        """The toggles ``variant`` must change to play under this reading."""
        wanted = dict(self.options)
        if self.target:  # the rules that set it apart first (as listed), then the rest of the preset's
            from tafl_desktop.core.variants import find_variant

            wanted.update({k: v for k, v in find_variant(self.target).options.items() if k not in wanted})
        return {k: v for k, v in wanted.items() if variant.options.get(k) != v}

    def same_board(self, variant: Any) -> bool:
        """Does ``variant`` have the board and start of the preset this reading names?  (A variant
        file may reuse a preset's id with another board: it is then no game of that preset.)"""
        if not self.target:
            return True
        from tafl_desktop.core.variants import find_variant

        other = find_variant(self.target)
        return (other.setup, other.board_data) == (variant.setup, variant.board_data)


#: Readings of presets that real records were played under.  Brandubh: the reference games
#: (shared/reference/games/brandubh.csv, 523 games) replay only with the king taken by four on
#: the throne, three and the throne beside it, two elsewhere, and with the encirclement win; these
#: are the rules hnefatafl-rs ships as "Federation Brandubh" (tafl-rules.md 2.2, BB
#: ``rules::BRANDUBH``: ``StrongByThrone``, encirclement) and Ludii's Brandub.lud takes the king
#: the same way (the "Nielsen" ruleset from Cyningstan, tafl-rules.md 2.2).  They are the shipped
#: preset ``brandubh_federation`` (its file says where each rule comes from).
NAMED_READINGS: tuple[Reading, ...] = (
    Reading("brandubh", N_("Federation Brandubh"), {"king_capture": "weak_near_throne", "encirclement": True},
            N_("as hnefatafl-rs plays Brandubh; Ludii's Brandub takes the king the same way"),
            target="brandubh_federation"),
)


@dataclass(frozen=True)
class Fit:
    """Toggles under which a record replays: their values and, for a named reading, its name."""

    changes: dict[str, Any]
    reading: Reading | None = None

    @property
    def preset(self) -> str:
        """The shipped preset these rules are ('' when they are only toggles changed)."""
        return self.reading.target if self.reading is not None else ""

    def variant(self, base: Any) -> Any:
        """The variant to read the record under: the named preset itself, or ``base`` with the
        toggles changed."""
        if self.preset:
            from tafl_desktop.core.variants import find_variant

            return find_variant(self.preset)
        return base.with_options(self.changes)

    def describe(self, variant: Any) -> str:
        """'king captured by: four sides' in the reader's language; a named reading as its name,
        its toggles and its source: 'Federation Brandubh (king captured by: ..., encirclement:
        yes; hnefatafl-rs's ...)'."""
        text = ", ".join(f"{in_sentence(marks.gettext(variant.schema[key].label))}: "
                         f"{in_sentence(marks.gettext(variant.schema[key].value_label(value)))}"
                         for key, value in self.changes.items())
        if self.reading is not None:
            text = marks.gettext("{name} ({changes}; {source})").format(
                name=marks.gettext(self.reading.name), changes=text, source=marks.gettext(self.reading.source))
        return text


def candidate_changes(variant: Any) -> list[tuple[dict[str, Any], Reading | None]]:
    """The named readings of ``variant``'s preset first, then every other value of each toggle."""
    out: list[tuple[dict[str, Any], Reading | None]] = []
    for reading in NAMED_READINGS:
        if reading.preset == variant.id and reading.same_board(variant):
            changes = reading.changes(variant)
            if changes:
                out.append((changes, reading))
    for spec in variant.schema.specs:
        key = spec.key
        if spec.kind not in ("choice", "bool"):
            continue
        for value in spec.values():
            if value != variant.options.get(key, spec.default):
                out.append(({key: value}, None))
    return out


def replays(variant: Any, start_text: str | None, to_move: Any, play: Callable[[Game[Any]], None]) -> bool:
    """Does ``play`` (the record's moves, captures and result checked; raising IllegalMove, or
    ValueError, when they fail) go through on a new game of ``variant``?"""
    try:
        rules = variant.make_rules()
        start = rules.parse_position(start_text, to_move) if start_text is not None else None
        play(Game(rules, start))
    except (IllegalMove, ValueError):
        return False
    return True


def fitting_rules(variant: Any, start_text: str | None, to_move: Any, play: Callable[[Game[Any]], None],
                  limit: int = 3) -> list[Fit]:
    """Up to ``limit`` sets of toggles under which the record (``play`` on a new game) replays,
    a named reading first.  ``start_text``/``to_move``: the record's own start, or None for the
    variant's."""
    from tafl_desktop.core.variants import VariantError

    fits: list[Fit] = []
    for changes, reading in candidate_changes(variant):
        try:
            other = variant.with_options(changes)
        except VariantError:
            continue
        if replays(other, start_text, to_move, play):
            if reading is not None or not any(f.reading is not None and _within(changes, f.changes) for f in fits):
                fits.append(Fit(changes, reading))
            if len(fits) >= limit:
                break
    return fits


def _within(small: dict[str, Any], big: dict[str, Any]) -> bool:
    return all(big.get(k) == v for k, v in small.items())


def stated_words(variant: Any, winner: Any) -> str:
    """A result as a record states it ('a win for the attackers', 'a draw'), to set beside the
    ending our rules give when the two differ."""
    from tafl_desktop.core.side_words import side_subject

    if winner is None:
        return marks.gettext("a draw")
    return marks.gettext("a win for the {side}").format(side=in_sentence(side_subject(variant.sides, int(winner))))


def other_rules_note(variant: Any, fits: Sequence[Fit]) -> str:
    """The sentence a refusal ends with: the rules that replay the record."""
    return marks.gettext("It replays under other rules: {rules}.").format(
        rules=marks.gettext(" or ").join(f.describe(variant) for f in fits))
