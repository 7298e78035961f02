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

_PLACEHOLDER = re.compile(r"\{(many|Many|hunters|Hunters|hs|hunter|a_hunter|A_hunter)\}")


def singular(noun: str) -> str:
    """One of a plural side name ("Foxes" -> "fox", "Officers" -> "officer"); lower case."""
    w = noun.strip().lower()
    if w.endswith(("xes", "ches", "shes", "sses")):
        return w[:-2]
    if w.endswith("s") and not w.endswith("ss"):
        return w[:-1]
    return w


def side_words(sides: tuple[str, str], hunters_count: int) -> dict[str, str]:
    """The placeholder values for a variant with side names ``sides`` and ``hunters_count``
    pieces on side 1 at the start (1 makes the hunters' side grammatically singular)."""
    # braces would be read as format fields by sentences that still hold ``{n}``: never insert one
    many, hunters = (name.strip().replace("{", "").replace("}", "") for name in sides)
    one = hunters_count == 1
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
