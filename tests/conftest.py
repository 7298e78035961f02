"""Shared test set-up.

Qt runs headless (``QT_QPA_PLATFORM=offscreen``) unless the caller chose a platform.  The GUI
fixtures below keep QSettings in a temporary folder under a test organisation, and replace every
modal dialog with a recorder, so GUI tests never block and never touch the user's settings.
PySide6 is imported only inside the fixtures, so tests that do not use them never load Qt.
"""

from __future__ import annotations

import os
import tempfile

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# The suite asserts English texts: a developer's German locale (or TAFL_LANG) must not change them.
# Tests of other languages ask for them by name (tests/test_i18n*.py).
os.environ["TAFL_LANG"] = "en"
# the game database of this test run, never the player's (finished games go in as they end)
os.environ.setdefault("TAFL_DESKTOP_GAMEDB", os.path.join(tempfile.mkdtemp(prefix="tafl-test-gamedb-"),
                                                          "games.sqlite3"))
# Reproducible PDFs (the reproducible-builds convention): dated 1 January 2000 with a content-derived
# ID, so tests may compare bytes; a player's PDF carries the real date (tests/test_print_date.py).
os.environ["SOURCE_DATE_EPOCH"] = "946684800"


# ---------------------------------------------------------------------------------------- GUI
#: The least time a test waits for the window (ms).  A wait that is met returns at once, so only a
#: test that is failing anyway waits this long; a short bound would instead fail a sound test on a
#: machine ten times as busy as the one it was written on (issue 37: bounds that hold under load).
LEAST_QT_WAIT_MS = 60_000


def _patient(method):
    import functools

    @functools.wraps(method)
    def wait(self, *args, timeout=5000, **kwargs):
        longer = timeout if timeout is None or timeout <= 0 else max(timeout, LEAST_QT_WAIT_MS)  # 0: no limit
        return method(self, *args, timeout=longer, **kwargs)

    return wait


def pytest_configure(config):
    """pytest-qt's waits (default 5 s) become at least :data:`LEAST_QT_WAIT_MS`."""
    try:
        from pytestqt.qtbot import QtBot
    except ImportError:  # pragma: no cover - pytest-qt is in the test extra
        return
    for name in ("waitUntil", "waitSignal", "waitSignals", "waitExposed", "waitActive", "waitCallback"):
        method = getattr(QtBot, name, None)
        if method is not None and not getattr(method, "_patient", False):
            patched = _patient(method)
            patched._patient = True  # type: ignore[attr-defined]
            setattr(QtBot, name, patched)
            snake = "".join("_" + c.lower() if c.isupper() else c for c in name)
            if getattr(QtBot, snake, None) is not None:
                setattr(QtBot, snake, patched)


@pytest.fixture
def gui_settings(qapp, tmp_path):
    """QSettings for this test only (temporary folder, test organisation)."""
    from PySide6.QtCore import QCoreApplication, QSettings

    folder = tmp_path / "settings"
    folder.mkdir()
    old = (QCoreApplication.organizationName(), QCoreApplication.applicationName())
    QCoreApplication.setOrganizationName("TaflDesktopTests")
    QCoreApplication.setApplicationName(f"tafl-desktop-test-{os.getpid()}")
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(folder))
    QSettings().clear()
    yield folder
    QSettings().clear()
    QCoreApplication.setOrganizationName(old[0])
    QCoreApplication.setApplicationName(old[1])


class DialogRecorder:
    """Stands in for every modal dialog: records what would have been shown and gives canned answers."""

    def __init__(self) -> None:
        self.errors: list[tuple[str, str]] = []
        self.infos: list[tuple[str, str]] = []
        self.game_over: list[tuple[str, str]] = []
        self.open_paths: list[str] = []
        self.save_paths: list[str] = []
        self.confirm_answer = True
        self.new_game_after_end = False

    def error(self, _parent, title: str, text: str) -> None:
        self.errors.append((title, text))

    def info(self, _parent, title: str, text: str) -> None:
        self.infos.append((title, text))

    def end(self, _parent, headline: str, detail: str, _pixmap=None) -> bool:
        self.game_over.append((headline, detail))
        return "new" if self.new_game_after_end else ""

    def ask_open(self, *_args) -> str:
        return self.open_paths.pop(0) if self.open_paths else ""

    def ask_open_many(self, *_args) -> list[str]:
        """Every path queued in :attr:`open_paths`, picked at once."""
        paths, self.open_paths = self.open_paths, []
        return paths

    def ask_save(self, *_args) -> str:
        return self.save_paths.pop(0) if self.save_paths else ""


@pytest.fixture
def dialogs_recorder(monkeypatch):
    """Replace the window's dialogs (and QMessageBox's static helpers) with a recorder."""
    from PySide6.QtWidgets import QMessageBox

    from tafl_desktop.gui import dialogs

    rec = DialogRecorder()
    monkeypatch.setattr(dialogs, "show_error", rec.error)
    monkeypatch.setattr(dialogs, "show_info", rec.info)
    monkeypatch.setattr(dialogs, "show_html", rec.info)
    monkeypatch.setattr(dialogs, "show_game_over", rec.end)
    monkeypatch.setattr(dialogs, "confirm", lambda *_a, **_k: rec.confirm_answer)
    monkeypatch.setattr(dialogs, "ask_open_path", rec.ask_open)
    monkeypatch.setattr(dialogs, "ask_open_paths", rec.ask_open_many)
    monkeypatch.setattr(dialogs, "ask_save_path", rec.ask_save)
    for name in ("critical", "warning", "information"):
        monkeypatch.setattr(QMessageBox, name, staticmethod(lambda _p, title, text, *_a, **_k: rec.errors.append(
            (title, text)) or QMessageBox.StandardButton.Ok))
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *_a, **_k: QMessageBox.StandardButton.Yes))
    return rec


@pytest.fixture
def make_window(qtbot, gui_settings, dialogs_recorder):
    """Factory: ``make_window(variant_id, position=None, to_move=None, **options)`` -> shown MainWindow.
    ``engines``: the window's back-ends (an ``EngineHub``; default: external engines, no computer)."""
    from tafl_desktop.core.game import Game, Side
    from tafl_desktop.core.variants import find_variant
    from tafl_desktop.gui.main_window import MainWindow
    from tafl_desktop.gui.preferences import Preferences

    def make(variant_id: str = "brandubh", position: str | None = None, to_move: Side | None = None,
             size: tuple[int, int] = (900, 640), engines=None, **options):
        variant = find_variant(variant_id, options or None)
        rules = variant.make_rules()
        start = rules.parse_position(position, to_move if to_move is not None else Side.ATTACKERS) \
            if position else None
        window = MainWindow(Game(rules, start), prefs=Preferences(animation=False), engines=engines)
        qtbot.addWidget(window)
        window.resize(*size)
        window.show()
        qtbot.waitExposed(window)
        window.activateWindow()
        qtbot.waitUntil(window.isActiveWindow)  # shortcuts need the active window
        return window

    return make


# ------------------------------------------------------------------ the Tafl rules on both engines
#: Test modules whose Tafl rule tests run once per engine: the core's Python rules and the
#: native rules behind the core's own interface (``tafl_desktop.native.rules.NativeTaflRules``),
#: so every rule pinned from a source is checked against both (issue 31).
TAFL_RULE_MODULES = frozenset({
    "test_tafl_exit_forts", "test_tafl_rules_fidelity", "test_tafl_toggles_capture", "test_tafl_toggles_endings",
    "test_tafl_toggles_king", "test_tafl_toggles_movement", "test_tafl_toggles_throne_corners_camps",
    "test_engine_invariants", "test_real_games", "test_peer_differential", "test_illegal_move_reasons",
    "test_cli_contract", "test_interop_rules_string", "test_study_lessons", "test_tafl_rules_fidelity_iv",
})


def pytest_generate_tests(metafunc):
    """Run the tests of :data:`TAFL_RULE_MODULES` once per engine (``[python]`` / ``[native]``)."""
    if metafunc.module.__name__.rsplit(".", 1)[-1] in TAFL_RULE_MODULES:
        if "tafl_engine" not in metafunc.fixturenames:
            metafunc.fixturenames.append("tafl_engine")
        metafunc.parametrize("tafl_engine", ["python", "native"], indirect=True)


@pytest.fixture(autouse=True)
def _tafl_rules_engine(request):
    """Set up :func:`tafl_engine` for every test of :data:`TAFL_RULE_MODULES`, used or not."""
    if request.module.__name__.rsplit(".", 1)[-1] in TAFL_RULE_MODULES:
        request.getfixturevalue("tafl_engine")


@pytest.fixture
def tafl_engine(request, monkeypatch):
    """The engine behind every Tafl rules object this test makes ("python" unless parametrised).
    For "native", a variant's ``make_rules()`` gives the native rules (skipped when not built)."""
    engine = getattr(request, "param", "python")
    if engine == "native":
        from tafl_desktop import native

        if not native.available():
            pytest.skip(f"native engine: {native.unavailable_reason()}")
        from tafl_desktop.core import variants
        from tafl_desktop.native.bridge import native_fits
        from tafl_desktop.native.rules import NativeTaflRules

        original = variants.Family.make_rules

        def make_rules(family, variant):
            # a variant with a rule the native engine leaves to the core is played by the core, as in the app
            fits = family.name == "tafl" and native_fits(variant)
            return NativeTaflRules(variant) if fits else original(family, variant)

        monkeypatch.setattr(variants.Family, "make_rules", make_rules)
    return engine
