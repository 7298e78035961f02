"""Every word of the command line passes through the catalogue (issue 28).

Each command, its ``--help``, its errors and argparse's own messages run under the pseudo-locale
``en_XA`` (see ``tests/pseudo_text.py``): any English word left outside the ⟦brackets⟧ never
reached the catalogue, and a Danish, German, French or Russian user would read it in English.
Numbers must follow the locale too (the pseudo-locale writes "1,4" and "95 %").
"""

from __future__ import annotations

import json

import pytest
from pseudo_text import PSEUDO, leaks, strip_catalogued, unlocalised_numbers

from tafl_desktop.cli import main


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    from tafl_desktop import i18n

    i18n.set_language("en")


def run(capsys, *argv: str) -> tuple[int, str]:
    try:
        code = main([*argv, "--lang", PSEUDO])
    except SystemExit as exc:  # --help, argparse errors
        code = exc.code
    out, err = capsys.readouterr()
    return code, out + err


def assert_catalogued(text: str, what: str, allowed: set[str] | frozenset[str] = frozenset(),
                      paper: bool = False) -> None:
    assert text.strip(), f"{what}: printed nothing"
    found = leaks(text, allowed, paper)
    assert found == [], f"{what}: not through the catalogue: {sorted(set(found))[:12]}\n{text[:2000]}"
    numbers = unlocalised_numbers(strip_catalogued(text))
    assert numbers == [], f"{what}: numbers in English form {numbers}"


def _commands() -> list[list[str]]:
    from tafl_desktop.cli import _command_names, build_parser

    parser = build_parser()
    out = [[]]
    for name in _command_names(parser):
        out.append([name])
        sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction").choices[name]
        for action in sub._actions:
            if action.__class__.__name__ == "_SubParsersAction":
                out += [[name, inner] for inner in action.choices]
    return out


@pytest.mark.parametrize("command", _commands(), ids=lambda c: " ".join(c) or "top")
def test_help_of_every_command(capsys, command):
    code, text = run(capsys, *command, "--help")
    assert code == 0
    assert "⟦" in text  # argparse's own "usage:" and headings are catalogued too
    assert_catalogued(text, " ".join(command) + " --help")


def test_rule_sheets_of_every_preset(capsys):
    from tafl_desktop.core.variants import presets

    for vid in presets():
        code, text = run(capsys, "rules", vid)
        assert code == 0
        # the notes and sources keep the rule sources' names, files and quotations as they are
        assert_catalogued(text, f"rules {vid}")


ERRORS = [
    ["play"],                                                   # a required argument missing
    ["play", "brandubh", "--moves", "d6-b6 d5-d6 a1-a2"],        # no piece there
    ["play", "brandubh", "--moves", "d6-e5"],                   # not straight
    ["play", "brandubh", "--moves", "zz9"],                     # not a move
    ["play", "brandubh", "--moves", "d6-q9"],                   # off the board
    ["play", "fox_geese_13", "--moves", "c1-c1"],               # stay
    ["play", "dablot", "--moves", "end"],                       # no action points
    ["play", "nonesuch"],                                       # unknown preset
    ["play", "brandubh", "--set", "king_armed=maybe"],          # a bad toggle value
    ["play", "brandubh", "--set", "no_such_rule=1"],            # an unknown toggle
    ["play", "brandubh", "--to-move", "geese"],                 # not a side
    ["play", "brandubh", "--position", "/7/7/"],                # a bad position
    ["perft", "brandubh", "9"],                                 # out of range
    ["perft", "brandubh", "x"],                                 # not a number
    ["varients"],                                               # a mistyped command (argparse's choice error)
    ["print", "brandubh", "--out", "/"],                        # a folder for a file
    ["replay", "/no/such/file.tafl.json"],                      # a missing file
    ["screenshot", "--variant", "brandubh", "--out", "x.png", "--size", "5x5"],
    ["analyse", "brandubh", "--lines", "9"],
]


@pytest.mark.parametrize("argv", ERRORS, ids=lambda a: " ".join(a))
def test_errors(capsys, argv):
    code, text = run(capsys, *argv)
    assert code != 0
    assert_catalogued(text, " ".join(argv))


def test_play_and_analyse_print_words_of_the_catalogue(capsys):
    code, text = run(capsys, "play", "brandubh", "--moves", "d6-b6 d5-d6 b6-b5")
    assert code == 0
    assert_catalogued(text, "play")
    code, text = run(capsys, "play", "fox_geese_13", "--moves", "c1-c2")
    assert_catalogued(text, "play fox")
    code, text = run(capsys, "analyse", "brandubh", "--depth", "2", "--lines", "2")
    assert code == 0
    assert_catalogued(text, "analyse")


def test_review_prints_words_of_the_catalogue(capsys, tmp_path):
    code, _ = run(capsys, "play", "brandubh", "--moves", "d6-b6 d5-d6 b6-b5 d4-d5")
    path = tmp_path / "g.tafl.json"
    from tafl_desktop.core.game import Game
    from tafl_desktop.core.record import save_game
    from tafl_desktop.core.variants import find_variant

    game = Game(find_variant("brandubh").make_rules())
    for m in ("d6-b6", "d5-d6", "b6-b5", "d4-d5"):
        game.play_text(m)
    save_game(game, path)
    code, text = run(capsys, "review", str(path), "--time", "0.05")
    assert code == 0
    assert_catalogued(text, "review")


def test_json_is_the_same_in_every_language(capsys):
    """JSON keys and values are contracts: the pseudo-locale leaves them alone."""
    code, text = run(capsys, "play", "brandubh", "--moves", "d6-b6 d5-d6", "--json")
    assert code == 0 and "⟦" not in text
    data = json.loads(text)
    assert data["to_move"] == "attackers" and data["moves"] == ["d6-b6", "d5-d6"]


def test_printed_set_text(capsys, tmp_path):
    """Every part of a printed set, its text extracted from the PDF."""
    from pypdf import PdfReader

    # Alea Evangelii's board is tiled (its trim marks and assembly notes); Officer Material prints
    # the Dablot markers for a retreated soldier's underside
    for vid, extra in (("copenhagen", ()), ("fox_geese_13", ()), ("dablot", ()), ("tablut_camps", ()),
                       ("mini_tablut", ()), ("alea_evangelii", ("--parts", "board")),
                       ("dablot", ("--set", "promotion=true", "--set", "officer_material=true", "--parts",
                                   "markers"))):
        out = tmp_path / f"{vid}.pdf"
        code, text = run(capsys, "print", vid, "--out", str(out), *extra)
        assert code == 0, text
        pdf = "\n".join(page.extract_text() for page in PdfReader(str(out)).pages)
        assert_catalogued(pdf, f"print {vid} {' '.join(extra)}", paper=True)


def test_puzzles_mine_and_an_opentafl_puzzle_check_print_words_of_the_catalogue(capsys, tmp_path):
    """``puzzles mine`` (its lines, a game it cannot read, its refusals) and ``puzzles check`` of an
    OpenTafl puzzle file (its report and each broken puzzle tag) speak the reader's language."""
    from tests.test_study_puzzle_training import _missed_win_game, _otg_puzzle

    _pz, _game, good = _missed_win_game(tmp_path)
    missing = tmp_path / "gone.tafl.json"
    out = tmp_path / "mine.json"
    code, text = run(capsys, "puzzles", "mine", str(good), str(missing), "--out", str(out))
    assert code == 1 and text.count("\n") == 3  # the game's line, the missing one's, the total
    assert_catalogued(text, "puzzles mine", allowed={"No", "such", "file", "or", "directory"})
    for argv in (["--max-plies", "4"], ["--ply", "1"]):
        code, text = run(capsys, "puzzles", "mine", str(good), "--out", str(out), *argv)
        assert code == 1
        assert_catalogued(text, "puzzles mine " + " ".join(argv))
    _pz, path = _otg_puzzle(tmp_path)
    code, text = run(capsys, "puzzles", "check", "--file", str(path))
    assert code == 0 and text.count("\n") == 2
    assert_catalogued(text, "puzzles check --file")
    for i, tags in enumerate([{"puzzle-start": "9a"}, {"puzzle-start": "2a"}, {"puzzle-start": "x"},
                              {"puzzle-start": "3c"}, {"puzzle-prestart": "1b", "puzzle-start": "1a"},
                              {"puzzle-mode": "maybe"}]):
        _pz, path = _otg_puzzle(tmp_path, extra_tags=tags, name=f"bad{i}.otg")
        code, text = run(capsys, "puzzles", "check", "--file", str(path))
        assert code == 1 and text.count("\n") == 1
        assert_catalogued(text, f"puzzles check --file with {tags}")
