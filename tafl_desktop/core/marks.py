"""Marking user-facing texts in the pure core, and the hook through which they are translated.

The core stays free of any translation machinery: ``N_`` returns its argument unchanged, so a
table of texts (option labels, rule sentences) is written in English once.  Where the core itself
builds a sentence for a reader (the rule book, a schema filled with a variant's side names) it
calls :func:`gettext` / :func:`ngettext` / :func:`pgettext` here, which are the identity until the
translation module at the edge (``tafl_desktop.i18n``) plugs its catalogue in with
:func:`install`.  The core therefore never imports the edge, and a script that only uses the core
gets English.

Numbers a reader sees go through :func:`decimal`, :func:`percent` and :func:`integer`, so that a
German or Russian reader gets "1,4" and a French one "95 %" (the edge plugs a locale-aware
formatter in; plain English formatting before that).

The catalogue extractor (``python -m tafl_desktop.tools.i18n_catalogue``) collects ``N_``, ``gettext``,
``ngettext``, ``_``, ``pgettext`` calls and every text of the option schemas and preset files.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal


def N_(text: str) -> str:  # noqa: N802 - the conventional gettext marker name
    """Mark ``text`` for translation; return it unchanged."""
    return text


def N_pair(text: str) -> str:  # noqa: N802 - a gettext-style marker
    """Mark a text that names both sides of a variant (a Fox game's rule sentence): the catalogue
    holds it once more for every preset's pair of side names, so that each language writes a
    whole sentence per game ("Der Fuchs gewinnt, wenn weniger als {n} Gänse übrig sind") instead
    of filling names into one frame.  Look it up with ``Variant.pair_text``."""
    return text


def N_side(text: str) -> str:  # noqa: N802 - a gettext-style marker
    """Mark a text about one side of a variant ("{loser} resigned"): the catalogue holds it once
    more for every side of every preset, so that a language whose verb agrees with the side's
    gender or number writes it right ("лиса сдалась", "волк сдался").  Look it up with
    ``Variant.side_text``."""
    return text


def _english_plural(singular: str, plural: str, n: int | Decimal) -> str:
    """English counts "1" singular and everything else, "1.0" too (CLDR), plural."""
    return singular if n == 1 and not (isinstance(n, Decimal) and "." in str(n)) else plural


def _no_context(context: str, text: str) -> str:
    return text


def _no_context_plural(context: str, singular: str, plural: str, n: int | Decimal) -> str:
    return _ngettext(singular, plural, n)


def _plain_number(value: float, digits: int, sign: bool, percent: bool, trim: bool = False) -> str:
    """English formatting, used until the edge installs the locale's (see :func:`install`)."""
    plus = "+" if sign else ""
    if percent:
        return f"{value * 100:{plus}.{digits}f}%"
    if digits < 0:
        return f"{value:{plus},d}"
    text = f"{value:{plus},.{digits}f}"
    return text.rstrip("0").rstrip(".") if trim and "." in text else text


_gettext: Callable[[str], str] = str
_ngettext: Callable[[str, str, int | Decimal], str] = _english_plural
_pgettext: Callable[[str, str], str] = _no_context
_npgettext: Callable[[str, str, str, int | Decimal], str] = _no_context_plural
_number: Callable[..., str] = _plain_number
_language = "en"


def gettext(text: str) -> str:
    """``text`` in the language the edge installed (English before that)."""
    return _gettext(text)


def ngettext(singular: str, plural: str, n: int | Decimal) -> str:
    """The form for ``n`` in the installed language (Russian has three); for a number shown with
    decimals pass :func:`plural_number` of it, so that the form agrees with what the reader sees."""
    return _ngettext(singular, plural, n)


def plural_number(value: float, digits: int = 1) -> Decimal:
    """``value`` rounded to ``digits`` decimals as :func:`decimal` shows it, kept as a
    :class:`~decimal.Decimal` with those decimals, for choosing a plural form: "20,8" and "1,0"
    take another form than "1" in several languages (CLDR counts the shown decimals)."""
    return Decimal(f"{float(value):.{max(digits, 0)}f}")


def pgettext(context: str, text: str) -> str:
    """``text`` as translated in ``context``; the context-free translation when the catalogue has
    none for that context (a variant's own sentences fall back to the family's)."""
    found = _pgettext(context, text)
    return found if found != text else _gettext(text)


def npgettext(context: str, singular: str, plural: str, n: int | Decimal) -> str:
    """:func:`ngettext` in ``context``, falling back to the context-free forms."""
    found = _npgettext(context, singular, plural, n)
    english = _english_plural(singular, plural, n)
    return found if found != english else _ngettext(singular, plural, n)


def has_context(context: str, text: str) -> bool:
    """True when the catalogue translates ``text`` especially for ``context``."""
    return _pgettext(context, text) != text


def language() -> str:
    """The code of the installed language ("en" until the edge installs another); caches of
    translated texts in the core key on it."""
    return _language


def decimal(value: float, digits: int = 1, sign: bool = False) -> str:
    """``value`` with ``digits`` decimals as the reader's language writes it ("1,4" in German);
    ``sign`` puts a plus before positive numbers."""
    return _number(float(value), digits, sign, False)


def number(value: float, digits: int = 2) -> str:
    """``value`` with at most ``digits`` decimals, none when it is whole ("7,5 mm", "30 mm")."""
    return _number(float(value), digits, False, False, True)


def integer(value: int, sign: bool = False) -> str:
    """A whole number with the language's digit grouping ("12 345" in French)."""
    return _number(int(value), -1, sign, False)


def percent(fraction: float, digits: int = 0, sign: bool = False) -> str:
    """``fraction`` (0.95) as a percentage in the reader's language ("95 %" in French and German)."""
    return _number(float(fraction), digits, sign, True)


def number_beyond(value: float, bound: float, digits: int = 2) -> str:
    """``value`` as given (:func:`number` with as many decimals as it has, up to nine), never
    reading as ``bound``: a size refused for passing 80 mm by 0.0001 is "80.0001 mm", not "80 mm"."""
    for d in range(digits, 10):
        if round(value, d) == value and number(value, d) != number(bound, d):
            return number(value, d)  # the value as given (to nine decimals)
    return number(value, 9)


class Shown(float):
    """A number a message formats with ``{x:g}`` that is written as ``text`` (made by
    :func:`number_beyond`), so the message's placeholder stays as translators know it."""

    text: str

    def __new__(cls, value: float, text: str) -> Shown:
        obj = super().__new__(cls, value)
        obj.text = text
        return obj

    def __format__(self, spec: str) -> str:
        return self.text if spec in ("", "g") else format(float(self), spec)


class Num(float):
    """A number a message formats with ``{x:g}``: written as the reader's language writes it
    ("2,5" in German), so a message keeps its ``:g`` and the translator's text stays valid."""

    def __format__(self, spec: str) -> str:
        if spec in ("", "g"):
            return number(float(self), 3)
        return format(float(self), spec)


class Title(str):
    """A game's name that a translation can put after a preposition with ``{game:de}`` or
    ``{game:à}``: French contracts the name's own article with it ("12 coups du renard et les
    oies", not "de Le renard et les oies"; "d'Alea Evangelii"), so each language builds the phrase
    its grammar needs while the code passes the plain name.  Without a format spec it is the name.
    (French contraction: de + le = du, de + les = des, à + le = au, à + les = aux; the article
    ``la`` and an elided ``l'`` stay; ``de`` and ``la`` elide before a vowel.)"""

    _CONTRACTED = {("de", "le"): "du", ("de", "les"): "des", ("à", "le"): "au", ("à", "les"): "aux"}

    def __format__(self, spec: str) -> str:
        if spec not in ("de", "à"):
            return str.__format__(str(self), spec)
        text = str(self)
        first, _space, rest = text.partition(" ")
        article = first.lower()
        if rest and (spec, article) in self._CONTRACTED:
            return f"{self._CONTRACTED[(spec, article)]} {rest}"
        if rest and article == "la":
            return f"{spec} la {rest}"
        if text[:2].lower() in ("l'", "l’"):
            return f"{spec} l'{text[2:]}"
        if spec == "de" and text[:1].lower() in "aeiouyàâéèêëîïôûüœ":
            return f"d'{text}"
        return f"{spec} {text}"


def install(gettext_fn: Callable[[str], str], ngettext_fn: Callable[[str, str, int | Decimal], str], code: str,
            pgettext_fn: Callable[[str, str], str] | None = None,
            npgettext_fn: Callable[[str, str, str, int | Decimal], str] | None = None,
            number_fn: Callable[..., str] | None = None) -> None:
    """Plug a catalogue in (called by ``tafl_desktop.i18n.set_language`` only)."""
    global _gettext, _ngettext, _pgettext, _npgettext, _number, _language
    _gettext, _ngettext, _language = gettext_fn, ngettext_fn, code
    _pgettext = pgettext_fn or _no_context
    _npgettext = npgettext_fn or _no_context_plural
    _number = number_fn or _plain_number
