"""Issue 20 in the window: external engines as players (``tafl-desktop engine`` over real pipes),
File > Import / Export, and game files dropped on the window.  Driven offscreen with pytest-qt."""

from __future__ import annotations

import json
import sys
import time

from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication
from timing import within

from tafl_desktop.core.game import Game, Side
from tafl_desktop.core.record import save_game
from tafl_desktop.core.variants import find_variant
from tafl_desktop.session.players import EXTERNAL, HUMAN, PlayerSpec
from tafl_desktop.session.source import GameSource, Origin

ENGINE = f"{sys.executable} -m tafl_desktop engine --level beginner"


def _start(window, players):
    c = window.controller
    window.load(GameSource.of_game(Game(c.session.rules), Origin.NEW, players))
    return c


def test_human_against_tafl_desktop_engine_as_an_external_engine(qtbot, make_window):
    w = make_window("brandubh")
    c = _start(w, (PlayerSpec(), PlayerSpec(EXTERNAL, ENGINE)))
    assert c.session.specs[1].kind == EXTERNAL and "Engine" in c.session.specs[1].label()
    assert c.play_move(c.session.rules.parse_move(c.session.game.position, "d6-b6"))
    assert c.session.thinking
    # the window keeps answering while the engine thinks: events are processed, clicks refused
    t0 = time.monotonic()
    QApplication.processEvents()
    within(time.monotonic() - t0, 0.5, "processing events")
    qtbot.waitUntil(lambda: len(c.session.game.plies) == 2, timeout=30000)
    assert not c.session.thinking and c.session.human_to_move()
    assert "The defenders played" in w.status_text()


def test_two_external_engines_play_a_whole_game_in_the_window(qtbot, make_window, dialogs_recorder):
    w = make_window("brandubh")
    c = _start(w, (PlayerSpec(EXTERNAL, ENGINE), PlayerSpec(EXTERNAL, f"{sys.executable} -m tafl_desktop engine "
                                                                       "--level random")))
    qtbot.waitUntil(lambda: c.session.game.outcome is not None, timeout=90000)
    assert c.session.game.outcome.reason != "forfeit"
    qtbot.waitUntil(lambda: bool(dialogs_recorder.game_over), timeout=5000)
    processes = [h.process.proc for h in c.session.engines.external._hosted.values()]
    assert len(processes) == 2  # one engine process per side
    w.close()
    for p in processes:
        assert p.wait(5) is not None


def test_an_engine_playing_illegally_ends_the_game_with_a_clear_message(qtbot, make_window, dialogs_recorder,
                                                                          tmp_path):
    script = tmp_path / "cheat.py"
    script.write_text("print('hello', flush=True)\nimport sys\nfor line in sys.stdin:\n"
                      "    if line.startswith('play'):\n        print('move a1-a3', flush=True)\n")
    w = make_window("brandubh")
    c = _start(w, (PlayerSpec(EXTERNAL, f"{sys.executable} {script}"), PlayerSpec()))
    qtbot.waitUntil(lambda: c.session.game.outcome is not None, timeout=15000)
    assert c.session.game.outcome.winner == Side.DEFENDERS and c.session.game.outcome.reason == "forfeit"
    assert "illegal" in w.status_text() and "cheat.py" in w.status_text()
    qtbot.waitUntil(lambda: bool(dialogs_recorder.game_over), timeout=5000)
    assert not c.session.thinking


def test_new_game_dialog_adds_and_remembers_an_engine(qtbot, gui_settings):
    from tafl_desktop.gui.external_engine import known_engines
    from tafl_desktop.gui.new_game_dialog import NewGameDialog

    dlg = NewGameDialog(find_variant("copenhagen"))
    qtbot.addWidget(dlg)
    chooser = dlg.choosers[1]
    chooser.kind.setCurrentIndex(chooser.kind.findData(EXTERNAL))
    assert chooser.engine.isVisibleTo(dlg) and not chooser.level.isVisibleTo(dlg)
    chooser.engine.add_command(ENGINE)
    assert known_engines() == [ENGINE]
    assert dlg.chosen_players() == (PlayerSpec(HUMAN), PlayerSpec(EXTERNAL, ENGINE))
    again = NewGameDialog(find_variant("copenhagen"))  # remembered for the next game
    qtbot.addWidget(again)
    assert again.choosers[0].engine.combo.findData(ENGINE) >= 0


def test_a_saved_game_never_starts_a_program(qtbot, make_window, tmp_path):
    path = tmp_path / "evil.tafl.json"
    save_game(Game(find_variant("brandubh").make_rules()), path, {"player1": "engine:touch /tmp/pwned"})
    w = make_window("brandubh")
    assert w.files.open_game(str(path))
    assert w.session.specs[0].is_human


def test_import_and_export_through_the_file_menu(qtbot, make_window, dialogs_recorder, tmp_path):
    w = make_window("copenhagen")
    c = w.controller
    for text in ("d1-d3", "f4-i4", "h1-h3"):
        assert c.play_move(c.session.rules.parse_move(c.session.game.position, text))
    out = tmp_path / "game.otg"
    dialogs_recorder.save_paths.append(str(out))
    w.act_export.trigger()
    text = out.read_text()
    assert "[rules:dim:11 " in text and "1. d1-d3 f4-i4" in text
    assert dialogs_recorder.infos and "repetition" in dialogs_recorder.infos[-1][1]  # what OpenTafl plays otherwise

    other = make_window("brandubh")
    dialogs_recorder.open_paths.append(str(out))
    other.act_import.trigger()
    assert other.session.game.move_texts() == ["d1-d3", "f4-i4", "h1-h3"]
    assert other.session.variant.id == "copenhagen" and "Imported game.otg" in other.status_text()

    # comments of an imported record are kept by Save and by a new export
    with_notes = tmp_path / "notes.otg"
    with_notes.write_text(text.replace("1. d1-d3 f4-i4 \n", "1. d1-d3 f4-i4 \n[good start|bold]\n"))
    dialogs_recorder.open_paths.append(str(with_notes))
    other.act_import.trigger()
    assert other.imported.comments == {1: "good start", 2: "bold"}
    saved = tmp_path / "notes.tafl.json"
    assert other.files.save_game_to(str(saved))
    data = json.loads(saved.read_text())
    assert data["comments"] == {"1": "good start", "2": "bold"} and data["tags"]["attackers"]
    again = tmp_path / "again.otg"
    dialogs_recorder.save_paths.append(str(again))
    other.act_export.trigger()
    assert "[good start|bold]" in again.read_text()

    bad = tmp_path / "bad.otg"
    bad.write_text("[rules:dim:11 zz:y start:/11/]\n1. a1-a2\n")
    before = other.session.game
    dialogs_recorder.open_paths.append(str(bad))
    other.act_import.trigger()
    assert other.session.game is before
    assert dialogs_recorder.errors and "zz" in dialogs_recorder.errors[-1][1]


def _drop(window, path) -> None:
    """Drag ``path`` over the window and let go, as a file manager does."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    enter = QDragEnterEvent(QPoint(100, 100), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                            Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, enter)
    assert enter.isAccepted()
    QApplication.sendEvent(window, QDropEvent(QPointF(100, 100), Qt.DropAction.CopyAction, mime,
                                              Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier))


def test_dropping_a_file_on_the_window_opens_it(qtbot, make_window, dialogs_recorder, tmp_path):
    from tafl_desktop.interop.formats import write_game
    from tafl_desktop.interop.transfer import GameTransfer

    game = Game(find_variant("tablut").make_rules())
    game.play(game.legal_moves()[0])
    path = tmp_path / "dropped.pgn"
    write_game(GameTransfer(game), path)
    w = make_window("brandubh")
    _drop(w, path)
    assert w.session.variant.id == "tablut" and len(w.session.game.plies) == 1
    assert "Imported dropped.pgn" in w.status_text()
    own = tmp_path / "own.tafl.json"
    save_game(game, own)
    _drop(w, own)
    assert w.files.file_path == str(own) and dialogs_recorder.errors == []
    broken = tmp_path / "broken.otg"
    broken.write_bytes(b"\x00\xff")
    _drop(w, broken)
    assert dialogs_recorder.errors and w.files.file_path == str(own)


def test_an_external_engine_is_told_the_game_clock(qtbot, make_window, tmp_path):
    from tafl_desktop.core.clock import TimeControl

    log = tmp_path / "clock.txt"
    script = tmp_path / "clockwatch.py"
    script.write_text("import sys\nprint('hello', flush=True)\nfor line in sys.stdin:\n"
                      f"    if line.startswith('clock'):\n        open({str(log)!r}, 'a').write(line)\n"
                      "    if line.startswith('play'):\n        print('move d2-c2', flush=True)\n")
    w = make_window("brandubh")
    w.start_game(find_variant("brandubh"), (PlayerSpec(EXTERNAL, f"{sys.executable} {script}"), PlayerSpec()),
                 time_control=TimeControl(main_ms=90_000, overtime_ms=20_000, overtimes=3))
    c = w.controller
    qtbot.waitUntil(lambda: len(c.session.game.plies) == 1, timeout=15000)
    words = log.read_text().split()
    # OTEP: clock <attackers ms> <defenders ms> <overtime s> <attackers' periods> <defenders' periods>
    assert words[0] == "clock" and 80_000 < int(words[1]) <= 90_000 and int(words[2]) == 90_000
    assert words[3:] == ["20", "3", "3"]


def _answer_engine_rules(button: str, seen: list, shot=None) -> None:
    """Click ``button`` ('fit', 'keep' or 'back') of the engine-rules dialog as soon as it is shown,
    keeping its text (and a screenshot) for the test."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QLabel

    from tafl_desktop.gui.engine_rules import EngineRulesDialog

    def look() -> None:
        for top in QApplication.topLevelWidgets():
            if isinstance(top, EngineRulesDialog) and top.isVisible():
                seen.append("\n".join(lbl.text() for lbl in top.findChildren(QLabel)))
                if shot is not None:
                    top.grab().save(str(shot))
                {"fit": top.fit_button, "keep": top.keep_button, "back": top.back_button}[button].click()
                return
        QTimer.singleShot(20, look)

    QTimer.singleShot(0, look)


def test_the_window_warns_before_a_game_against_an_engine_and_offers_rules_it_can_play(qtbot, gui_settings,
                                                                                       tmp_path):
    """Issue 'Rules and exchange fidelity III', item 6: Brandubh as shipped cannot be told to an OpenTafl
    engine (its rules string carries no 'four on the throne, two elsewhere' king, nor 'defenders lose' on
    repetition).  Before the game starts the New Game dialog says what the engine will play; 'Use rules the
    engine can play' sets those toggles in the dialog (shown as changed) and the next OK starts the game;
    'Back' changes nothing; 'Keep these rules' starts with them.  Humans alone are never asked."""
    from PySide6.QtWidgets import QDialog

    from tafl_desktop.core.rules_string import to_rules_string
    from tafl_desktop.gui.new_game_dialog import NewGameDialog

    def dialog_with_engine() -> NewGameDialog:
        dlg = NewGameDialog(find_variant("brandubh"))
        qtbot.addWidget(dlg)
        chooser = dlg.choosers[1]
        chooser.kind.setCurrentIndex(chooser.kind.findData(EXTERNAL))
        chooser.engine.add_command(ENGINE)
        return dlg

    seen: list[str] = []
    dlg = dialog_with_engine()
    _answer_engine_rules("back", seen)
    dlg.accept()
    assert dlg.result() != QDialog.DialogCode.Accepted and dlg.chosen_variant().options["king_capture"] == "double_weak"
    assert "tafl_desktop" in seen[0] and "King captured by" in seen[0] and "the engine plays" in seen[0]
    assert "Repetition" in seen[0]

    shot = tmp_path / "engine-rules.png"
    _answer_engine_rules("fit", seen, shot)
    dlg.accept()
    assert dlg.result() != QDialog.DialogCode.Accepted  # the player sees the new toggles first
    chosen = dlg.chosen_variant()
    assert chosen.options["king_capture"] == "weak_near_throne" and chosen.options["repetition"] == "mover_loses"
    assert {"king_capture", "repetition"} <= set(dlg.options.changed_keys())
    assert to_rules_string(chosen).warnings == [] and shot.stat().st_size > 0
    dlg.accept()  # nothing left to warn about: no dialog, the game starts
    assert dlg.result() == QDialog.DialogCode.Accepted

    keep = dialog_with_engine()
    _answer_engine_rules("keep", seen)
    keep.accept()
    assert keep.result() == QDialog.DialogCode.Accepted
    assert keep.chosen_variant().options["king_capture"] == "double_weak"

    humans = NewGameDialog(find_variant("brandubh"))
    qtbot.addWidget(humans)
    humans.accept()
    assert humans.result() == QDialog.DialogCode.Accepted


def test_an_engine_is_named_by_what_it_runs_not_its_class_path():
    """The side panel's label for OpenTafl started as its own engines/opentafl-debug.ini starts it (java
    with options and a class path, then the main class) is 'OpenTafl', not the class path."""
    from tafl_desktop.session.players import engine_name

    opentafl = ("java -server -XX:+UseCompressedOops -XX:+TieredCompilation -Xms256m -Xmx4096m "
                "-cp out/production/TaflEngine:lib/* com/manywords/softworks/tafl/OpenTafl --debug --engine")
    assert engine_name(opentafl) == "OpenTafl"
    assert PlayerSpec(EXTERNAL, opentafl).label() == "Engine (OpenTafl)"
    assert engine_name("java -jar /opt/opentafl/OpenTafl.jar --engine") == "OpenTafl"
    assert engine_name(ENGINE) == "tafl_desktop"
    assert engine_name("tafl-desktop engine --level hard") == "tafl-desktop"


def test_a_game_an_engine_cannot_be_told_is_not_started_with_it():
    """OpenTafl rules strings hold Tafl games only: with Fox and Geese the engine-rules dialog names the
    reason and offers only Back."""
    from tafl_desktop.gui.engine_rules import EngineRulesDialog, engine_rules

    found = engine_rules(find_variant("fox_geese_13"))
    assert not found.sendable and found.playable is None and "not a Tafl game" in found.lines[0]
    dlg = EngineRulesDialog("tafl_desktop", found)
    assert dlg.fit_button is None and not dlg.keep_button.isEnabled() and dlg.back_button.isEnabled()
    dlg.deleteLater()
