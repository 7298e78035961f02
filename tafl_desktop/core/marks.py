"""Marking user-facing texts in the pure core, and the hook through which they are translated.

The core stays free of any translation machinery: ``N_`` returns its argument unchanged, so a
table of texts (option labels, rule sentences) is written in English once.  Where the core itself
builds a sentence for a reader (the rule book, a schema filled with a variant's side names) it
calls :func:`gettext` / :func:`ngettext` here, which are the identity until the translation
module at the edge (``tafl_desktop.i18n``) plugs its catalogue in with :func:`install`.  The core
therefore never imports the edge, and a script that only uses the core gets English.

The catalogue extractor (``python -m tafl_desktop.tools.i18n_catalogue``) collects ``N_``, ``gettext``,
``ngettext``, ``_``, ``pgettext`` calls and every text of the option schemas and preset files.
"""

from __future__ import annotations

from collections.abc import Callable


def N_(text: str) -> str:  # noqa: N802 - the conventional gettext marker name
    """Mark ``text`` for translation; return it unchanged."""
    return text


def _english_plural(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


_gettext: Callable[[str], str] = str
_ngettext: Callable[[str, str, int], str] = _english_plural
_language = "en"


def gettext(text: str) -> str:
    """``text`` in the language the edge installed (English before that)."""
    return _gettext(text)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form for ``n`` in the installed language (Russian has three)."""
    return _ngettext(singular, plural, n)


def language() -> str:
    """The code of the installed language ("en" until the edge installs another); caches of
    translated texts in the core key on it."""
    return _language


def install(gettext_fn: Callable[[str], str], ngettext_fn: Callable[[str, str, int], str], code: str) -> None:
    """Plug a catalogue in (called by ``tafl_desktop.i18n.set_language`` only)."""
    global _gettext, _ngettext, _language
    _gettext, _ngettext, _language = gettext_fn, ngettext_fn, code
