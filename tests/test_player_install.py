"""What `make run` installs for a player (issue 36, item 9): the window's packages and the native
engine, not the developer's tools.

Two promises, each checked the way it is met:

* the Makefile's `run` installs the project without extras and says it is building before the Rust
  build starts, while `test` adds the test, lab and maker extras (``make -n`` in a copy of the
  Makefile: the commands make would run on a fresh clone, none of them run);
* the window works without those extras: the app's own self-test (window, a move, the AI's worker,
  a PDF) and the rules lab's figures run in a Python that refuses to import any package only the
  extras install.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: Packages only the test, lab and maker extras install (pyproject.toml's optional-dependencies).
EXTRAS_ONLY = ("pytest", "pytestqt", "hypothesis", "pypdf", "ruff", "mypy", "fontTools", "svgelements",
               "trimesh", "lib3mf", "scipy", "dask", "distributed", "ezdxf")


def _dry_run(tmp_path: Path, target: str) -> list[str]:
    """The commands `make <target>` would run on a fresh clone (no .venv yet)."""
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    clone = tmp_path / "clone"
    (clone / "tafl_native" / "src").mkdir(parents=True)
    shutil.copy(ROOT / "Makefile", clone / "Makefile")
    shutil.copy(ROOT / "pyproject.toml", clone / "pyproject.toml")
    (clone / "tafl_native" / "Cargo.toml").write_text("")
    r = subprocess.run(["make", "-n", target], cwd=clone, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return r.stdout.splitlines()


def _installs(lines: list[str]) -> list[str]:
    return [line for line in lines if re.search(r"-m pip install (?!-q --upgrade pip)", line)]


def test_make_run_installs_the_window_only_and_make_test_adds_the_extras(tmp_path) -> None:
    run = _dry_run(tmp_path, "run")
    installs = _installs(run)
    assert any(line.rstrip().endswith("install -e .") for line in installs), run
    assert not any("[test" in line or "lab" in line or "maker" in line for line in installs), installs
    # the setuptools notice about editable installs is kept from the player's console
    assert all('PYTHONWARNINGS="ignore:Editable installation"' in line for line in installs), installs
    if any("./tafl_native" in line for line in installs):  # cargo is on PATH: the Rust build
        build = next(i for i, line in enumerate(run) if "./tafl_native" in line)
        said = [i for i, line in enumerate(run) if "Building the native engine" in line]
        assert said and said[0] < build, run

    test = _installs(_dry_run(tmp_path / "again", "test"))
    assert any('-e ".[test,lab,maker]"' in line for line in test), test


BLOCKER = textwrap.dedent("""
    import importlib.abc, sys

    import os

    BLOCKED = set(os.environ["TAFL_TEST_BLOCKED"].split(","))

    class Refuse(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in BLOCKED:
                raise ModuleNotFoundError(f"No module named {name!r} (not installed by make run)", name=name)
            return None

    sys.meta_path.insert(0, Refuse())  # in the AI's worker process too (it imports this file)

    if __name__ == "__main__":
        for name in list(sys.modules):
            assert name.split(".")[0] not in BLOCKED, name

        from tafl_desktop.lab.stats import games_to_tell, summarise_cell, wilson

        cell = summarise_cell({}, [{"winner": "attackers", "plies": 30}, {"winner": "defenders", "plies": 40},
                                   {"winner": "attackers", "plies": 50}], ("attackers", "defenders"))
        print("lab", cell["attackers_ci"], games_to_tell(0.5, 0.55), wilson(15, 148))

        from tafl_desktop.cli import main

        code = main(["--self-test"])
        loaded = sorted({n.split(".")[0] for n in sys.modules} & BLOCKED)
        print("loaded", loaded)
        sys.exit(code)
""")


def test_the_window_and_its_rules_lab_figures_need_no_extra(tmp_path) -> None:
    script = tmp_path / "without_extras.py"
    script.write_text(BLOCKER)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "HOME": str(tmp_path),
           "TAFL_TEST_BLOCKED": ",".join(EXTRAS_ONLY)}
    r = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=180)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "self-test passed" in r.stdout, r.stdout
    assert "loaded []" in r.stdout, r.stdout
    # Wilson's interval of 2 wins in 3 games, the sample size, and Newcombe's 15 of 148 (0.0624..0.1605)
    lab_line = next(line for line in r.stdout.splitlines() if line.startswith("lab "))
    assert "[0.2077, 0.9385]" in lab_line and " 783 " in lab_line, lab_line
