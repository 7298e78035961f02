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

``update`` also writes the pseudo-locale ``tafl_en_XA.mo`` (see :func:`pseudo`): every text of
the template accented, bracketed and lengthened, so that a screen, page or command run under
``--lang en_XA`` shows at a glance (and to a test) every text that never passed through the
catalogue.  It is generated, never edited, and not offered in Preferences.

Babel does the extraction, merging and compiling (a development tool: the app itself reads the
``.mo`` files with the standard library).  Line numbers are left out of the ``.po`` references so
that editing code elsewhere in a file does not make the catalogues stale.
"""

from __future__ import annotations

import argparse
import functools
import io
import os
import sys
from collections.abc import Iterator
from datetime import UTC
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent  # tafl_desktop/: the sources the texts are taken from
ROOT = PACKAGE.parent
SHIPPED = ("da", "de", "fr", "ru")
PSEUDO = "en_XA"
KEYWORDS = {
    "_": None, "N_": None, "gettext": None,
    "ngettext": (1, 2), "pgettext": ((1, "c"), 2), "npgettext": ((1, "c"), 2, 3),
    # the window's texts that follow a language switch (tafl_desktop.gui.texts)
    "tr": (3,), "trn": (3, 4), "add_item": (2,), "set_item": (3,),
}
#: Texts naming both sides of a variant: the catalogue holds each once more per preset's pair of
#: sides (``marks.N_pair``, ``Variant.pair_text``).
PAIR_KEYWORDS = {"N_pair": None, "pair_text": None, "pair_ntext": (1, 2)}
#: Texts about one side: once more per side of every preset (``marks.N_side``, ``Variant.side_text``).
SIDE_KEYWORDS = {"N_side": None, "side_text": (2,)}
KEYWORDS.update(PAIR_KEYWORDS)
KEYWORDS.update(SIDE_KEYWORDS)
#: The side placeholders of the Fox games' texts (tafl_desktop.core.side_words).
HUNT_FIELDS = ("{many}", "{Many}", "{hunters}", "{Hunters}", "{hs}", "{hunter}", "{a_hunter}", "{A_hunter}")
#: Translator notes for the game's terms, written into the catalogue beside each text that uses them.
GLOSSARY_FILE = "GLOSSARY.md"


def translations_dir() -> Path:
    return ROOT / "resources" / "translations"


def po_path(lang: str) -> Path:
    return translations_dir() / f"tafl_{lang}.po"


def _source_files() -> Iterator[Path]:
    """The package's Python files in the order Babel's directory extraction walks them (each
    folder's files sorted, then its subfolders sorted; folders starting with ``.`` or ``_`` left
    out), so the template lists messages as it always has."""
    for root, dirnames, filenames in os.walk(PACKAGE):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith((".", "_")))
        for filename in sorted(filenames):
            if filename.endswith(".py"):
                yield Path(root) / filename


def _source_messages(keywords=None) -> Iterator[tuple[str | tuple[str, ...], str | None, str, list[str]]]:
    """(msgid or (singular, plural), context, location, comments) for every marked call.  A file
    that names none of the keywords holds no marked call and is not tokenized: the catalogue reads
    the sources three times (every keyword, then the pair and the side texts alone), and the last
    two find their few files among some 250."""
    from babel.messages.extract import extract_from_file

    keywords = keywords or KEYWORDS
    for path in _source_files():
        if keywords is not KEYWORDS and not any(k in path.read_text(encoding="utf-8") for k in keywords):
            continue
        for _lineno, message, comments, context in extract_from_file(
                "python", str(path), keywords=keywords, comment_tags=("TRANSLATORS:",), strip_comment_tags=True):
            yield message, context, path.relative_to(PACKAGE.parent).as_posix(), comments


def _preset_sides() -> list[tuple[str, str, str, int, int]]:
    """(family, first side, second side, pieces of the first, pieces of the second) of every
    preset, one row per distinct pair of side names."""
    from tafl_desktop.core.variants import presets

    out: dict[tuple[str, str], tuple[str, str, str, int, int]] = {}
    for v in presets().values():
        out.setdefault((v.sides[0], v.sides[1]), (v.family, v.sides[0], v.sides[1], v.side_count(0), v.side_count(1)))
    return sorted(out.values())


def _games_of(sides: tuple[str, str]) -> str:
    from tafl_desktop.core.variants import presets

    return ", ".join(sorted({v.name for v in presets().values() if tuple(v.sides) == sides}))


def _context_messages() -> Iterator[tuple[str | tuple[str, ...], str, str, list[str]]]:
    """(msgid, context, location, comments) of the texts written once per pair of sides or per
    side, and of the side names themselves in each pair's context (see ``marks.N_pair``)."""
    from tafl_desktop.core.side_words import side_context, sides_context, subject_context

    pairs = _preset_sides()
    pair_texts = [(m, where) for m, _c, where, _k in _source_messages(PAIR_KEYWORDS)]
    pair_texts += [(t, where) for t, where in _schema_messages() if any(f in t for f in HUNT_FIELDS)]
    side_texts = [(m, where) for m, _c, where, _k in _source_messages(SIDE_KEYWORDS)]
    for family, first, second, n_first, n_second in pairs:
        sides = (first, second)
        games = _games_of(sides)
        about = (f"The sides of {games}: {first} ({n_first} piece{'s' if n_first != 1 else ''}) and {second} "
                 f"({n_second} piece{'s' if n_second != 1 else ''}).")
        for i, name in enumerate(sides):
            yield name, sides_context(sides), "resources/variants", [
                about, f"The name of the side {name}, shown alone (a heading, a label, a column)."]
            yield name, subject_context(sides), "resources/variants", [
                about, f"The side {name} as the subject of a sentence, in lower case, with the article your "
                "language needs there (Danish 'gæssene', French 'les oies', German 'die Gänse')."]
            for text, where in side_texts:
                yield text, side_context(sides, i), where, [
                    about, f"Written for the side {name}: name it as your grammar needs (a verb agreeing "
                    "with it), instead of the placeholder if you like."]
        for text, where in pair_texts:
            key = text if isinstance(text, str) else text[0]
            if family != "hunt" and any(f in key for f in HUNT_FIELDS):
                continue
            yield text, sides_context(sides), where, [
                about, "Written for these two sides: a whole sentence naming them as your language needs; "
                "the side placeholders may be left out, every other {field} stays."]


def _schema_messages() -> Iterator[tuple[str | tuple[str, str], str]]:
    """(text, location) for the option schemas' words (they are data, so no call marks them); a
    counted sentence (``sentence_one``) is one plural entry, (singular, plural)."""
    from tafl_desktop.core.dablot_options import DABLOT_OPTIONS
    from tafl_desktop.core.hunt_options import HUNT_OPTIONS
    from tafl_desktop.core.tafl_options import TAFL_OPTIONS

    for name, schema in (("tafl_options", TAFL_OPTIONS), ("hunt_options", HUNT_OPTIONS),
                         ("dablot_options", DABLOT_OPTIONS)):
        where = f"tafl_desktop/core/{name}.py"
        for spec in schema:
            on: str | tuple[str, str] = (spec.sentence_one, spec.sentence_on) if spec.sentence_one else spec.sentence_on
            texts = [spec.group, spec.label, spec.help, on, spec.sentence_off]
            if spec.sentence_on_without:
                texts.append(spec.sentence_on_without[1])
            for c in spec.choices:
                texts += [c.label, c.sentence]
            for t in texts:
                if t:
                    yield t, where


def _preset_messages() -> Iterator[tuple[str, str, str]]:
    """(text, location, comment) for each preset's name, description, side names, sources and
    notes (the last two as paragraphs, as ``Variant.notes_text`` looks them up)."""
    import tomllib

    from tafl_desktop.core.side_words import paragraphs

    for path in sorted((ROOT / "resources" / "variants").glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        where = f"resources/variants/{path.name}"
        yield data["name"], where, "The name of a game (a preset)."
        if data.get("description"):
            yield data["description"], where, ""
        for side in data.get("sides", []):
            yield side, where, "A side's name, shown alone (a heading, a label, a column)."
        for source in data.get("sources", []):
            yield paragraphs(source), where, ("A source of the rules (rule sheet, Sources): keep names, titles, "
                                              "file names and quotations as they are.")
        if str(data.get("notes", "")).strip():
            yield paragraphs(data["notes"]), where, ("The preset's notes (rule sheet, Notes): keep option keys, "
                                                     "values and file names as they are.")


def template():
    """The catalogue of every text in the sources, untranslated (a Babel ``Catalog``)."""
    from babel.messages.catalog import Catalog

    cat = Catalog(project="Tafl Desktop", fuzzy=False, header_comment="# Tafl Desktop: translations of every "
                  "text a player reads.\n# Regenerate with: python -m tafl_desktop.i18n_catalogue update")
    for message, context, where, comments in _source_messages():
        cat.add(message, None, [(where, None)], auto_comments=comments, context=context)
    for text, where in _schema_messages():
        cat.add(text, None, [(where, None)])
    for text, where, comment in _preset_messages():
        cat.add(text, None, [(where, None)], auto_comments=[comment] if comment else [])
    for text, context, where, comments in _context_messages():
        old = cat.get(text, context)
        if old is None:
            cat.add(text, None, [(where, None)], auto_comments=comments, context=context)
        else:
            old.locations = [*old.locations, (where, None)]
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


#: The ``Generated-By`` header the catalogues carry: this tool, not Babel's version (see :func:`_stable`).
GENERATED_BY = "Tafl Desktop (python -m tafl_desktop.i18n_catalogue)"


@functools.cache
def _stable_catalog_class() -> type:
    """A Babel ``Catalog`` whose ``Generated-By`` header is :data:`GENERATED_BY` (made on first use:
    Babel is a development tool, imported only here)."""
    from babel.messages.catalog import Catalog

    class StableHeaderCatalog(Catalog):
        def _fixed_headers(self) -> list[tuple[str, str]]:
            return [(k, f"{GENERATED_BY}\n" if k == "Generated-By" else v) for k, v in self._get_mime_headers()]

        mime_headers = property(_fixed_headers, Catalog._set_mime_headers)

    return StableHeaderCatalog


def _stable(cat):
    """``cat`` with a header that does not depend on the installed Babel.

    Babel writes its own version into every catalogue (``Generated-By: Babel 2.18.0``), so a new
    Babel release made every committed catalogue "out of date" on a fresh install, though not one
    text had changed.  The header names this tool instead; everything else stays Babel's.
    """
    cat.__class__ = _stable_catalog_class()
    return cat


def po_bytes(cat) -> bytes:
    from babel.messages.pofile import write_po

    buf = io.BytesIO()
    write_po(buf, _stable(cat), width=100, include_lineno=False, sort_output=True, ignore_obsolete=True)
    return buf.getvalue()


def mo_bytes(cat) -> bytes:
    from babel.messages.mofile import write_mo

    buf = io.BytesIO()
    write_mo(buf, _stable(cat), use_fuzzy=False)
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


# the pseudo-locale's text is made at run time too (lessons are data, not catalogue entries)
from tafl_desktop.i18n import CLOSE, OPEN, pseudo_text  # noqa: E402,F401


def pseudo(tmpl=None):
    """The pseudo-locale's catalogue (a Babel ``Catalog``), made from the template."""
    from babel.messages.catalog import Catalog

    tmpl = tmpl or template()
    # fixed dates: the header is compiled into the .mo, so "now" would make it stale every minute
    cat = Catalog(locale="en", project="Tafl Desktop", fuzzy=False, creation_date=_FIXED_DATE,
                  revision_date=_FIXED_DATE)
    for msg in tmpl:
        if not msg.id:
            continue
        string = tuple(pseudo_text(i) for i in msg.id) if isinstance(msg.id, tuple) else pseudo_text(msg.id)
        cat.add(msg.id, string, context=msg.context, flags=msg.flags)
    return cat


def pseudo_path() -> Path:
    return translations_dir() / f"tafl_{PSEUDO}.mo"


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
    path = pseudo_path()
    if not path.exists() or path.read_bytes() != mo_bytes(pseudo(tmpl)):
        out.append(str(path.relative_to(ROOT)))
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
    pseudo_path().write_bytes(mo_bytes(pseudo(tmpl)))
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
        print(f"out of date: {f} (run: python -m tafl_desktop.i18n_catalogue update)")
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
