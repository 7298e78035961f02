"""``tafl-desktop --self-test``: prove that an installed or bundled copy really works.

Why this exists: a frozen bundle can start and print ``--version`` while missing the very things a
player needs (a Qt platform plugin, the variant files, the fonts, the ability to start the AI's
worker process).  The self-test walks the same paths the app does and prints one line per check:

* ``ok   <check>: <detail>`` for a check that passed;
* ``FAIL <check>: <reason>`` for the first check that failed, after which the test stops (later
  checks depend on earlier ones) and ``tafl-desktop: self-test failed: ...`` goes to stderr.

The exit code is 0 only if every check passed, 1 otherwise; no traceback ever reaches the user.

Platform: the window is always opened on Qt's ``offscreen`` platform unless the caller set
``QT_QPA_PLATFORM`` explicitly, so the self-test never flashes a window on the player's desktop,
works over ssh and in CI, and gives the same answer everywhere.  The check ``qt plugins`` still
verifies that the plugin a real desktop needs (xcb or wayland, windows, cocoa) is present.

Nothing of the player's is touched: QSettings and QStandardPaths point into a temporary folder,
the window is created with ``persist=False`` and no autosave, and the PDF is written to the same
temporary folder, which is deleted at the end.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

#: A small board: quick to draw, quick to search, and its board sheet fits on one A4 page.
VARIANT = "brandubh"
#: The AI level asked for a reply: the weakest real level answers within a fraction of a second.
AI_LEVEL = "beginner"
#: Seconds to wait for the worker process (start-up imports included) before calling it hung.
AI_TIMEOUT = 60.0

#: Platform plugins (name as in QT_QPA_PLATFORM) that open a window on a real desktop, by OS.
DESKTOP_PLATFORMS = {"linux": ("xcb", "wayland"), "win32": ("windows",), "darwin": ("cocoa",)}


class CheckFailed(Exception):
    """A check's own verdict: the message is the one-line reason shown to the user."""


@dataclass
class Context:
    """State handed from check to check (the window, the game...) and cleaned up at the end."""

    tmp: Path
    variant: Any = None
    app: Any = None
    window: Any = None
    worker: Any = None
    cleanups: list[Callable[[], object]] = field(default_factory=list)

    def close(self) -> None:
        for fn in reversed(self.cleanups):
            try:
                fn()
            except Exception:  # noqa: BLE001 - cleaning up must not turn a pass into a failure
                pass
        self.cleanups.clear()


Check = tuple[str, Callable[[Context], str]]


# ------------------------------------------------------------------------------------ checks
def check_program(ctx: Context) -> str:
    from tafl_desktop import __version__

    how = "frozen bundle" if getattr(sys, "frozen", False) else "Python package"
    return f"tafl-desktop {__version__} ({how}), Python {sys.version.split()[0]}, {sys.platform}"


def check_resources(ctx: Context) -> str:
    from tafl_desktop.core.paths import resources_dir

    folder = resources_dir()
    variants = sorted((folder / "variants").glob("*.toml"))
    if not variants:
        raise CheckFailed(f"no variant files in {folder / 'variants'}")
    fonts = [n for n in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf") if not (folder / "fonts" / n).is_file()]
    if fonts:
        raise CheckFailed(f"missing font {', '.join(fonts)} in {folder / 'fonts'}")
    return f"{len(variants)} variant files and the fonts in {folder}"


def check_variant(ctx: Context) -> str:
    from tafl_desktop.core.variants import find_variant

    ctx.variant = find_variant(VARIANT)
    rules = ctx.variant.make_rules()
    moves = rules.legal_moves(rules.initial_position())
    return f"{ctx.variant.name} loaded, {len(moves)} legal first moves"


#: Written into a bundle built with the native engine (installer/tafl_desktop.spec): there its
#: self-test must find the engine loaded, not quietly fall back to the Python engine.
NATIVE_MARKER = "tafl_native.expected"


def native_expected() -> bool:
    """Was this copy built with the native engine (a frozen bundle with the marker)?"""
    base = getattr(sys, "_MEIPASS", None)
    return bool(getattr(sys, "frozen", False) and base and (Path(base) / NATIVE_MARKER).is_file())


def check_native(ctx: Context) -> str:
    """The native engine loads and counts the variant's move tree exactly as the core does."""
    from tafl_desktop import native
    from tafl_desktop.core.playout import perft

    if not native.available():
        if native_expected():
            raise CheckFailed(f"this bundle was built with the native engine, but {native.unavailable_reason()}")
        return f"not built here, the Python engine plays ({native.unavailable_reason()})"
    module = native.native_module()
    rules = native.native_rules(ctx.variant)
    core = ctx.variant.make_rules()
    start = core.initial_position()
    got, want = rules.perft(start, 3), perft(core, start, 3)
    if got != want:
        raise CheckFailed(f"native perft 3 of {ctx.variant.name} is {got}, the core counts {want}")
    assert module is not None  # make_rules(..., "native") above raised otherwise
    library = Path(str(getattr(module, "tafl_native", module).__file__))  # the compiled extension inside the package
    return (f"tafl_native {module.__version__} loaded from {library.name}; "
            f"{ctx.variant.name} perft 3 = {got}, as the core counts")


def _platform_name() -> str:
    return (os.environ.get("QT_QPA_PLATFORM") or "").split(":")[0].strip() or "offscreen"


def _plugin_names(folders: Iterable[str]) -> set[str]:
    """Names of the platform plugins found in Qt's plugin folders (``libqxcb.so`` -> ``xcb``)."""
    names = set()
    for folder in folders:
        platforms = Path(folder) / "platforms"
        if not platforms.is_dir():
            continue
        for f in platforms.iterdir():
            m = re.match(r"^(?:lib)?q(.+?)\.(?:so|dll|dylib)$", f.name)
            if m:
                names.add(m.group(1))
    return names


def check_qt_plugins(ctx: Context) -> str:
    """Look before leaping: a missing platform plugin makes QApplication abort the process."""
    from PySide6.QtCore import QCoreApplication, QLibraryInfo

    folders = list(dict.fromkeys([*QCoreApplication.libraryPaths(),
                                  QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath)]))
    found = _plugin_names(folders)
    wanted = _platform_name()
    if wanted not in found:
        raise CheckFailed(f"Qt platform plugin '{wanted}' not found (have: {', '.join(sorted(found)) or 'none'}; "
                          f"looked in {', '.join(folders) or 'no folder'})")
    desktop = DESKTOP_PLATFORMS.get("linux" if sys.platform.startswith("linux") else sys.platform, ())
    if desktop and not found & set(desktop):
        raise CheckFailed(f"no desktop platform plugin ({' or '.join(desktop)}): the window could not open on a "
                          f"real screen (have: {', '.join(sorted(found))})")
    return f"platform '{wanted}'; available: {', '.join(sorted(found))}"


def check_settings(ctx: Context) -> str:
    """Point every per-user location into the temporary folder before Qt reads any of them."""
    from PySide6.QtCore import QSettings, QStandardPaths

    folder = ctx.tmp / "settings"
    folder.mkdir(parents=True, exist_ok=True)
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)  # on Windows the native format is the registry
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(folder))
    QStandardPaths.setTestModeEnabled(True)
    return f"settings kept in {folder} (the player's are untouched)"


def check_window(ctx: Context) -> str:
    from PySide6.QtWidgets import QApplication

    from tafl_desktop.core.game import Game
    from tafl_desktop.gui.app import make_app
    from tafl_desktop.gui.main_window import MainWindow
    from tafl_desktop.gui.preferences import Preferences

    ctx.app = make_app()
    window = MainWindow(Game(ctx.variant.make_rules()), prefs=Preferences(animation=False), persist=False,
                        autosave_path=None)
    ctx.window = window
    ctx.cleanups.append(window.deleteLater)
    ctx.cleanups.append(window.close)
    window.resize(900, 640)
    window.show()
    for _ in range(5):
        QApplication.processEvents()
    image = window.grab().toImage()
    if image.isNull() or image.width() < 100 or image.height() < 100:
        raise CheckFailed(f"the window drew nothing (grabbed {image.width()}x{image.height()} pixels)")
    colours = {image.pixel(x, y) for x in range(0, image.width(), 17) for y in range(0, image.height(), 17)}
    if len(colours) < 8:
        raise CheckFailed(f"the window looks blank ({len(colours)} colours)")
    return (f"main window shown on '{QApplication.platformName()}', {image.width()}x{image.height()} px, "
            f"{len(colours)} colours sampled")


def check_move(ctx: Context) -> str:
    from PySide6.QtWidgets import QApplication

    controller, session = ctx.window.controller, ctx.window.session
    moves = controller.legal_moves()
    if not moves:
        raise CheckFailed("the start position has no legal move")
    move = moves[0]
    text = session.rules.move_text(move)
    if not controller.play_move(move):
        raise CheckFailed(f"the controller refused the legal move {text}")
    QApplication.processEvents()
    plies = len(session.game.plies)
    if plies != 1:
        raise CheckFailed(f"after playing {text} the game has {plies} moves, not 1")
    if not session.can_undo:
        raise CheckFailed(f"{text} was played but cannot be undone")
    from tafl_desktop.session.readout import status_text

    return f"played {text} through the window's controller; {status_text(session)}"


def check_ai(ctx: Context) -> str:
    """The AI searches in a spawned process: in a frozen app that needs freeze_support()."""
    from tafl_desktop.ai.worker import AIWorker

    game = ctx.window.session.game
    rules = game.rules
    t0 = time.monotonic()
    worker = AIWorker()
    ctx.worker = worker
    ctx.cleanups.append(worker.shutdown)
    worker.start(ctx.variant.to_data(), rules.position_text(game.position), rules.side_to_move(game.position),
                 [rules.position_key(game.position_at(n)) for n in range(len(game.plies) + 1)], level=AI_LEVEL)
    result = worker.wait(timeout=AI_TIMEOUT)
    if result is None:
        raise CheckFailed(f"the worker process gave no answer in {AI_TIMEOUT:.0f} s")
    if result.error:
        raise CheckFailed(f"the worker process failed: {result.error}")
    if result.move is None or tuple(result.move) not in {tuple(m) for m in game.legal_moves()}:
        raise CheckFailed(f"the worker process proposed an illegal move ({result.move_text or result.move})")
    return (f"worker process {worker.pid} replied {rules.move_text(tuple(result.move))} "
            f"in {time.monotonic() - t0:.1f} s")


def check_pdf(ctx: Context) -> str:
    from tafl_desktop.printing import build_set

    out = ctx.tmp / "selftest-board.pdf"
    build_set(ctx.variant, out=out, paper="a4", parts=["board"])
    data = out.read_bytes()
    if not data.startswith(b"%PDF"):
        raise CheckFailed(f"{out.name} does not start with %PDF")
    pages = len(re.findall(rb"/Type\s*/Page(?![a-z])", data))
    if pages != 1:
        raise CheckFailed(f"{out.name} has {pages} pages, not 1")
    if b"DejaVu" not in data:
        raise CheckFailed(f"{out.name} does not embed the shipped DejaVu font")
    return f"one A4 page, {len(data) // 1024} KiB, DejaVu embedded"


CHECKS: tuple[Check, ...] = (
    ("program", check_program),
    ("resources", check_resources),
    ("variant", check_variant),
    ("native engine", check_native),
    ("qt plugins", check_qt_plugins),
    ("settings", check_settings),
    ("window", check_window),
    ("move", check_move),
    ("ai worker", check_ai),
    ("pdf", check_pdf),
)


# ------------------------------------------------------------------------------------ runner
def _reason(exc: BaseException) -> str:
    """One line: the check's own message, else the exception type and its first line."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    if isinstance(exc, CheckFailed):
        return text or "failed"
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def run_checks(checks: Iterable[Check], ctx: Context, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run ``checks`` in order, one line each; stop at the first failure.  0 if all passed, else 1."""
    out = out if out is not None else sys.stdout
    err = err if err is not None else sys.stderr
    try:
        for name, fn in checks:
            t0 = time.monotonic()
            try:
                detail = fn(ctx)
            except Exception as exc:  # noqa: BLE001 - every failure becomes one line, never a traceback
                reason = _reason(exc)
                print(f"FAIL {name}: {reason}", file=out, flush=True)
                print(f"tafl-desktop: self-test failed: {name}: {reason}", file=err, flush=True)
                return 1
            print(f"ok   {name}: {detail} [{(time.monotonic() - t0) * 1000:.0f} ms]", file=out, flush=True)
    finally:
        ctx.close()
    print("self-test passed", file=out, flush=True)
    return 0


def run_self_test() -> int:
    """The ``--self-test`` entry point (see the module docstring)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    try:
        with tempfile.TemporaryDirectory(prefix="tafl-selftest-") as tmp:
            return run_checks(CHECKS, Context(Path(tmp)))
    except Exception as exc:  # noqa: BLE001 - e.g. no temporary folder can be made
        print(f"tafl-desktop: self-test failed: {_reason(exc)}", file=sys.stderr)
        return 1
