"""Against the real thing (issue 43 item 6): hnefatafl.org's engine, built from the crate.

Slow (``make test-slow``; not the default suite): ``cargo install hnefatafl-copenhagen --version
6.4.1 --no-default-features --bin hnefatafl-text-protocol`` into a cache (``$TAFL_CRATE_CACHE``,
default ``~/.cache/tafl-desktop/hnefatafl-copenhagen-6.4.1``; built once, several minutes on two
cores), then our engine plays it over HTP in both hosting directions (its stdin, where it plays
AiBasic at depth 4, and its ``--host`` mode, where it connects to us on 127.0.0.1 port 49152), our
rules refereeing every move it makes and it accepting every move we make.  Afterwards each game is
replayed move by move into a fresh copy of the binary: the squares it says each move captured and
its final status must be ours (the rules of ``copenhagen_org``), so the two rule sets never disagree.

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python -m pytest -q -m slow tests/test_hnefatafl_org_crate.py``
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tafl_desktop.ai.levels import get_level
from tafl_desktop.ai.player import ComputerPlayer
from tafl_desktop.core.game import OFF_BOARD_REASONS, Game, Side
from tafl_desktop.core.variants import presets
from tafl_desktop.interop.htp_host import HTP_PORT, HtpHostedEngine, play_hosted_game

pytestmark = pytest.mark.slow

CRATE, VERSION, BINARY = "hnefatafl-copenhagen", "6.4.1", "hnefatafl-text-protocol"
STDIN_PLIES = 12


@pytest.fixture(scope="module")
def crate_binary() -> str:
    if shutil.which("cargo") is None:
        pytest.skip("cargo is not installed: the crate cannot be built")
    root = Path(os.environ.get("TAFL_CRATE_CACHE") or Path.home() / ".cache" / "tafl-desktop" / f"{CRATE}-{VERSION}")
    binary = root / "bin" / BINARY
    if not binary.exists():
        done = subprocess.run(["cargo", "install", CRATE, "--version", VERSION, "--no-default-features", "--bin",
                               BINARY, "--root", str(root), "--locked"], capture_output=True, text=True, timeout=3600)
        if done.returncode != 0:
            done = subprocess.run(["cargo", "install", CRATE, "--version", VERSION, "--no-default-features", "--bin",
                                   BINARY, "--root", str(root)], capture_output=True, text=True, timeout=3600)
        assert done.returncode == 0, done.stderr[-2000:]
    return str(binary)


def _ours(seconds: float = 0.5):
    rules = presets()["copenhagen_org"].make_rules()
    player = ComputerPlayer(rules, get_level("expert"))

    def move(game: Game):
        keys = [rules.position_key(game.position_at(i)) for i in range(len(game.plies) + 1)]
        return player.choose(game.position, keys, time_limit=seconds).move

    return rules, move


def _replay_agrees(binary: str, game: Game) -> None:
    """Every move into a fresh binary: its captures and its final status are ours."""
    rules = game.rules
    print(f"\n{len(game.plies)} moves, {game.outcome}: {' '.join(game.move_texts())}")
    lines = []
    for i, ply in enumerate(game.plies):
        role = "attacker" if i % 2 == 0 else "defender"
        lines.append(f"play {role} {rules.geometry.name(ply.move[0])} {rules.geometry.name(ply.move[1])}")
    lines += ["final_status", "quit"]
    done = subprocess.run([binary], input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=120)
    answers = [line for line in done.stdout.split("\n") if line.startswith(("=", "?"))]
    assert len(answers) == len(game.plies) + 1, done.stdout[-2000:]
    for ply, answer in zip(game.plies, answers, strict=False):
        theirs = sorted(answer[1:].split())
        assert answer.startswith("="), (rules.move_text(ply.move), answer)
        assert theirs == sorted(rules.geometry.name(s) for s in ply.captures), (rules.move_text(ply.move), answer)
    out = game.outcome
    if out is None or out.reason in OFF_BOARD_REASONS:  # an ending off the board: still going on there
        assert answers[-1] == "= ongoing", (out, answers[-1])
        return
    expected = "draw" if out.winner is None else ("attacker_wins" if out.winner == Side.ATTACKERS else "defender_wins")
    assert answers[-1] == f"= {expected}", (out, answers[-1])


@pytest.mark.parametrize("their_side", [Side.ATTACKERS, Side.DEFENDERS])
def test_the_crate_on_its_stdin_plays_us_and_agrees_on_every_move(crate_binary, their_side):
    rules, our_move = _ours()
    game = Game(rules)
    # on its stdin the binary always plays AiBasic at depth 4: 16 s and more a move on two busy cores,
    # so this game is cut at STDIN_PLIES moves (the host-mode games below are played out)
    engine = HtpHostedEngine(crate_binary, "hnefatafl-text-protocol", move_seconds=900)
    try:
        ended = play_hosted_game(game, {their_side: engine}, our_move, max_plies=STDIN_PLIES)
    finally:
        engine.close()
    assert ended == "" or "resigned" in ended, ended
    assert game.outcome is not None or len(game.plies) == STDIN_PLIES
    _replay_agrees(crate_binary, game)


@pytest.mark.parametrize("their_side", [Side.ATTACKERS, Side.DEFENDERS])
def test_the_crate_in_host_mode_plays_us_and_agrees_on_every_move(crate_binary, their_side):
    rules, our_move = _ours()
    game = Game(rules)
    engine = HtpHostedEngine(f"{crate_binary} --host 127.0.0.1 --ai basic --depth 2", "hnefatafl-text-protocol",
                             host_mode=True, port=HTP_PORT, move_seconds=600)
    try:
        ended = play_hosted_game(game, {their_side: engine}, our_move, max_plies=400)
    finally:
        engine.close()
    assert ended == "" or "resigned" in ended or "closed the connection" in ended, ended
    _replay_agrees(crate_binary, game)


def test_a_match_against_the_crate_in_host_mode_agrees_on_every_move(crate_binary, tmp_path):
    """``tafl-desktop match`` with the crate as an ``htp-host:`` player (the real CLI in a subprocess):
    two games, one with each colour, played out (no adjudication by proof), no failure recorded, and
    every game replayed into a fresh binary with its captures and final status ours."""
    import json
    import shlex
    import sys

    from tafl_desktop.core.record import load_game

    out = tmp_path / "match"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(Path(__file__).resolve().parents[1]),
                                                       os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run(
        [sys.executable, "-m", "tafl_desktop", "match", "copenhagen_org", "--player", "python:time=0.5",
         "--player", f"htp-host:{shlex.quote(crate_binary)} --host 127.0.0.1 --ai basic --depth 2",
         "--games", "2", "--no-proven-adjudication", "--max-plies", "0", "--out", str(out), "--json"],
        capture_output=True, text=True, timeout=3600, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout)
    print(f"\nmatch: {report['wins']}-{report['draws']}-{report['losses']}, endings {report['endings']}")
    assert report["failures"] == [] and report["wins"] + report["draws"] + report["losses"] == 2
    for path in sorted((out / "games").glob("*.tafl.json")):
        _replay_agrees(crate_binary, load_game(path))
