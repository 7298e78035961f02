"""How much of the code above the core is typed as the core is (issue 41, item 2).

The core and the session are checked with mypy's strict flags; ``ai/``, ``native/`` and
``study/`` once had ``Any`` (or nothing) on almost half their parameters, so mypy could not
tell a Tafl position from a Fox one there.  This test walks the syntax tree of every module in
those packages and counts the function parameters (``self`` and ``cls`` aside) that are
unannotated or annotated ``Any`` (bare, or ``Any | None``); ``Any`` inside a container
(``dict[str, Any]``: a parsed JSON object) is a typed parameter and is not counted.

The share must stay under :data:`LIMIT` in the three packages.  Run this file as a script to
print the figures of every package (the core and the session for comparison)::

    python tests/test_typing_strictness.py
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "tafl_desktop"
#: The packages held to the limit, and those measured for comparison.
CHECKED = ("ai", "native", "study")
COMPARED = ("core", "session")
#: The contracts every capability shares (the searcher's, the game loop's): no loose parameter at
#: all, since what they leave ``Any`` every implementation and caller inherits.
CONTRACTS = ("search_contract", "game_loop")
#: The largest share of loosely typed parameters a checked package may have.
LIMIT = 0.10


@dataclass
class Count:
    """Parameters of one package: all of them, and the loose ones (unannotated or ``Any``)."""

    total: int = 0
    loose: int = 0

    @property
    def share(self) -> float:
        return self.loose / self.total if self.total else 0.0


def is_any(annotation: ast.expr | None) -> bool:
    """True for no annotation, ``Any``, ``typing.Any``, ``Any | None``, ``Optional[Any]`` (also
    written as a string, as ``from __future__ import annotations`` code may)."""
    if annotation is None:
        return True
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        try:
            annotation = ast.parse(annotation.value, mode="eval").body
        except SyntaxError:
            return False
    if isinstance(annotation, ast.Name):
        return annotation.id == "Any"
    if isinstance(annotation, ast.Attribute):
        return annotation.attr == "Any"
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        sides = (annotation.left, annotation.right)
        none = [s for s in sides if isinstance(s, ast.Constant) and s.value is None]
        rest = [s for s in sides if s not in none]
        return len(none) == 1 and is_any(rest[0])
    if isinstance(annotation, ast.Subscript) and isinstance(annotation.value, ast.Name | ast.Attribute):
        name = annotation.value.id if isinstance(annotation.value, ast.Name) else annotation.value.attr
        return name == "Optional" and is_any(annotation.slice)
    return False


def parameters(tree: ast.AST) -> list[ast.arg]:
    """Every parameter of every function and method in ``tree`` but a method's ``self``/``cls``."""
    found: list[ast.arg] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        args = node.args
        listed = [*args.posonlyargs, *args.args]
        if listed and listed[0].arg in ("self", "cls"):
            listed = listed[1:]
        listed += args.kwonlyargs
        listed += [a for a in (args.vararg, args.kwarg) if a is not None]
        found.extend(listed)
    return found


def _files(package: str) -> list[Path]:
    """The modules of ``tafl_desktop/<package>`` (subpackages included), or the one module
    ``tafl_desktop/<package>.py``."""
    module = PACKAGE / f"{package}.py"
    return [module] if module.is_file() else sorted((PACKAGE / package).rglob("*.py"))


def count(package: str) -> Count:
    """The parameter count of ``tafl_desktop/<package>`` (every module, subpackages included)."""
    result = Count()
    for path in _files(package):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for arg in parameters(tree):
            result.total += 1
            result.loose += is_any(arg.annotation)
    return result


def loose_parameters(package: str) -> list[str]:
    """``file:line name`` of each loose parameter (what a failure lists, to fix)."""
    out = []
    for path in _files(package):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        out += [f"{path.relative_to(ROOT)}:{a.lineno} {a.arg}" for a in parameters(tree) if is_any(a.annotation)]
    return out


def test_the_measure_counts_what_it_says():
    """The counter itself, on a module written here: two loose parameters of five."""
    tree = ast.parse(
        "from typing import Any, Optional\n"
        "class C:\n"
        "    def m(self, a: int, b: Any, c: 'Any | None') -> None: ...\n"
        "def f(x, y: dict[str, Any], *rest: int) -> None: ...\n"
        "def g(z: Optional[int]) -> None: ...\n")
    loose = [a.arg for a in parameters(tree) if is_any(a.annotation)]
    assert sorted(loose) == ["b", "c", "x"]
    assert len(parameters(tree)) == 7


@pytest.mark.parametrize("package", CHECKED)
def test_few_parameters_are_untyped_or_any(package):
    measured = count(package)
    assert measured.total > 50, f"{package}: only {measured.total} parameters found"
    assert measured.share < LIMIT, (
        f"{package}: {measured.loose} of {measured.total} parameters ({measured.share:.0%}) are untyped or Any:\n"
        + "\n".join(loose_parameters(package)))


@pytest.mark.parametrize("module", CONTRACTS)
def test_the_contracts_have_no_loose_parameter(module):
    measured = count(module)
    assert measured.total > 10, f"{module}: only {measured.total} parameters found"
    assert loose_parameters(module) == []


if __name__ == "__main__":
    for name in (*CHECKED, *COMPARED, *CONTRACTS):
        c = count(name)
        print(f"{name:8} {c.loose:4} of {c.total:4} parameters untyped or Any ({c.share:.1%})")
