"""The translation catalogues: in step with the sources, complete, placeholders intact, and every
character printable in the embedded font.

When one of these fails after new texts were added, run
``python -m tafl_desktop.tools.i18n_catalogue update``, translate the new entries of
``resources/translations/tafl_<lang>.po`` (Poedit or a text editor) and run ``update`` again (it
compiles the ``.mo`` files).  The issue this pins: every word a player reads in English, Danish,
German, French and Russian (issue 18).
"""

from __future__ import annotations

import io
import re
import string
from functools import cache

import pytest

babel = pytest.importorskip("babel")

from babel.messages.pofile import read_po  # noqa: E402

from tafl_desktop.tools import i18n_catalogue as C  # noqa: E402

#: Side-name placeholders (tafl_desktop.core.side_words): a translation may use any of them, and
#: need not use the English-only grammar helpers ({hs}, {a_hunter}...).
SIDE_FIELDS = {"many", "Many", "hunters", "Hunters", "hs", "hunter", "a_hunter", "A_hunter"}


@cache
def catalogue(lang: str):
    with open(C.po_path(lang), "rb") as fh:
        return read_po(fh, locale=lang)


def fields(text: str) -> set[str]:
    """The ``{name}`` fields of a str.format template (raises ValueError if the braces are broken)."""
    return {name.split(".")[0].split("[")[0] for _lit, name, _spec, _conv in string.Formatter().parse(text)
            if name is not None}


def test_catalogues_are_up_to_date_with_the_sources():
    stale = C.stale_files()
    assert stale == [], f"out of date: {stale}; run: python -m tafl_desktop.tools.i18n_catalogue update"


def test_the_catalogues_do_not_depend_on_the_installed_babel(monkeypatch):
    """A Babel release alone must not make the committed catalogues stale: Babel writes its own
    version into each header, which once failed a clean install's suite after Babel 2.19 came out
    (nothing else in the files had changed)."""
    import babel.messages.catalog as babel_catalog
    from babel.messages.catalog import Catalog

    def written(version: str) -> tuple[bytes, bytes]:
        monkeypatch.setattr(babel_catalog, "VERSION", version)
        cat = Catalog(locale="de", project="Tafl Desktop", creation_date=C._FIXED_DATE,
                      revision_date=C._FIXED_DATE)
        cat.add("Undo", "Rückgängig")
        return C.po_bytes(cat), C.mo_bytes(read_po(io.BytesIO(C.po_bytes(cat)), locale="de"))

    older, newer = written("2.18.0"), written("9.99.0")
    assert older == newer
    assert b"Generated-By: " + C.GENERATED_BY.encode() in older[0]
    assert b"Babel" not in older[0] + older[1]


@pytest.mark.parametrize("lang", C.SHIPPED)
def test_every_message_is_translated(lang):
    missing = C.untranslated(catalogue(lang))
    assert missing == [], f"{lang}: {len(missing)} untranslated, e.g. {missing[:3]}"


@pytest.mark.parametrize("lang", C.SHIPPED)
def test_translations_keep_the_placeholders(lang):
    """Every ``{field}`` of the English text is in every form of the translation (side names may
    be worded differently), and the translation brings no field the program does not fill."""
    problems = []
    for msg in catalogue(lang):
        if not msg.id:
            continue
        sources = msg.id if isinstance(msg.id, tuple) else (msg.id,)
        forms = msg.string if isinstance(msg.string, tuple) else (msg.string,)
        allowed = set().union(*(fields(s) for s in sources))
        # a sentence written for one game's sides names them itself (see marks.N_pair / N_side)
        named = SIDE_FIELDS | ({"side", "loser"} if (msg.context or "").startswith(("side:", "sides:")) else set())
        for i, form in enumerate(forms):
            # a form must hold the fields of the English text it stands for; a language whose first
            # form also serves other counts than one (Russian: 21, 31...) needs the plural's fields in
            # every form
            if len(sources) == 1:
                want = allowed
            elif len(forms) > 2 or i > 0:
                want = fields(sources[1])
            else:
                want = fields(sources[0])
            try:
                got = fields(form)
            except ValueError as exc:
                problems.append(f"{sources[0][:50]!r}: broken braces ({exc})")
                continue
            extra = got - allowed - SIDE_FIELDS
            lost = (want - named) - got
            if extra or lost:
                problems.append(f"{sources[0][:50]!r} -> {form[:50]!r}: extra {extra or ''} lost {lost or ''}")
            if "python-brace-format" not in msg.flags and "{" not in "".join(sources) and "{" in form:
                problems.append(f"{sources[0][:50]!r}: a brace in a text that is never formatted")
    assert problems == []


def test_the_accelerator_keys_survive():
    """A menu text with an ``&`` accelerator keeps exactly one in every language."""
    problems = []
    for lang in C.SHIPPED:
        for msg in catalogue(lang):
            if isinstance(msg.id, str) and re.search(r"&\w", msg.id) and "<" not in msg.id:
                if len(re.findall(r"&\w", msg.string)) != 1:
                    problems.append((lang, msg.id, msg.string))
    assert problems == []


def test_file_dialog_filters_keep_their_patterns():
    """A file dialog's filter ("Variant files (*.toml)") is translated part by part, and every
    language keeps its patterns exactly, or the dialog would list other files (or none)."""
    problems = []
    for lang in C.SHIPPED:
        for msg in catalogue(lang):
            if isinstance(msg.id, str) and re.fullmatch(r"[^()]+ \((\*[^()]*)\)", msg.id):
                pattern = msg.id[msg.id.rindex("("):]
                if not msg.string.endswith(pattern) or msg.string.count("(") != 1:
                    problems.append((lang, msg.id, msg.string))
    assert problems == []


def test_file_dialogs_show_each_filter_in_the_readers_words():
    from tafl_desktop import i18n
    from tafl_desktop.gui.dialogs import GAME_FILTER, filter_words
    from tafl_desktop.gui.interop_menu import IMPORT_FILTER

    try:
        i18n.set_language("de")
        assert filter_words(GAME_FILTER) == "Tafl-Desktop-Partien (*.tafl.json *.json);;Alle Dateien (*)"
        i18n.set_language("ru")
        parts = filter_words(IMPORT_FILTER).split(";;")
        assert parts[0] == "Записи партий (*.otg *.pgn *.txt *.json)" and parts[-1] == "Все файлы (*)"
        assert len(parts) == len(IMPORT_FILTER.split(";;"))
    finally:
        i18n.set_language("en")
    assert filter_words(GAME_FILTER) == GAME_FILTER


def test_the_compiled_catalogue_is_what_the_program_reads():
    """A round trip through the real run-time path: the .mo file, stdlib gettext, plural rules."""
    from tafl_desktop import i18n

    try:
        i18n.set_language("ru")
        assert i18n._("Board") == "Доска"
        forms = [i18n.ngettext("{n} rule changed from the preset", "{n} rules changed from the preset", n)
                 .format(n=n) for n in (1, 3, 5, 21)]
        assert forms == ["1 правило изменено по сравнению с набором", "3 правила изменены по сравнению с набором",
                         "5 правил изменено по сравнению с набором", "21 правило изменено по сравнению с набором"]
        i18n.set_language("da")
        assert i18n._("&File") == "&Fil"
    finally:
        i18n.set_language("en")
    assert i18n._("Board") == "Board"


def test_the_language_comes_from_the_environment(monkeypatch):
    from tafl_desktop import i18n

    for var in ("TAFL_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    assert i18n.system_language() == "de"
    monkeypatch.setenv("LANGUAGE", "sv:fr_FR")  # the first shipped language of the list
    assert i18n.system_language() == "fr"
    monkeypatch.setenv("TAFL_LANG", "ru")
    assert i18n.system_language() == "ru"
    monkeypatch.setenv("TAFL_LANG", "xx")  # unknown: the locale decides
    assert i18n.system_language() == "fr"
    assert i18n.normalise("C") is None and i18n.normalise("nb_NO") == "da"


# ------------------------------------------------------------------ every rule sentence, every language
def _values(spec):
    if spec.kind != "int":
        return spec.values()
    return sorted({v for v in (spec.minimum, 1, 2, 3, 5, 11, 21, spec.maximum) if spec.minimum <= v <= spec.maximum})


@cache
def rendered_rule_texts(lang: str) -> tuple[str, ...]:
    """Every rule text a player can meet in ``lang``: each preset's whole rule sheet, and the
    sentence and label of every value of every toggle, in that preset's side names."""
    from tafl_desktop import i18n
    from tafl_desktop.core.rulebook import rules_text
    from tafl_desktop.core.variants import presets

    out: list[str] = []
    i18n.set_language(lang)
    try:
        for variant in presets().values():
            out.append(rules_text(variant))
            schema = variant.schema
            for spec in schema:
                out += [spec.label, spec.help, spec.group]
                for value in _values(spec):
                    out += [spec.sentence(value), spec.value_label(value)]
            out += [variant.begins_text(0), variant.begins_text(1)]
            from tafl_desktop.core.game import REASON_TEXT, Outcome, Side

            for reason in REASON_TEXT:
                for winner in (None, Side(0), Side(1)):
                    out.append(Outcome(winner, reason).describe(variant))
    finally:
        i18n.set_language("en")
    return tuple(out)


@pytest.mark.parametrize("lang", ["en", *C.SHIPPED])
def test_every_rule_sentence_renders_in_every_language(lang):
    """No placeholder is left unfilled, and (outside English) the sentences really are translated."""
    texts = rendered_rule_texts(lang)
    leftovers = [t for t in texts if re.search(r"\{\w*\}", t)]
    assert leftovers == []
    if lang != "en":
        english = set(rendered_rule_texts("en"))
        same = [t for t in texts if t in english and re.search(r"[a-z]{4} [a-z]{4}", t)]
        assert same == [], f"{lang}: still English: {same[:3]}"


# ------------------------------------------------------------------------------------- the font
@cache
def font_characters(name: str) -> frozenset[str]:
    from fontTools.ttLib import TTFont

    from tafl_desktop.core.paths import resources_dir

    with TTFont(resources_dir() / "fonts" / name) as font:
        return frozenset(chr(c) for c in font.getBestCmap())


@pytest.mark.parametrize("font", ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf"])
def test_every_character_is_in_the_embedded_font(font):
    """The printed sets embed DejaVu Sans: every character of every catalogue and every rendered
    rule text must be in it (else the PDF shows an empty box)."""
    have = font_characters(font)
    text = io.StringIO()
    for lang in C.SHIPPED:
        text.write(C.po_path(lang).read_text(encoding="utf-8"))
        text.write("".join(rendered_rule_texts(lang)))
    missing = sorted({ch for ch in text.getvalue() if ch not in have and ch not in "\n\r\t"})
    assert missing == [], f"not in {font}: {missing}"
