"""Every lesson speaks the app's five languages (issue 18): each title and step text has them all,
a translation keeps the English placeholders (side names only in the forms the other languages
can use, or spelt out), every character is in the font the app embeds, and the Learn dialog shows a
lesson in the language the player chose, English where a file lacks it."""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from reportlab.pdfbase.ttfonts import TTFontFile

from tafl_desktop import i18n
from tafl_desktop.core.paths import resources_dir
from tafl_desktop.core.side_words import fill
from tafl_desktop.study.lessons import load_lesson, load_lessons

#: The shipped languages (issue 18); English is the source and the fallback.
LANGUAGES = ("en", "da", "de", "fr", "ru")
#: Side placeholders (tafl_desktop.core.side_words) and the side each one names.
SIDE_OF = {"many": 0, "Many": 0, "hunters": 1, "Hunters": 1, "hunter": 1, "a_hunter": 1, "A_hunter": 1, "hs": 1}
#: The ones a translation may use: the others ("the fox", "a fox", the verb ending "s") are
#: English grammar, which the variant's words only build for English.
TRANSLATABLE = {"many", "Many", "hunters", "Hunters"}


def _texts():
    """(where, the English text, {language: text}, variant of the step or None) for every title and step."""
    out = []
    for lesson in load_lessons():
        name = Path(lesson.path).name
        out.append((f"{name} title", lesson.title, None))
        for i, step in enumerate(lesson.steps, 1):
            out.append((f"{name} step {i}", step.text, step))
    return out


TEXTS = _texts()


def _fields(text: str) -> list[str]:
    return [f for _lit, f, _spec, _conv in string.Formatter().parse(text) if f is not None]


def test_every_title_and_step_text_has_the_five_languages():
    missing = [f"{where}: {lang}" for where, table, _s in TEXTS for lang in LANGUAGES
               if not isinstance(table.get(lang), str) or not table[lang].strip()]
    assert len(TEXTS) >= 30 and missing == []


@pytest.mark.parametrize(("where", "table", "step"), TEXTS, ids=[t[0] for t in TEXTS])
def test_translations_keep_the_english_placeholders(where, table, step):
    english = _fields(table["en"])
    for lang in LANGUAGES[1:]:
        fields = _fields(table[lang])
        unknown = [f for f in fields if f not in SIDE_OF and f not in english]
        assert not unknown, f"{where} [{lang}]: placeholders the English lacks: {unknown}"
        assert sorted(f for f in fields if f not in SIDE_OF) == sorted(f for f in english if f not in SIDE_OF), \
            f"{where} [{lang}]: other placeholders than the English"
        assert not set(fields) & (set(SIDE_OF) - TRANSLATABLE), \
            f"{where} [{lang}]: an English-only side form ({{hunter}}, {{a_hunter}}, {{hs}}); use {{Hunters}}"
        # a side the English names may be spelt out instead (where the language's grammar wants
        # a case the variant's words do not have), but never a side the English does not name
        assert {SIDE_OF[f] for f in fields if f in SIDE_OF} <= {SIDE_OF[f] for f in english if f in SIDE_OF}, \
            f"{where} [{lang}]: names a side the English does not"
        if step is not None:
            shown = step.instructions(step.start()[0], lang)
            assert "{" not in shown and "}" not in shown, f"{where} [{lang}]: {shown}"


@pytest.fixture(scope="module")
def font_chars():
    fonts = resources_dir() / "fonts"
    return [set(TTFontFile(str(fonts / name)).charToGlyph) for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")]


def test_every_character_is_in_the_embedded_font(font_chars):
    missing = {(where, lang, ch) for where, table, _s in TEXTS for lang, text in table.items() for ch in text
               if any(ord(ch) not in chars for chars in font_chars)}
    assert missing == set()


@pytest.fixture
def speak():
    """Choose a language as the Preferences menu does; English again afterwards."""
    yield lambda code: i18n.set_language(code)
    i18n.set_language("en")


def test_a_lesson_follows_the_chosen_language_with_english_as_fallback(speak, tmp_path):
    lesson = {lesson.id: lesson for lesson in load_lessons()}["tafl-king"]
    speak("ru")
    assert lesson.title_text() == "Захват короля"
    variant = lesson.steps[0].start()[0]
    assert lesson.steps[0].instructions(variant) == fill(lesson.steps[0].text["ru"], variant.words)
    assert "двое нападающих захватывают" in lesson.steps[0].instructions(variant)  # the sides named in Russian
    assert lesson.title_text("de") == "Den König fangen"
    only_english = tmp_path / "only_en.toml"
    only_english.write_text(Path(lesson.path).read_text(encoding="utf-8").replace('title.ru = "Захват короля"\n', ""),
                            encoding="utf-8")
    assert load_lesson(only_english).title_text() == "Capturing the king"


def test_the_lesson_dialog_shows_the_chosen_language(qtbot, speak):
    from tafl_desktop.gui.learn import LessonDialog

    lesson = {lesson.id: lesson for lesson in load_lessons()}["tafl-escape"]
    for lang, words in (("de", "In Brandubh gewinnt der König"), ("ru", "В брандубе король побеждает")):
        speak(lang)
        dlg = LessonDialog(lesson)
        qtbot.addWidget(dlg)
        assert words in dlg.text.text()
        assert lesson.title[lang] in dlg.windowTitle()
