"""The type checker's settings (issues 27 and 41): the ``--strict`` checks stay on ``core/``,
``session/``, ``ai/``, ``native/`` and ``study/``, mypy's default checks elsewhere.

The whole package is checked once per ``make test``, by the ``mypy`` step after the suite (and by
``make lint``); it used to run here as well, a second full check of some 20 s of processor time in
every suite run, whose result the Makefile's step gave again a second later.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


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
