"""Application start-up: the QApplication, the first game, and the main window.

Kept lean on purpose (start-up budget 1.5 s from launch to a drawn board): only the modules the
first window needs are imported here; dialogs load when first opened.
"""

from __future__ import annotations

import sys
import traceback
from pathlib import Path

from PySide6.QtCore import QStandardPaths, qInstallMessageHandler
from PySide6.QtGui import QFont, QFontDatabase
from PySide6.QtWidgets import QApplication

from tafl_desktop.core.paths import APPLICATION, ORGANISATION  # the names Qt gets (one copy, in the core)
from tafl_desktop.i18n import _

AUTOSAVE_NAME = "autosave.tafl.json"


#: Qt messages that say nothing to a player (the offscreen platform has no window manager).
QUIET_MESSAGES = ("propagateSizeHints",)


def _qt_message(mode, context, message: str) -> None:
    if any(q in message for q in QUIET_MESSAGES):
        return
    sys.stderr.write(message + "\n")


def make_app(argv: list[str] | None = None) -> QApplication:
    """The QApplication, created once, with our names (for QSettings), style and font."""
    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        return existing
    qInstallMessageHandler(_qt_message)
    app = QApplication(argv if argv is not None else sys.argv[:1])
    app.setOrganizationName(ORGANISATION)
    app.setApplicationName(APPLICATION)
    app.setStyle("Fusion")
    _load_fonts(app)
    from tafl_desktop.gui.language import startup_language

    startup_language(app)
    return app


def _load_fonts(app: QApplication) -> None:
    """Use the shipped DejaVu Sans, so screen, screenshots and paper all look the same."""
    try:
        from tafl_desktop.core.paths import resources_dir

        folder = resources_dir() / "fonts"
    except FileNotFoundError:
        return
    family = None
    for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"):
        path = folder / name
        if path.is_file():
            fid = QFontDatabase.addApplicationFont(str(path))
            families = QFontDatabase.applicationFontFamilies(fid) if fid >= 0 else []
            family = family or (families[0] if families else None)
    if family:
        font = QFont(family)
        font.setPointSizeF(app.font().pointSizeF() or 10.0)
        app.setFont(font)


def autosave_path() -> str:
    folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return str(Path(folder) / AUTOSAVE_NAME) if folder else ""


def remove_stale_temp_files(autosave: str, older_than: float = 60.0) -> int:
    """Delete half-written autosave temp files (``.autosave.tafl.json.*.tmp``, and those of the
    other windows' slots, ``.autosave-2.tafl.json.*.tmp``...) that a killed process left behind;
    the autosaves themselves are never touched.  Returns how many were removed."""
    import time

    if not autosave:
        return 0
    target = Path(autosave)
    removed = 0
    try:
        stem, _dot, suffix = target.name.partition(".")  # autosave / tafl.json
        for tmp in target.parent.glob(f".{stem}*.{suffix}.*.tmp"):
            try:
                if time.time() - tmp.stat().st_mtime > older_than:
                    tmp.unlink()
                    removed += 1
            except OSError:
                continue
    except OSError:
        return removed
    return removed


def _show_unexpected(exc_type, exc, tb) -> None:
    """Last line of defence: log the traceback, show the player one sentence."""
    traceback.print_exception(exc_type, exc, tb)
    if issubclass(exc_type, KeyboardInterrupt):
        QApplication.quit()
        return
    try:
        from tafl_desktop.gui import dialogs

        dialogs.show_error(None, _("Something went wrong"),
                           _("{problem}\n\nYour game is kept; you can save it and go on.").format(
                               problem=dialogs.describe_problem(exc)))
    except Exception:  # noqa: BLE001
        pass


def first_variant(name: str | None):
    """The variant of the first game: the one asked for, else the last one played, else Copenhagen.
    Returns (variant, problem) where problem is a sentence when ``name`` could not be used."""
    from PySide6.QtCore import QSettings

    from tafl_desktop.core.variants import VariantError, find_variant
    from tafl_desktop.gui.main_window import DEFAULT_VARIANT
    from tafl_desktop.gui.preferences import LAST_VARIANT_KEY

    problem = ""
    if name:
        try:
            return find_variant(name), ""
        except VariantError as exc:
            problem = str(exc)
        except Exception as exc:  # noqa: BLE001 - start-up must not crash on a strange variant file
            from tafl_desktop.core.quoting import shown
            from tafl_desktop.gui.dialogs import describe_problem

            problem = _("{where}: {problem}").format(where=shown(name), problem=describe_problem(exc))
    last = str(QSettings().value(LAST_VARIANT_KEY, DEFAULT_VARIANT) or DEFAULT_VARIANT)
    for candidate in (last, DEFAULT_VARIANT):
        try:
            return find_variant(candidate), problem
        except VariantError:
            continue
    from tafl_desktop.core.variants import presets

    return next(iter(presets().values())), problem


def create_window(file: str | None = None, variant: str | None = None, autosave: str | None = None):
    """The first window: ``file`` opened, else a new game of ``variant``, else (if the player says
    yes) an unfinished game some earlier window left, else a new game of the last variant played.
    ``autosave`` names the first autosave slot; its folder holds every window's slot
    (:mod:`tafl_desktop.core.autosave_slots`), and this window takes one no live window owns.
    Problems become dialogs."""
    from tafl_desktop.core import autosave_slots
    from tafl_desktop.core.game import Game
    from tafl_desktop.gui.engines import window_engines
    from tafl_desktop.gui.main_window import MainWindow

    remove_stale_temp_files(autosave or "")
    chosen, problem = first_variant(variant)
    folder = Path(autosave).parent if autosave else None
    # the games of windows that are gone (another window's game is never touched), locked while offered
    found = autosave_slots.orphans(folder) if folder is not None and not file and not variant else []
    # No autosave until a slot is chosen: an empty new game would remove the very file being
    # offered (the autosave timer runs inside the question's event loop).
    # the computer player and external engines (each one's process starts on first use)
    window = MainWindow(Game(chosen.make_rules()), autosave_path=None, engines=window_engines())
    window.show()
    from tafl_desktop.gui import dialogs

    if problem:
        dialogs.show_error(window, _("Cannot use that variant"), _("{problem}\n\nStarting {game} instead.").format(
            problem=problem, game=chosen.title))
    if file:
        window.files.open_game(file)
    adopted = window.files.offer_unfinished(found)[0] if found else None
    for orphan in found:
        if orphan is not adopted:
            orphan.lock.release()  # left for the next start (or removed, if the player declined it)
    if folder is not None:
        slot = (adopted.path, adopted.lock) if adopted is not None else autosave_slots.claim_free_slot(folder)
        if slot is not None:
            window.autosave.path, window.autosave.lock = str(slot[0]), slot[1]
        if window.session.game.plies:
            window.autosave.now()  # this run now owns the game: a crash from here on is a crash
    return window


def run_app(file: str | None = None, variant: str | None = None) -> int:
    """Open the window (``tafl-desktop [FILE] [--variant ID]``) and run until it is closed."""
    app = make_app()
    sys.excepthook = _show_unexpected
    window = create_window(file, variant, autosave_path())
    code = app.exec()
    del window
    return code
