"""Hosting HTP engines (issue 43 item 5): stdin and the crate's ``--host`` mode over TCP on
127.0.0.1, with the OpenTafl host's safety (process group, bounded lines, a crash or a resignation
as a normal end).  Protocol source: the crate ``hnefatafl-copenhagen`` 6.4.1,
``src/bin/hnefatafl-text-protocol.rs`` (``play_tcp``: ``play`` lines are played without an answer,
``generate_move`` is answered with a bare ``play ROLE FROM TO``) and ``src/lib.rs``
(``SERVER_PORT = ":49152"``).  The engines are our own ``tafl-desktop htp`` (both modes) and small
misbehaving scripts; the crate's binary itself is the slow test's.
"""

from __future__ import annotations

import shlex
import socket
import sys
import time

import pytest

from tafl_desktop.core.game import Game, Outcome, Side
from tafl_desktop.core.variants import presets
from tafl_desktop.interop.engine_process import live_group_members
from tafl_desktop.interop.host import EngineFailure
from tafl_desktop.interop.htp_host import HtpHostedEngine, play_hosted_game

OUR_HTP = f"{shlex.quote(sys.executable)} -m tafl_desktop htp --seconds 0.05"


def _game() -> Game:
    return Game(presets()["copenhagen_org"].make_rules())


def _first_legal(game: Game):
    return game.legal_moves()[0]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _ended(engine: HtpHostedEngine) -> bool:
    assert engine.process.wait(10)
    return engine.process.pid is None or live_group_members(engine.process.pid) == []


def test_an_htp_engine_on_stdin_plays_legal_moves_for_either_side():
    for side in (Side.ATTACKERS, Side.DEFENDERS):
        game = _game()
        engine = HtpHostedEngine(OUR_HTP, "ours")
        try:
            ended = play_hosted_game(game, {side: engine}, _first_legal, max_plies=8)
        finally:
            engine.close()
        assert ended == "" and len(game.plies) == 8 and engine.dead == ""
        assert _ended(engine)


def test_an_htp_engine_in_host_mode_connects_to_loopback_and_plays():
    port = _free_port()
    engine = HtpHostedEngine(f"{OUR_HTP} --host 127.0.0.1 --port {port}", "ours", host_mode=True, port=port)
    assert engine._listener is not None and engine._listener.getsockname()[0] == "127.0.0.1"
    game = _game()
    try:
        ended = play_hosted_game(game, {Side.DEFENDERS: engine}, _first_legal, max_plies=8)
    finally:
        engine.close()
    assert ended == "" and len(game.plies) == 8
    assert _ended(engine)


def test_a_port_in_use_is_one_clear_line():
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        with pytest.raises(EngineFailure) as err:
            HtpHostedEngine(OUR_HTP, host_mode=True, port=port)
    assert "\n" not in str(err.value) and str(port) in str(err.value)


def _script(tmp_path, name: str, body: str) -> str:
    path = tmp_path / name
    path.write_text("import sys\n" + body, encoding="utf-8")
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(path))}"


@pytest.mark.parametrize("body, kind, words", [
    # answers generate_move with a resignation line: the game ends as a resignation
    ("for line in sys.stdin:\n    print('= play attacker resigns _', flush=True)\n", "resigned", "resigned"),
    # garbage where a move should be
    ("for line in sys.stdin:\n    print('= play attacker z1 z99', flush=True)\n", "failed", "not a move"),
    # an illegal move
    ("for line in sys.stdin:\n    print('= play attacker a1 a2', flush=True)\n", "failed", "illegal"),
    # a crash
    ("sys.stdin.readline()\nsys.exit(3)\n", "failed", "exit code 3"),
    # a flood of stray lines, then nothing
    ("sys.stdin.readline()\nfor i in range(20000):\n    print('noise', i)\nsys.stdout.flush()\nimport time\n"
     "time.sleep(30)\n", "failed", "lines for one move"),
    # an endless line
    ("sys.stdin.readline()\nsys.stdout.write('=' * 200000 + '\\n')\nsys.stdout.flush()\nimport time\n"
     "time.sleep(30)\n",
     "failed", "too long"),
])
def test_misbehaving_engines_end_the_game_in_one_sentence(tmp_path, body, kind, words):
    engine = HtpHostedEngine(_script(tmp_path, "engine.py", body), "rogue")
    game = _game()
    try:
        engine.request_move(game)
        deadline = time.monotonic() + 30
        event = None
        while event is None and time.monotonic() < deadline:
            event = engine.poll()
            time.sleep(0.01)
    finally:
        engine.close()
    assert event is not None and event.kind == kind, event
    assert words in event.text and "\n" not in event.text
    assert _ended(engine)


def test_a_resignation_is_recorded_as_one():
    """play_hosted_game turns the engine's resignation into the game's ending."""
    game = _game()
    engine = HtpHostedEngine(f"{shlex.quote(sys.executable)} -c "
                             + shlex.quote("import sys\nfor l in sys.stdin: print('= play attacker resigns _', "
                                           "flush=True)"), "quitter")
    try:
        text = play_hosted_game(game, {Side.ATTACKERS: engine}, _first_legal)
    finally:
        engine.close()
    assert "resigned" in text and game.outcome == Outcome(Side.DEFENDERS, "resigned")
