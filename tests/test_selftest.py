"""``tafl-desktop --self-test`` from the source tree: every check passes, failures are one line.

The real self-test runs in a subprocess, as players run it: it changes process-wide Qt state
(QSettings paths, the platform) that must not leak into the other GUI tests.  The runner's
failure handling is tested in-process with stand-in checks.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

from tafl_desktop import __version__
from tafl_desktop.selftest import CHECKS, CheckFailed, Context, run_checks

CHECK_NAMES = [name for name, _fn in CHECKS]


def _env(home: Path, **extra: str) -> dict[str, str]:
    """A clean player environment: a fresh HOME, no resource override, offscreen Qt."""
    env = {k: v for k, v in os.environ.items() if k not in ("TAFL_DESKTOP_RESOURCES", "DISPLAY", "WAYLAND_DISPLAY")}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), XDG_DATA_HOME=str(home / ".local/share"),
               QT_QPA_PLATFORM="offscreen")
    env.update(extra)
    return env


def _run(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tafl_desktop", "--self-test"], env=env, capture_output=True,
                          text=True, timeout=120)


def test_self_test_passes_and_prints_one_line_per_check(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    proc = _run(_env(home))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert [line.split(":")[0] for line in lines[:-1]] == [f"ok   {name}" for name in CHECK_NAMES]
    assert lines[-1] == "self-test passed"
    assert f"tafl-desktop {__version__} (Python package)" in lines[0]
    assert "Traceback" not in proc.stderr
    # The player's settings were not touched: nothing was written under the (fresh) home folder.
    assert [p for p in home.rglob("*") if p.is_file()] == []


def test_self_test_failure_is_one_line_without_traceback(tmp_path):
    proc = _run(_env(tmp_path, QT_QPA_PLATFORM="no-such-platform"))
    assert proc.returncode == 1
    assert "Traceback" not in proc.stdout + proc.stderr
    err = proc.stderr.strip().splitlines()
    assert len(err) == 1
    assert err[0].startswith("tafl-desktop: self-test failed: qt plugins: Qt platform plugin 'no-such-platform'")
    assert proc.stdout.splitlines()[-1].startswith("FAIL qt plugins:")


def test_runner_stops_at_first_failure_and_cleans_up(tmp_path):
    ran, cleaned = [], []
    ctx = Context(tmp_path)
    ctx.cleanups.append(lambda: cleaned.append(True))

    def good(_ctx):
        ran.append("good")
        return "fine"

    def broken(_ctx):
        ran.append("broken")
        raise RuntimeError("boom\nsecond line of detail")

    def never(_ctx):
        ran.append("never")
        return "unreachable"

    out, err = io.StringIO(), io.StringIO()
    assert run_checks([("good", good), ("broken", broken), ("never", never)], ctx, out, err) == 1
    assert ran == ["good", "broken"]
    assert cleaned == [True]
    assert out.getvalue().splitlines()[-1] == "FAIL broken: RuntimeError: boom"
    assert err.getvalue() == "tafl-desktop: self-test failed: broken: RuntimeError: boom\n"


def test_runner_reports_check_failed_reason_verbatim(tmp_path):
    def refuse(_ctx):
        raise CheckFailed("the window drew nothing")

    out, err = io.StringIO(), io.StringIO()
    assert run_checks([("window", refuse)], Context(tmp_path), out, err) == 1
    assert out.getvalue() == "FAIL window: the window drew nothing\n"


def test_runner_passes_when_every_check_passes(tmp_path):
    out = io.StringIO()
    assert run_checks([("a", lambda _c: "one"), ("b", lambda _c: "two")], Context(tmp_path), out, io.StringIO()) == 0
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("ok   a: one [") and lines[1].startswith("ok   b: two [")
    assert lines[-1] == "self-test passed"
