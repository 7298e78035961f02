"""Issue 26, items 6 and 11: hostile imports end in one clear line, never a traceback.

PlayTaflOnline files with a list where a number belongs, ``Infinity``, deep nesting or a number of
5,000 digits; ``.tafl.json`` files through ``convert``; rules strings that parse but describe an
impossible board, or say one thing twice, or hide JSON nested 3,000 deep in a ``td-board-`` value;
a ``time-control`` tag of 400 nines; numbers in Unicode digits (``--games ٣``, ``dim:١١``); and
escape sequences, which every message shows escaped (``core.quoting``), never raw.  The command
line runs in subprocesses, the window offscreen.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tafl_desktop.core.game import Game
from tafl_desktop.core.record import game_to_data, save_game
from tafl_desktop.core.variants import find_variant
from tafl_desktop.interop.formats import parse
from tafl_desktop.interop.transfer import InteropError

ROOT = Path(__file__).resolve().parents[1]
BRANDUBH = "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"
PTO = {"Layout": "brandubh", "Objective": 1, "KingCapture": 0, "KingStrength": 0, "Throne": 1, "Hostile": 1,
       "Speed": 0, "Surround": 1, "ExitFort": 0, "ShieldWall": 0, "Attacker": "ann", "Defender": "bob",
       "Move": [{"MoveX": 3, "MoveY": 1, "MoveXTo": 2, "MoveYTo": 1, "EndState": 0},
                {"MoveX": -1, "MoveY": -1, "MoveXTo": -1, "MoveYTo": -1}]}


def cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tafl_desktop", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


def one_clean_line(stderr: str) -> str:
    lines = stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in stderr, stderr[-2000:]
    line = lines[0]
    assert len(line) < 500 and not any(ord(c) < 32 or c in "\u202e\u2066" for c in line), line
    return line


def pto_text(**changes) -> str:
    data = json.loads(json.dumps(PTO))
    for key, value in changes.items():
        if key.startswith("move_"):
            data["Move"][0][key[5:]] = value
        else:
            data[key] = value
    return json.dumps(data)


HOSTILE_PTO = {
    "a list for a number": pto_text(KingCapture=[0]),
    "a list for a coordinate": pto_text(move_MoveX=[3]),
    "Infinity for a coordinate": pto_text(move_MoveY=float("inf")),
    "NaN for the end state": pto_text(move_EndState=float("nan")),
    "a Unicode digit for a number": pto_text(Throne="\u0661"),
    "a superscript digit": pto_text(Throne="\u00b9"),
    "a 5,000-digit number": pto_text().replace('"MoveX": 3', '"MoveX": ' + "9" * 5000),
    "a 5,000-digit player": pto_text().replace('"ann"', "9" * 5000),
    "a 5,000-digit layout": pto_text().replace('"brandubh"', "9" * 5000),
    "nesting 3,000 deep": pto_text().replace('"ann"', "[" * 3000 + "]" * 3000),
    "true for a coordinate": pto_text(move_MoveXTo=True),
    "a list for the end state": pto_text(move_EndState=[5]),
}


@pytest.mark.parametrize("name", list(HOSTILE_PTO))
def test_hostile_playtaflonline_files_are_refused_with_one_line(name):
    text = HOSTILE_PTO[name]
    try:
        t = parse(text, "json", "pto.json")
    except InteropError as exc:
        one_clean_line(str(exc))
        return
    # the few that are readable are read as what they say (a player's name of digits is a name)
    assert t.game.move_texts() == ["d2-c2"]


def test_hostile_files_through_convert_in_a_subprocess(tmp_path):
    game = Game(find_variant("brandubh").make_rules())
    game.play_text("d2-c2")
    record = game_to_data(game)
    files = {
        "pto-infinity.json": HOSTILE_PTO["Infinity for a coordinate"],
        "pto-digits.json": HOSTILE_PTO["a 5,000-digit number"],
        "pto-deep.json": HOSTILE_PTO["nesting 3,000 deep"],
        "deep.tafl.json": json.dumps(record)[:-1] + ', "tags": ' + '{"a":' * 3000 + "1" + "}" * 3000 + "}",
        "digits.tafl.json": json.dumps(record).replace('"version": 1', '"version": ' + "9" * 5000),
        "nan.tafl.json": json.dumps(record).replace('"version": 1', '"version": NaN'),
        "board.tafl.json": json.dumps({**record, "variant": {**record["variant"], "board": {
            **record["variant"]["board"], "setup": "/3t3/3t3/3T3/ttT1Ttt/3T3/3t3/3t3/"}}}),
        "rules-no-king.otg": f"[rules:dim:7 start:{BRANDUBH.replace('K', '1')}]\n\n1. d2-c2\n",
        "rules-deep.otg": "[rules:dim:7 td-board-walls:" + '{"a":' * 3000 + "1" + "}" * 3000 + f" start:{BRANDUBH}]\n",
        "clock.otg": f"[time-control:{'9' * 400}]\n[rules:dim:7 start:{BRANDUBH}]\n\n1. d2-c2 \n",
    }
    script = "; ".join([
        "import sys", "from tafl_desktop.cli import main",
        "codes = [main(['convert', p, p + '.out.otg']) for p in sys.argv[1:]]",
        "print(codes)"])
    paths = []
    for name, text in files.items():
        path = tmp_path / name
        path.write_text(text)
        paths.append(str(path))
    # one process for the lot (each is the program's main, as the command runs it), then one real
    # command line for the hardest, to see the whole program's one line
    done = subprocess.run([sys.executable, "-c", script, *paths], capture_output=True, text=True, timeout=120,
                          cwd=ROOT)
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    codes = json.loads(done.stdout.strip().splitlines()[-1])
    errors = [line for line in done.stderr.splitlines() if ": warning: " not in line]
    refused = [p for p, code in zip(paths, codes, strict=True) if code]
    assert len(errors) == len(refused) and all(not Path(p + ".out.otg").exists() for p in refused)
    for line in errors:
        one_clean_line(line)
    assert set(map(lambda p: Path(p).name, refused)) >= set(files) - {"clock.otg"}
    # a clock tag of 400 nines is kept as the text it is (the clock is read only by the window)
    assert Path(str(tmp_path / "clock.otg") + ".out.otg").read_text().count("9" * 400) == 1
    done = cli("convert", str(tmp_path / "rules-deep.otg"), str(tmp_path / "x.otg"))
    assert done.returncode == 1 and "nested too deeply" in one_clean_line(done.stderr)


@pytest.mark.parametrize("rules, words", [
    (f"dim:7 td-board-walls:{'[' * 3000}{']' * 3000} start:{BRANDUBH}", "nested too deeply"),
    (f"dim:7 start:{BRANDUBH.replace('K', '1')}", "no king"),
    (f"dim:7 dim:11 start:{BRANDUBH}", "given twice"),
    (f"dim:7 td-board-height:9 start:{BRANDUBH}", "td-board-height"),
    (f"dim:7 td-board-setup:\"/7/\" start:{BRANDUBH}", "td-board-setup"),
    (f"dim:7 cor:a1,a1,g1,g7 start:{BRANDUBH}", "twice"),
    (f"dim:7 start:{BRANDUBH} starti:{BRANDUBH}", "once"),
    (f"dim:\u0667 start:{BRANDUBH}", "not a number"),
    (f"dim:7 spd:\u0661 start:{BRANDUBH}", "spd"),
    ("dim:7 name:\x1b[31mred start:" + BRANDUBH, "name"),
    ("dim:7 name:evil\u202eevil start:" + BRANDUBH, "name"),
])
def test_malformed_rules_strings_are_refused_where_a_preset_id_is_accepted(rules, words):
    with pytest.raises(Exception) as err:
        find_variant(rules)
    assert words in str(err.value) and "\x1b" not in str(err.value) and "\u202e" not in str(err.value)
    with pytest.raises(InteropError) as err:
        parse(f"[rules:{rules}]\n\n1. d2-c2\n", "otg", "rules.otg")
    one_clean_line(str(err.value))


def test_unicode_digits_and_escape_sequences_on_the_command_line(tmp_path):
    # one command line per case: the program's own parser and its one line
    done = cli("lab-game", str(tmp_path / "study"), "\u0661", "0", str(tmp_path / "g.tafl.json"))
    assert done.returncode == 2 and "not a whole number" in one_clean_line(done.stderr)
    assert not (tmp_path / "g.tafl.json").exists()
    done = cli("perft", f"dim:\u0667 start:{BRANDUBH}", "1")
    assert done.returncode == 1 and "not a number" in one_clean_line(done.stderr)
    evil = tmp_path / "ev\x1b[31mil\u202e.xyz"
    evil.write_text("1. d2-c2")
    done = cli("convert", str(evil), str(tmp_path / "out.otg"))
    line = one_clean_line(done.stderr)
    assert done.returncode == 1 and "\\x1b[31m" in line and "\\u202e" in line


def test_a_clock_tag_of_400_nines_opens_without_clocks_and_says_so(qtbot, make_window, dialogs_recorder, tmp_path):
    game = Game(find_variant("brandubh").make_rules())
    game.play_text("d2-c2")
    path = tmp_path / "clock.tafl.json"
    save_game(game, path, {"time-control": "9" * 400, "time-remaining": "1 2 3"})
    w = make_window("brandubh")
    assert w.files.open_game(str(path)) and dialogs_recorder.errors == []
    qtbot.waitUntil(lambda: "clocks could not be read" in w.status_text(), timeout=5000)
    assert "9" * 50 not in w.status_text() and getattr(w, "clock_driver", None) is None or \
        w.clock_driver.clock is None
