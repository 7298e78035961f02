"""The one translation module at the edge: every word a player reads passes through here.

The window, the printer and the command line call ``_()`` (and ``ngettext`` / ``pgettext``) on
their own texts and on the texts the core only *marks* (``tafl_desktop.core.marks.N_``), so one
catalogue per language serves them all.

Why gettext and not Qt's ``tr()``: the printer and the CLI must run without a window (and the
core without Qt at all), so the catalogues are gettext ``.po`` files (``resources/translations/
tafl_<lang>.po``, editable in Poedit or any text editor), compiled to ``.mo`` beside them and read
with the standard library's :mod:`gettext` (no dependency at run time, ~1 ms to load).  The
window adds Qt's own ``qtbase_<lang>.qm`` from the PySide6 wheel only for Qt's standard dialog
buttons (:func:`install_qt_translator`).  ``python -m tafl_desktop.tools.i18n_catalogue update``
re-extracts the texts and updates the catalogues.

The language is chosen, first match wins, by :func:`set_language` (``--lang``, Preferences),
``$TAFL_LANG``, the saved preference, then the system locale (``LANGUAGE``, ``LC_ALL``,
``LC_MESSAGES``, ``LANG``); anything unknown falls back to English.

Numbers follow the language too (:func:`format_number`, plugged into the core's
:func:`tafl_desktop.core.marks.decimal` and friends).  Why Babel: its CLDR data knows each
language's decimal comma, digit grouping (a narrow no-break space in French and Russian, a dot in
German and Danish) and where the percent sign goes ("95 %" with a no-break space in four of our
five languages), data we would otherwise copy by hand and get wrong at the edges; it is pure
Python, and the catalogue tools use it already.

A sixth, hidden language, the pseudo-locale ``en_XA`` (:data:`PSEUDO`), turns every catalogued
text into accented, bracketed and lengthened English ("⟦Ŧĥé ķîñĝ éšçåþéð ·····⟧"): a text on
screen without the brackets never passed through the catalogue.  ``python -m
tafl_desktop.i18n_catalogue update`` generates it from the template; it is offered in Preferences
only when ``TAFL_DEBUG_LANGUAGES=1`` is set, and ``--lang en_XA`` chooses it anywhere.
"""

from __future__ import annotations

import functools
import gettext as _gettext_module
import os
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from tafl_desktop.core import marks

#: The shipped languages, each named in its own language (for the Preferences menu).
LANGUAGES: dict[str, str] = {
    "en": "English",
    "da": "Dansk",
    "de": "Deutsch",
    "fr": "Français",
    "ru": "Русский",
}
DOMAIN = "tafl"
#: The pseudo-locale: every catalogued text accented and bracketed (see the module's docstring).
PSEUDO = "en_XA"
#: Set to 1 to offer the pseudo-locale in Preferences.
DEBUG_LANGUAGES_ENV = "TAFL_DEBUG_LANGUAGES"
#: The locale whose number conventions each language uses (the pseudo-locale writes decimal
#: commas and "95 %", so that a number formatted the English way stands out).
NUMBER_LOCALE = {"en": "en", "da": "da", "de": "de", "fr": "fr", "ru": "ru", PSEUDO: "fr"}

_catalogue: _gettext_module.NullTranslations = _gettext_module.NullTranslations()
_language = "en"
_explicit = False
_listeners: list[Callable[[str], None]] = []


def available_languages() -> dict[str, str]:
    """Language code -> its own name, English first (with the pseudo-locale last when
    ``TAFL_DEBUG_LANGUAGES=1``)."""
    out = dict(LANGUAGES)
    if os.environ.get(DEBUG_LANGUAGES_ENV) == "1":
        out[PSEUDO] = "Pseudo (⟦Ƥšéûðö⟧)"
    return out


def known_language(code: str) -> bool:
    """A shipped language or the pseudo-locale."""
    return code in LANGUAGES or code == PSEUDO


def current_language() -> str:
    """The code of the language in use ("en" until :func:`set_language` chose another)."""
    return _language


def translations_dir():
    """The folder of the ``.po``/``.mo`` catalogues."""
    from tafl_desktop.core.paths import resources_dir

    return resources_dir() / "translations"


def normalise(code: str | None) -> str | None:
    """"de_DE.UTF-8" -> "de"; None for a language we do not ship (or "C"/"POSIX")."""
    if not code:
        return None
    if code.strip().replace("-", "_").lower().startswith(PSEUDO.lower()):
        return PSEUDO
    short = code.strip().split(":")[0].split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    if short in ("nb", "nn", "no"):  # a Norwegian reads Danish far more easily than English
        short = "da"
    return short if short in LANGUAGES else None


def system_language() -> str:
    """The language the environment asks for: ``TAFL_LANG``, then the POSIX locale variables,
    then the platform's locale; English if none is shipped."""
    for var in ("TAFL_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value:
            for part in value.split(":"):
                found = normalise(part)
                if found:
                    return found
            if var != "TAFL_LANG":
                break  # the first locale variable set decides, as in the C library
    try:
        import locale

        found = normalise(locale.getlocale()[0] or "")
    except (ValueError, TypeError):
        found = None
    return found or "en"


def load_catalogue(code: str) -> _gettext_module.NullTranslations:
    """The compiled catalogue of ``code`` (an empty one for English or a missing file)."""
    if code == "en":
        return _gettext_module.NullTranslations()
    path = translations_dir() / f"{DOMAIN}_{code}.mo"
    try:
        with open(path, "rb") as fh:
            return _gettext_module.GNUTranslations(fh)
    except OSError:
        return _gettext_module.NullTranslations()


def set_language(code: str | None, explicit: bool | None = None) -> str:
    """Use language ``code`` (None or unknown: the environment's) from now on, for the window,
    printer, CLI and core alike; listeners (the window) are told.  Returns the code in use.
    ``explicit`` (default: a known ``code`` was given) records that the user chose it (``--lang``),
    so the window's saved preference does not override it."""
    global _catalogue, _language, _explicit
    chosen = normalise(code) or system_language()
    _catalogue = load_catalogue(chosen)
    _language = chosen
    _explicit = bool(normalise(code)) if explicit is None else explicit
    marks.install(_, ngettext, chosen, pgettext, npgettext, format_number)
    _qt_locale()
    _follow_in_qt()
    for listener in list(_listeners):
        listener(chosen)
    return chosen


def chosen_explicitly() -> bool:
    """True when the language in use was asked for by name (``--lang``, Preferences)."""
    return _explicit


def on_language_change(listener: Callable[[str], None]) -> None:
    """Call ``listener(code)`` after every :func:`set_language` (the window retranslates)."""
    _listeners.append(listener)


def _(text: str) -> str:
    """The text in the chosen language (the English text itself if the catalogue lacks it)."""
    return _catalogue.gettext(text) if text else text


#: Which of a catalogue's plural forms (the ``msgstr[i]`` of its ``Plural-Forms``) serves each
#: CLDR plural category (https://www.unicode.org/cldr/charts/latest/supplemental/language_plural_rules.html).
#: Why a table: gettext's formulas count whole numbers only, but "20,8" needs a form too; CLDR
#: gives a decimal the Russian category "other", which Russian writes with the genitive singular of
#: the "few" form ("20,8 пункта", like "2 пункта"); Danish and French give "1,5" the singular.
_FORM_OF_CATEGORY: dict[str, dict[str, int]] = {
    "ru": {"one": 0, "few": 1, "many": 2, "other": 1},
}
_TWO_FORMS = {"one": 0, "other": 1, "few": 1, "many": 1, "two": 1, "zero": 1}
#: A whole number standing for each form index, valid for every shipped ``Plural-Forms``
#: (1 -> the first form, 2 -> the second, 5 -> Russian's third), so that the catalogue's own
#: lookup is used for a decimal too.
_INDEX_NUMBER = (1, 2, 5)


def plural_index(n: int | Decimal, language: str | None = None) -> int:
    """The index of the plural form ``language`` (default: the current one) writes after the
    number ``n`` as it is shown: a :class:`~decimal.Decimal` keeps its shown decimals, so that
    ``Decimal("1.0")`` is plural in English and German (CLDR's visible fraction digits)."""
    from babel import Locale

    code = language or _language
    rule = Locale.parse("en" if code == PSEUDO else code).plural_form
    category = rule(n if isinstance(n, Decimal) else int(n))
    return _FORM_OF_CATEGORY.get(code, _TWO_FORMS).get(category, 1)


def ngettext(singular: str, plural: str, n: int | Decimal) -> str:
    """The singular or plural form for ``n``, as the chosen language counts (Russian has three);
    ``n`` a :class:`~decimal.Decimal` for a number shown with decimals (:func:`marks.plural_number`)."""
    if isinstance(n, Decimal):
        n = _INDEX_NUMBER[plural_index(n)]
    return _catalogue.ngettext(singular, plural, n)


def pgettext(context: str, text: str) -> str:
    """The text in a named context, for words that mean two things ("draw" as a result or a picture)."""
    return _catalogue.pgettext(context, text)


def npgettext(context: str, singular: str, plural: str, n: int | Decimal) -> str:
    """:func:`ngettext` in a named context."""
    if isinstance(n, Decimal):
        n = _INDEX_NUMBER[plural_index(n)]
    return _catalogue.npgettext(context, singular, plural, n)


def format_number(value: float, digits: int = 1, sign: bool = False, percent: bool = False,
                  trim: bool = False) -> str:
    """``value`` as the current language writes numbers: ``digits`` decimals (-1: a whole number
    with digit grouping; ``trim``: at most that many, none for a whole number), ``sign`` a plus
    before positive numbers, ``percent`` a fraction shown as a percentage with the language's
    spacing."""
    from babel.numbers import format_decimal, format_percent

    locale = NUMBER_LOCALE.get(_language, "en")
    pattern = _number_pattern(locale, digits, sign, percent, trim)
    if percent:
        return format_percent(value, format=pattern, locale=locale)
    return format_decimal(value, format=pattern, locale=locale)


@functools.cache
def _number_pattern(locale: str, digits: int, sign: bool, percent: bool, trim: bool) -> str:
    """The CLDR pattern for ``digits`` fixed (or, ``trim``, at most) decimals, the locale's percent
    layout kept."""
    from babel import Locale

    body = "#,##0" + ("." + ("#" if trim else "0") * digits if digits > 0 else "")
    if percent:
        body = Locale.parse(locale).percent_formats[None].pattern.split(";")[0].replace("#,##0", body)
    return f"+{body};-{body}" if sign else body


def _qt_locale() -> None:
    """Qt's default locale follows the language (spin boxes write "29,0 mm" in German), when Qt
    is loaded already: the command line never loads it for this."""
    import sys

    if "PySide6.QtCore" not in sys.modules:
        return
    from PySide6.QtCore import QLocale

    QLocale.setDefault(QLocale(NUMBER_LOCALE.get(_language, "en")))


def _follow_in_qt() -> None:
    """Where a Qt application runs, its own catalogue follows the language at once, whoever
    changed it: a catalogue left from the last language would name keys and buttons in it."""
    import sys

    if "PySide6.QtCore" not in sys.modules:
        return
    from PySide6.QtCore import QCoreApplication

    app = QCoreApplication.instance()
    if app is not None:
        install_qt_translator(app)


#: Qt's own catalogue installed for the language in use (see :func:`install_qt_translator`).
_qt_translator: Any = None


def install_qt_translator(app) -> None:
    """Load Qt's own catalogue (``qtbase_<lang>.qm`` from the PySide6 wheel) for the standard
    buttons of Qt's dialogs ("Cancel", "Save"...), replacing the one installed before."""
    from PySide6.QtCore import QLibraryInfo, QLocale, QTranslator

    global _qt_translator
    # kept here, not on ``app``: QApplication.instance() may hand out a new Python wrapper, and an
    # attribute set on the old one was lost, so the last language's catalogue stayed installed
    # under the new one (French "Début" in the Russian shortcut list)
    if _qt_translator is not None:
        app.removeTranslator(_qt_translator)
        _qt_translator = None
    _qt_locale()
    if _language in ("en", PSEUDO):
        return
    locale = QLocale(_language)
    tr = QTranslator(app)
    if tr.load(locale, "qtbase", "_", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        app.installTranslator(tr)
        _qt_translator = tr


# ------------------------------------------------------------------------ the pseudo-locale
_ACCENTED = dict(zip("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
                     "åƀçðéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ", strict=True))
#: Format fields ({n}, {d:+.0%}) and %-style fields (argparse's %(prog)s): the pseudo-locale
#: brackets the words between them, never what is filled in.
_FIELD = r"\{\{|\}\}|\{[^{}]*\}|%\([a-z_]+\)[sdr]|%[sdr%]"
#: Kept unaccented inside a bracket: markup (<b>, &amp;), an accelerator's letter (&F), escapes.
_MARKUP = r"<[^<>]*>|&[a-z]+;|&[A-Za-z0-9&]|\n"
OPEN, CLOSE = "⟦", "⟧"


def pseudo_text(text: str) -> str:
    """``text`` in the pseudo-locale: letters accented, about a third longer, each run of words
    between two format fields in its own ⟦brackets⟧ (so that what the program fills in, a
    square's name or another translated text, stands outside them and is checked on its own),
    fields, markup and accelerators kept as they are."""
    import re

    def accent(part: str) -> str:
        out, last = [], 0
        for m in re.finditer(_MARKUP, part):
            out.append("".join(_ACCENTED.get(c, c) for c in part[last:m.start()]))
            out.append(m.group(0))
            last = m.end()
        out.append("".join(_ACCENTED.get(c, c) for c in part[last:]))
        return "".join(out)

    def bracket(run: str) -> str:
        if not re.search(r"[A-Za-z]", run):
            return run
        lead = len(run) - len(run.lstrip())
        trail = len(run.rstrip())
        pad = "·" * max(2, len(run.strip()) // 3)
        return f"{run[:lead]}{OPEN}{accent(run[lead:trail])} {pad}{CLOSE}{run[trail:]}"

    out = []
    for paragraph in text.split("\n\n"):
        pieces, last = [], 0
        for m in re.finditer(_FIELD, paragraph):
            pieces.append(bracket(paragraph[last:m.start()]))
            pieces.append(m.group(0))
            last = m.end()
        pieces.append(bracket(paragraph[last:]))
        out.append("".join(pieces))
    return "\n\n".join(out)
