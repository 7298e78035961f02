"""A file that is not valid JSON is refused in the reader's language, naming the line and column:
the game record (``replay``), the puzzle file (``puzzles list --file``) and the Rules Lab's study
folder (``lab --out``).  Before, the refusal was translated but the reason inside it was the JSON
parser's English ("Expecting value: line 2 column 17 (char 46)")."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

#: A JSON text with a doubled comma on its second line, at column 17.
BROKEN = '{"format": "tafl-desktop-record",\n "moves": [1, 2,, 3]}'
#: ... and one whose only fault is a number longer than Python converts.
HUGE_NUMBER = '{"format": 1, "x": ' + "1" * 5000 + "}"


def run(*argv: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tafl_desktop", *argv], capture_output=True, text=True,
                          timeout=120, cwd=cwd)


def commands(tmp_path: Path, text: str) -> dict[str, list[str]]:
    """Each reader's command, with ``text`` in the file it reads."""
    (tmp_path / "game.tafl.json").write_text(text, encoding="utf-8")
    (tmp_path / "puzzles.json").write_text(text, encoding="utf-8")
    study = tmp_path / "study"
    study.mkdir()
    (study / "study.json").write_text(text, encoding="utf-8")
    return {
        "record": ["replay", str(tmp_path / "game.tafl.json")],
        "puzzles": ["puzzles", "list", "--file", str(tmp_path / "puzzles.json")],
        "study": ["lab", "brandubh", "--vary", "king_capture=strong,custodial", "--games", "1", "--out", str(study)],
    }


@pytest.mark.parametrize("lang, reason", [
    ("en", "not valid JSON at line 2, column 17"),
    ("de", "kein gültiges JSON in Zeile 2, Spalte 17"),
    ("ru", "недопустимый JSON в строке 2, столбец 17"),
])
def test_a_broken_json_file_is_refused_in_the_readers_language(tmp_path, lang, reason):
    for name, argv in commands(tmp_path, BROKEN).items():
        done = run("--lang", lang, *argv, cwd=tmp_path)
        lines = done.stderr.strip().splitlines()
        assert done.returncode != 0 and len(lines) == 1, (name, done.stdout, done.stderr)
        assert reason in lines[0], (name, lines[0])
        assert "Expecting" not in lines[0] and "Traceback" not in done.stderr, (name, lines[0])


def test_a_number_too_long_to_convert_is_named_so(tmp_path):
    for name, argv in commands(tmp_path, HUGE_NUMBER).items():
        done = run("--lang", "fr", *argv, cwd=tmp_path)
        assert done.returncode != 0, (name, done.stdout)
        assert "un nombre trop long pour être lu" in done.stderr, (name, done.stderr)
        assert "integer string conversion" not in done.stderr, (name, done.stderr)
