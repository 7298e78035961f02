"""The texts issue 37 (item 9) left with a number before a noun in one form, met as a reader meets
them: the rule sentences of the option tables ("The game is drawn after {n} moves in a row"), a
limit in an error line, the printed markers' counts.

The forms expected are CLDR's plural rules
(https://www.unicode.org/cldr/charts/latest/supplemental/language_plural_rules.html): Russian
"one" for 1 and 21, "few" for 2-4, "many" for 5-20; German and English "one" for 1 only.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from tafl_desktop import i18n
from tafl_desktop.core.variants import find_variant

ROOT = Path(__file__).resolve().parent.parent


def _cli(*args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
    """Run the real command line with this checkout's package first on the path."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run([sys.executable, "-m", "tafl_desktop", *args], capture_output=True, text=True,
                         env=env, timeout=120)
    assert (out.returncode == 0) == ok, out.stderr
    return out


@pytest.fixture
def language():
    yield
    i18n.set_language("en")


@pytest.mark.parametrize(("n", "sentence"), [
    (1, "Ничья объявляется после 1 хода подряд без взятий."),
    (2, "Ничья объявляется после 2 ходов подряд без взятий."),
    (21, "Ничья объявляется после 21 хода подряд без взятий."),
])
def test_the_rules_command_counts_the_moves_of_the_draw_rule_in_russian(n, sentence):
    """``rules --set captureless_draw=N`` in Russian: "после 1 хода", "после 2 ходов",
    "после 21 хода" (genitive after "после"), never one form for every number."""
    out = _cli("--lang", "ru", "rules", "brandubh", "--set", f"captureless_draw={n}").stdout
    assert f"- {sentence}" in out.splitlines(), out


def test_the_rules_command_says_one_move_in_english():
    out = _cli("rules", "brandubh", "--set", "captureless_draw=1").stdout
    assert "- The game is drawn after 1 move in a row without a capture." in out.splitlines(), out


@pytest.mark.parametrize("preset", ["brandubh", "fox_geese_13", "dablot"])
def test_every_family_gives_its_counted_sentences_their_forms(preset, language):
    """The three option tables share the plural lookup: each family's draw rule (and Tafl's
    repetition count) takes the German and Russian form of the number it shows; the schema in
    words still pickles."""
    variant = find_variant(preset)
    expected = {
        "de": {1: "nach 1 Zug in Folge", 5: "nach 5 Zügen in Folge"},
        "ru": {1: "после 1 хода подряд", 5: "после 5 ходов подряд", 22: "после 22 ходов подряд"},
        "en": {1: "after 1 move in a row", 2: "after 2 moves in a row"},
    }
    for lang, cases in expected.items():
        i18n.set_language(lang)
        spec = variant.schema["captureless_draw"]
        for n, words in cases.items():
            assert words in spec.sentence(n), (lang, n, spec.sentence(n))
    i18n.set_language("ru")
    copied = pickle.loads(pickle.dumps(variant.schema))  # a study sends variants to other processes
    assert copied["captureless_draw"].sentence(21).endswith("после 21 хода подряд без взятий.")
    if preset == "brandubh":
        spec = variant.schema["repetition_count"]
        assert spec.sentence(3).endswith("возникла 3 раза.)") and spec.sentence(5).endswith("возникла 5 раз.)")


@pytest.mark.parametrize(("lang", "position", "line"), [
    ("ru", "7/7/3K3", "tafl-desktop: --position: в позиции 3 ряда, а на доске — 7"),
    ("ru", "3K3", "tafl-desktop: --position: в позиции 1 ряд, а на доске — 7"),
    ("en", "3K3", "tafl-desktop: --position: position has 1 row, the board has 7"),
])
def test_a_position_with_too_few_rows_counts_them(lang, position, line):
    """A bad ``--position`` is one line (exit 1, no traceback) whose count agrees with its noun:
    "3 ряда", "1 ряд", "1 row" (the old line said "1 rows" and "рядов: 3")."""
    out = _cli("--lang", lang, "play", "brandubh", "--position", position, ok=False)
    assert out.stderr.strip() == line
    assert out.returncode == 1


def test_the_printed_marker_chart_counts_pieces_and_draughts_in_russian(tmp_path):
    """The Dablot markers page printed in Russian heads each army "Шведы: 30 фигур, 33 шашки", each
    noun in the form its own number asks for (the old text put both numbers in one form)."""
    from pypdf import PdfReader

    out = tmp_path / "markers.pdf"
    _cli("--lang", "ru", "print", "dablot", "--parts", "markers", "--out", str(out))
    text = " ".join(page.extract_text() for page in PdfReader(out).pages)
    assert "Шведы: 30 фигур, 33 шашки (символ вождя" in text, text[:600]
