"""Issue 26, item 4: a large or hostile game file never freezes the window.

Reading an ``.otg`` costs the length of the text (each line used to be searched to the end of the
file for a ``[``: 2 MB took up to 21 s); an error quotes at most a few dozen characters of a bad
line (it quoted a 1.95 MB line); and File > Import reads in a thread, with a progress dialog and
Cancel, while the window goes on (its timers keep firing every few milliseconds).
"""

from __future__ import annotations

import gc
import time

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QProgressDialog, QPushButton
from timing import within

from tafl_desktop.core.game import Game
from tafl_desktop.core.variants import find_variant
from tafl_desktop.gui import background_read
from tafl_desktop.gui.background_read import is_reading
from tafl_desktop.interop.formats import render
from tafl_desktop.interop.otg import read_otg
from tafl_desktop.interop.transfer import GameTransfer, InteropError

HEADER = "[rules:dim:7 name:Brandub start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n\n"


def test_two_megabytes_of_lines_are_read_in_linear_time():
    # 128,000 well-formed variation lines (1.9 MB, with a tag in characters beyond U+FFFF, which
    # makes every search of the text slower), none of which can be placed: the reader must get
    # through all of them and refuse the first, in a time that grows with the text, not its square
    # (each line used to search the rest of the file: 6.7 s of processor time when this was written;
    # the linear reader takes 1.9-2.6 s on the 2-core machine of 2026-12-02; this thread's time only)
    text = "[event:Caf\u00e9 \U0001F600]\n" + HEADER + "1a.1.1a. d1-c1\n" * 128_000
    assert 1_900_000 < len(text) < 2_000_000
    t0 = time.thread_time()
    with pytest.raises(InteropError) as err:
        read_otg(text, "lines.otg")
    assert time.thread_time() - t0 < 4.0
    assert "no move 1a" in str(err.value)


def test_an_error_quotes_a_short_piece_of_a_huge_line():
    for text in (HEADER + "x" * 1_950_000 + "\n", HEADER + "1. " + "x" * 1_950_000 + "\n",
                 HEADER + "[" + "x" * 1_950_000):
        with pytest.raises(InteropError) as err:
            read_otg(text, "huge.otg")
        message = str(err.value)
        assert len(message) < 300 and "\n" not in message and "xxxx" in message


def long_game_otg(tmp_path, moves: int):
    """An .otg of ``moves`` legal Ard Ri moves (repetition is allowed there: two pieces step out
    and back again)."""
    rules = find_variant("ard_ri").make_rules()
    game = Game(rules)
    for _ in range(moves // 4):
        for text in ("c1-b1", "c3-b3", "b1-c1", "b3-c3"):
            game.play_text(text)
    path = tmp_path / "long.otg"
    path.write_text(render(GameTransfer(game), "otg")[0])
    return path, game


@pytest.fixture
def settled_heap():
    """The objects earlier tests left alive set aside from the collector while this test runs: in the
    suite's process a full collection, started by the reader's allocations, walks the heap of two
    thousand tests holding the interpreter's lock (0.6 s was seen), which the window's own heap
    never holds."""
    gc.collect()
    gc.freeze()
    yield
    gc.unfreeze()


def test_import_reads_in_the_background_with_progress_and_cancel(qtbot, make_window, dialogs_recorder, tmp_path,
                                                                  monkeypatch, settled_heap):
    # the dialog shows at once (it waits 0.4 s for a read that may be over sooner on a fast machine)
    monkeypatch.setattr(background_read, "SHOW_AFTER_MS", 0)
    path, game = long_game_otg(tmp_path, 19_996)  # near the most a game may hold: the read lasts
    w = make_window("brandubh")
    before = w.session.game
    seen = {"dialog": False, "ticks": [], "cancelled": False}

    def tick() -> None:
        if is_reading(w):  # the window's own work once the game is read (laying out 20,000 moves) is not the read's
            seen["ticks"].append(time.monotonic())
        dialog = next((d for d in w.findChildren(QProgressDialog) if d.isVisible()), None)
        if dialog is not None:
            seen["dialog"] = True
            if seen.get("cancel") and not seen["cancelled"]:
                seen["cancelled"] = True
                dialog.findChild(QPushButton).click()  # the player presses Cancel

    timer = QTimer()
    timer.timeout.connect(tick)
    timer.start(10)
    # first a cancelled import: the game on screen stays
    seen["cancel"] = True
    dialogs_recorder.open_paths.append(str(path))
    w.act_import.trigger()
    assert seen["cancelled"] and w.session.game is before
    assert "Import cancelled" in w.status_text() and dialogs_recorder.errors == []
    # then one left to finish: the window ticks on while the moves are read
    seen.update(cancel=False, ticks=[], dialog=False)
    dialogs_recorder.open_paths.append(str(path))
    w.act_import.trigger()
    timer.stop()
    assert w.session.game.move_texts() == game.move_texts() and dialogs_recorder.errors == [], w.status_text()
    assert seen["dialog"], "no progress dialog while a long file was read"
    ticks = seen["ticks"]
    gaps = [b - a for a, b in zip(ticks, ticks[1:], strict=False)]
    took = ticks[-1] - ticks[0]
    # the read lasted long enough to be seen (0.23 s for 12,000 moves on a fast machine), and the
    # window ticked all through it
    assert took > 0.1 and len(ticks) > took / 0.1, (len(ticks), took, max(gaps))
    within(max(gaps), 0.5, "the longest gap between the window's ticks")
    QApplication.processEvents()


def test_no_garbage_collection_runs_in_the_reading_thread(qtbot, make_window, tmp_path):
    """A collection in the reading thread could free a Qt object there while the window paints (a
    bus error in one suite run): the collector is paused for the read and resumes after it."""
    w = make_window("brandubh")
    path = tmp_path / "big.txt"
    path.write_text("x" * (background_read.SMALL_BYTES + 1))
    seen: list[bool] = []

    def work() -> str:
        seen.append(gc.isenabled())
        return "read"

    assert gc.isenabled()
    assert background_read.read_in_background(w, "reading", work, str(path)) == "read"
    assert seen == [False]
    assert gc.isenabled()
    with pytest.raises(ValueError):
        background_read.read_in_background(w, "reading", lambda: int("no"), str(path))
    assert gc.isenabled()
