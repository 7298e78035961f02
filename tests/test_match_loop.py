"""Issue 45, item 1: the headless game loop's adjudication and clock, with real players.

* A result the search proves ends the game for the prover (a tablebase-style adjudication, as
  match managers do): the native search at 20k nodes proves the king's escape on an open
  Brandubh board, and playing the position out without adjudication gives the same winner.
* Resignation by score, as Cute Chess defines ``-resign movecount=COUNT score=SCORE`` ("adjudicate
  the game as a loss if an engine's score is at least SCORE centipawns below zero for at least
  COUNT consecutive moves", Cute Chess's cutechess-cli manual): with a threshold every score
  meets, the side that first has COUNT scored moves in a row (the attackers, who move first)
  resigns on its COUNT-th move; with a threshold an opening never reaches, nobody does.
* A clock of BASE+INC seconds: a hosted engine is told its time in OpenTafl's ``clock`` line
  (milliseconds, turn2-research.md 4.1) and loses on time, recorded as ``timeout`` with the game
  ended by ``time``, when its answer comes after its clock ran out.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tafl_desktop.core.game import Game, Side
from tafl_desktop.core.variants import find_variant
from tafl_desktop.match.loop import Adjudication, TimeControl, play_game
from tafl_desktop.match.players import make_agent, parse_player

HOSTILE = Path(__file__).resolve().parent / "hostile_engine.py"
#: An open Brandubh board: the king on c3 with two attackers far off, the attackers to move.
OPEN_BOARD = "/7/1t5/7/7/2K4/7/5t1/"


def agents(rules, a: str, d: str) -> dict:
    return {Side.ATTACKERS: make_agent(parse_player(a), rules, 1),
            Side.DEFENDERS: make_agent(parse_player(d), rules, 2)}


def test_a_proven_result_is_adjudicated_for_the_side_that_wins_it_played_out():
    from tafl_desktop.ai.engine import native_search_available

    engine = "native" if native_search_available() else "python"
    rules = find_variant("brandubh").make_rules()
    start = rules.parse_position(OPEN_BOARD, Side.ATTACKERS)
    players = agents(rules, f"{engine}:nodes=20000", f"{engine}:nodes=20000")
    adjudicated = play_game(Game(rules, start), players)
    assert adjudicated.ending == "proven"
    assert adjudicated.reason == "resigned"
    played = play_game(Game(rules, start), players, adjudication=Adjudication(proven=False))
    assert played.ending == "rules"
    assert played.reason == "king_escaped"
    assert adjudicated.winner == played.winner == "defenders"
    assert adjudicated.plies < played.plies


@pytest.mark.parametrize("count", [1, 2, 3])
def test_resignation_by_score_after_count_moves_in_a_row(count):
    rules = find_variant("brandubh").make_rules()
    players = agents(rules, "python:nodes=200", "python:nodes=200")
    result = play_game(Game(rules), players, adjudication=Adjudication(
        proven=False, resign_score=-1_000_000, resign_moves=count))
    assert result.ending == "resigned"
    assert result.winner == "defenders"
    assert result.plies == 2 * count - 1  # the attackers' COUNT-th move


def test_no_resignation_while_scores_stay_above_the_threshold():
    rules = find_variant("brandubh").make_rules()
    players = agents(rules, "python:nodes=200", "python:nodes=200")
    result = play_game(Game(rules), players, adjudication=Adjudication(
        max_plies=8, proven=False, resign_score=5000, resign_moves=1))
    assert result.ending == "ply_cap"
    assert result.winner is None and result.plies == 8


@pytest.mark.skipif(sys.platform == "win32", reason="the scripted engine is started with a POSIX command line")
def test_a_hosted_engine_past_its_clock_loses_on_time_and_was_told_its_clock(tmp_path):
    log = tmp_path / "received.txt"
    script = tmp_path / "slow.json"
    script.write_text(json.dumps({"start": [["say", "hello"]], "log": str(log),
                                  "per_play": [[["sleep", 1.3], ["say", "move d1-c1"]]]}))
    rules = find_variant("brandubh").make_rules()
    players = agents(rules, f"engine:{sys.executable} {HOSTILE} {script}", "python:nodes=100")
    try:
        result = play_game(Game(rules), players, TimeControl(base=1.0, increment=0.5))
    finally:
        for agent in players.values():
            agent.close()
    assert result.ending == "timeout"
    assert result.failed == "attackers" and result.winner == "defenders"
    assert result.reason == "time"
    assert result.plies == 0  # a move after the flag fell does not count
    lines = log.read_text().splitlines()
    assert "clock 1000 1000 0 0 0" in [line.strip() for line in lines]
