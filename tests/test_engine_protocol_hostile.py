"""Issue 26, item 8: ``tafl-desktop engine`` (the OpenTafl Engine Protocol) against a hostile host.

Protocol facts from ``shared/reference/tafl-rules.md`` 2.5 and ``turn2-research.md`` 4.1: lines
are plain ASCII; after the host refuses a move (``error 1|2|3|4``) it sends ``opponent-move`` and
``play`` again; ``error -1`` from the engine is critical (the game ends).  A hostile host gets one
``error`` line per bad line and the engine keeps answering; it never plays a refused move again in
the same position; a repeated ``rules`` line is parsed once.  Real processes over real pipes.
"""

from __future__ import annotations

import io
import os
import selectors
import subprocess
import sys
import time

import pytest
from timing import within

from tafl_desktop.core.rules_string import to_rules_string
from tafl_desktop.core.variants import find_variant

BRANDUBH = to_rules_string(find_variant("brandubh")).text


class Engine:
    """``tafl-desktop engine`` in a subprocess, spoken to in bytes."""

    def __init__(self, level: str = "beginner", env: dict | None = None) -> None:
        self.p = subprocess.Popen([sys.executable, "-m", "tafl_desktop", "engine", "--level", level],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  env={**os.environ, **(env or {})})
        self.sel = selectors.DefaultSelector()
        self.sel.register(self.p.stdout, selectors.EVENT_READ)
        assert self.read() == "hello"

    def send(self, data: bytes | str) -> None:
        self.p.stdin.write(data if isinstance(data, bytes) else (data + "\n").encode())
        self.p.stdin.flush()

    def read(self, timeout: float = 30.0) -> str:
        assert self.sel.select(timeout), "the engine said nothing"
        line = self.p.stdout.readline()
        assert line, "the engine closed its output"
        text = line.decode("ascii").rstrip("\n")  # the protocol is plain ASCII: anything else fails here
        return text

    def goodbye(self) -> str:
        self.send("goodbye")
        assert self.p.wait(20) == 0
        err = self.p.stderr.read().decode()
        assert "Traceback" not in err, err
        return err

    def kill(self) -> None:
        if self.p.poll() is None:
            self.p.kill()
            self.p.wait(5)


@pytest.fixture
def engine():
    made: list[Engine] = []

    def start(*args, **kwargs) -> Engine:
        made.append(Engine(*args, **kwargs))
        return made[-1]

    yield start
    for e in made:
        e.kill()


def test_a_deeply_nested_rules_line_is_one_error_and_the_engine_goes_on(engine):
    e = engine()
    e.send(f"rules dim:7 name:Deep td-board-walls:{'[' * 3000}{']' * 3000} start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/")
    reply = e.read()
    assert reply.startswith("error -1 ") and len(reply) < 450
    e.send(f"rules {BRANDUBH}")
    e.send("play attackers")
    assert e.read().startswith("move ")
    e.goodbye()


def test_invalid_utf8_under_a_strict_locale_does_not_end_the_reader(engine):
    # PYTHONIOENCODING=utf-8:strict is what an en_US.UTF-8 locale gives sys.stdin
    e = engine(env={"PYTHONIOENCODING": "utf-8:strict", "LC_ALL": "en_US.UTF-8"})
    e.send(b"side \xff\xfe\xc3(\n")
    assert e.read() == "error -1 no rules yet: send rules first"
    e.send(b"rules " + BRANDUBH.encode() + b"\n")
    e.send(b"side \x80attackers\n")
    assert e.read().startswith("error 0 unknown side")
    e.send("play attackers")
    assert e.read().startswith("move ")
    e.goodbye()


def test_a_refused_move_is_never_played_again_and_refusing_all_ends_cleanly(engine):
    e = engine(level="random")
    e.send(f"rules {BRANDUBH}")
    rules = find_variant("brandubh").make_rules()
    legal = {rules.move_text(m) for m in rules.legal_moves(rules.initial_position())}
    played: list[str] = []
    t0 = time.monotonic()
    while True:
        e.send("play attackers")
        reply = e.read()
        if reply.startswith("error -1"):
            break
        assert reply.startswith("move ")
        played.append(reply.split()[1])
        assert len(played) <= len(legal), "a refused move came back"
        e.send("error 2")  # refused: the host asks again (OpenTafl's ExternalEngineHost)
    assert len(set(played)) == len(played) and set(played) == legal
    assert "refused every legal move" in reply
    within(time.monotonic() - t0, 60, "the refused moves")
    # the engine is still there for a new game
    e.send(f"rules {BRANDUBH}")
    e.send("play attackers")
    assert e.read().split()[1] in legal
    e.goodbye()


def test_after_one_refusal_the_engine_plays_its_next_choice_and_the_game_goes_on(engine):
    e = engine(level="easy")
    e.send(f"rules {BRANDUBH}")
    e.send("play attackers")
    first = e.read().split()[1]
    e.send("error 2")
    e.send("play attackers")
    second = e.read().split()[1]
    assert second != first
    rules = find_variant("brandubh").make_rules()
    pos = rules.play(rules.initial_position(), rules.parse_move(rules.initial_position(), second))[0]
    from tafl_desktop.interop.engine import position_record

    e.send(f"move {position_record(rules, pos)}")  # accepted
    reply = rules.legal_moves(pos)[0]
    after = rules.play(pos, reply)[0]
    e.send(f"opponent-move {rules.move_text(reply)} {position_record(rules, after)}")
    e.send("play attackers")
    third = e.read().split()[1]
    assert rules.parse_move(after, third) in rules.legal_moves(after)
    e.goodbye()


def test_a_line_of_ten_megabytes_is_refused_without_being_kept(engine):
    e = engine()
    e.send(b"rules " + b"x" * (10 << 20) + b"\n")
    assert e.read().startswith("error 0 line longer than")
    e.send(f"rules {BRANDUBH}")
    e.send("play attackers")
    assert e.read().startswith("move ")
    e.goodbye()


def test_a_host_that_goes_away_ends_the_engine_quietly():
    p = subprocess.Popen([sys.executable, "-m", "tafl_desktop", "engine", "--level", "beginner"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.close()  # the host stopped reading
    p.stdin.write(f"rules {BRANDUBH}\nplay attackers\nplay attackers\n".encode())
    p.stdin.close()
    assert p.wait(30) == 0
    assert "Traceback" not in p.stderr.read().decode()


def test_a_repeated_rules_line_is_parsed_once(monkeypatch):
    from tafl_desktop.interop import engine as otep

    parsed = []
    real = otep.variant_from_rules_string

    def counting(text: str):
        parsed.append(text)
        return real(text)

    monkeypatch.setattr(otep, "variant_from_rules_string", counting)
    session = otep.EngineSession(io.StringIO(), "beginner")
    for _ in range(2000):
        session.handle(f"rules {BRANDUBH}")
    assert len(parsed) == 1 and session.game is not None
    assert session.out.getvalue() == ""  # not one error
