"""Rule-toggle schema.

A toggle is declared once, as an :class:`OptionSpec`, and that one declaration drives four things:
the engine reads its value, the options panel builds its widget from it, the variant/save file
stores it under its key, and the printed rule sheet uses its sentence.  Adding a toggle therefore
touches the schema, the engine and a test, nothing else.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from tafl_desktop.core import marks
from tafl_desktop.core.marks import gettext as _
from tafl_desktop.core.quoting import known, quote
from tafl_desktop.core.side_words import fill

#: Why a toggle about a kind of special square means nothing on a board without it: one whole
#: sentence per kind (a lambda each, looked up in the language in use when it is needed).
UNFIT_TEXT = {
    "corner": lambda: _("option '{key}' is about corner squares, and this board has none"),
    "throne": lambda: _("option '{key}' is about the throne, and this board has none"),
    "camp": lambda: _("option '{key}' is about camp squares, and this board has none"),
    "escape": lambda: _("option '{key}' is about marked escape squares, and this board has none"),
    "pen": lambda: _("option '{key}' is about the pen, and this board has none"),
    "diagonal_lines": lambda: _("option '{key}' is about diagonal lines, and this board has none"),
}
UNFIT_CHOICE_TEXT = {
    "corner": lambda: _("option '{key}' = '{value}' needs corner squares, and this board has none"),
    "throne": lambda: _("option '{key}' = '{value}' needs a throne, and this board has none"),
    "camp": lambda: _("option '{key}' = '{value}' needs camp squares, and this board has none"),
    "escape": lambda: _("option '{key}' = '{value}' needs marked escape squares, and this board has none"),
    "pen": lambda: _("option '{key}' = '{value}' needs a pen, and this board has none"),
    "diagonal_lines": lambda: _("option '{key}' = '{value}' needs diagonal lines, and this board has none"),
}

OptionValue = bool | int | str


def _td(value: OptionValue) -> str:
    """A value as ``--set`` takes it ('true', 'edge')."""
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


@dataclass(frozen=True)
class Choice:
    """One allowed value of a choice toggle, with its UI label and its rule-sheet sentence.

    ``needs_mark`` names a kind of special square (or board feature) the value is about: on a
    board without it the value cannot be honoured, so the panel does not offer it and a variant
    file or ``--set`` that picks it is refused (see :meth:`OptionSchema.unfit_reason`)."""

    value: str
    label: str
    sentence: str
    needs_mark: str = ""


@dataclass(frozen=True)
class CountedSentence:
    """A rule sentence with a count, looked up when the count is known: n -> the form the
    reader's language gives n, the variant's side names filled in.  A class, not a closure, so
    that a schema in words still pickles (a study sends variants to other processes)."""

    one: str
    many: str
    context: str
    words: tuple[tuple[str, str], ...]

    def __call__(self, n: int) -> str:
        text = (marks.npgettext(self.context, self.one, self.many, n) if self.context
                else marks.ngettext(self.one, self.many, n))
        return fill(text, dict(self.words))


@dataclass(frozen=True)
class OptionSpec:
    """One rule toggle.

    ``kind`` is ``"choice"`` (``choices`` lists the values), ``"bool"`` (``sentence_on`` /
    ``sentence_off`` are the rule-sheet sentences) or ``"int"`` (``minimum``..``maximum``;
    ``sentence_on`` is formatted with ``{n}``, ``sentence_off`` used for the value 0).
    ``depends_on`` names another key and the values of it under which this toggle matters;
    elsewhere the panel greys it out and the rule sheet leaves it out.
    ``needs_mark`` names a kind of special square (``"corner"``, ``"throne"``, ``"camp"``) or
    board feature (``"diagonal_lines"``, see ``Variant.board_features``) the toggle is about: on
    a board without such squares it means nothing and is treated the same way
    (see :meth:`OptionSchema.for_board`), so no sheet speaks of corners a board does not have.
    ``sentence_on_without`` is ``(mark kind, sentence)``: on a board without that kind of square,
    ``sentence`` replaces ``sentence_on`` (a rule that still applies but has a clause about them).
    """

    key: str
    label: str
    help: str
    kind: str
    default: OptionValue
    choices: tuple[Choice, ...] = ()
    sentence_on: str = ""
    sentence_off: str = ""
    minimum: int = 0
    maximum: int = 0
    group: str = "General"
    source: str = ""
    depends_on: tuple[str, tuple[OptionValue, ...]] | None = None
    needs_mark: str = ""
    sentence_on_without: tuple[str, str] | None = None
    #: A toggle added after files were first written: saved only when it differs from the
    #: default, so a file that does not use it reads exactly as before (and an older app opens it).
    omit_default: bool = False
    #: For an ``"int"`` toggle, ``sentence_on`` as English writes it for 1 ("after {n} move in a
    #: row"): the two are then one plural entry of the catalogue, and the sentence takes the form
    #: each language gives the number shown (Russian "5 ходов", "2 хода", "21 ход").
    sentence_one: str = ""
    #: Set by :meth:`OptionSchema.for_words` on a counted sentence: n -> the sentence in the
    #: reader's language for that n (its form depends on the value, so it is looked up late).
    counted: Callable[[int], str] | None = field(default=None, compare=False, repr=False)

    def values(self) -> list[OptionValue]:
        if self.kind == "choice":
            return [c.value for c in self.choices]
        if self.kind == "bool":
            return [False, True]
        return list(range(self.minimum, self.maximum + 1))

    def allowed_text(self) -> str:
        """What values are allowed, for error messages."""
        if self.kind == "choice":
            return _("one of {values}").format(values=known(repr(c.value) for c in self.choices))
        if self.kind == "bool":
            return marks.gettext("true or false")
        return _("a whole number from {low} to {high}").format(low=self.minimum, high=self.maximum)

    def validate(self, value: Any) -> OptionValue:
        """Return the value if allowed, else raise ValueError saying what is allowed."""
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
        elif self.kind == "int":
            if isinstance(value, int) and not isinstance(value, bool) and self.minimum <= value <= self.maximum:
                return value
        elif isinstance(value, str) and value in self.values():
            return value
        raise ValueError(_("option '{key}' = {value} is not allowed: use {allowed}").format(
            key=self.key, value=quote(value), allowed=self.allowed_text()))

    def parse_text(self, text: str) -> OptionValue:
        """Parse a value typed on a command line (``--set key=value``)."""
        t = text.strip()
        if self.kind == "bool":
            low = t.lower()
            if low in ("true", "yes", "on", "1"):
                return True
            if low in ("false", "no", "off", "0"):
                return False
            return self.validate(t)
        if self.kind == "int":
            try:
                if not (t.isascii() and t.lstrip("-").isdigit() and len(t) < 10):
                    raise ValueError(t)
                return self.validate(int(t))
            except ValueError:
                raise ValueError(_("option '{key}' = {value} is not allowed: use {allowed}").format(
                    key=self.key, value=quote(t), allowed=self.allowed_text())) from None
        return self.validate(t)

    def choice(self, value: OptionValue) -> Choice | None:
        for c in self.choices:
            if c.value == value:
                return c
        return None

    def value_label(self, value: OptionValue) -> str:
        """Short human label of a value (for the options panel and the rules viewer)."""
        if self.kind == "choice":
            c = self.choice(value)
            return c.label if c else str(value)
        if self.kind == "bool":
            return marks.gettext("yes") if value else marks.gettext("no")
        return marks.gettext("off") if value == 0 else str(value)

    def sentence(self, value: OptionValue) -> str:
        """The rule-sheet sentence for this value."""
        if self.kind == "choice":
            c = self.choice(value)
            return c.sentence if c else ""
        if self.kind == "bool":
            return self.sentence_on if value else self.sentence_off
        if value == 0:
            return self.sentence_off
        if self.sentence_one:
            n = int(value)
            text = self.counted(n) if self.counted else (self.sentence_one if n == 1 else self.sentence_on)
            return text.format(n=n)
        return self.sentence_on.format(n=value)


@dataclass(frozen=True)
class OptionSchema:
    """The ordered list of toggles of one game family.

    ``board_marks`` is None for the family's schema (any board); :meth:`for_board` gives the
    schema of one board, which knows the kinds of special squares that board has, so that every
    client asking ``is_active`` and ``sentence`` (options panel, rules viewer, rule sheet, CLI)
    leaves out toggles about squares the board lacks without knowing about boards itself.
    """

    specs: tuple[OptionSpec, ...]
    board_marks: frozenset[str] | None = None
    _by_key: dict[str, OptionSpec] = field(init=False, repr=False, compare=False)
    _boards: dict[frozenset[str], OptionSchema] = field(init=False, repr=False, compare=False)
    #: (words, context, language) -> the schema in those words
    _worded: dict[tuple[frozenset[tuple[str, str]], str, str], OptionSchema] = field(init=False, repr=False,
                                                                                    compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_key", {s.key: s for s in self.specs})
        object.__setattr__(self, "_boards", {})
        object.__setattr__(self, "_worded", {})

    def for_board(self, marks: Iterable[str]) -> OptionSchema:
        """This schema on a board whose special squares are of the kinds ``marks`` (cached: the
        variant asks for it on every ``variant.schema``)."""
        kinds = frozenset(marks)
        bound = self._boards.get(kinds)
        if bound is None:
            specs = tuple(
                replace(s, sentence_on=s.sentence_on_without[1])
                if s.sentence_on_without and s.sentence_on_without[0] not in kinds else s
                for s in self.specs)
            bound = OptionSchema(specs, kinds)
            self._boards[kinds] = bound
        return bound

    def for_words(self, words: Mapping[str, str], context: str = "") -> OptionSchema:
        """This schema speaking of one variant's sides: the side placeholders of every label,
        help text and sentence (see :mod:`tafl_desktop.core.side_words`) filled with ``words``.

        This is also where the schema's texts are put into the reader's language (through the
        hook in :mod:`tafl_desktop.core.marks`), before the side names are filled in.  A text
        naming the sides is looked up as written for the variant's pair of sides (``context``,
        e.g. "sides: Geese, Fox"), so that German says "Der Fuchs gewinnt, wenn weniger als {n}
        Gänse übrig sind" as one sentence; the family's sentence, with the names filled in where
        the translation places them, serves side names the catalogue does not know."""
        key = (frozenset(words.items()), context, marks.language())
        bound = self._worded.get(key)
        if bound is None:
            def say(text: str) -> str:
                if not text:
                    return text
                return fill(marks.pgettext(context, text) if context and "{" in text else marks.gettext(text), words)

            specs = tuple(
                replace(s, label=say(s.label), help=say(s.help), group=say(s.group),
                        sentence_on=s.sentence_on if s.sentence_one else say(s.sentence_on),
                        counted=CountedSentence(s.sentence_one, s.sentence_on, context, tuple(words.items()))
                        if s.sentence_one else None,
                        sentence_off=say(s.sentence_off),
                        choices=tuple(replace(c, label=say(c.label), sentence=say(c.sentence))
                                      for c in s.choices))
                for s in self.specs)
            bound = OptionSchema(specs, self.board_marks)
            self._worded[key] = bound
        return bound

    def __iter__(self) -> Iterator[OptionSpec]:
        return iter(self.specs)

    def __contains__(self, key: object) -> bool:
        return key in self._by_key

    def __getitem__(self, key: str) -> OptionSpec:
        return self._by_key[key]

    def keys(self) -> list[str]:
        return [s.key for s in self.specs]

    def defaults(self) -> dict[str, OptionValue]:
        return {s.key: s.default for s in self.specs}

    def resolve(self, values: Mapping[str, Any], where: str = "options") -> dict[str, OptionValue]:
        """Defaults overlaid with ``values``; unknown keys and bad values raise ValueError."""
        out = self.defaults()
        for key, value in values.items():
            if key not in self._by_key:
                raise ValueError(_("unknown option {key} in {where}; known options: {known}").format(
                    key=quote(key), where=where, known=known(self.keys())))
            out[key] = self._by_key[key].validate(value)
        return out

    def parse_assignments(self, items: Iterable[str]) -> dict[str, OptionValue]:
        """Parse ``KEY=VALUE`` strings from the command line into validated values."""
        out: dict[str, OptionValue] = {}
        for item in items:
            if "=" not in item:
                raise ValueError(_("--set expects KEY=VALUE, got {item}").format(item=quote(item)))
            key, text = item.split("=", 1)
            key = key.strip()
            if key not in self._by_key:
                raise ValueError(_("unknown option {key}; known options: {known}").format(
                    key=quote(key), known=known(self.keys())))
            out[key] = self._by_key[key].parse_text(text)
        return out

    def fits_board(self, key: str) -> bool:
        """False for a toggle about a kind of special square this schema's board lacks: it can
        never matter here, so the options panel does not even show it."""
        if self._lacks_mark(key):
            return False
        spec = self._by_key[key]
        # a toggle that only matters under one that cannot (camps' hostility without camps) cannot either
        parent = spec.depends_on[0] if spec.depends_on else None
        return parent is None or parent not in self._by_key or self.fits_board(parent)

    def _lacks_mark(self, key: str) -> bool:
        """The toggle is about a kind of special square this board lacks."""
        spec = self._by_key[key]
        return bool(spec.needs_mark and self.board_marks is not None and spec.needs_mark not in self.board_marks)

    def choice_fits(self, key: str, value: OptionValue) -> bool:
        """False for a choice value about a kind of square this schema's board lacks."""
        c = self._by_key[key].choice(value)
        return not (c is not None and c.needs_mark and self.board_marks is not None
                    and c.needs_mark not in self.board_marks)

    def unfit_reason(self, key: str, value: OptionValue, neutral: OptionValue) -> str | None:
        """Why ``key = value`` cannot be honoured on this board (None if it can).  A toggle about
        squares the board lacks may keep ``neutral`` (its default or the value it has), which
        changes nothing; any other value of it, or a choice about missing squares, is refused."""
        spec = self._by_key[key]
        if self._lacks_mark(key) and value != neutral:
            return UNFIT_TEXT[spec.needs_mark]().format(key=key)
        if not self.choice_fits(key, value):
            c = spec.choice(value)
            assert c is not None  # choice_fits is False only for a choice the option has
            return UNFIT_CHOICE_TEXT[c.needs_mark]().format(key=key, value=value)
        return None

    def is_active(self, key: str, values: Mapping[str, OptionValue]) -> bool:
        """False when the toggle is irrelevant under the other values (see ``depends_on``) or on
        this schema's board (see ``needs_mark``)."""
        spec = self._by_key[key]
        if spec.needs_mark and self.board_marks is not None and spec.needs_mark not in self.board_marks:
            return False
        if spec.depends_on is None:
            return True
        other, wanted = spec.depends_on
        return values.get(other) in wanted and self.is_active(other, values)

    def in_force(self, values: Mapping[str, OptionValue]) -> dict[str, OptionValue]:
        """``values`` with every toggle that does not apply (see :meth:`is_active`) at its default:
        what the engine plays, so that a greyed-out toggle the rule sheet leaves out never acts."""
        return {k: (v if k not in self._by_key or self.is_active(k, values) else self._by_key[k].default)
                for k, v in values.items()}

    def inactive_reason(self, key: str, values: Mapping[str, OptionValue]) -> str | None:
        """Why toggle ``key`` has no effect under ``values`` (None when it applies)."""
        if self.is_active(key, values):
            return None
        spec = self._by_key[key]
        if spec.needs_mark and self.board_marks is not None and spec.needs_mark not in self.board_marks:
            unfit = UNFIT_TEXT.get(spec.needs_mark)
            if unfit is None:
                return _("the board has none of the squares option '{key}' is about").format(key=key)
            return unfit().format(key=key)
        other, wanted = spec.depends_on  # type: ignore[misc]
        if not self.is_active(other, values):
            return self.inactive_reason(other, values)
        shown = [_td(v) for v in wanted]
        listed = shown[0]
        for more in shown[1:]:
            listed = _("{first} or {second}").format(first=listed, second=more)
        return _("option '{key}' applies only when '{other}' is {values}").format(key=key, other=other, values=listed)

    def groups(self) -> list[tuple[str, list[OptionSpec]]]:
        """Toggles grouped for the options panel and the rule sheet, in declaration order."""
        order: list[str] = []
        by_group: dict[str, list[OptionSpec]] = {}
        for s in self.specs:
            if s.group not in by_group:
                order.append(s.group)
                by_group[s.group] = []
            by_group[s.group].append(s)
        return [(g, by_group[g]) for g in order]
