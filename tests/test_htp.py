"""``tafl-desktop htp`` (issue 43 item 3): our engine behind hnefatafl.org's Hnefatafl Text Protocol.

Protocol source: the crate ``hnefatafl-copenhagen`` 6.4.1: ``src/message.rs`` (the command list and
what each takes), ``src/game.rs`` ``Game::update`` (the answers: ``1-beta``, ``true``/``false``,
captured squares each followed by a space, ``play ROLE FROM TO`` for ``generate_move``,
``attacker_wins``/``defender_wins``/``draw``/``ongoing``), ``src/board.rs``
``open_tafl_serialize`` (``A``/``D``/``K`` rows) and ``src/bin/hnefatafl-text-protocol.rs`` (the
framing: ``= ANSWER``; ``? ERROR`` and an empty line; no answer to an empty line).  Every test runs
the real command in a subprocess.
"""

from __future__ import annotations

import random
import subprocess
import sys

from tafl_desktop.core.game import Game
from tafl_desktop.core.variants import presets
from tafl_desktop.interop.htp import COMMANDS


def _htp(lines: list[bytes] | bytes, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    data = lines if isinstance(lines, bytes) else b"".join(line + b"\n" for line in lines)
    return subprocess.run([sys.executable, "-m", "tafl_desktop", "htp", *args], input=data,
                          capture_output=True, timeout=timeout)


def _answers(out: bytes) -> list[str]:
    """The answers, each ``= ...`` (with its further lines) or ``? ...``."""
    answers: list[str] = []
    for line in out.decode("ascii").split("\n"):
        if line.startswith(("= ", "? ")) or line in ("=", "?"):
            answers.append(line)
        elif line and answers:
            answers[-1] += "\n" + line
    return answers


def _capture_line():
    """Moves from the start of the site's game up to the first capture, as the core plays them."""
    rules = presets()["copenhagen_org"].make_rules()
    rng = random.Random(7)
    for _attempt in range(200):
        game = Game(rules)
        for _ in range(12):
            moves = game.legal_moves()
            capturing = [m for m in moves if rules.play(game.position, m)[1]]
            ply = game.play(capturing[0] if capturing else rng.choice(moves))
            if ply.captures:
                return game
    raise AssertionError("no capture found")


def test_every_listed_command_is_answered_as_the_site_answers_it():
    game = _capture_line()
    rules = game.rules
    plays = []
    for i, ply in enumerate(game.plies):
        role = "attacker" if i % 2 == 0 else "defender"
        plays.append(f"play {role} {rules.geometry.name(ply.move[0])} {rules.geometry.name(ply.move[1])}".encode())
    caught = " ".join(rules.geometry.name(s) for s in game.plies[-1].captures)
    lines = [b"protocol_version", b"name", b"version", b"list_commands", b"known_command play_to",
             b"known_command fly", b"board_size 11", b"first_move attacker", b"time_settings un-timed",
             b"", b"# only a comment", *plays, b"final_status", b"play_undo", plays[-1], b"play_from",
             b"play_to attacker d11", b"show_board", b"show_board_open_tafl", b"generate_move", b"final_status",
             b"time_settings fischer 15 10", b"play attacker resigns", b"final_status", b"quit", b"name"]
    done = _htp(lines, "--seconds", "0.1")
    assert done.returncode == 0, done.stderr
    a = _answers(done.stdout)
    assert a[0] == "= 1-beta" and a[1] == "= tafl-desktop" and a[2].startswith("= 0.")
    assert a[3].split("\n")[1:] == list(COMMANDS)
    assert a[4:6] == ["= true", "= false"]
    assert a[6:9] == ["= ", "= ", "= "]  # board_size, first_move, time_settings; no answer to the blank lines
    n = len(plays)
    assert a[9 + n - 1] == "= " + "".join(f"{s} " for s in caught.split())
    rest = a[9 + n:]
    assert rest[0] == "= ongoing" and rest[1] == "= " and rest[2] == a[9 + n - 1]
    assert rest[3].startswith("= defender ")  # play_from: the side to move, then squares
    assert rest[4].startswith("? it is the defender's turn")
    board = rest[5].split("\n")
    assert len(board) == 13 and board[-1].strip() == "abcdefghijk" and "K" in rest[5]
    assert rest[6].startswith("= /") and rest[6].endswith("/") and set(rest[6][2:]) <= set("/ADK0123456789")
    # generate_move: a legal move of the defenders, played (the core agrees it is legal)
    words = rest[7].split()
    assert words[:2] == ["=", "play"] and words[2] == "defender"
    assert game.check(rules.parse_move(game.position, f"{words[3]}-{words[4]}")) is None
    assert rest[8] == "= ongoing" or rest[8].startswith("= ") and rest[8][2:] in ("attacker_wins", "defender_wins")
    assert rest[9] == "= " and rest[10] == "= " and rest[11] == "= defender_wins"
    assert len(rest) == 12  # quit ends it: the name after it is not answered
    assert b"Traceback" not in done.stderr


def test_errors_are_one_line_after_a_question_mark_and_an_empty_line():
    done = _htp([b"fly", b"play attacker a1", b"play attacker d11 d12", b"board_size 13", b"quit"])
    text = done.stdout.decode("ascii")
    assert text.count("? ") == 4 and "\n\n" in text
    for block in text.strip("\n").split("\n\n"):
        assert block.startswith("? ") and "\n" not in block


def test_hostile_lines_get_a_question_mark_and_one_line_each():
    """Fuzz-like: random bytes, control characters, invalid UTF-8, huge numbers, over-long lines,
    commands with missing or absurd arguments; every line is answered, with one line, and the
    engine still answers afterwards."""
    rng = random.Random(43)
    hostile: list[bytes] = [
        b"play", b"play attacker", b"play attacker resigns extra words", b"play x y z", b"play_to", b"play_to a",
        b"play_to attacker zz", b"known_command", b"board_size", b"board_size 99999999999999999999",
        b"first_move", b"first_move nobody", b"time_settings", b"time_settings fischer", b"time_settings fischer a b",
        b"time_settings fischer -1 5", b"time_settings fischer 10 99999999999", b"\x00\x01\x02", b"\xff\xfe\xfd",
        "play attacker d\u0661\u0661 d9".encode(), b"play attacker d11 d9\x1b[2J", b"play attacker " + b"a" * 3000,
        b"x" * 10_000, b"generate_move " + b"9" * 50,
    ]
    for _ in range(60):
        word = rng.choice([*(c for c in COMMANDS if c != "quit"), "bogus"]).encode()
        junk = bytes(rng.randrange(1, 256) for _ in range(rng.randrange(0, 40))).replace(b"\n", b" ")
        junk = junk.replace(b"\r", b" ").replace(b"#", b" ")
        if not junk.strip():
            junk = b"?"
        hostile.append(word + b" " + junk)
    done = _htp([*hostile, b"name", b"quit"], "--seconds", "0.05", timeout=300)
    assert done.returncode == 0 and b"Traceback" not in done.stderr
    answers = _answers(done.stdout)
    assert answers[-1] == "= tafl-desktop"
    assert len(answers) == len(hostile) + 1
    for answer in answers:
        if answer.startswith("? "):
            assert "\n" not in answer and len(answer) <= 402 and answer.isascii()
    assert sum(a.startswith("? ") for a in answers) >= 30
