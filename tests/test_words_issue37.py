"""The last wrong words a native-reader review found (issue 37, items 10 and 11), pinned where a
reader meets them: the window's status line and calls, the messages about a game by name, and the
catalogue's words for one thing (one register in German, one word for a column, for the king's
capture, for the computer's review)."""

from __future__ import annotations

import re
from functools import cache

import pytest

pytest.importorskip("babel")

from babel.messages.pofile import read_po  # noqa: E402

from tafl_desktop import i18n  # noqa: E402
from tafl_desktop.core.game import Side  # noqa: E402
from tafl_desktop.core.marks import Title  # noqa: E402
from tafl_desktop.session.readout import announcements, status_text  # noqa: E402
from tafl_desktop.tools import i18n_catalogue as C  # noqa: E402


@cache
def catalogue(lang: str):
    with open(C.po_path(lang), "rb") as fh:
        return read_po(fh, locale=lang)


def translations(lang: str):
    """(English text, translated text) of every entry, plural forms one by one."""
    for m in catalogue(lang):
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        for i, s in enumerate(strings):
            yield ids[min(i, len(ids) - 1)], s


@pytest.fixture
def language():
    yield
    i18n.set_language("en")


# ------------------------------------------------------------------ French: "du renard et les oies"
@pytest.mark.parametrize(("name", "after_de"), [
    ("Le renard et les oies (13 oies)", "du renard et les oies (13 oies)"),
    ("Les oies", "des oies"), ("La chasse", "de la chasse"), ("Alea Evangelii", "d'Alea Evangelii"),
    ("Brandubh", "de Brandubh"), ("Hnefatafl de Copenhague", "de Hnefatafl de Copenhague"),
])
def test_a_game_name_after_de_contracts_its_article(name, after_de):
    """French grammar: de + le = du, de + les = des, de elides before a vowel (Grevisse, Le bon
    usage, §580 on the contracted articles)."""
    assert f"{Title(name):de}" == after_de
    assert f"{Title(name)}" == name


def test_the_french_messages_name_a_game_with_its_contracted_article(language):
    """The message a French reader sees after opening a Fox-and-Geese game says "12 coups du
    renard et les oies", not "de Le renard et les oies"; every French text that puts a game's name
    after "de" builds the phrase with the contracting form."""
    from tafl_desktop.core.variants import preset

    i18n.set_language("fr")
    game = preset("fox_geese_13").title
    text = i18n.ngettext("Opened {file}: {n} move of {game}.", "Opened {file}: {n} moves of {game}.", 12).format(
        file="partie.json", n=12, game=game)
    assert text == "partie.json ouvert\u00a0: 12 coups du renard et les oies (13 oies)."
    text = i18n._("The start position of {game}.").format(game=preset("alea_evangelii").title)
    assert text == "La position de départ d'Alea Evangelii."
    left = {s for _e, s in translations("fr") if re.search(r"\bde \{(game|variant)\}", s)}
    # left as it is: the variant named by its file's English id (interop/pgn.py passes variant.name)
    assert left == {
        "hnefatafl.org suppose Copenhague\u00a0; les règles de {variant} voyagent dans une balise Rules"}


def test_the_offer_of_an_unfinished_game_names_it_with_its_article(language):
    """The autosave's offer at start-up, in French: "Votre partie du renard et les oies"."""
    from tafl_desktop.core.game import Game
    from tafl_desktop.core.record import save_game
    from tafl_desktop.core.variants import preset
    from tafl_desktop.gui.files import unfinished_question
    from tafl_desktop.session.source import GameSource, Origin

    i18n.set_language("fr")
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "autosave.tafl.json"
        save_game(Game(preset("fox_geese_13").make_rules()), path)
        source = GameSource.from_record(path, Origin.RESTORE, keep_path=False, saved=False)
    _title, question, _yes = unfinished_question(source)
    assert "Votre partie du renard et les oies (13 oies) (0\u00a0coup" in question or \
        "Votre partie du renard et les oies (13 oies) (0 coup" in question, question


# ------------------------------------------------------------------ Danish status line
def test_the_danish_status_line_names_the_side_to_move_as_a_heading(qtbot, make_window, language):
    """The review found "Angribere i trækket" (an indefinite plural where Danish says
    "angriberne"); the status line now names the side as a heading does: "I trækket: Angribere"."""
    i18n.set_language("da")
    w = make_window("brandubh")
    assert status_text(w.session) == "I trækket: Angribere"
    w.grab().save("/tmp/h37w-status-da.png")
    assert not [s for _e, s in translations("da") if re.match(r"\{side\}( \(computer\))? i trækket", s)]


# ------------------------------------------------------------------ Watch your king
@pytest.mark.parametrize(("lang", "call"), [("da", "Pas på kongen"), ("de", "Achtung, König"),
                                             ("fr", "Attention au roi"), ("ru", "Берегите короля")])
def test_watch_your_king_is_called_in_the_readers_language(qtbot, make_window, language, lang, call):
    """The call beside Raichi and Tuichi (which keep their names, the glossary) is said in the
    reader's language in the side panel; the English phrase stays only in the source note that
    quotes it."""
    i18n.set_language(lang)
    w = make_window("brandubh", "/7/7/3t3/7/3K3/7/1t1t3/", Side.ATTACKERS, king_capture="custodial")
    w.refresh()
    assert call in [a.title for a in announcements(w.session)]
    assert call in w.panel.announcement.text() and "Watch your king" not in w.panel.announcement.text()
    w.grab().save(f"/tmp/h37w-watch-{lang}.png")
    english = [e for e, s in translations(lang) if "Watch your king" in s and "source 000" not in e]
    assert english == []


# ------------------------------------------------------------------ one word for one thing
def test_german_says_sie_throughout():
    """One register for the whole app (the review found "du" in the review and the trainer):
    no German text addresses the reader with du, dich, dir or dein, or a du-imperative."""
    du = re.compile(r"(?<![\w\-äöüß])(du|Du|dich|dir|dein\w*|Dein\w*|hast|kannst|Finde|finde|Versuche|versuche|"
                    r"Probiere|probiere|gib|Gib|lösche)(?![\wäöüß])")
    found = [s for _e, s in translations("de") if du.search(s)]
    assert found == []


def test_german_capitalises_a_sentence_after_a_colon_in_the_trainer():
    """A whole sentence after a colon starts with a capital (Duden, rule 80)."""
    de = dict(translations("de"))
    assert de["The check was stopped: try the move again."].split(": ", 1)[1][0].isupper()
    assert de["{move} is the move played in the game: find a better one."].split(": ", 1)[1][0].isupper()
    assert de["Try any move on this board: the game is not changed."].split(": ", 1)[1][0].isupper()


def test_one_word_for_a_column_in_danish_and_german():
    """A board's column is "søjle" in Danish and "Spalte" in German wherever it is named."""
    da = [s for e, s in translations("da") if re.search(r"\bcol(umn)?s?\b", e) and "JSON" not in e]
    assert da and all("kolonne" not in s and "kol." not in s for s in da), da
    de = [s for e, s in translations("de") if re.search(r"\bcolumns?\b", e)]
    assert de and all("Linie)" not in s and "Reihe oder Linie" not in s for s in de)


def test_danish_plural_of_bukker_is_bukkere():
    """"en bukker" (a blunder), plural "bukkere" (Den Danske Ordbog)."""
    assert not [s for _e, s in translations("da") if re.search(r"\bbukke\b", s)]
    assert any("bukkere" in s for _e, s in translations("da"))


def test_french_says_pris_for_the_king_and_analyse_for_the_review():
    """The king is "pris" (the glossary), and the computer's review is an "analyse" everywhere."""
    fr = list(translations("fr"))
    assert not [s for _e, s in fr if "capturé" in s]
    assert not [s for e, s in fr if re.search(r"\brevue\b|Revoir la partie", s) and "review" in e.lower()]
    assert dict(fr)["Review the game"] == dict(fr)["Review Game"] == "Analyser la partie"


def test_russian_discard_button_and_capture_heading():
    """The button that discards an unsaved game says so ("Оставить её" read as "keep it"); the
    rules' heading over Tafl's захват and the jumps' взятие names both ("Снятие фигур")."""
    ru = dict(translations("ru"))
    assert ru["Leave it"] == "Бросить партию"
    assert "Бросить её" in ru["The current game has moves that are not saved. Leave it and start a new one?"]
    assert ru["Capture"] == "Снятие фигур"
    assert not [s for _e, s in translations("ru") if "«Взятие»" in s]


# ------------------------------------------------------------------ item 12: words, keys only in JSON
def _cli(*args: str) -> str:
    """The real command line, with this checkout's package first on the path."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run([sys.executable, "-m", "tafl_desktop", *args], capture_output=True, text=True, env=env,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout


KEYS = re.compile(r"\b(attackers|defenders|king_escaped|king_captured|one_move|double_threat|escape|capture_king|"
                  r"flock_depleted|ply_limit|random|beginner)\b")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_puzzles_list_says_winner_goal_and_themes_in_words(lang):
    """``puzzles list`` printed "defenders king_escaped ... [escape, one_move]" in every language;
    now the side, the ending and the themes are words, and the keys only under ``--json``."""
    import json

    out = _cli("--lang", lang, "puzzles", "list", "--variant", "brandubh")
    first = out.splitlines()[0]
    assert not KEYS.search(first.split("  [")[0].split(None, 1)[1]) and not KEYS.search(first.split("[")[1]), first
    if lang == "ru":
        assert re.search(r"(Защитники|Нападающие) +король (бежал|захвачен)", first), first
    else:
        assert re.search(r"(Defenders|Attackers) +the king (escaped|was captured)", first), first
    listed = json.loads(_cli("--lang", lang, "puzzles", "list", "--variant", "brandubh", "--json"))
    assert listed[0]["winner"] in ("attackers", "defenders") and listed[0]["goal"].startswith("king_")


def test_selfplay_says_levels_and_endings_in_words():
    """``selfplay`` printed "окончания: king_escaped 2" and the level keys; now the endings and
    levels are the reader's words ("король бежал (2)", "Случайные ходы"), the keys in ``--json``."""
    import json

    args = ("selfplay", "brandubh", "--games", "2", "--attackers", "random", "--defenders", "random", "--jobs", "1")
    out = _cli("--lang", "ru", *args)
    endings = next(ln for ln in out.splitlines() if ln.startswith("окончания:"))
    levels = [ln for ln in out.splitlines() if ln.startswith("уровень:")]
    assert not KEYS.search(endings) and re.fullmatch(r"окончания: [а-яё ,]+ \(\d+\)(, [а-яё ,]+ \(\d+\))*", endings)
    assert levels and all("random" not in ln for ln in levels), levels
    report = json.loads(_cli("--lang", "ru", *args, "--json"))
    assert set(report["reasons"]) <= {"king_escaped", "king_captured", "ply_limit", "encircled", "edge_fort",
                                      "no_moves", "repetition", "no_captures"} and report["attackers"] == "random"
