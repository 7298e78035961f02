"""Colons in the words a reader sees (issue 37, item 10): the status line says whose turn it is
and what to do without two colons in a row ("Trait : Attaquants : cliquez…"), and German starts a
whole sentence after a colon with a capital letter (Duden, rule 80: "Folgt nach dem Doppelpunkt
ein vollständiger Satz, so schreibt man das erste Wort groß")."""

from __future__ import annotations

import re

import pytest

from tafl_desktop import i18n


@pytest.fixture
def language():
    yield
    i18n.set_language("en")


@pytest.mark.parametrize(("lang", "start"), [
    ("en", "Attackers to move: click a piece"),
    ("da", "I trækket: Angribere. Klik på en brik"),
    ("de", "Angreifer am Zug: Klicken Sie eine Figur an"),
    ("fr", "Trait\u00a0: Attaquants. Cliquez sur une pièce"),
    ("ru", "Очередь: Нападающие. Щёлкните по фигуре"),
])
def test_the_status_line_has_one_colon_in_every_language(qtbot, make_window, language, lang, start):
    """The real window's status bar at the start of a game: the turn ("Trait : Attaquants") and
    the hint ("cliquez sur une pièce…") are two sentences, never "Trait : Attaquants : cliquez"."""
    i18n.set_language(lang)
    w = make_window("brandubh")
    w.refresh()
    text = w.status_text()
    assert text.startswith(start), text
    assert text.count(":") == 1, text
    w.grab().save(f"/tmp/h37w2-status-{lang}.png")


# ------------------------------------------------------------------ German: a sentence after a colon
#: Finite verbs and modal forms that make what follows a colon a whole sentence in the catalogue's
#: German (a list, not a parser: the catalogue's own words, so the test can say which entry slipped).
FINITE = ("ist|sind|hat|haben|hatte|wird|werden|wurde|wurden|kann|können|darf|dürfen|muss|müssen|soll|"
          "fehlt|fehlen|enthält|beginnt|bleibt|bleiben|gewinnt|gewinnen|spielt|spielen|zieht|ziehen|dauert|"
          "lassen|lässt|beweist|braucht|brauchen|gibt|geht|steht|stehen|zeigt|zeigen|liegt|passt|kennt|"
          "nennt|nimmt|endet|hält|hielt|hielten|gilt|gelten|zählt|zählen|bedeutet|heißt|gehört|gehören|"
          "reicht|ersetzt|schneidet|trägt|verliert|verlieren|entscheidet|erreicht|sucht|läuft|wählt|"
          "werden|waren|war|ging|gab|blieb|schlägt|schlagen|sperrt|sperren|folgt|kommt|bewegt|bewegen")
#: An instruction in the polite form, a whole sentence: "verwenden Sie …", "wählen Sie …".
POLITE = re.compile(r"^[a-zäöü][\wäöüß]* Sie\b")
WORD = re.compile(r"[\wäöüßÄÖÜ]+")


def lower_sentences_after_colon(text: str) -> list[tuple[int, str]]:
    """(where, excerpt) for each place in a German text where a whole sentence follows a colon in
    lower case: the clause after ": " (up to the first comma or sentence mark) starts with a small
    letter and holds a finite verb after its first word, or is an instruction with "Sie". A clause
    that starts with its verb has its subject before the colon ("{name}: fehlt"); a field, a
    quoted value or an option name first ("{where}: ", "--max-plies: ") is not a sentence's start."""
    out = []
    for m in re.finditer(r": (?=[a-zäöü])", text):
        rest = text[m.end():]
        clause = re.split(r"[.,;!?()\n]|: ", rest, maxsplit=1)[0]
        words = WORD.findall(re.sub(r"\{[^{}]*\}|'[^']*'|„[^“]*“", " ", clause))
        if not words or words[0] != clause.split()[0] or re.fullmatch(FINITE, words[0]):
            continue
        if POLITE.match(clause) or any(re.fullmatch(FINITE, w) for w in words[1:]):
            out.append((m.end(), text[max(0, m.start() - 30):m.end() + len(clause)]))
    return out


def _german_translations():
    from babel.messages.pofile import read_po

    from tafl_desktop.tools import i18n_catalogue as C

    with open(C.po_path("de"), "rb") as fh:
        cat = read_po(fh, locale="de")
    for msg in cat:
        if msg.id:
            yield from (msg.string if isinstance(msg.string, tuple) else (msg.string,))


def test_german_capitalises_every_whole_sentence_after_a_colon():
    """Over the whole German catalogue (every form of every entry): no whole sentence after a
    colon starts in lower case ("{where}: Die Datei kann nicht gelesen werden", "kein Teil zum
    Drucken: Wählen Sie aus …"); fragments stay small ("Standard: die größte, die …")."""
    pytest.importorskip("babel")
    found = [hit for text in _german_translations() for _i, hit in lower_sentences_after_colon(text)]
    assert found == []


@pytest.mark.parametrize(("text", "caught"), [
    ("{where}: die Tabelle [board] fehlt", True),
    ("kein Teil zum Drucken: wählen Sie aus {parts}", True),
    ("{move} scheitert: nach {reply} gibt es keinen Sieg", True),
    ("{where}: Die Tabelle [board] fehlt", False),
    ("Standard: die größte, die auf eine Seite passt", False),   # a fragment with a relative clause
    ("{name}: fehlt oder ist fehlerhaft", False),               # the subject stands before the colon
    ("Byoyomi: letzte Periode", False),
    ("Format von OUT (Standard: nach der Endung: .otg, .pgn)", False),
])
def test_the_colon_rule_catches_what_it_should(text, caught):
    assert bool(lower_sentences_after_colon(text)) == caught
