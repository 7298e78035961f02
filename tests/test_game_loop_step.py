"""The one game loop's step (issue 41, item 4): one reply of one side is judged the same way
whoever asks, the headless loop (:func:`tafl_desktop.game_loop.play_game`, which the match tool,
self-play and the referees stand on) or the window's session when its computer's answer arrives
(through the engine contract, :mod:`tafl_desktop.session.engine`).

A table of replies goes through both: a move, a move that ends the game (Brandubh's king taken
against a corner: source 002's hostile corners), a move the rules refuse, a resignation, a
forfeit, a problem (no move), and a move after the mover's time ran out.  Each row says what both
make of it: the same outcome and the same words.  The one difference is the callers' policy, pinned
here: a move the rules refuse forfeits the game in the loop (an engine broke it), while the session
stops and waits (its worker searched that very position, and its hosted engines' moves are checked
by their host, which forfeits them).  Headless and fast: scripted agents, a fake engine, a fake
clock."""

from __future__ import annotations

import time
from dataclasses import dataclass

import pytest

from tafl_desktop.core.clock import TimeControl as ClockControl
from tafl_desktop.core.game import Game, Move, Outcome, Side
from tafl_desktop.core.variants import find_variant
from tafl_desktop.game_loop import Budget, Reply, TimeControl, play_game
from tafl_desktop.session.engine import EngineHub, IdleEngine, TurnFailure, TurnRequest
from tafl_desktop.session.players import COMPUTER, PlayerSpec
from tafl_desktop.session.session import GameSession
from tafl_desktop.session.source import GameSource

BRANDUBH = find_variant("brandubh")
#: The attackers to move; f1-c1 takes the king on b1 against the corner a1.
KING_TAKEN = "/7/7/7/7/7/5T1/1K3t1/"
COMPUTER_SPEC = PlayerSpec(COMPUTER, "medium")


@dataclass(frozen=True)
class Row:
    """One reply: ``move`` (a move's text) or ``failure`` (the engine contract's words), and
    ``reply`` the same answer as a loop's agent gives it; ``late``: it comes after the mover's
    time ran out; ``start`` the position (None: the start)."""

    name: str
    reply: Reply
    move: str = ""
    failure: TurnFailure | None = None
    late: bool = False
    start: str | None = None
    #: The move ends the game on the board (the session says so through its ``finished`` event).
    board: bool = False
    #: What both make of it: the outcome (None: the game goes on or waits) and the plies played.
    outcome: Outcome | None = None
    plies: int = 0
    #: The words both say (the loop's line, a clause of the session's sentence); "" for none.
    words: str = ""


RESIGNS = "the engine 'x' resigns"
CRASHED = "the engine 'x' stopped unexpectedly (exit code 3)"
PROBLEM = "the computer player stopped unexpectedly"
D, FORFEIT = Side.DEFENDERS, "forfeit"

ROWS = [
    Row("move", Reply(), move="d2-f2", plies=1),
    Row("move that ends the game", Reply(), move="f1-c1", start=KING_TAKEN, board=True, plies=1,
        outcome=Outcome(Side.ATTACKERS, "king_captured"), words="Attackers win: the king was captured."),
    Row("resignation", Reply(resigned=True, text=RESIGNS), failure=TurnFailure(RESIGNS, "resigned"),
        outcome=Outcome(D, "resigned"), words=RESIGNS),
    Row("forfeit", Reply(failure=FORFEIT, text=CRASHED), failure=TurnFailure(CRASHED, FORFEIT),
        outcome=Outcome(D, FORFEIT), words=CRASHED),
    Row("problem", Reply(text=PROBLEM), failure=TurnFailure(PROBLEM), words=PROBLEM),
    Row("timeout", Reply(), move="d2-f2", late=True, outcome=Outcome(D, "time"),
        words=f"{COMPUTER_SPEC.label()} ran out of time"),
]


def _game(row: Row) -> Game:
    rules = BRANDUBH.make_rules()
    return Game(rules, rules.parse_position(row.start, Side.ATTACKERS) if row.start else None)


class Scripted:
    """A loop's agent: gives ``reply`` once (its move filled in), then has no move (the game stops);
    ``late`` sleeps past a clock of a millisecond first."""

    def __init__(self, reply: Reply | None, label: str = COMPUTER_SPEC.label(), late: bool = False) -> None:
        self.reply, self.label, self.late = reply, label, late

    def think(self, game: Game, budget: Budget) -> Reply:
        reply, self.reply = self.reply, None
        if self.late:
            time.sleep(0.005)
        return reply or Reply()

    def finish(self, game: Game) -> None:
        pass

    def close(self) -> None:
        pass


def _through_the_loop(row: Row) -> tuple[Game, object]:
    game = _game(row)
    reply = row.reply
    if row.move:
        reply = Reply(game.rules.parse_move(game.position, row.move))
    agents = {Side.ATTACKERS: Scripted(reply, late=row.late), Side.DEFENDERS: Scripted(None)}
    tc = TimeControl(base=0.001) if row.late else None
    return game, play_game(game, agents, tc)


class HeldEngine(IdleEngine):
    """The session's computer: keeps the request, answered by the test."""

    def __init__(self) -> None:
        self.requests: list[TurnRequest] = []

    def start(self, request: TurnRequest) -> None:
        self.requests.append(request)


def _through_the_session(row: Row, move: Move | None = None) -> tuple[GameSession, list[str], list[Outcome]]:
    engine = HeldEngine()
    now = [100.0]
    queue: list = []
    session = GameSession(GameSource.new(BRANDUBH), EngineHub(computer=lambda: engine), now=lambda: now[0],
                          defer=queue.append)
    said: list[str] = []
    finished: list[Outcome] = []
    session.message.connect(said.append)
    session.finished.connect(finished.append)
    start = _game(row).position if row.start else None
    session.load(GameSource.new(BRANDUBH, (COMPUTER_SPEC, PlayerSpec()), start=start,
                                time_control=ClockControl.parse("30") if row.late else None))
    request = engine.requests[-1]
    if row.late:
        now[0] += 31  # the attackers' 30 seconds ran out while their engine thought
    if row.failure is not None:
        request.on_failure(row.failure)
    else:
        request.on_move(move if move is not None else session.rules.parse_move(session.game.position, row.move))
    while queue:
        queue.pop(0)()
    return session, said, finished


@pytest.mark.parametrize("row", ROWS, ids=[r.name for r in ROWS])
def test_a_reply_comes_to_the_same_in_the_loop_and_in_the_session(row: Row):
    game, result = _through_the_loop(row)
    session, said, finished = _through_the_session(row)
    assert game.outcome == session.game.outcome == row.outcome
    assert len(game.plies) == len(session.game.plies) == row.plies
    assert finished == ([row.outcome] if row.outcome else [])
    if row.outcome is None:  # the loop stops, the session waits: nobody lost, the game is open
        assert result.ending == "stopped" and result.winner is None and not session.thinking
    if row.words:
        assert result.text == row.words  # the loop's line
    if row.board:
        assert session.describe(finished[0]) == row.words  # what the window shows at the end
    elif row.words:
        assert any(row.words in line for line in said), said  # a clause of the session's sentence
    if row.late or (row.failure is not None and row.failure.ends_game):
        assert row.outcome is not None and said[-1] == f"The game ends: {row.words}. {row.outcome.describe(BRANDUBH)}"
    if row.failure is not None and not row.failure.ends_game:
        assert said[-1].startswith(f"The computer player could not move: {row.words}.")


def test_a_refused_move_forfeits_in_the_loop_and_waits_in_the_session():
    row = Row("illegal", Reply())
    game = _game(row)
    legal = game.rules.parse_move(game.position, "d2-f2")
    backwards = (legal[1], legal[0])  # from the empty square back onto the piece
    why = game.check(backwards)
    assert why
    _, result = _through_the_loop(Row("illegal", Reply(backwards)))
    assert result.ending == "illegal" and result.failed == "attackers" and result.reason == FORFEIT
    assert result.text == f"{COMPUTER_SPEC.label()} played an illegal move: {why}"
    session, said, finished = _through_the_session(row, backwards)
    assert session.game.outcome is None and session.game.plies == [] and finished == []
    assert said[-1].startswith(f"The computer player could not move: it proposed "
                               f"{session.rules.move_text(backwards)}, which is not allowed ({why}).")
