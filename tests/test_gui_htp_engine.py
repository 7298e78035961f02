"""HTP engines as opponents in the window (issue 43 item 4, the window's side): New Game adds an
engine speaking hnefatafl.org's Hnefatafl Text Protocol with its hosting mode (on its stdin, or in
its ``--host`` mode connecting to us on 127.0.0.1 at a port), remembers it, and the game is played
through the window's hosted-engine path without the window waiting; a crash or a hang ends the game
with one line, a resignation as a resignation; the protocol's rules only (it tells an engine none).

Protocol source: the crate ``hnefatafl-copenhagen`` 6.4.1, ``src/bin/hnefatafl-text-protocol.rs``
and ``src/lib.rs`` (``SERVER_PORT = ":49152"``).  The engines: our own ``tafl-desktop htp`` (a real
HTP engine, both modes) and the small fake of ``test_match_htp`` (crash, hang, resign).
Screenshots of the dialogs go to /tmp (``s43-*.png``).
"""

from __future__ import annotations

import shlex
import socket
import sys
import time
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication
from timing import within

from tafl_desktop.core.game import Game, Side
from tafl_desktop.core.variants import find_variant
from tafl_desktop.session.players import EXTERNAL, HUMAN, PlayerSpec
from tafl_desktop.session.source import GameSource, Origin
from tests.test_match_htp import FAKE

OUR_HTP = f"{shlex.quote(sys.executable)} -m tafl_desktop htp --seconds 0.05"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(window, players):
    c = window.controller
    window.load(GameSource.of_game(Game(c.session.rules), Origin.NEW, players))
    return c


def _fake(tmp_path: Path, how: str) -> str:
    path = tmp_path / "fake_htp.py"
    path.write_text(FAKE, encoding="utf-8")
    return f"htp:{shlex.quote(sys.executable)} {shlex.quote(str(path))} {how}"


@pytest.mark.parametrize("mode", ["stdin", "host"])
def test_a_human_plays_an_htp_engine_in_the_window_in_either_hosting_mode(qtbot, make_window, mode):
    port = _free_port()
    command = f"htp:{OUR_HTP}" if mode == "stdin" else f"htp-host@{port}:{OUR_HTP} --host 127.0.0.1 --port {port}"
    w = make_window("copenhagen_org")
    c = _start(w, (PlayerSpec(), PlayerSpec(EXTERNAL, command)))
    assert c.session.specs[1].label() == "Engine (tafl_desktop)"
    for ply in range(2):  # two moves each: the second request tells the engine our move first
        human = c.session.game.legal_moves()[0]
        assert c.play_move(human)
        assert c.session.thinking
        t0 = time.monotonic()
        QApplication.processEvents()  # the window answers while the engine thinks
        within(time.monotonic() - t0, 0.5, "processing events")
        qtbot.waitUntil(lambda n=ply: len(c.session.game.plies) == 2 * n + 2, timeout=30000)
        assert not c.session.thinking and c.session.human_to_move() and c.session.game.outcome is None
    hosted = list(c.session.engines.external._hosted.values())
    assert len(hosted) == 1 and hosted[0].host_mode == (mode == "host") and hosted[0].dead == ""
    w.close()
    assert hosted[0].process.wait(10)


@pytest.mark.parametrize(("how", "words", "reason"), [
    ("crash", "exit code 3", "forfeit"),
    ("hang", "did not answer within its time", "forfeit"),
    ("resign", "resigned", "resigned"),
])
def test_an_htp_engine_that_crashes_hangs_or_resigns_ends_the_game_in_one_line(
        qtbot, make_window, dialogs_recorder, tmp_path, monkeypatch, how, words, reason):
    from tafl_desktop.interop import htp_host

    monkeypatch.setattr(htp_host, "MOVE_SECONDS", 1.5)  # a hang is found within this (a minute otherwise)
    w = make_window("copenhagen_org")
    c = _start(w, (PlayerSpec(EXTERNAL, _fake(tmp_path, how)), PlayerSpec()))
    qtbot.waitUntil(lambda: c.session.game.outcome is not None, timeout=20000)
    assert c.session.game.outcome.winner == Side.DEFENDERS and c.session.game.outcome.reason == reason
    status = w.status_text()
    assert words in status and "fake_htp.py" in status and "\n" not in status
    qtbot.waitUntil(lambda: bool(dialogs_recorder.game_over), timeout=5000)
    assert not c.session.thinking


def test_after_an_undo_a_fresh_htp_engine_is_told_the_game(qtbot, make_window):
    """The protocol cannot take a move back: after an undo the engine is replaced by one told every move."""
    w = make_window("copenhagen_org")
    c = _start(w, (PlayerSpec(), PlayerSpec(EXTERNAL, f"htp:{OUR_HTP}")))
    assert c.play_move(c.session.game.legal_moves()[0])
    qtbot.waitUntil(lambda: len(c.session.game.plies) == 2, timeout=30000)
    first = list(c.session.engines.external._hosted.values())[0]
    c.session.undo()
    c.session.undo()
    qtbot.waitUntil(lambda: c.session.human_to_move(), timeout=5000)
    assert c.play_move(c.session.game.legal_moves()[-1])
    qtbot.waitUntil(lambda: len(c.session.game.plies) >= 2 and not c.session.thinking, timeout=30000)
    assert c.session.game.outcome is None
    second = list(c.session.engines.external._hosted.values())[0]
    assert second is not first and second.dead == ""


def _screens(widget, name: str) -> None:
    widget.adjustSize()
    widget.show()
    QApplication.processEvents()
    path = Path("/tmp") / f"s43-{name}.png"
    assert widget.grab().save(str(path)) and path.stat().st_size > 0


@pytest.mark.parametrize("lang", ["en", "de"])
def test_new_game_adds_an_htp_engine_with_its_hosting_mode_and_remembers_it(qtbot, gui_settings, lang):
    from tafl_desktop.gui.external_engine import AddEngineDialog, known_engines
    from tafl_desktop.gui.new_game_dialog import NewGameDialog
    from tafl_desktop.i18n import set_language

    set_language(lang, explicit=True)
    try:
        dlg = NewGameDialog(find_variant("copenhagen_org"))
        qtbot.addWidget(dlg)
        chooser = dlg.choosers[1]
        chooser.kind.setCurrentIndex(chooser.kind.findData(EXTERNAL))
        add = AddEngineDialog(dlg)
        qtbot.addWidget(add)
        add.protocol.setCurrentIndex(add.protocol.findData("htp-host"))
        assert add.port.isEnabled() and add.port.value() == 49152
        add.line.setText("hnefatafl-text-protocol --host 127.0.0.1 --ai basic --depth 3")
        assert add.command() == "htp-host:hnefatafl-text-protocol --host 127.0.0.1 --ai basic --depth 3"
        add.port.setValue(50000)
        _screens(add, f"add-engine-{lang}")
        command = add.command()
        assert command == "htp-host@50000:hnefatafl-text-protocol --host 127.0.0.1 --ai basic --depth 3"
        add.protocol.setCurrentIndex(add.protocol.findData("htp"))
        assert not add.port.isEnabled()
        assert add.command() == "htp:hnefatafl-text-protocol --host 127.0.0.1 --ai basic --depth 3"
        chooser.engine.add_command(command)
        assert known_engines() == [command]
        shown = chooser.engine.combo.currentText()
        assert "hnefatafl-text-protocol" in shown and "HTP, --host" in shown
        assert chooser.engine.combo.itemData(chooser.engine.combo.currentIndex(), 3) == command  # its tooltip
        assert dlg.chosen_players() == (PlayerSpec(HUMAN), PlayerSpec(EXTERNAL, command))
        _screens(dlg, f"new-game-htp-{lang}")
        again = NewGameDialog(find_variant("copenhagen_org"))  # remembered, with its hosting mode
        qtbot.addWidget(again)
        assert again.choosers[0].engine.combo.findData(command) >= 0
    finally:
        set_language("en", explicit=True)


def test_an_htp_engine_is_offered_hnefatafl_orgs_rules_only(qtbot, gui_settings, dialogs_recorder):
    from PySide6.QtWidgets import QDialog

    from tafl_desktop.gui.new_game_dialog import NewGameDialog

    for variant, changes, starts in (("brandubh", {}, False), ("copenhagen_org", {"turn_limit": 0}, False),
                                     ("copenhagen_org", {}, True)):
        dlg = NewGameDialog(find_variant(variant))
        qtbot.addWidget(dlg)
        if changes:
            dlg.use_options({**dlg.chosen_variant().options, **changes})
        chooser = dlg.choosers[1]
        chooser.kind.setCurrentIndex(chooser.kind.findData(EXTERNAL))
        chooser.engine.add_command(f"htp:{OUR_HTP}")
        dialogs_recorder.errors.clear()
        dlg.accept()
        assert (dlg.result() == QDialog.DialogCode.Accepted) == starts, variant
        if not starts:
            (title, text), = dialogs_recorder.errors
            assert "Copenhagen (hnefatafl.org)" in text and "\n" not in text
