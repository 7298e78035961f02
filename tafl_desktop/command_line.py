"""What every command of the command line shares: the one-line error and its exit codes, a
variant named on the command line (a preset id, a variant file or an OpenTafl rules string, with
``--set KEY=VALUE`` toggles), a start position from ``--position``/``--to-move``, and the argument
types that check a number's range (:func:`int_in`, :func:`float_in`).

A module of its own below the capabilities (it imports the translation layer and the core only),
so the capability modules that add sub-commands (``lab.cli``, ``analysis.cli``, ``interop.cli``,
``match.cli``, ``gamedb.cli``, ``study.commands``) import it without running the front door
(:mod:`tafl_desktop.cli`, which imports the window, the self-test and every capability):
``docs/ARCHITECTURE.md`` §1.  It was ``tafl_desktop/cli/common.py``.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from tafl_desktop.i18n import _

if TYPE_CHECKING:
    from tafl_desktop.core.game import P, Rules
    from tafl_desktop.core.variants import Variant

EXIT_ERROR = 1
EXIT_ILLEGAL = 2


class CliError(Exception):
    """A user-facing failure: printed as one line, exits with ``code``."""

    def __init__(self, message: str, code: int = EXIT_ERROR) -> None:
        super().__init__(message)
        self.code = code


# ------------------------------------------------------------------------------------ helpers
def shown(text: object) -> str:
    """A path or value from the command line, as a message repeats it (shortened, escaped)."""
    from tafl_desktop.core.quoting import shown as quoted

    return quoted(text)


def variant_arg(name: str, sets: Sequence[str] | None) -> Variant:
    """The variant ``NAME`` names, with the ``--set`` toggles; CliError (one line) otherwise."""
    from tafl_desktop.core.variants import VariantError, find_variant

    try:
        v = find_variant(name)
        if sets:
            changes = v.schema.parse_assignments(sets)
            v = v.with_options(changes)
            for key, value in changes.items():
                # a toggle that would not apply is refused, not silently ignored (the panel greys it)
                why = v.schema.inactive_reason(key, v.options)
                if why and value != v.schema[key].default:
                    raise CliError(_("--set {key}={value}: {why}").format(key=key, value=sets_text(value), why=why))
        return v
    except (VariantError, ValueError) as exc:
        raise CliError(str(exc)) from None


def sets_text(value: object) -> str:
    """A toggle's value as ``--set`` writes it."""
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def start_position(rules: Rules[P], position: str | None, to_move: str | None) -> P:
    """The start position ``--position`` and ``--to-move`` ask for (the variant's own without
    them); CliError (one line) for one the rules refuse."""
    variant = rules.variant
    if position is None:
        if to_move is not None:
            pos = rules.initial_position()
            try:
                return rules.parse_position(rules.position_text(pos), variant.parse_side(to_move))
            except ValueError as exc:
                raise CliError(str(exc)) from None
        return rules.initial_position()
    try:
        side = variant.parse_side(to_move) if to_move else variant.first_side
        return rules.parse_position(position, side)
    except ValueError as exc:
        raise CliError(_("--position: {error}").format(error=exc)) from None


# ------------------------------------------------------------------------------ argument types
def number_text(text: str, allow_fraction: bool) -> str:
    """``text`` if it is a plain ASCII number (no '٣', no '1_000', no 'inf' or 'nan'); else an error.
    A fraction may have an exponent ('1e-9', '1e30'): that is a number, and a range check after
    this one says when it is too small or too large."""
    import re

    pattern = r"-?\d{1,18}(\.\d{1,9})?([eE][+-]?\d{1,4})?" if allow_fraction else r"-?\d{1,19}"
    t = text.strip()
    if not re.fullmatch(pattern, t, flags=re.ASCII):
        message = _("{value} is not a number") if allow_fraction else _("{value} is not a whole number")
        raise argparse.ArgumentTypeError(message.format(value=quote_value(text)))
    return t


def quote_value(value: object) -> str:
    from tafl_desktop.core.quoting import quote

    return quote(value)


def int_in(low: int, high: int | Callable[[], int] | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high`` (``high`` may be a function, read
    when the argument is checked)."""

    def parse(text: str) -> int:
        value = int(number_text(text, False))
        top = high() if callable(high) else high
        if value < low or (top is not None and value > top):
            raise argparse.ArgumentTypeError(_("{value} is out of range: use {low} to {high}").format(
                value=value, low=low, high=top))
        return value

    return parse


def float_in(low: float, high: float) -> Callable[[str], float]:
    """An argparse type: a finite number from ``low`` to ``high``."""

    def parse(text: str) -> float:
        from tafl_desktop.core.marks import Num

        value = float(number_text(text, True))
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(_("{value} is out of range: use {low:g} to {high:g}").format(
                value=quote_value(text), low=Num(low), high=Num(high)))
        return value

    return parse
