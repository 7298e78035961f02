"""The engine contract (issue 41, item 4): the session asks every move-making back-end the same way
(one ``TurnRequest``: the game, the level, the time it may take, the clocks, where progress goes)
and hears back a move or one typed ``TurnFailure``; the back-ends are handed to the session when it
is made, never installed through module globals.  Driven headless: a fake engine that meets the
Protocol plays a session without Qt."""

from __future__ import annotations

import ast
from pathlib import Path

from tafl_desktop.core.clock import TimeControl
from tafl_desktop.core.game import Side
from tafl_desktop.core.variants import find_variant
from tafl_desktop.session.engine import Engine, EngineHub, TurnFailure, TurnRequest
from tafl_desktop.session.players import COMPUTER, EXTERNAL, HUMANS, PlayerSpec
from tafl_desktop.session.session import GameSession
from tafl_desktop.session.source import GameSource

PACKAGE = Path(__file__).resolve().parent.parent / "tafl_desktop"
BRANDUBH = find_variant("brandubh")


class FakeEngine:
    """Meets :class:`Engine` (mypy checks the assignment below): plays the first legal move, or
    what the test scripts (a failure, progress), and notes every call."""

    def __init__(self) -> None:
        self.requests: list[TurnRequest] = []
        self.script: list[TurnFailure | str] = []
        self.calls: list[str] = []

    def start(self, request: TurnRequest) -> None:
        self.requests.append(request)
        request.on_progress({"depth": 1, "score": 7})
        step = self.script.pop(0) if self.script else "move"
        if isinstance(step, TurnFailure):
            request.on_failure(step)
        elif step == "move":
            request.on_move(request.game.legal_moves()[0])

    def cancel(self) -> None:
        self.calls.append("cancel")

    def move_now(self) -> None:
        self.calls.append("move_now")

    def finish(self, game: object) -> None:
        self.calls.append("finish")

    def end_game(self) -> None:
        self.calls.append("end_game")

    def shutdown(self) -> None:
        self.calls.append("shutdown")


_typed: Engine = FakeEngine()  # the fake is an Engine as far as the type checker is concerned


def _session(players, engine: FakeEngine | None = None, time_control: TimeControl | None = None,
             kind: str = "computer", watch=None) -> tuple[GameSession, list]:
    """A headless session whose computer moves run from a queue (as the window's zero-delay timer
    runs them), so a computer-against-computer game does not recurse.  ``watch(session)`` may
    connect to its events before the game with ``players`` is loaded."""
    queue: list = []
    hub = EngineHub(**{kind: (lambda: engine)} if engine is not None else {})
    session = GameSession(GameSource.new(BRANDUBH, HUMANS), hub, now=lambda: 100.0, defer=queue.append)
    if watch is not None:
        watch(session)
    session.load(GameSource.new(BRANDUBH, players, time_control=time_control))
    return session, queue


def _run(queue: list, limit: int = 400) -> None:
    while queue and limit:
        queue.pop(0)()
        limit -= 1


def test_a_fake_engine_drives_a_whole_game_headless_and_is_told_the_end():
    engine = FakeEngine()
    progress: list = []
    finished: list = []

    def watch(session: GameSession) -> None:
        session.computer_progress.connect(progress.append)
        session.finished.connect(finished.append)

    session, queue = _session((PlayerSpec(COMPUTER, "easy"), PlayerSpec(COMPUTER, "beginner")), engine, watch=watch)
    _run(queue, limit=1000)
    game = session.game
    assert game.outcome is not None and finished == [game.outcome]
    assert len(game.plies) == len(engine.requests) >= 2
    # each side's request names its own level, the live game, no clock and no limits
    assert [r.level for r in engine.requests[:2]] == ["easy", "beginner"]
    assert all(r.game is game and r.clock is None and r.limits.hard is None for r in engine.requests)
    assert len(progress) == len(engine.requests) and progress[0] == {"depth": 1, "score": 7}
    assert "finish" in engine.calls


def test_the_clock_reaches_the_engine_as_limits_and_as_the_protocols_clocks():
    engine = FakeEngine()
    session, queue = _session((PlayerSpec(), PlayerSpec(COMPUTER, "expert")), engine, TimeControl.parse("30"))
    assert session.play(session.rules.parse_move(session.game.position, "d6-b6"))
    _run(queue)
    request = engine.requests[0]
    assert request.limits.soft is not None and request.limits.hard is not None
    assert 0 < request.limits.soft < request.limits.hard <= 30 / 4  # the share, and a quarter of what is left
    assert request.clock is not None and request.clock[0][1] <= 30_000  # the defenders' milliseconds


def test_a_forfeit_ends_the_game_and_a_resignation_is_one():
    for kind, reason in (("forfeit", "forfeit"), ("resigned", "resigned")):
        engine = FakeEngine()
        engine.script = [TurnFailure("the engine 'x' did not answer within its time", kind)]
        session, queue = _session((PlayerSpec(), PlayerSpec(EXTERNAL, "x")), engine, kind="external")
        said: list[str] = []
        session.computer_failed.connect(said.append)
        assert session.play(session.rules.parse_move(session.game.position, "d6-b6"))
        out = session.game.outcome
        assert out is not None and out.winner == Side.ATTACKERS and out.reason == reason
        assert said and said[0].startswith("The game ends: the engine 'x' did not answer within its time.")
        assert "finish" in engine.calls


def test_a_problem_only_pauses_the_game_and_move_now_asks_again():
    engine = FakeEngine()
    engine.script = [TurnFailure("the computer player stopped unexpectedly")]
    session, queue = _session((PlayerSpec(), PlayerSpec(COMPUTER, "medium")), engine)
    said: list[str] = []
    session.computer_failed.connect(said.append)
    assert session.play(session.rules.parse_move(session.game.position, "d6-b6"))
    assert session.game.outcome is None and not session.thinking and len(session.game.plies) == 1
    assert said and said[0].startswith("The computer player could not move: the computer player stopped")
    session.computer_move_now()
    _run(queue)
    assert len(session.game.plies) == 2 and len(engine.requests) == 2


def test_a_new_game_sends_the_last_games_engines_away_and_shutdown_releases_them():
    engine = FakeEngine()
    session, queue = _session((PlayerSpec(), PlayerSpec(COMPUTER, "easy")), engine)
    assert session.play(session.rules.parse_move(session.game.position, "d6-b6"))
    _run(queue)
    session.load(GameSource.new(BRANDUBH, HUMANS))
    assert "end_game" in engine.calls
    session.shutdown()
    assert engine.calls[-1] == "shutdown"


def test_a_session_without_a_computer_back_end_lets_a_person_play_that_side():
    session, _queue = _session((PlayerSpec(), PlayerSpec(COMPUTER, "easy")))
    assert session.specs == HUMANS and not session.engines.has_computer
    assert session.engines.can_play("human") and not session.engines.can_play(COMPUTER)


def test_no_module_installs_engines_through_globals_and_the_players_never_probe():
    """The old registry (``register_engine``/``register_external`` setting module globals) is gone
    everywhere, and the players ask their engines through the Protocol, not getattr/hasattr."""
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        if "global" not in text and "register_e" not in text:
            continue  # neither a global statement nor such a function can be in it: no need to parse
        tree = ast.parse(text)
        for node in ast.walk(tree):
            if isinstance(node, ast.Global):
                assert not any("engine" in n or "factory" in n for n in node.names), (path, node.names)
            if isinstance(node, ast.FunctionDef):
                assert node.name not in ("register_engine", "register_external"), path
    for name in ("player.py", "engine.py", "session.py"):
        tree = ast.parse((PACKAGE / "session" / name).read_text(encoding="utf-8"))
        probes = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                  and n.func.id in ("getattr", "hasattr")]
        assert not probes, name
