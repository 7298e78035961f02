"""Issue 37, items 1-2: every window keeps its own autosave, and the next start offers what it can read.

Two real app processes (the front door ``cli.main``, as the ``tafl-desktop`` launcher) play in the
same isolated home at once: the second must not remove the first one's autosave; after both are
killed with ``-9`` the next start lists both games, newest first, with their moves and dates, and
restores the one picked.  Then corrupt, truncated, empty and foreign autosave files beside a good
one: the start offers the good game, names each unreadable file in one line, and deletes none.
"""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path

import pytest

from tafl_desktop.core.record import load_game, save_game
from tests.test_autosave_kill import _COMMON, MOVES, VARIANT, App, expected_game, isolated_env, needs_sigkill

#: Plays argv[1] in a new game of argv[2], says PLAYED with this window's own autosave file, idles.
WINDOW_DRIVER = _COMMON + r'''
MOVES = json.loads(sys.argv[1])

@guarded
def drive():
    w = window()
    for text in MOVES:
        click_move(w, text)
    say("PLAYED", {"moves": w.session.game.move_texts(), "autosave": w.autosave.path, "errors": errors})

QTimer.singleShot(0, drive)
sys.exit(cli.main(["gui", "--variant", sys.argv[2]]))
'''

#: Starts bare, records the list of unfinished games it is offered, picks line argv[1], reports.
PICK_DRIVER = _COMMON + r'''
asked = []

def choose(_parent, title, text, items, yes):
    asked.append({"title": title, "text": text, "items": items, "yes": yes})
    return int(sys.argv[1])

def confirm(_parent, title, text, yes="Yes"):
    asked.append({"title": title, "text": text, "yes": yes})
    return True

dialogs.choose = choose
dialogs.confirm = confirm

@guarded
def report():
    w = window()
    say("RESTORED", {"asked": asked, "errors": errors, "moves": w.session.game.move_texts(),
                     "autosave": w.autosave.path})
    QApplication.quit()

QTimer.singleShot(0, report)
sys.exit(cli.main([]))
'''


def wait_for_moves(path: str, moves: list[str], seconds: float = 10.0) -> list[str] | None:
    deadline = time.monotonic() + seconds
    held = None
    while time.monotonic() < deadline:
        try:
            held = load_game(path).move_texts()
        except Exception:  # noqa: BLE001 - not written yet
            held = None
        if held == moves:
            break
        time.sleep(0.05)
    return held


@needs_sigkill
def test_a_second_window_keeps_the_first_ones_autosave_and_both_are_offered_back(tmp_path):
    env = isolated_env(tmp_path / "home")
    first, second = MOVES[:3], ["d6-b6", "c4-c6"]
    a = App(WINDOW_DRIVER, [json.dumps(first), VARIANT], env)
    played_a = a.expect("PLAYED")
    assert played_a["moves"] == first and wait_for_moves(played_a["autosave"], first) == first
    time.sleep(1.1)  # the two files' dates differ by a second at least: newest first is testable
    b = App(WINDOW_DRIVER, [json.dumps(second), VARIANT], env)
    played_b = b.expect("PLAYED")
    assert played_b["autosave"] != played_a["autosave"], "two windows share one autosave"
    assert wait_for_moves(played_b["autosave"], second) == second
    # the first window's game is still there while both run, and after both are killed
    assert load_game(played_a["autosave"]).move_texts() == first
    assert a.kill() == -signal.SIGKILL and b.kill() == -signal.SIGKILL
    assert load_game(played_a["autosave"]).move_texts() == first

    restart = App(PICK_DRIVER, ["1"], env)  # the second line: the older game, window A's
    report = restart.expect("RESTORED")
    assert restart.finish() == 0, restart.stderr()
    assert report["errors"] == [] and len(report["asked"]) == 1, report
    items = report["asked"][0]["items"]
    assert len(items) == 2, items
    # newest first, each with its moves (plies counted as moves) and a date
    assert items[0].startswith("Brandubh: 1 move,") and items[1].startswith("Brandubh: 2 moves,"), items
    assert all(any(ch.isdigit() for ch in item.split("(")[-1]) for item in items), items
    assert report["moves"] == first
    # the restored game lives on in A's slot; B's game waits for the next start, untouched
    assert report["autosave"] == played_a["autosave"]
    assert load_game(played_b["autosave"]).move_texts() == second


@pytest.mark.parametrize("content", [
    pytest.param('{"format": "tafl-desktop-game", "version": 1, "moves": [', id="truncated"),
    pytest.param("", id="empty"),
    pytest.param("\x00\xff garbage \x07", id="corrupt"),
    pytest.param('{"hello": "world"}', id="foreign-json"),
    pytest.param("[variant]\nname = 'not a game'\n", id="foreign-toml"),
])
def test_unreadable_autosaves_are_named_and_kept_beside_a_readable_one(qtbot, gui_settings, dialogs_recorder,
                                                                        tmp_path, content):
    from tafl_desktop.gui.app import create_window

    auto = tmp_path / "autosave.tafl.json"
    bad = tmp_path / "autosave-2.tafl.json"
    bad.write_text(content, encoding="utf-8", errors="surrogateescape")
    before = bad.read_bytes()
    save_game(expected_game(MOVES[:3]), auto)
    saved_at = auto.stat().st_mtime
    asked: list = []
    dialogs_recorder_confirm = lambda _p, title, text, yes="Yes": asked.append(text) or True  # noqa: E731
    import tafl_desktop.gui.dialogs as dialogs

    original = dialogs.confirm
    dialogs.confirm = dialogs_recorder_confirm
    try:
        w = create_window(None, None, str(auto))
    finally:
        dialogs.confirm = original
    qtbot.addWidget(w)
    # the readable game is offered and restored
    assert len(asked) == 1 and "Brandubh" in asked[0]
    # with the date it was saved, as the list of several games gives it
    from PySide6.QtCore import QDateTime, QLocale

    when = QLocale().toString(QDateTime.fromSecsSinceEpoch(int(saved_at)), QLocale.FormatType.ShortFormat)
    assert asked[0].endswith(f"Saved {when}."), asked[0]
    assert w.session.game.move_texts() == MOVES[:3]
    # the unreadable one is named, in one line, without a traceback; it is not deleted or changed
    assert len(dialogs_recorder.errors) == 1, dialogs_recorder.errors
    title, text = dialogs_recorder.errors[0]
    assert title == "Cannot restore the unfinished game"
    lines = [line for line in text.splitlines() if "autosave-2.tafl.json" in line]
    assert len(lines) == 1 and lines[0].startswith("autosave-2.tafl.json: ") and "Traceback" not in text, text
    assert bad.read_bytes() == before
    assert w.autosave.path == str(auto)  # the window took the slot it restored, not the unreadable one
    w.close()
    assert bad.read_bytes() == before and Path(auto).is_file()


def test_a_declined_list_keeps_the_newest_slot_until_replaced_and_unreadable_files_stay(
        qtbot, gui_settings, dialogs_recorder, tmp_path, monkeypatch):
    import os

    from tafl_desktop.gui import dialogs
    from tafl_desktop.gui.app import create_window

    auto, two, three = (tmp_path / n for n in ("autosave.tafl.json", "autosave-2.tafl.json", "autosave-3.tafl.json"))
    save_game(expected_game(MOVES[:3]), auto)
    save_game(expected_game(MOVES[:5]), two)
    three.write_text("{", encoding="utf-8")
    os.utime(auto, (time.time() - 60, time.time() - 60))  # slot 2 is the newest game
    offered: list = []
    monkeypatch.setattr(dialogs, "choose", lambda _p, _t, _x, items, _y: offered.append(items))
    w = create_window(None, None, str(auto))
    qtbot.addWidget(w)
    assert len(offered) == 1 and [i.split(":")[0] for i in offered[0]] == ["Brandubh", "Brandubh"]
    assert "3 moves" in offered[0][0] and "2 moves" in offered[0][1]  # newest (5 plies) first
    assert w.session.game.move_texts() == []
    assert w.autosave.path == str(two) and load_game(two).move_texts() == MOVES[:5]  # kept until replaced
    assert not auto.exists()  # the other declined game is gone, as the question said
    assert three.read_text() == "{"  # the unreadable file is never removed


def test_stale_temp_files_of_every_slot_are_cleaned_up(tmp_path):
    """A window killed while writing slot 2 leaves '.autosave-2.tafl.json.XXXX.tmp': the next start
    removes it (old ones only), as it does slot 1's, and never an autosave."""
    import os

    from tafl_desktop.gui.app import remove_stale_temp_files

    auto, two = tmp_path / "autosave.tafl.json", tmp_path / "autosave-2.tafl.json"
    for f in (auto, two):
        f.write_text("{}", encoding="utf-8")
    stale = [tmp_path / ".autosave.tafl.json.a1.tmp", tmp_path / ".autosave-2.tafl.json.b2.tmp"]
    fresh, other = tmp_path / ".autosave-3.tafl.json.c3.tmp", tmp_path / ".notes.tafl.json.d4.tmp"
    past = time.time() - 3600
    for f in (*stale, fresh, other):
        f.write_text("{", encoding="utf-8")
    for f in (*stale, other):
        os.utime(f, (past, past))
    assert remove_stale_temp_files(str(auto)) == 2
    assert not any(f.exists() for f in stale) and fresh.exists() and other.exists()
    assert auto.read_text() == "{}" and two.read_text() == "{}"
