"""One headless game loop (issue 41, item 4): self-play, the engine hosts' referees (OpenTafl's and
HTP's) and the match tool play their games through :func:`tafl_desktop.game_loop.play_game`, and
none keeps a loop of its own.  The loop's options that they need (a ply cap that leaves the game
unfinished, a wall-clock stop, an agent with no move, trusted agents) are pinned here with scripted
agents; the referee's promises with engines that need no process.  The match tool's own
adjudication is pinned in ``test_match_loop``; the callers' outputs in their own tests, unchanged."""

from __future__ import annotations

import ast
import time
from pathlib import Path

import pytest

from tafl_desktop.core.game import Game, IllegalMove, Side
from tafl_desktop.core.variants import find_variant
from tafl_desktop.game_loop import Adjudication, Budget, Reply, play_game

PACKAGE = Path(__file__).resolve().parent.parent / "tafl_desktop"


class FirstMove:
    """Plays the first legal move; ``script`` replaces the next replies."""

    def __init__(self, label: str = "first") -> None:
        self.label = label
        self.script: list[Reply] = []
        self.finished = 0

    def think(self, game: Game, budget: Budget) -> Reply:
        return self.script.pop(0) if self.script else Reply(game.legal_moves()[0])

    def finish(self, game: Game) -> None:
        self.finished += 1

    def close(self) -> None:
        pass


class SlowMove(FirstMove):
    """Takes 30 ms a move."""

    def think(self, game: Game, budget: Budget) -> Reply:
        time.sleep(0.03)
        return super().think(game, budget)


def _brandubh() -> Game:
    return Game(find_variant("brandubh").make_rules())


def test_a_cap_that_is_no_draw_leaves_the_game_unfinished():
    game = _brandubh()
    agent = FirstMove()
    result = play_game(game, {Side.ATTACKERS: agent, Side.DEFENDERS: agent},
                       adjudication=Adjudication(max_plies=6, proven=False, cap_is_draw=False))
    assert game.outcome is None and result.ending == "ply_cap" and result.plies == 6 and result.winner is None
    assert agent.finished == 1  # one agent for both sides is told the end once
    drawn = play_game(_brandubh(), {Side.ATTACKERS: FirstMove(), Side.DEFENDERS: FirstMove()},
                      adjudication=Adjudication(max_plies=6, proven=False))
    assert drawn.ending == "ply_cap" and drawn.reason == "draw_agreed"  # the match tool's cap: a draw


def test_the_wall_clock_stop_and_an_agent_without_a_move_stop_the_game_unfinished():
    game = _brandubh()
    slow = SlowMove()
    result = play_game(game, {Side.ATTACKERS: slow, Side.DEFENDERS: slow},
                       adjudication=Adjudication(max_plies=0, proven=False, max_seconds=0.1))
    assert result.ending == "stopped" and game.outcome is None and 1 <= result.plies <= 10
    game = _brandubh()
    quiet = FirstMove()
    quiet.script = [Reply()]
    result = play_game(game, {Side.ATTACKERS: FirstMove(), Side.DEFENDERS: quiet}, adjudication=Adjudication(0, False))
    assert result.ending == "stopped" and result.plies == 1 and game.outcome is None and result.failed is None


def test_an_illegal_move_is_a_forfeit_unless_the_agents_are_trusted():
    """A move from an empty square (the attackers' opening d2-f2 backwards) is refused by our rules."""
    game = _brandubh()
    cheat = FirstMove("cheat")
    bad = game.rules.parse_move(game.position, "d2-f2")
    cheat.script = [Reply((bad[1], bad[0]))]  # from the empty destination back to the piece
    result = play_game(game, {Side.ATTACKERS: cheat, Side.DEFENDERS: FirstMove()}, adjudication=Adjudication(0, False))
    assert result.ending == "illegal" and result.failed == "attackers" and result.reason == "forfeit"
    assert result.text.startswith("cheat played an illegal move")
    trusted = FirstMove("ours")
    trusted.script = [Reply((bad[1], bad[0]))]
    with pytest.raises(IllegalMove):
        play_game(_brandubh(), {Side.ATTACKERS: trusted, Side.DEFENDERS: FirstMove()},
                  adjudication=Adjudication(0, False), trusted=True)


class FakeHosted:
    """A hosted engine without a process: answers its first legal move, or fails when told to."""

    def __init__(self, label: str, fail_at: int | None = None) -> None:
        self.label = label
        self.fail_at = fail_at
        self.asked: list[tuple[int, int] | None] = []
        self.finished: list[object] = []
        self._game: Game | None = None

    def request_move(self, game: Game, clocks=None) -> None:
        self.asked.append(clocks)
        self._game = game

    def poll(self):
        from tafl_desktop.interop.host import EngineEvent

        assert self._game is not None
        if self.fail_at is not None and len(self.asked) >= self.fail_at:
            return EngineEvent("failed", text=f"the engine '{self.label}' did not answer within its time")
        return EngineEvent("move", move=self._game.legal_moves()[0])

    def finish(self, game: Game) -> None:
        self.finished.append(game.outcome)


def test_the_referee_plays_through_the_loop_tells_the_clocks_and_a_failure_forfeits():
    from tafl_desktop.interop.host import referee

    game = _brandubh()
    a, d = FakeHosted("A"), FakeHosted("D", fail_at=2)
    said = referee(game, {Side.ATTACKERS: a, Side.DEFENDERS: d}, clock_ms=30_000)
    assert said == "the engine 'D' did not answer within its time"
    assert game.outcome is not None and game.outcome.winner == Side.ATTACKERS and game.outcome.reason == "forfeit"
    assert a.asked[0] == (30_000, 30_000) and all(0 < ms <= 30_000 for clocks in a.asked for ms in clocks)
    assert a.finished == d.finished == [game.outcome]  # each engine told the end once
    stopped = _brandubh()
    e = FakeHosted("E")
    said = referee(stopped, {Side.ATTACKERS: e, Side.DEFENDERS: e}, max_plies=3)
    assert said == "stopped after 3 moves" and stopped.outcome is None and e.asked == [None, None, None]


def _function(path: Path, name: str) -> ast.FunctionDef:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == name)


def _calls(node: ast.AST) -> set[str]:
    return {n.func.id for n in ast.walk(node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}


def _own_game_loops(node: ast.AST) -> list[int]:
    """Lines of ``while`` loops that play a game: their condition asks whether it is over, or
    they play moves or judge replies."""
    def plays(loop: ast.While) -> bool:
        return any(isinstance(n, ast.Call) and ((isinstance(n.func, ast.Attribute) and n.func.attr == "play")
                                                or (isinstance(n.func, ast.Name) and n.func.id == "judge"))
                   for n in ast.walk(loop))

    return [n.lineno for n in ast.walk(node)
            if isinstance(n, ast.While) and (".over" in ast.unparse(n.test) or plays(n))]


@pytest.mark.parametrize("module, function, name", [("ai/selfplay.py", "play_game", "play_game_loop"),
                                                    ("interop/host.py", "referee", "play_game"),
                                                    ("interop/htp_host.py", "play_hosted_game", "play_game"),
                                                    ("match/runner.py", "run_game", "play_game")])
def test_self_play_the_referee_and_the_match_tool_stand_on_the_one_loop(module, function, name):
    """Each plays its game by calling the one loop, with no game loop of its own."""
    path = PACKAGE / module
    imports = {(node.module, a.name) for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
               if isinstance(node, ast.ImportFrom) for a in node.names}
    assert any(mod in ("tafl_desktop.game_loop", "tafl_desktop.match.loop") and a == "play_game" for mod, a in imports)
    body = _function(path, function)
    assert name in _calls(body) and _own_game_loops(body) == [], module
    assert _own_game_loops(_function(PACKAGE / "game_loop.py", "play_game")) != []  # the one loop is where it says


def _self_calls(fn: ast.AST, into_lambdas: bool) -> set[str]:
    """Names of the methods ``fn`` calls on ``self`` (inside its lambdas too, if asked: a deferred call)."""
    out: set[str] = set()
    stack = list(ast.iter_child_nodes(fn))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Lambda) and not into_lambdas:
            continue
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                isinstance(node.func.value, ast.Name) and node.func.value.id == "self":
            out.add(node.func.attr)
        stack.extend(ast.iter_child_nodes(node))
    return out


def _reached(methods: dict[str, ast.FunctionDef], roots: set[str], into_lambdas: bool) -> set[str]:
    seen: set[str] = set()
    todo = [r for r in roots if r in methods]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(c for c in _self_calls(methods[name], into_lambdas) if c in methods)
    return seen


def _reply_only(source: str) -> tuple[dict[str, ast.FunctionDef], set[str]]:
    """The session's methods, and those only the computer's reply runs: reached from the callbacks
    its ``TurnRequest`` is built with, less what a person's move runs too (``play``)."""
    cls = next(n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.ClassDef) and n.name == "GameSession")
    methods = {n.name: n for n in cls.body if isinstance(n, ast.FunctionDef)}
    callbacks = {c for n in ast.walk(cls) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                 and n.func.id == "TurnRequest"
                 for a in n.args if isinstance(a, ast.Lambda) for c in _self_calls(a, True)}
    return methods, _reached(methods, callbacks, True) - _reached(methods, {"play", "play_at_end"}, False)


def _judging(fn: ast.AST) -> list[str]:
    """What in ``fn`` judges a reply itself: the rules' check, a resignation or an ending given to
    the game, an outcome made."""
    return [ast.unparse(n) for n in ast.walk(fn) if isinstance(n, ast.Call) and (
        (isinstance(n.func, ast.Attribute) and n.func.attr in ("check", "resign", "finish"))
        or (isinstance(n.func, ast.Name) and n.func.id == "Outcome"))]


#: The session's computer turn as it was before the loop's step: it judged the reply itself.
_JUDGING_SESSION = '''
class GameSession:
    def _maybe_start_computer(self):
        TurnRequest(self._game, "", lambda move: self._computer_moved(1, move), lambda why: self._failed(1, why))

    def _computer_moved(self, generation, move):
        self._defer(lambda: self._apply(generation, move))

    def _apply(self, generation, move):
        if self._game.check(move) is None:
            self._play_live(move)

    def _failed(self, generation, why):
        self._game.finish(Outcome(self.live_side().other, "forfeit"))

    def play(self, move):
        self._play_live(move)

    def _play_live(self, move):
        self._maybe_start_computer()
'''


def test_the_session_judges_its_computers_reply_only_through_the_loops_step():
    """The window's session stands on the one loop too: the code only the computer's reply runs
    asks the loop's step (``judge``) and neither checks the move, nor ends the game, nor makes an
    outcome itself (the event-driven parts - generations, pause, undo, Move Now - stay there)."""
    methods, handlers = _reply_only((PACKAGE / "session" / "session.py").read_text(encoding="utf-8"))
    assert handlers and any("judge" in _calls(methods[name]) for name in handlers), handlers
    assert {name: _judging(methods[name]) for name in handlers} == {name: [] for name in handlers}
    # the check can fail: the session's turn as it was finds its own judging
    old, handlers = _reply_only(_JUDGING_SESSION)
    assert handlers == {"_computer_moved", "_apply", "_failed"}
    assert [j for name in sorted(handlers) for j in _judging(old[name])] == [
        "self._game.check(move)", "self._game.finish(Outcome(self.live_side().other, 'forfeit'))",
        "Outcome(self.live_side().other, 'forfeit')"]
