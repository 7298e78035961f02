"""Issue 8: a game in progress survives ``kill -9``.

The issue asks for: the game saved after every move, atomically (temp file in the same folder,
flush, rename) in the platform's app-data folder (QStandardPaths); after the process is killed
mid-game the next start offers to restore it, and the restored game has every move up to the last
one played.

The kill tests run the real app in a separate process (offscreen, with HOME and the XDG folders
pointing into ``tmp_path`` so QStandardPaths and QSettings never touch the real user's files).  The
driver starts the app through its normal front door (``cli.main``, as the ``tafl-desktop``
launcher does), plays through the board's click signal (``square_pressed`` -> ``controller.press``,
exactly what a mouse click sends), prints one line and leaves the app idling in its event loop.
The test then SIGKILLs it and starts the app again to see what is offered and restored.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tafl_desktop.core.game import Game
from tafl_desktop.core.record import load_game, save_game
from tafl_desktop.core.variants import find_variant

ROOT = Path(__file__).resolve().parents[1]
VARIANT = "brandubh"
#: Seven legal Brandubh moves (random, seed 3): an odd count, so the defenders are to move.
MOVES = ["d6-a6", "d5-d6", "g4-g3", "d3-a3", "a6-a5", "e4-e5", "b4-b1"]
#: Seconds to wait for a line from the app (start-up of Python + Qt included).
LINE_TIMEOUT = 60.0

needs_sigkill = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="no SIGKILL on this platform (Windows)")

# Shared by the drivers: find the main window and play a move by "clicking" its points.
_COMMON = r'''
import json, os, sys, time, traceback
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from tafl_desktop import cli
from tafl_desktop.gui import dialogs
from tafl_desktop.gui.app import autosave_path
from tafl_desktop.gui.main_window import MainWindow

def window():
    return next(w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow))

def click_move(w, text):
    c = w.controller
    move = c.session.rules.parse_move(c.session.game.position, text)
    for point in move:
        w.board.square_pressed.emit(point)   # what a click on the board sends to controller.press
    if not c.session.game.move_texts() or c.session.game.move_texts()[-1] != text:
        raise AssertionError(f"{text} was not played: {w.status_text()}")

def say(tag, data):
    sys.stdout.write(tag + " " + json.dumps(data) + "\n")
    sys.stdout.flush()

def guarded(fn):
    def run():
        try:
            fn()
        except BaseException:
            say("FAILED", traceback.format_exc())
            os._exit(3)
    return run

# a modal box would block an offscreen app for ever: record what it would have said instead
errors = []
dialogs.show_error = lambda _p, title, text: errors.append([title, text])
'''

#: Plays argv[1] (JSON list of moves) in a new game, says PLAYED, then idles in the event loop.
PLAY_DRIVER = _COMMON + r'''
MOVES = json.loads(sys.argv[1])

@guarded
def drive():
    w = window()
    for text in MOVES:
        click_move(w, text)
    say("PLAYED", {"moves": w.session.game.move_texts(), "autosave": autosave_path(), "errors": errors})

QTimer.singleShot(0, drive)
sys.exit(cli.main(["gui", "--variant", sys.argv[2]]))
'''

#: Plays argv[1], waits until the autosave holds it (SAVED), then plays argv[2] with fsync stalled
#: in the middle of the autosave write (WRITING): the test kills the process there.
STALL_DRIVER = _COMMON + r'''
from tafl_desktop.core.record import load_game
FIRST, LAST = json.loads(sys.argv[1]), json.loads(sys.argv[2])
deadline = time.monotonic() + 30

def stall(fd):
    say("WRITING", {"autosave": autosave_path()})
    time.sleep(3600)

@guarded
def wait_saved():
    path = autosave_path()
    try:
        saved = load_game(path).move_texts() if os.path.isfile(path) else []
    except Exception:
        saved = []
    if saved == FIRST:
        say("SAVED", {"autosave": path})
        os.fsync = stall   # the atomic write flushes, then fsyncs the temp file, then renames it
        for text in LAST:
            click_move(window(), text)
        return
    if time.monotonic() > deadline:
        raise AssertionError(f"the autosave never held {FIRST}: {saved}")
    QTimer.singleShot(50, wait_saved)

@guarded
def drive():
    w = window()
    for text in FIRST:
        click_move(w, text)
    wait_saved()

QTimer.singleShot(0, drive)
sys.exit(cli.main(["gui", "--variant", sys.argv[3]]))
'''

#: Starts the app bare (as the desktop launcher does), answers the restore question with yes and
#: reports the game the window then shows.
RESTART_DRIVER = _COMMON + r'''
asked = []

def answer(_parent, title, text, yes="Yes"):
    asked.append({"title": title, "text": text, "yes": yes})
    return True

dialogs.confirm = answer

@guarded
def report():
    c = window().controller
    say("RESTORED", {"asked": asked, "errors": errors, "variant": c.session.variant.id,
                     "moves": c.session.game.move_texts(),
                     "to_move": c.session.variant.side_key(c.session.rules.side_to_move(c.session.game.position)),
                     "view_ply": c.session.view_ply, "autosave": autosave_path()})
    QApplication.quit()

QTimer.singleShot(0, report)
sys.exit(cli.main([]))
'''


# ------------------------------------------------------------------------------------ helpers
def isolated_env(home: Path) -> dict[str, str]:
    """The app's environment with every per-user folder inside ``home`` (QStandardPaths reads
    XDG_DATA_HOME for AppDataLocation on Linux and HOME elsewhere; QSettings reads XDG_CONFIG_HOME)."""
    env = dict(os.environ)
    for name, sub in (("HOME", ""), ("XDG_DATA_HOME", "data"), ("XDG_CONFIG_HOME", "config"),
                      ("XDG_CACHE_HOME", "cache"), ("XDG_STATE_HOME", "state")):
        folder = home / sub
        folder.mkdir(parents=True, exist_ok=True)
        env[name] = str(folder)
    env["QT_QPA_PLATFORM"] = "offscreen"
    env["PYTHONUNBUFFERED"] = "1"
    env.pop("PYTEST_CURRENT_TEST", None)
    return env


class App:
    """One app process driven by a script; lines on stdout are read in a thread so a hung app
    turns into a test failure after LINE_TIMEOUT instead of a hung test run."""

    def __init__(self, driver: str, args: list[str], env: dict[str, str]) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", driver, *args], cwd=ROOT, env=env, text=True,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put("")

    def expect(self, tag: str) -> dict:
        """Wait for the line ``TAG {json}``; fail with the app's stderr on anything else."""
        while True:
            try:
                line = self.lines.get(timeout=LINE_TIMEOUT)
            except queue.Empty:
                self.kill()
                pytest.fail(f"no {tag} line within {LINE_TIMEOUT} s; stderr:\n{self.stderr()}")
            if line.startswith(tag + " "):
                return json.loads(line[len(tag) + 1:])
            if line.startswith("FAILED ") or line == "":
                self.kill()
                pytest.fail(f"the app failed before {tag}: {line[7:] and json.loads(line[7:])}\n{self.stderr()}")

    def kill(self) -> int:
        """SIGKILL (nothing runs in the app after this: no closeEvent, no atexit, no flush)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        return self.proc.wait(timeout=30)

    def stderr(self) -> str:
        assert self.proc.stderr is not None
        if self.proc.poll() is None:
            return "(still running)"
        return self.proc.stderr.read()

    def finish(self) -> int:
        return self.proc.wait(timeout=LINE_TIMEOUT)


def restart(env: dict[str, str]) -> dict:
    app = App(RESTART_DRIVER, [], env)
    report = app.expect("RESTORED")
    assert app.finish() == 0, app.stderr()
    return report


def expected_game(moves: list[str]) -> Game:
    game = Game(find_variant(VARIANT).make_rules())
    for text in moves:
        game.play_text(text)
    return game


def autosave_moves(path: str) -> list[str] | None:
    """The moves in the autosave file, None if it is missing or unreadable."""
    try:
        return load_game(path).move_texts()
    except Exception:  # noqa: BLE001 - the test only asks "is a complete game there?"
        return None


# ------------------------------------------------------------------------------------ kill tests
@needs_sigkill
@pytest.mark.parametrize("pause", [
    pytest.param("at_once", id="kill-right-after-the-last-move"),  # written with the move, not later
    pytest.param("idle", id="kill-while-the-player-thinks"),
])
def test_kill_9_mid_game_then_restart_offers_every_move(tmp_path, pause):
    env = isolated_env(tmp_path / "home")
    app = App(PLAY_DRIVER, [json.dumps(MOVES), VARIANT], env)
    played = app.expect("PLAYED")
    auto = played["autosave"]
    assert played["moves"] == MOVES and played["errors"] == []
    # QStandardPaths' app-data folder, inside the isolated home, named after the app
    assert Path(auto).is_relative_to(tmp_path) and Path(auto).name == "autosave.tafl.json"
    assert "Tafl Desktop" in Path(auto).parts[-2]
    if pause == "idle":
        # a player thinking about the next move: the app sits in its event loop
        deadline = time.monotonic() + 10
        while autosave_moves(auto) != MOVES and time.monotonic() < deadline:
            time.sleep(0.05)
    assert app.kill() == -signal.SIGKILL

    assert autosave_moves(auto) == MOVES, f"after kill -9 the autosave holds {autosave_moves(auto)}"
    report = restart(env)
    expected = expected_game(MOVES)
    assert len(report["asked"]) == 1, report
    question = report["asked"][0]
    moves = (len(MOVES) + 1) // 2  # plies, counted as moves
    assert question["yes"] == "Restore" and "Brandubh" in question["text"] and f"{moves} moves" in question["text"]
    assert report["errors"] == []
    assert report["autosave"] == auto
    assert report["variant"] == VARIANT
    assert report["moves"] == MOVES, "the restored game must hold every move, in order"
    assert report["to_move"] == expected.rules.variant.side_key(expected.rules.side_to_move(expected.position))
    assert report["to_move"] == "defenders" and report["view_ply"] == len(MOVES)
    print(f"kill -9 ({pause}): {len(MOVES)} moves played, {len(report['moves'])} restored")


@needs_sigkill
def test_kill_9_during_the_autosave_write_leaves_the_previous_complete_game(tmp_path):
    """Killed between writing the temp file and renaming it: the autosave is still the old,
    complete record, and the next start offers that game."""
    env = isolated_env(tmp_path / "home")
    first, last = MOVES[:4], MOVES[4:5]
    app = App(STALL_DRIVER, [json.dumps(first), json.dumps(last), VARIANT], env)
    auto = app.expect("SAVED")["autosave"]
    before = Path(auto).read_bytes()
    app.expect("WRITING")
    assert app.kill() == -signal.SIGKILL

    assert Path(auto).read_bytes() == before, "the autosave changed although its write never finished"
    assert load_game(auto).move_texts() == first
    # the half-done write is a separate temp file in the same folder, never the autosave itself
    temps = [p for p in Path(auto).parent.iterdir() if p.name != Path(auto).name]
    assert temps and all(p.name.startswith(".autosave.tafl.json.") for p in temps), temps
    report = restart(env)
    assert report["moves"] == first and len(report["asked"]) == 1 and report["errors"] == []


# ------------------------------------------------------------------------------ in-process tests
def test_autosave_write_failure_keeps_the_old_file(qtbot, make_window, tmp_path, monkeypatch):
    """The rename is the only step that touches the autosave: if it fails (or never happens), the
    old complete record is still there, byte for byte, and no temp file is left behind."""
    w = make_window(VARIANT)
    w.autosave.path = str(tmp_path / "auto" / "autosave.tafl.json")
    for text in MOVES[:2]:
        assert w.controller.play_move(w.session.rules.parse_move(w.session.game.position, text))
    w.autosave.now()
    before = Path(w.autosave.path).read_bytes()
    assert load_game(w.autosave.path).move_texts() == MOVES[:2]

    def no_rename(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", no_rename)
    assert w.controller.play_move(w.session.rules.parse_move(w.session.game.position, MOVES[2]))
    w.autosave.now()
    assert Path(w.autosave.path).read_bytes() == before
    assert [p.name for p in (tmp_path / "auto").iterdir()] == ["autosave.tafl.json"]
    assert "Autosave failed: the disk is full" in w.status_text()  # errno 28 said as a sentence
    monkeypatch.undo()
    w.autosave.now()
    assert load_game(w.autosave.path).move_texts() == MOVES[:3]


def test_start_up_offers_the_autosave_and_a_no_starts_fresh(qtbot, gui_settings, dialogs_recorder, tmp_path):
    """Answering Cancel starts a new game and keeps the autosave until the new game replaces it
    (a kill before the first new move offers the old game again)."""
    from tafl_desktop.gui.app import create_window

    auto = tmp_path / "autosave.tafl.json"
    save_game(expected_game(MOVES[:3]), auto)
    dialogs_recorder.confirm_answer = False
    w = create_window(None, None, str(auto))
    qtbot.addWidget(w)
    assert w.session.game.move_texts() == [] and load_game(auto).move_texts() == MOVES[:3]
    assert w.autosave.path == str(auto)
    qtbot.wait(600)
    assert load_game(auto).move_texts() == MOVES[:3]
    w.close()  # a clean close with an empty new game leaves no autosave to offer next time
    assert not auto.exists()


def test_start_up_reports_an_unreadable_autosave(qtbot, gui_settings, dialogs_recorder, tmp_path):
    from tafl_desktop.gui.app import create_window

    auto = tmp_path / "autosave.tafl.json"
    auto.write_text('{"format": "tafl-desktop-game", "version": 1, "moves": [')
    w = create_window(None, None, str(auto))
    qtbot.addWidget(w)
    assert dialogs_recorder.errors and dialogs_recorder.errors[0][0] == "Cannot restore the unfinished game"
    assert "autosave.tafl.json" in dialogs_recorder.errors[0][1] and "Traceback" not in dialogs_recorder.errors[0][1]
    assert w.session.game.move_texts() == []
    w.autosave.path = None
