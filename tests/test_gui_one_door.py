"""One door to the game in the window (issue 41, item 3), read from the source and checked live.

* Views read the game from the session (``window.session``) and hear its events through one Qt
  adapter (``window.events``, :mod:`tafl_desktop.gui.session_signals`); the controller holds only
  the board's gestures.  No GUI module reaches game state through the controller: every
  ``.controller.<name>`` (and every local name bound to a controller) uses the controller's own
  API, which shares no name with the session's.
* The controller has no signal that relays a session event (none fires when the session's events
  do) and no property or method that only hands back a session value.
* ``MainWindow`` has no file or autosave method: those live in one capability
  (:mod:`tafl_desktop.gui.files`) and a headless service (:mod:`tafl_desktop.session.autosave`).
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "tafl_desktop"
GUI = PACKAGE / "gui"


def _class(path: Path, name: str) -> ast.ClassDef:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return next(n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == name)


def _public_names(cls: ast.ClassDef) -> set[str]:
    """The public names a class defines: methods, properties, class attributes and the attributes
    its methods set on ``self``."""
    names: set[str] = set()
    for node in cls.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    for node in ast.walk(cls):
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                    names.add(t.attr)
    return {n for n in names if not n.startswith("_")}


@functools.cache
def session_names() -> frozenset[str]:
    return frozenset(_public_names(_class(PACKAGE / "session" / "session.py", "GameSession")))


@functools.cache
def controller_names() -> frozenset[str]:
    return frozenset(_public_names(_class(GUI / "controller.py", "GameController")))


CONTROLLER_ATTRS = ("controller", "_controller")


def _is_controller(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr in CONTROLLER_ATTRS


def controller_uses(path: Path) -> list[tuple[int, str]]:
    """(line, name) of every attribute read through a controller in ``path``: ``x.controller.name``
    and ``c.name`` where ``c`` was bound to a controller in the same function (``c =
    self.controller``, or a parameter named ``controller``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _is_controller(node.value):
            out.append((node.lineno, node.attr))
    for fn in (n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))):
        aliases = {a.arg for a in fn.args.args + fn.args.kwonlyargs if a.arg in CONTROLLER_ATTRS}
        for node in ast.walk(fn):
            if isinstance(node, ast.Assign) and _is_controller(node.value):
                aliases.update(t.id for t in node.targets if isinstance(t, ast.Name))
        for node in ast.walk(fn):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases:
                out.append((node.lineno, node.attr))
    return sorted(set(out))


def session_uses(path: Path) -> bool:
    """Does ``path`` read the game through a session (``x.session.name``)?"""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any(isinstance(n, ast.Attribute) and isinstance(n.value, ast.Attribute) and n.value.attr == "session"
               for n in ast.walk(tree))


GUI_MODULES = sorted(p for p in GUI.glob("*.py") if p.name != "controller.py")


def test_the_controllers_api_shares_no_name_with_the_sessions() -> None:
    """A name of both would be a pass-through (or a relayed event) in disguise."""
    shared = controller_names() & session_names()
    assert not shared, f"the controller repeats the session's {sorted(shared)}"
    assert {"press", "drop", "cancel", "picked", "show_hint", "board_state"} <= controller_names()


@pytest.mark.parametrize("path", GUI_MODULES, ids=lambda p: p.name)
def test_no_gui_module_reaches_game_state_through_the_controller(path: Path) -> None:
    """Through a controller a module may use only the board's gestures (the controller's own API,
    less its ``session`` and any name the session has too); game state comes from ``window.session``."""
    allowed = controller_names() - session_names() - {"session"}
    wrong = [(line, name) for line, name in controller_uses(path) if name not in allowed]
    assert not wrong, f"{path.name} reads game state through the controller: {wrong}"
    if session_uses(path):  # the wording: never both doors for game state
        assert not [n for _line, n in controller_uses(path) if n in session_names() or n == "session"]


def test_the_scan_sees_a_read_through_the_controller(tmp_path: Path) -> None:
    """The scan itself: a direct read, an aliased one and a gesture are told apart."""
    probe = tmp_path / "probe.py"
    probe.write_text("def f(self):\n    c = self.controller\n    c.press(3)\n"
                     "    return c.game, self.window.controller.tree\n"
                     "def g(controller):\n    return controller.variant\n", encoding="utf-8")
    names = [n for _line, n in controller_uses(probe)]
    assert sorted(names) == ["game", "press", "tree", "variant"]


def _session_and_events():
    """A session of Brandubh and, by name, a value for each of its events (found on the object:
    whatever has ``connect`` and ``emit``)."""
    from tafl_desktop.core.game import Outcome
    from tafl_desktop.core.variants import find_variant
    from tafl_desktop.session.session import GameSession
    from tafl_desktop.session.source import GameSource

    session = GameSession(GameSource.new(find_variant("brandubh")))
    values = {"changed": (), "message": ("a sentence",), "moved": ((1, 2),), "played": (None,),
              "loaded": (GameSource.new(find_variant("brandubh")),), "finished": (Outcome(None, "draw_agreed"),),
              "computer_to_move": (1,), "thinking_changed": (True,), "computer_failed": ("gone",),
              "computer_progress": ({"depth": 1},)}
    events = {n for n, v in vars(session).items() if hasattr(v, "connect") and hasattr(v, "emit")}
    assert events == set(values), "an event of the session has no value here"
    return session, values


def test_the_controller_relays_no_session_event(qtbot) -> None:
    """Every event of the session, emitted by hand: no signal of the controller fires."""
    from PySide6.QtCore import Signal

    from tafl_desktop.gui.controller import GameController

    session, values = _session_and_events()
    controller = GameController(session)
    signals = [name for name in dir(GameController) if isinstance(getattr(GameController, name, None), Signal)]
    assert signals, "the controller's own signals were not found"
    heard: list[str] = []
    for name in signals:
        getattr(controller, name).connect(lambda *_a, name=name: heard.append(name))
    for name, value in values.items():
        getattr(session, name).emit(*value)
    assert heard == []


def test_the_adapter_carries_every_session_event_once(qtbot) -> None:
    """The one door for views: each session event comes out of its Qt signal once, with its value."""
    from tafl_desktop.gui.session_signals import EVENTS, SessionSignals

    session, values = _session_and_events()
    adapter = SessionSignals(session)
    assert set(EVENTS) == set(values)
    heard: list[tuple[str, tuple]] = []
    for name in EVENTS:
        getattr(adapter, name).connect(lambda *a, name=name: heard.append((name, a)))
    for name, value in values.items():
        getattr(session, name).emit(*value)
    assert heard == list(values.items())


def test_the_controller_hands_back_no_session_value() -> None:
    """No property or method of the controller only returns something of the session's."""
    cls = _class(GUI / "controller.py", "GameController")
    for fn in (n for n in cls.body if isinstance(n, ast.FunctionDef)):
        body = [s for s in fn.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
        if len(body) != 1 or not isinstance(body[0], ast.Return) or body[0].value is None:
            continue
        value = body[0].value.func if isinstance(body[0].value, ast.Call) else body[0].value
        text = ast.unparse(value)
        assert not re.fullmatch(r"self\.session\.\w+", text), f"{fn.name} passes through {text}"


#: Words of a method name that speak of files or the autosave.
FILE_WORDS = re.compile(r"(^|_)(files?|autosaved?|recent|save|open|dir|path|discard|restore|unfinished)(_|$)")
#: The window's own geometry: kept in Qt's settings, not a file the player sees.
WINDOW_STATE = {"save_window", "_restore_window"}


def test_main_window_has_no_file_or_autosave_method() -> None:
    cls = _class(GUI / "main_window.py", "MainWindow")
    names = [n.name for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    assert "closeEvent" in names and "load" in names  # the scan reads the class
    wrong = [n for n in names if FILE_WORDS.search(n) and n not in WINDOW_STATE]
    assert not wrong, f"MainWindow still handles files: {wrong}"
