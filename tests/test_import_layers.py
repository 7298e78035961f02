"""The package's layers, read from the source (issues 27 and 41): one order of the packages, in
which each imports only the layers below it (:data:`LAYERS`, the order ``docs/ARCHITECTURE.md`` §1
draws); no import cycles between modules; the game session runs without Qt; and ``study/``,
``interop/``, ``lab/``, ``match/`` and ``gamedb/`` reach no Qt through anything they import (the
team's rule: they run headless).

Every import counts, the ones inside functions too (that is where cycles used to hide:
variants <-> rules_string, language <-> main_window, lab.charts <-> lab.files, commands <->
controller, the capabilities' commands <-> ``cli/__init__``, ``native.search`` <-> ``ai.engine``);
imports under ``if TYPE_CHECKING:`` do not, since they never run.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "tafl_desktop"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@functools.cache
def _parsed(path: Path) -> ast.AST:
    """A source file's tree, parsed once per test process (the import graph and the Qt walk read
    the same files many times over)."""
    return ast.parse(path.read_text(encoding="utf-8"))


def _runtime_imports(tree: ast.AST) -> list[str]:
    """Modules imported by code that runs (anywhere in the file but under TYPE_CHECKING)."""
    out: list[str] = []

    def visit(node: ast.AST, guarded: bool) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                visit(child, guarded)
            return
        if isinstance(node, ast.Import):
            out.extend(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append(node.module)
            out.extend(f"{node.module}.{a.name}" for a in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child, guarded)

    visit(tree, False)
    return out


@functools.cache
def _graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports.  ``from pkg import sub`` of a submodule counts
    as importing ``pkg.sub``; a module's own parent packages are not counted (Python runs them
    first for every submodule, and a package's ``__init__`` may use its submodules)."""
    modules = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        imported = [t for t in _runtime_imports(_parsed(path)) if t in modules]
        submodules = {t for t in imported if "." in t and t.rsplit(".", 1)[0] in imported}
        parents = {t.rsplit(".", 1)[0] for t in submodules}
        direct = {t for t in imported if t not in parents or t in _named_imports(path, t)}
        graph[name] = {t for t in direct if t != name and not name.startswith(t + ".")}
    return graph


def _named_imports(path: Path, package: str) -> set[str]:
    """``package`` when the file imports a name from it that is not a submodule."""
    modules = _modules()
    for node in ast.walk(_parsed(path)):
        if isinstance(node, ast.ImportFrom) and node.module == package and node.level == 0:
            if any(f"{package}.{a.name}" not in modules for a in node.names):
                return {package}
    return set()


@functools.cache
def _modules() -> frozenset[str]:
    return frozenset(_module_name(p) for p in PACKAGE.rglob("*.py"))


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def strong(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in graph:
        if v not in index:
            strong(v)
    return out


def test_no_module_imports_itself_back():
    assert _cycles(_graph()) == []


#: The one order of the package's parts, bottom first: a package (or top-level module) imports only
#: parts of the layers before its own, never a part of its own layer nor of a layer above.  The
#: parts of one layer are peers that do not know each other.  ``__init__`` is the package's own
#: ``tafl_desktop/__init__.py`` (its version), which every import runs first.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("__init__",),
    ("core",),                                            # pure Python: the rules and their data
    ("i18n", "argparse_words"),                           # the translation layer
    ("search_contract", "command_line", "tools", "game_loop"),  # the contracts every capability shares; the game loop
    ("native",),                                          # the bridge to the Rust rules
    ("ai",),                                              # search, evaluation, prover, worker
    ("session", "interop"),                               # the game session; other programs' files
    ("study", "analysis"),                                # the capabilities: study tools, analysis words
    ("gamedb",),                                          # the game database (scores moves in analysis words)
    ("lab",),                                             # the rules lab (its games go into the database)
    ("printing",),                                        # the printed sets and makers' files
    ("match",),                                           # matches, tournaments and their papers
    ("gui",),                                             # the window
    ("selftest",),                                        # the bundle's smoke test
    ("cli", "i18n_catalogue"),                            # the command line's front doors
    ("__main__",),
)


def _part(module: str) -> str:
    """The package or top-level module of ``tafl_desktop`` a module belongs to (its layer's unit)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _part_imports() -> dict[tuple[str, str], list[str]]:
    """(importing part, imported part) -> the module imports that make the edge.  Importing a
    submodule runs its parent packages, so ``x.cli.common`` is an import of the part ``cli``
    (its ``__init__`` included)."""
    out: dict[tuple[str, str], list[str]] = {}
    for module, targets in _graph().items():
        for target in targets:
            if _part(module) != _part(target):
                out.setdefault((_part(module), _part(target)), []).append(f"{module} -> {target}")
    return out


def test_every_part_of_the_package_has_its_layer():
    """A new package or top-level module is placed in :data:`LAYERS` (and nothing is listed twice
    or stale), so the order below covers all of them."""
    listed = [p for layer in LAYERS for p in layer]
    found = {_part(_module_name(p)) for p in PACKAGE.rglob("*.py")}
    assert len(listed) == len(set(listed))
    assert set(listed) == found


def test_every_package_imports_only_the_layers_below_it():
    """One order for every package: each import (lazy ones inside functions too) goes down."""
    level = {p: i for i, layer in enumerate(LAYERS) for p in layer}
    upward = sorted(f"{a} (layer {level[a]}) imports {b} (layer {level[b]}): {', '.join(sorted(why)[:3])}"
                    for (a, b), why in _part_imports().items() if level.get(b, -1) >= level.get(a, -1))
    assert upward == []


def test_the_order_is_a_real_rule():
    """The check above can fail: the imports that made the two old package cycles are upward in
    :data:`LAYERS` (a capability's commands importing the front door's package, the native bridge
    importing the Python searcher)."""
    level = {p: i for i, layer in enumerate(LAYERS) for p in layer}
    assert level["cli"] > level["interop"] and level["cli"] > level["lab"] and level["cli"] > level["study"]
    assert level["ai"] > level["native"] > level["search_contract"]
    assert level["command_line"] < min(level[p] for p in ("interop", "lab", "study", "analysis", "match", "gamedb"))


@pytest.mark.parametrize(("package", "allowed"), [
    ("tafl_desktop.core", ("tafl_desktop.core",)),
    ("tafl_desktop.session", ("tafl_desktop.core", "tafl_desktop.session", "tafl_desktop.i18n",
                              "tafl_desktop.ai.levels", "tafl_desktop.game_loop")),
])
def test_a_layer_imports_only_what_is_below_it(package, allowed):
    """Finer than the order: the core imports nothing outside itself, the session nothing of the
    search but the levels' names (and the one game loop, whose step judges its computer's replies)."""
    graph = _graph()
    outside = {(m, t) for m, targets in graph.items() if m.startswith(package)
               for t in targets if t.startswith("tafl_desktop") and not t.startswith(allowed)}
    assert outside == set()


@pytest.mark.parametrize("package", ["core", "session"])
def test_the_core_and_the_session_run_without_qt(package):
    for path in (PACKAGE / package).rglob("*.py"):
        imported = _runtime_imports(ast.parse(path.read_text(encoding="utf-8")))
        assert not [m for m in imported if m.split(".")[0] in ("PySide6", "reportlab")], path.name


#: Qt imports that a headless package may reach and that never run without a window: the
#: translation layer hands Qt the language only when the window has loaded Qt already
#: (``_qt_locale`` returns unless ``PySide6.QtCore`` is imported) and installs Qt's own
#: catalogue into the window's QApplication (``install_qt_translator(app)``, and ``_follow_in_qt``,
#: which returns unless ``PySide6.QtCore`` is imported and an application runs).
WINDOW_ONLY_HOOKS = {"tafl_desktop.i18n": {"_qt_locale", "install_qt_translator", "_follow_in_qt"}}


@functools.cache
def _qt_imports(path: Path, module: str) -> list[tuple[str, str]]:
    """(function, module) of every Qt import that runs, but those in :data:`WINDOW_ONLY_HOOKS`."""
    tree = _parsed(path)
    hooks = WINDOW_ONLY_HOOKS.get(module, set())
    out: list[tuple[str, str]] = []

    def visit(node: ast.AST, function: str) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                visit(child, function)
            return
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not function:
            function = node.name
        names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                 else [node.module] if isinstance(node, ast.ImportFrom) and node.module else [])
        out.extend((function, n) for n in names if n.split(".")[0] == "PySide6" and function not in hooks)
        for child in ast.iter_child_nodes(node):
            visit(child, function)

    visit(tree, "")
    return out


def test_the_window_only_hooks_are_still_there():
    """The exemptions name functions that exist and do import Qt (a stale list would hide nothing)."""
    for module, functions in WINDOW_ONLY_HOOKS.items():
        tree = ast.parse((PACKAGE.parent / (module.replace(".", "/") + ".py")).read_text(encoding="utf-8"))
        found = {f.name for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)
                 and any(isinstance(n, ast.ImportFrom) and (n.module or "").startswith("PySide6") for n in ast.walk(f))}
        assert found == functions


@pytest.mark.parametrize("package", ["study", "interop", "lab", "match", "gamedb"])
def test_the_headless_packages_reach_no_qt(package):
    """``study/``, ``interop/``, ``lab/``, ``match/`` and ``gamedb/`` run without Qt: none of their modules
    imports Qt, nor does any module they import, directly or further down (imports inside functions count)."""
    graph = _graph()
    paths = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    problems = []
    for start in sorted(m for m in graph if m.startswith(f"tafl_desktop.{package}")):
        via: dict[str, str | None] = {start: None}
        todo = [start]
        while todo:
            module = todo.pop()
            for found in _qt_imports(paths[module], module):
                chain = [module]
                while via[chain[-1]] is not None:
                    chain.append(via[chain[-1]])  # type: ignore[arg-type]
                problems.append(f"{' <- '.join(chain)} imports {found[1]} (in {found[0] or 'the module'})")
            for target in graph[module]:
                if target not in via:
                    via[target] = module
                    todo.append(target)
    assert problems == []
