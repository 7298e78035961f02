"""Finding text that never passed through the catalogue, under the pseudo-locale.

Under ``--lang en_XA`` every catalogued text reads "⟦Ŧĥé ķîñĝ éšçåþéð ·····⟧": accented and in
brackets.  Take the bracketed parts out of what a player sees and only things that are the same in
every language may be left: move notation and square names, numbers, the program's and the
presets' ids, option keys and values (``--set king_armed=true``), file paths, and the command
line's own syntax (``--moves MOVES``, ``{en,da,de,fr,ru}``).  Any other word left is English that
a Danish, German, French or Russian reader would see too: :func:`leaks` returns it.
"""

from __future__ import annotations

import re
from functools import cache

PSEUDO = "en_XA"
_SEGMENT = re.compile(r"⟦[^⟦⟧]*⟧")

#: Words every language writes the same way: the program's name and trade marks, file formats.
PROPER = {
    "tafl-desktop", "Tafl", "Desktop", "OpenTafl", "PlayTaflOnline", "PDF", "PNG", "SVG", "JSON", "TOML", "PGN",
    "OTG", "Dask", "Qt", "PySide6", "DejaVu", "Sans", "true", "false", "end",
    # the Saami names of Dablot's pieces, printed on the rank markers beside the translated ones
    "gånneka", "gånnekan", "alke", "dårake",
    # each language's name in itself, in the language menu (an endonym is never translated)
    "English", "Dansk", "Deutsch", "Français", "Русский",
}


@cache
def contract_words() -> frozenset[str]:
    """Preset ids, option keys and values, side keys and command names: the command line's and
    the files' vocabulary, the same in every language."""
    from tafl_desktop.cli import _command_names, build_parser
    from tafl_desktop.core.variants import FAMILIES, presets

    words: set[str] = set()
    for v in presets().values():
        words |= {v.id, *v.id.split("_"), v.side_key(0), v.side_key(1)}
    for fam in FAMILIES.values():
        for spec in fam.schema:
            words.add(spec.key)
            words |= set(spec.key.split("_"))
            for value in spec.values():
                if isinstance(value, str):
                    words.add(value)
                    words |= set(value.split("_"))
    parser = build_parser()
    words |= set(_command_names(parser))

    def choices_of(p) -> None:  # every option's choices (--holes cut), commands of commands too
        for action in p._actions:
            choices = getattr(action, "choices", None) or ()
            words.update(c for c in choices if isinstance(c, str))
            if isinstance(choices, dict):
                for sub in choices.values():
                    choices_of(sub)
    choices_of(parser)
    from tafl_desktop.ai.levels import LEVELS

    words |= set(LEVELS)
    words |= {"attackers", "defenders", "draw", "a4", "letter", "portrait", "landscape", "otg", "pgn", "json",
              "moves", "txt", "csv", "png", "pdf", "toml"}
    return frozenset(words)


_METAVARS = r"\b[A-Z][A-Z0-9_=]*\b"
_ALLOWED = [
    r"\btafl-desktop\b",                  # the program
    r"https?://\S+",                      # addresses
    r"(?:/[\w.@+-]+)+/?",                 # file paths
    r"[\w.-]+\.(?:tafl\.json|json|toml|otg|pgn|txt|csv|png|pdf|svg|stl)\b",  # file names
    r"'(?=\S)[^'\n]{0,80}(?<=\S)'",          # a user's value repeated in a message, quoted
    r"\b[a-z]+(?:_[a-z0-9]+)+\b",           # identifiers (fox_geese_13, king_armed)
    r"--?[a-z][a-z0-9-]*",                # option strings
    _METAVARS,                            # argparse metavars (MOVES, KEY=VALUE, DIR)
    r"\{[\w,.-]+\}",                      # choice lists {en,da,de,fr,ru}
    r"\b[a-z]\d{1,2}(?:[-x][a-z]\d{1,2})*\b",  # squares and moves: e5, d6-b6, c3xc5xe5
    r"\b\d+x\d+\b",                        # board sizes 11x11
]
_ALLOWED_RE = re.compile("|".join(_ALLOWED))
#: A printed page has no argparse metavars: a word in capitals there ("RETREATED") is a word too.
_ALLOWED_ON_PAPER_RE = re.compile("|".join(a for a in _ALLOWED if a != _METAVARS))


def strip_catalogued(text: str) -> str:
    """``text`` without its ⟦bracketed⟧ parts (innermost first: a translated sentence may hold a
    translated side name)."""
    while True:
        out = _SEGMENT.sub(" ", text)
        if out == text:
            return out
        text = out


def leaks(text: str, allowed: frozenset[str] | set[str] = frozenset(), paper: bool = False) -> list[str]:
    """The words of ``text`` that did not come through the catalogue and are no notation, number,
    id or name (see the module's docstring); ``paper``: the text of a printed page, where words in
    capitals are words, not the command line's metavars."""
    text = re.sub(r"<[^<>]*>|&[a-z]+;", " ", text)  # rich text's markup is no word of the reader's
    rest = (_ALLOWED_ON_PAPER_RE if paper else _ALLOWED_RE).sub(" ", strip_catalogued(text))
    ok = PROPER | contract_words() | set(allowed)
    return [w for w in re.findall(r"[^\W\d_](?:[\w'’-]*[^\W\d_])?", rest) if w not in ok and len(w) > 1
            and not re.fullmatch(r"[a-z]", w)]


def unlocalised_numbers(text: str) -> list[str]:
    """Decimal numbers written the English way ("1.4", "95%") in a text of the pseudo-locale,
    whose numbers follow French conventions ("1,4", "95 %")."""
    rest = _ALLOWED_RE.sub(" ", strip_catalogued(text))  # a number a translator wrote is theirs
    return re.findall(r"(?<![\w.])\d+\.\d+(?![\w.])|\d%", rest)
