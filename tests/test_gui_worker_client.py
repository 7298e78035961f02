"""One worker client for play and analysis (issue 41, item 4): the computer opponent, the hints and
the analysis board each talk to their own search process through the same
:class:`~tafl_desktop.gui.worker_client.WorkerClient`, whose one QTimer is the only poll of that
process, running only while a request is out."""

from __future__ import annotations

import ast
from pathlib import Path

from PySide6.QtCore import QTimer

from tafl_desktop.core.game import Game
from tafl_desktop.gui.worker_client import WorkerClient, request_of
from tafl_desktop.session.players import COMPUTER, PlayerSpec
from tafl_desktop.session.source import GameSource, Origin

GUI = Path(__file__).resolve().parent.parent / "tafl_desktop" / "gui"


class FakeWorker:
    """Stands in for an AIWorker's pipe: the test sets what the next polls see."""

    def __init__(self) -> None:
        self.info: object = None
        self.result: object = None
        self.busy = False
        self.broken = False
        self.started: list[dict] = []

    def start(self, variant, pos, side, keys, **kwargs) -> None:
        self.started.append({"keys": len(keys), **kwargs})
        self.busy = True

    def poll(self):
        if self.broken:
            raise BrokenPipeError("pipe closed")
        result, self.result = self.result, None
        if result is not None:
            self.busy = False
        return result

    def cancel(self) -> None:
        self.busy = False

    def move_now(self) -> None:
        pass

    def shutdown(self) -> None:
        pass


def _client(qtbot) -> tuple[WorkerClient, FakeWorker]:
    client = WorkerClient()
    worker = FakeWorker()
    client._worker = worker  # the process itself is the worker's own tests' business
    return client, worker


def _timers(obj) -> list[QTimer]:
    return [t for t in obj.findChildren(QTimer) if t.parent() is obj]


def test_progress_once_per_report_the_answer_once_and_the_poll_stops(qtbot):
    from tafl_desktop.core.variants import find_variant

    client, worker = _client(qtbot)
    game = Game(find_variant("brandubh").make_rules())
    infos, signalled, done = [], [], []
    client.progress.connect(signalled.append)
    client.submit(request_of(game), done.append, infos.append, mode="hint", time_limit=1.0)
    (timer,) = _timers(client)
    assert timer.isActive() and client.busy and worker.started == [{"keys": 1, "mode": "hint", "time_limit": 1.0}]
    worker.info = {"depth": 1}
    qtbot.waitUntil(lambda: infos == [{"depth": 1}])
    qtbot.wait(60)  # several polls see the same report: it is delivered once
    assert infos == signalled == [{"depth": 1}]
    worker.result = "answer"
    qtbot.waitUntil(lambda: done == ["answer"])
    qtbot.wait(60)
    assert done == ["answer"] and not client.busy and not timer.isActive()


def test_a_broken_pipe_is_an_answer_with_an_error_and_a_cancelled_request_is_never_answered(qtbot):
    from tafl_desktop.core.variants import find_variant

    client, worker = _client(qtbot)
    game = Game(find_variant("brandubh").make_rules())
    done: list = []
    client.submit(request_of(game), done.append, mode="move")
    worker.broken = True
    qtbot.waitUntil(lambda: len(done) == 1)
    assert done[0].move is None and done[0].error == "the computer player failed (pipe closed)"
    worker.broken = False
    client.submit(request_of(game), done.append, mode="move")
    client.cancel()
    worker.result = "late"
    qtbot.wait(60)
    assert len(done) == 1 and not _timers(client)[0].isActive()


def test_play_hints_and_analysis_each_have_one_client_and_one_timer_per_process(qtbot, make_window):
    """The window as a player uses it: a game against the computer, a hint, the analysis board."""
    from tafl_desktop.gui.engines import window_engines

    w = make_window("brandubh", engines=window_engines())
    c = w.controller
    w.load(GameSource.of_game(Game(c.session.rules), Origin.NEW, (PlayerSpec(), PlayerSpec(COMPUTER, "beginner"))))
    c.play_move(c.session.rules.parse_move(c.session.game.position, "d6-b6"))
    qtbot.waitUntil(lambda: len(c.session.game.plies) == 2, timeout=60_000)
    w.act_hint.trigger()
    qtbot.waitUntil(lambda: bool(c.current_hint()), timeout=60_000)
    w.act_analysis.trigger()
    qtbot.waitUntil(lambda: w.analysis_board.report is not None, timeout=60_000)
    clients = [w.session.engines.computer, w.analyst, w.analysis_client]
    assert all(isinstance(client, WorkerClient) for client in clients)
    workers = [client._worker for client in clients]
    assert all(worker is not None for worker in workers) and len({id(x) for x in workers}) == 3
    assert [len(_timers(client)) for client in clients] == [1, 1, 1]
    # the opponent and the hint have answered: their polls have stopped; the analysis runs on
    assert [_timers(client)[0].isActive() for client in clients] == [False, False, True]
    w.act_analysis.trigger()
    assert not _timers(w.analysis_client)[0].isActive()
    w.session.shutdown()
    w.analysis_client.shutdown()


def test_only_the_worker_client_talks_to_a_search_process():
    """No other window module makes an AIWorker (and so none polls one with a timer of its own)."""
    for path in GUI.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        names |= {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names}
        assert "AIWorker" not in names or path.name == "worker_client.py", path.name
