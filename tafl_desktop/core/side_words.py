"""The words a variant uses for its two sides, filled into the family's rule texts.

A family's toggle texts are written once for every variant of the family, so they name the sides
by placeholders; the variant's own side names fill them in.  A Fox-and-Geese rule sheet then says
"The fox wins when fewer than 6 geese remain" and the Asalto one "The officers win when fewer
than 9 rebels remain", from one sentence.

Placeholders (only these are replaced; ``{n}``, a number filled in later, is left alone):

``{many}`` / ``{Many}``
    side 0 (the flock: geese, hounds, rebels, sheep), always plural;
``{hunters}`` / ``{Hunters}``
    side 1 as a group: "fox" when there is one hunter, "officers" when there are several;
``{hs}``
    the verb ending that agrees with ``{hunters}``: "s" for one hunter ("the fox wins"), "" for
    several ("the foxes win");
``{hunter}``
    one hunter, as a noun ("fox", "officer");
``{a_hunter}`` / ``{A_hunter}``
    "the fox" when there is one, "an officer" / "a fox" when there are several.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from tafl_desktop.core import marks

_PLACEHOLDER = re.compile(r"\{(many|Many|hunters|Hunters|hs|hunter|a_hunter|A_hunter)\}")


def singular(noun: str) -> str:
    """One of a plural side name ("Foxes" -> "fox", "Officers" -> "officer"); lower case."""
    w = noun.strip().lower()
    if w.endswith(("xes", "ches", "shes", "sses")):
        return w[:-2]
    if w.endswith("s") and not w.endswith("ss"):
        return w[:-1]
    return w


def side_words(sides: tuple[str, str], hunters_count: int, english: bool = True) -> dict[str, str]:
    """The placeholder values for a variant with side names ``sides`` and ``hunters_count``
    pieces on side 1 at the start (1 makes the hunters' side grammatically singular).  With
    ``english`` false (another language's names), the English grammar helpers hold the bare
    names: a translation that still uses them gets no English article."""
    # braces would be read as format fields by sentences that still hold ``{n}``: never insert one
    many, hunters = (name.strip().replace("{", "").replace("}", "") for name in sides)
    one = hunters_count == 1
    if not english:  # the helpers below are English grammar: another language's sentence names the side
        return {"many": many.lower(), "Many": many[:1].upper() + many[1:], "hunters": hunters.lower(),
                "Hunters": hunters[:1].upper() + hunters[1:], "hs": "", "hunter": hunters.lower(),
                "a_hunter": hunters.lower(), "A_hunter": hunters[:1].upper() + hunters[1:]}
    hunter = hunters.lower() if one else singular(hunters)
    a_hunter = f"the {hunter}" if one else ("an " if hunter[:1] in "aeiou" else "a ") + hunter
    return {
        "many": many.lower(), "Many": many[:1].upper() + many[1:],
        "hunters": hunters.lower(), "Hunters": hunters[:1].upper() + hunters[1:],
        "hs": "s" if one else "",
        "hunter": hunter,
        "a_hunter": a_hunter, "A_hunter": a_hunter[:1].upper() + a_hunter[1:],
    }


def fill(text: str, words: Mapping[str, str]) -> str:
    """``text`` with the side placeholders replaced (others, such as ``{n}``, kept)."""
    if "{" not in text or not words:
        return text
    return _PLACEHOLDER.sub(lambda m: words.get(m.group(1), m.group(0)), text)


def agree(verb: str, count: int) -> str:
    """``verb`` in the present tense for a side of ``count`` pieces: "begins" for the one fox,
    "begin" for the geese."""
    return verb + ("s" if count == 1 else "")


def sides_context(sides: tuple[str, str]) -> str:
    """The catalogue context of the texts written for one pair of sides ("sides: Geese, Fox")."""
    return f"sides: {sides[0]}, {sides[1]}"


def subject_context(sides: tuple[str, str]) -> str:
    """The catalogue context of the side names as a sentence's subject ("subject, sides: Geese, Fox")."""
    return f"subject, {sides_context(sides)}"


def side_context(sides: tuple[str, str], side: int) -> str:
    """The catalogue context of a text about one side ("side: Fox (of Geese, Fox)")."""
    return f"side: {sides[side]} (of {sides[0]}, {sides[1]})"


def pair_text(sides: tuple[str, str], text: str, words: Mapping[str, str]) -> str:
    """``text`` (marked ``marks.N_pair``) as the catalogue writes it for this pair of sides, the
    family's sentence with ``words`` filled in where it has none."""
    return fill(marks.pgettext(sides_context(sides), text), words)


def side_name(sides: tuple[str, str], side: int) -> str:
    """A side's name in the reader's language, as a heading shows it alone (looked up for this
    pair of sides first, then alone)."""
    return marks.pgettext(sides_context(sides), sides[side])


def side_subject(sides: tuple[str, str], side: int) -> str:
    """A side as the subject of a sentence in the reader's language ("gæssene", "les oies", "die
    Gänse"); the heading's name where the catalogue has no subject form for this pair."""
    ctx = subject_context(sides)
    name = sides[side]
    return marks.pgettext(ctx, name) if marks.has_context(ctx, name) else side_name(sides, side)


def nouns_keep_capitals() -> bool:
    """True when the reader's language writes a side's name with its capital inside a sentence
    (German nouns do: "+1,4 Verteidiger"); the catalogue says so, so a new language decides it
    without a change in the code."""
    return marks.pgettext(
        "grammar", "Inside a sentence, are side names written in lower case? Answer yes or no "
                   "(German: no, a noun keeps its capital).") == "no"


def in_sentence(name: str) -> str:
    """A side's name as it stands inside a sentence: lower case, unless the language keeps the
    capitals of nouns."""
    return name if nouns_keep_capitals() else name.lower()


def sentence(text: str) -> str:
    """``text`` with its first letter in upper case: a sentence whose translation starts with a
    side as its subject ("ræven vinder..." -> "Ræven vinder...")."""
    for i, ch in enumerate(text):
        if ch.isalpha():
            return text[:i] + ch.upper() + text[i + 1:]
        if not (ch.isspace() or ch in "«»„“\"'(¿¡"):
            return text
    return text


def paragraphs(text: str) -> str:
    """A file's wrapped text as paragraphs: lines joined by spaces, blank lines kept as the
    paragraph breaks (the form the catalogue holds a preset's notes and sources in)."""
    blocks = [" ".join(line.strip() for line in block.splitlines() if line.strip())
              for block in re.split(r"\n\s*\n", text.strip())]
    return "\n\n".join(b for b in blocks if b)
