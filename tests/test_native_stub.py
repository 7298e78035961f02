"""The native module's stub (``tafl_native/tafl_native.pyi``) and the built module agree.

mypy checks every call into ``tafl_native`` against the stub (``mypy_path`` in ``pyproject.toml``;
an installed wheel carries it as ``tafl_native/__init__.pyi`` with ``py.typed``), so a stub that
drifts from the Rust bindings (``tafl_native/src/py_*.rs``) would let a wrong call through or
refuse a right one.  Checked here, by reading the stub's syntax tree and asking the module:

* every function, class, method and property the stub declares is in the module, with the same
  parameters (names, order, defaults) as the module reports for them;
* everything the module offers is in the stub (no binding left untyped);
* every name of the module that the project's code or tests reach for is in the stub;
* the stub's type-only names (aliases, ``TypedDict`` classes) are not in the module, so that
  nobody imports one at run time.
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Callable
from pathlib import Path

import pytest

from tafl_desktop import native

ROOT = Path(__file__).resolve().parent.parent
STUB = ROOT / "tafl_native" / "tafl_native.pyi"

needs_native = pytest.mark.skipif(not native.available(), reason=f"native engine: {native.unavailable_reason()}")


def stub_tree() -> ast.Module:
    return ast.parse(STUB.read_text(encoding="utf-8"), filename=str(STUB))


def type_only(node: ast.stmt) -> bool:
    """An alias (``X: TypeAlias = ...``) or a ``TypedDict`` class: names for the checker only."""
    if isinstance(node, ast.AnnAssign):
        return ast.unparse(node.annotation) == "TypeAlias"
    if isinstance(node, ast.ClassDef):
        return any(ast.unparse(b) == "TypedDict" for b in node.bases)
    return False


def declared(tree: ast.Module) -> tuple[dict[str, ast.stmt], set[str]]:
    """The stub's run-time names (name -> node) and its type-only names."""
    runtime: dict[str, ast.stmt] = {}
    checker: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            name = node.name
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            name = node.target.id
        else:
            continue
        if type_only(node):
            checker.add(name)
        else:
            runtime[name] = node
    return runtime, checker


def stub_parameters(fn: ast.FunctionDef) -> list[tuple[str, object]]:
    """(name, default or ``inspect.Parameter.empty``) of a stub function, ``self``/``cls`` aside."""
    args = fn.args
    listed = [*args.posonlyargs, *args.args]
    defaults: list[object] = [inspect.Parameter.empty] * (len(listed) - len(args.defaults))
    defaults += [ast.literal_eval(d) for d in args.defaults]
    out = [(a.arg, d) for a, d in zip(listed, defaults, strict=True) if a.arg not in ("self", "cls")]
    out += [(a.arg, inspect.Parameter.empty if d is None else ast.literal_eval(d))
            for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True)]
    return out


def runtime_parameters(obj: Callable[..., object]) -> list[tuple[str, object]]:
    """The same of a compiled function, method or class (its constructor), as PyO3 reports it."""
    sig = inspect.signature(obj)
    return [(p.name, p.default) for p in sig.parameters.values() if p.name not in ("self", "cls")]


def used_names() -> dict[str, str]:
    """Names reached for as ``tafl_native.X`` / ``_native.X`` or imported ``from tafl_native``
    in the package and the tests (name -> the first file that uses it)."""
    used: dict[str, str] = {}
    for path in [*sorted((ROOT / "tafl_desktop").rglob("*.py")), *sorted((ROOT / "tests").glob("*.py"))]:
        where = str(path.relative_to(ROOT))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id in ("tafl_native", "_native")):
                used.setdefault(node.attr, where)
            elif isinstance(node, ast.ImportFrom) and node.module == "tafl_native":
                for alias in node.names:
                    used.setdefault(alias.name, where)
    return used


def test_the_stub_parses_into_names():
    """The reader of the stub itself: its classes, functions and type-only names are found."""
    runtime, checker = declared(stub_tree())
    assert {"TaflRules", "TaflSearch", "DablotProver", "option_values", "cpu_missing"} <= set(runtime)
    assert {"NativePosition", "SearchReport", "Playouts"} <= checker


@needs_native
def test_every_name_of_the_stub_is_in_the_module_with_the_same_parameters():
    import tafl_native

    runtime, checker = declared(stub_tree())
    problems = []
    for name, node in runtime.items():
        if not hasattr(tafl_native, name):
            problems.append(f"{name}: in the stub, not in the module")
            continue
        obj = getattr(tafl_native, name)
        if isinstance(node, ast.FunctionDef):
            if stub_parameters(node) != runtime_parameters(obj):
                problems.append(f"{name}: stub {stub_parameters(node)} != module {runtime_parameters(obj)}")
        elif isinstance(node, ast.ClassDef):
            members = [m for m in node.body if isinstance(m, ast.FunctionDef)]
            for m in members:
                if m.name == "__new__":
                    got = runtime_parameters(obj)
                elif not hasattr(obj, m.name):
                    problems.append(f"{name}.{m.name}: in the stub, not in the module")
                    continue
                elif any(ast.unparse(d) == "property" for d in m.decorator_list):
                    if callable(getattr(obj, m.name)):
                        problems.append(f"{name}.{m.name}: a method in the module, a property in the stub")
                    continue
                else:
                    got = runtime_parameters(getattr(obj, m.name))
                if stub_parameters(m) != got:
                    problems.append(f"{name}.{m.name}: stub {stub_parameters(m)} != module {got}")
            if not issubclass(obj, BaseException):
                offered = {a for a in vars(obj) if not a.startswith("__")}
                missing = offered - {m.name for m in members}
                if missing:
                    problems.append(f"{name}: the stub lacks {sorted(missing)}")
    for name in checker:
        if hasattr(tafl_native, name):
            problems.append(f"{name}: type-only in the stub, but the module has it")
    assert problems == []


@needs_native
def test_everything_the_module_offers_is_in_the_stub():
    import tafl_native

    runtime, _checker = declared(stub_tree())
    offered = {n for n in dir(tafl_native) if not n.startswith("__") and n != "tafl_native"}
    assert {"TaflRules", "cpu_missing"} <= offered
    assert offered - set(runtime) == set()


def test_every_name_the_code_uses_is_in_the_stub():
    """Each name of the module that the package or the tests use is in the stub (the methods
    called on its objects mypy checks against the stub)."""
    runtime, checker = declared(stub_tree())
    used = used_names()
    assert {"TaflRules", "TaflSearch", "DablotProver", "option_values"} <= set(used)  # the scan finds them
    known = set(runtime) | checker | {"__file__"}
    assert {n: where for n, where in used.items() if n not in known} == {}
