"""Keep the translation catalogues in step with the sources: ``python -m tafl_desktop.tools.i18n_catalogue``
(``python -m tafl_desktop.i18n_catalogue`` runs it too).

Commands:

``update``
    extract every marked text (``_``, ``N_``, ``gettext``, ``ngettext``, ``pgettext``,
    ``npgettext`` calls in ``tafl_desktop/``; every label, help text, choice and sentence of the
    option schemas; every preset's name, description and side names), merge it into
    ``resources/translations/tafl_<lang>.po`` (new texts come in untranslated, texts no longer
    in the sources are dropped) and compile each ``.po`` to its ``.mo``;
``check``
    say what ``update`` would change and which texts lack a translation; exit 1 if anything.

Babel does the extraction, merging and compiling (a development tool: the app itself reads the
``.mo`` files with the standard library).  Line numbers are left out of the ``.po`` references so
that editing code elsewhere in a file does not make the catalogues stale.
"""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Iterator
from datetime import UTC
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent  # tafl_desktop/: the sources the texts are taken from
ROOT = PACKAGE.parent
SHIPPED = ("da", "de", "fr", "ru")
KEYWORDS = {
    "_": None, "N_": None, "gettext": None,
    "ngettext": (1, 2), "pgettext": ((1, "c"), 2), "npgettext": ((1, "c"), 2, 3),
}
#: Translator notes for the game's terms, written into the catalogue beside each text that uses them.
GLOSSARY_FILE = "GLOSSARY.md"


def translations_dir() -> Path:
    return ROOT / "resources" / "translations"


def po_path(lang: str) -> Path:
    return translations_dir() / f"tafl_{lang}.po"


def _source_messages() -> Iterator[tuple[str | tuple[str, ...], str | None, str, list[str]]]:
    """(msgid or (singular, plural), context, location, comments) for every marked call."""
    from babel.messages.extract import extract_from_dir

    for filename, _lineno, message, comments, context in extract_from_dir(
            str(PACKAGE), method_map=[("**.py", "python")], keywords=KEYWORDS, comment_tags=("TRANSLATORS:",),
            strip_comment_tags=True):
        yield message, context, f"tafl_desktop/{filename}", comments


def _schema_messages() -> Iterator[tuple[str, str]]:
    """(text, location) for the option schemas' words (they are data, so no call marks them)."""
    from tafl_desktop.core.dablot_options import DABLOT_OPTIONS
    from tafl_desktop.core.hunt_options import HUNT_OPTIONS
    from tafl_desktop.core.tafl_options import TAFL_OPTIONS

    for name, schema in (("tafl_options", TAFL_OPTIONS), ("hunt_options", HUNT_OPTIONS),
                         ("dablot_options", DABLOT_OPTIONS)):
        where = f"tafl_desktop/core/{name}.py"
        for spec in schema:
            texts = [spec.group, spec.label, spec.help, spec.sentence_on, spec.sentence_off]
            if spec.sentence_on_without:
                texts.append(spec.sentence_on_without[1])
            for c in spec.choices:
                texts += [c.label, c.sentence]
            for t in texts:
                if t:
                    yield t, where


def _preset_messages() -> Iterator[tuple[str, str, str]]:
    """(text, location, comment) for each preset's name, description and side names."""
    import tomllib

    for path in sorted((ROOT / "resources" / "variants").glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        where = f"resources/variants/{path.name}"
        yield data["name"], where, "The name of a game (a preset)."
        if data.get("description"):
            yield data["description"], where, ""
        for side in data.get("sides", []):
            yield side, where, "A side's name, shown alone (a heading, a label, a column)."


def template():
    """The catalogue of every text in the sources, untranslated (a Babel ``Catalog``)."""
    from babel.messages.catalog import Catalog

    cat = Catalog(project="Tafl Desktop", fuzzy=False, header_comment="# Tafl Desktop: translations of every "
                  "text a player reads.\n# Regenerate with: python -m tafl_desktop.tools.i18n_catalogue update")
    for message, context, where, comments in _source_messages():
        cat.add(message, None, [(where, None)], auto_comments=comments, context=context)
    for text, where in _schema_messages():
        cat.add(text, None, [(where, None)])
    for text, where, comment in _preset_messages():
        cat.add(text, None, [(where, None)], auto_comments=[comment] if comment else [])
    glossary = _glossary()
    for msg in cat:
        if not msg.id:
            continue
        key = msg.id if isinstance(msg.id, str) else msg.id[0]
        notes = [f"Glossary: {term} = {note}" for term, note in glossary if _mentions(key, term)]
        msg.auto_comments = list(dict.fromkeys([*msg.auto_comments, *notes]))
        msg.locations = sorted(set(msg.locations))
    return cat


def _glossary() -> list[tuple[str, str]]:
    """(term, note) pairs from the glossary table (lines ``| term | note |``)."""
    path = translations_dir() / GLOSSARY_FILE
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) >= 2 and cells[0] and not set(cells[0]) <= {"-", " "} \
                and cells[0].lower() != "term":
            out.append((cells[0], cells[1]))
    return out


def _mentions(text: str, term: str) -> bool:
    import re

    return re.search(rf"\b{re.escape(term)}", text, re.IGNORECASE) is not None


def merged(lang: str, tmpl=None):
    """The ``.po`` of ``lang`` brought up to date with the sources (not written)."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po

    tmpl = tmpl or template()
    path = po_path(lang)
    if path.exists():
        with open(path, "rb") as fh:
            cat = read_po(fh, locale=lang)
    else:
        cat = Catalog(locale=lang)
    cat.update(tmpl, no_fuzzy_matching=True, update_header_comment=True)
    cat.obsolete.clear()
    cat.fuzzy = False
    cat.project, cat.version = "Tafl Desktop", ""
    cat.revision_date = cat.creation_date = _FIXED_DATE
    cat.last_translator = cat.language_team = "Tafl Desktop"
    return cat


def _fixed_date():
    from datetime import datetime

    return datetime(2026, 1, 1, tzinfo=UTC)


_FIXED_DATE = _fixed_date()


def po_bytes(cat) -> bytes:
    from babel.messages.pofile import write_po

    buf = io.BytesIO()
    write_po(buf, cat, width=100, include_lineno=False, sort_output=True, ignore_obsolete=True)
    return buf.getvalue()


def mo_bytes(cat) -> bytes:
    from babel.messages.mofile import write_mo

    buf = io.BytesIO()
    write_mo(buf, cat, use_fuzzy=False)
    return buf.getvalue()


def untranslated(cat) -> list[str]:
    """The texts of ``cat`` with no (or a fuzzy, or an incomplete plural) translation."""
    out = []
    for msg in cat:
        if not msg.id:
            continue
        strings = msg.string if isinstance(msg.string, tuple) else (msg.string,)
        if msg.fuzzy or not all(strings) or (msg.pluralizable and len(strings) != cat.num_plurals):
            out.append(msg.id if isinstance(msg.id, str) else msg.id[0])
    return out


def stale_files() -> list[str]:
    """Catalogue files that ``update`` would change."""
    from babel.messages.pofile import read_po

    tmpl = template()
    out = []
    for lang in SHIPPED:
        cat = merged(lang, tmpl)
        new_po = po_bytes(cat)
        path = po_path(lang)
        if not path.exists() or path.read_bytes() != new_po:
            out.append(str(path.relative_to(ROOT)))
            continue
        compiled = mo_bytes(read_po(io.BytesIO(new_po), locale=lang))
        mo = path.with_suffix(".mo")
        if not mo.exists() or mo.read_bytes() != compiled:
            out.append(str(mo.relative_to(ROOT)))
    return out


def update() -> dict[str, int]:
    """Write every shipped ``.po`` and ``.mo``; return the untranslated count per language."""
    from babel.messages.pofile import read_po

    tmpl = template()
    counts = {}
    translations_dir().mkdir(parents=True, exist_ok=True)
    for lang in SHIPPED:
        cat = merged(lang, tmpl)
        data = po_bytes(cat)
        po_path(lang).write_bytes(data)
        po_path(lang).with_suffix(".mo").write_bytes(mo_bytes(read_po(io.BytesIO(data), locale=lang)))
        counts[lang] = len(untranslated(cat))
    return counts


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tafl_desktop.tools.i18n_catalogue",
                                description="Extract the texts from the sources into the translation catalogues.")
    p.add_argument("command", choices=("update", "check"), nargs="?", default="update")
    args = p.parse_args(argv)
    if args.command == "update":
        for lang, n in update().items():
            print(f"{po_path(lang).relative_to(ROOT)}: " + (f"{n} texts to translate" if n else "complete"))
        return 0
    stale = stale_files()
    for f in stale:
        print(f"out of date: {f} (run: python -m tafl_desktop.tools.i18n_catalogue update)")
    missing = 0
    from babel.messages.pofile import read_po

    for lang in SHIPPED:
        with open(po_path(lang), "rb") as fh:
            todo = untranslated(read_po(fh, locale=lang))
        missing += len(todo)
        for text in todo:
            print(f"{lang}: untranslated: {text[:70]!r}")
    return 1 if stale or missing else 0


if __name__ == "__main__":
    sys.exit(main())
