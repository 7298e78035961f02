"""The type checker runs with the suite (issue 27): ``mypy`` with the settings in ``pyproject.toml``
(the ``--strict`` checks on ``core/``, ``session/``, ``ai/``, ``native/`` and ``study/``, mypy's
default checks elsewhere).

It runs here and not only in ``make test`` because a branch merged without it has more than once
brought code the checker refuses (an ``int | None`` passed where an ``int`` must be, a dict read
as ``Any | None`` then used as an index); the suite is what every merge runs.  The first run
takes about 20 s; mypy's cache (``.mypy_cache``) makes the next ones take about a second.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_finds_no_error_in_the_package():
    done = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, (done.stdout + done.stderr)[-4000:]
    assert "Success: no issues found" in done.stdout


STRICT = ("core", "session", "ai", "native", "study")


def test_the_strict_packages_are_checked_strictly(tmp_path):
    """The strict flags stay on the core's, the session's, the AI's, the native bridge's and the
    study tools' modules (issue 41): a module there with an unannotated function is refused, one
    elsewhere is not (a throwaway package in ``tmp_path`` under the same module names, checked
    with the project's settings)."""
    for package in (*STRICT, "gui"):
        folder = tmp_path / "tafl_desktop" / package
        folder.mkdir(parents=True)
        (folder / "__init__.py").write_text("", encoding="utf-8")
        (folder / "probe.py").write_text("def untyped(x):\n    return x\n", encoding="utf-8")
    (tmp_path / "tafl_desktop" / "__init__.py").write_text("", encoding="utf-8")
    refused = {}
    for package in (*STRICT, "gui"):
        done = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
                               "--cache-dir", str(tmp_path / "cache"), f"tafl_desktop/{package}/probe.py"],
                              cwd=tmp_path, capture_output=True, text=True, timeout=600)
        refused[package] = done.returncode == 1 and "no-untyped-def" in done.stdout
    assert refused == {**dict.fromkeys(STRICT, True), "gui": False}
