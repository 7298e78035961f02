"""Each catalogue follows its language's typography (issue 28).

French puts a no-break space before ``:`` ``;`` ``!`` ``?`` and inside « guillemets », so a line never
starts with a lone colon; German quotes „so“; Russian «так»; Danish »sådan«.  Straight or English
curly quotes in running text are a translator's slip.  What is not running text is left alone: HTML
attributes (``cellspacing="4"``), a value the program quotes (``'{item}'``), addresses (``tcp://``),
the review's signs (``?!``, ``??``), key names (``Ctrl+;``) and square ranges (``c3:e5``).
"""

from __future__ import annotations

import re
from functools import cache

import pytest

babel = pytest.importorskip("babel")

from babel.messages.pofile import read_po  # noqa: E402

from tafl_desktop.tools import i18n_catalogue as C  # noqa: E402

NBSP = "\u00a0"
NNBSP = "\u202f"


@cache
def strings(lang: str) -> tuple[tuple[str, str], ...]:
    """(msgid, each translated form) of a catalogue, HTML tags taken out of the text."""
    with open(C.po_path(lang), "rb") as fh:
        cat = read_po(fh, locale=lang)
    out = []
    for msg in cat:
        if not msg.id:
            continue
        key = msg.id if isinstance(msg.id, str) else msg.id[0]
        for form in msg.string if isinstance(msg.string, tuple) else (msg.string,):
            out.append((key, re.sub(r"<[^<>]*>", " ", form or "")))
    return tuple(out)


def running_text(text: str) -> str:
    """``text`` without what is not prose: format fields, program-quoted values, addresses."""
    text = re.sub(r"&[a-z]+;", "X", text)                # &gt; in a menu path
    text = re.sub(r"\{[^{}]*\}|%\([a-z_]+\)[sdr]|%[sdr]", "X", text)
    text = re.sub(r"'[^'\s][^']*'", "X", text)          # a value the program quotes ('{item}', 'trim')
    text = re.sub(r"[a-z]+://\S*", "X", text)            # tcp://host:8786
    return text


def french_problems(text: str) -> list[str]:
    t = running_text(text)
    out = []
    for m in re.finditer(r"(.)([:;!?])(?=[\s»)\"]|$)", t):
        before, sign = m.group(1), m.group(2)
        if sign in "!?" and before in "?!(":
            continue  # the review's signs ?! and ?? stand alone
        if sign == ";" and before == "+":
            continue  # Ctrl+;
        if sign == ":" and before.isdigit() and re.match(r"\d", t[m.end():m.end() + 2].strip() or "x"):
            continue  # a ratio 2:1
        if before not in (NBSP, NNBSP):
            out.append(f"no no-break space before {sign!r}: ...{t[max(0, m.start() - 20):m.end() + 5]}...")
    for m in re.finditer(r"«(.)|(.)»", t):
        inner = m.group(1) if m.group(1) is not None else m.group(2)
        if inner not in (NBSP, NNBSP):
            out.append(f"no no-break space inside « »: ...{t[max(0, m.start() - 15):m.end() + 15]}...")
    if re.search(r"[\"“”„]", t):
        out.append(f"quotes other than « »: {t[:80]}")
    return out


def german_problems(text: str) -> list[str]:
    t = running_text(text)
    if re.search(r"\"|”|«|»", t) or re.search(r"“[^„]*$", t.split("„")[0]):
        return [f"quotes other than „…“: {t[:100]}"]
    opens, closes = t.count("„"), t.count("“")
    return [] if opens == closes else [f"unbalanced „…“: {t[:100]}"]


def russian_problems(text: str) -> list[str]:
    t = running_text(text)
    if re.search(r"[\"“”„]", t):
        return [f"quotes other than «…»: {t[:100]}"]
    return [] if t.count("«") == t.count("»") else [f"unbalanced «…»: {t[:100]}"]


def danish_problems(text: str) -> list[str]:
    t = running_text(text)
    if re.search(r"[\"“”„]", t):
        return [f"quotes other than »…«: {t[:100]}"]
    return [] if t.count("»") == t.count("«") else [f"unbalanced »…«: {t[:100]}"]


RULES = {"fr": french_problems, "de": german_problems, "ru": russian_problems, "da": danish_problems}


@pytest.mark.parametrize("lang", C.SHIPPED)
def test_the_catalogue_follows_its_typography(lang):
    problems = [f"{key[:40]!r}: {p}" for key, text in strings(lang) for p in RULES[lang](text)]
    assert problems == [], f"{len(problems)} problems, e.g.\n" + "\n".join(problems[:15])


@pytest.mark.parametrize("lang", C.SHIPPED)
def test_the_lessons_follow_the_same_typography(lang):
    """The lessons' own translations (resources/lessons/*.toml) are read by the same eyes."""
    from tafl_desktop.study.lessons import load_lessons

    texts = [(f"{lesson.id} title", lesson.title.get(lang, "")) for lesson in load_lessons()]
    texts += [(f"{lesson.id} step {i}", step.text.get(lang, ""))
              for lesson in load_lessons() for i, step in enumerate(lesson.steps, 1)]
    problems = [f"{where}: {p}" for where, text in texts for p in RULES[lang](text)]
    assert problems == [], f"{len(problems)} problems, e.g.\n" + "\n".join(problems[:15])


def test_the_rules_catch_what_they_should():
    assert len(french_problems("Attention : le roi")) == 1
    assert french_problems(f"Attention{NBSP}: le roi «{NBSP}Raichi{NBSP}»{NBSP}!") == []
    assert french_problems("Signes ?! et ?? ; Ctrl+; tcp://h:1 ; rapport 2:1".replace(" ;", f"{NBSP};")) == []
    assert french_problems("« Raichi »") != []
    assert german_problems("Der „König“ flieht") == [] and german_problems('Der "König"') != []
    assert russian_problems("Ход «лисы»") == [] and russian_problems("Ход „лисы“") != []
    assert danish_problems("Kongen »flygter«") == [] and danish_problems('Kongen "flygter"') != []
