"""The one translation module at the edge: every word a player reads passes through here.

The window, the printer and the command line call ``_()`` (and ``ngettext`` / ``pgettext``) on
their own texts and on the texts the core only *marks* (``tafl_desktop.core.marks.N_``), so one
catalogue per language serves them all.  Until a language is chosen, the functions return the
English source text unchanged.
"""

from __future__ import annotations


def _(text: str) -> str:
    """The text in the chosen language (English until one is set)."""
    return text


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n``, as the chosen language counts (Russian has three)."""
    return singular if n == 1 else plural


def pgettext(context: str, text: str) -> str:
    """The text in a named context, for words that mean two things ("draw" as a result or a picture)."""
    return text
