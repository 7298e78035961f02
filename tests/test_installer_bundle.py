"""Build the real Linux bundle and tarball, then start them as a player would (``make test-installer``).

Slow (a PyInstaller build: about a minute, more when the build venv is made the first time), so the
default suite skips it.  It runs installer/build_linux.sh and then, from a clean environment
(a temporary HOME, no source tree on any path):

* ``--version`` and an offscreen ``--self-test`` of ``dist/tafl-desktop`` (window, move, the AI's
  spawned worker process, PDF), with nothing on stderr;
* the same self-test on a real X server (``xcb``) under Xvfb, when ``xvfb-run`` is installed;
* the tarball: unpacked, ``install.sh`` into a temporary HOME, the installed launcher's ``--version``
  and ``--self-test`` (the install folder must stay unchanged: the app writes nothing next to
  itself), then ``uninstall.sh`` leaves nothing behind.
"""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import tarfile
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from tafl_desktop import __version__

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
APP = "tafl-desktop"
#: A regression guard: the bundle was 160 MB with PySide6-Essentials; the Addons or QML would double it.
MAX_BUNDLE_MB = 230


@dataclass
class Build:
    bundle: Path
    tarball: Path
    seconds: float
    size_mb: float


def _tree_size(folder: Path) -> int:
    return sum(p.lstat().st_size for p in folder.rglob("*"))


@pytest.fixture(scope="module")
def build() -> Build:
    t0 = time.monotonic()
    proc = subprocess.run([str(ROOT / "installer" / "build_linux.sh")], capture_output=True, text=True, timeout=1800)
    log = ROOT / "build" / "build_linux.log"
    log.parent.mkdir(exist_ok=True)
    log.write_text(proc.stdout + proc.stderr)
    assert proc.returncode == 0, f"build_linux.sh failed (log: {log}):\n" + "\n".join(
        (proc.stdout + proc.stderr).splitlines()[-30:])
    result = Build(bundle=ROOT / "dist" / APP,
                   tarball=ROOT / "dist" / f"{APP}-{__version__}-linux-{platform.machine()}.tar.gz",
                   seconds=time.monotonic() - t0, size_mb=_tree_size(ROOT / "dist" / APP) / 1e6)
    print(f"\n[installer] build {result.seconds:.0f} s; bundle {result.size_mb:.0f} MB on disk; "
          f"tarball {result.tarball.stat().st_size / 1e6:.0f} MB ({result.tarball.name})")
    return result


def _player_env(home: Path, **extra: str) -> dict[str, str]:
    """What a player's shell would have: no venv, no PYTHONPATH, no resource override; offscreen Qt."""
    drop = ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "TAFL_DESKTOP_RESOURCES", "DISPLAY", "WAYLAND_DISPLAY")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), XDG_DATA_HOME=str(home / ".local" / "share"),
               QT_QPA_PLATFORM="offscreen")
    env.update(extra)
    return env


def _run(cmd: list[str], env: dict[str, str], cwd: Path, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout)


def _assert_self_test_passed(proc: subprocess.CompletedProcess[str], bundle: Path) -> None:
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[-1] == "self-test passed"
    assert "(frozen bundle)" in lines[0]
    assert any(line.startswith("ok   resources:") and str(bundle / "_internal" / "resources") in line
               for line in lines), proc.stdout
    assert any(line.startswith("ok   ai worker: worker process") for line in lines), proc.stdout
    if shutil.which("cargo"):  # build_linux.sh built the native engine into the bundle: it must load there
        assert any(line.startswith("ok   native engine: tafl_native") and "as the core counts" in line
                   for line in lines), proc.stdout
    assert proc.stderr == "", f"unexpected output on stderr:\n{proc.stderr}"


def test_bundle_version(build, tmp_path):
    proc = _run([str(build.bundle / APP), "--version"], _player_env(tmp_path), tmp_path)
    assert proc.returncode == 0 and proc.stdout == f"tafl-desktop {__version__}\n", proc.stdout + proc.stderr


def test_bundle_self_test_offscreen(build, tmp_path):
    proc = _run([str(build.bundle / APP), "--self-test"], _player_env(tmp_path), tmp_path)
    print("\n" + proc.stdout, end="")
    _assert_self_test_passed(proc, build.bundle)


@pytest.mark.skipif(shutil.which("xvfb-run") is None, reason="xvfb-run not installed (Debian: xvfb xauth)")
def test_bundle_self_test_on_a_real_x_server(build, tmp_path):
    env = _player_env(tmp_path, QT_QPA_PLATFORM="xcb")
    proc = _run(["xvfb-run", "-a", "-s", "-screen 0 1280x900x24", str(build.bundle / APP), "--self-test"], env,
                tmp_path)
    _assert_self_test_passed(proc, build.bundle)
    assert "main window shown on 'xcb'" in proc.stdout


def test_bundle_contents(build):
    internal = build.bundle / "_internal"
    shipped = sorted(p.name for p in (internal / "resources" / "variants").glob("*.toml"))
    assert shipped == sorted(p.name for p in (ROOT / "resources" / "variants").glob("*.toml"))
    assert (internal / "resources" / "fonts" / "DejaVuSans.ttf").is_file()
    qt = internal / "PySide6" / "Qt"
    assert (qt / "plugins" / "platforms" / "libqxcb.so").is_file()
    assert (qt / "plugins" / "platforms" / "libqwayland.so").is_file()
    assert not (qt / "plugins" / "platformthemes" / "libqgtk3.so").exists()
    # Qt's own catalogues: only qtbase, only for the app's languages (standard dialog buttons)
    assert sorted(p.name for p in (qt / "translations").iterdir()) == [
        f"qtbase_{lang}.qm" for lang in ("da", "de", "fr", "ru")]
    assert sorted(p.name for p in (internal / "resources" / "translations").glob("*.mo")) == [
        f"tafl_{lang}.mo" for lang in ("da", "de", "fr", "ru")]
    for unused in ("QtQml", "QtQuick", "QtNetwork", "QtWebEngineCore", "QtMultimedia"):
        assert not list((internal / "PySide6").glob(f"{unused}.*")), f"PySide6.{unused} was bundled"
    assert not list(internal.glob("**/libQt6Qml*")) and not list(internal.glob("**/libQt6WebEngine*"))
    assert [p.name for p in internal.rglob("*") if p.is_symlink() and not p.exists()] == [], "dangling links"
    assert build.size_mb < MAX_BUNDLE_MB, f"the bundle grew to {build.size_mb:.0f} MB"


def test_tarball_installs_runs_and_uninstalls(build, tmp_path):
    with tarfile.open(build.tarball) as tar:
        tops = {m.name.split("/")[0] for m in tar.getmembers()}
        assert tops == {f"{APP}-{__version__}"}
        tar.extractall(tmp_path / "unpacked", filter="tar")
    stage = tmp_path / "unpacked" / f"{APP}-{__version__}"
    for text_file in [*stage.glob("*.sh"), *stage.glob("*.txt"), *stage.glob("share/*/*.*")]:
        assert str(ROOT) not in text_file.read_text(errors="replace"), f"{text_file.name} names the build machine"

    home = tmp_path / "home"
    home.mkdir()
    env = _player_env(home)
    proc = _run([str(stage / "install.sh")], env, tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    installed = home / ".local" / "lib" / APP
    launcher = home / ".local" / "bin" / APP

    proc = _run([str(launcher), "--version"], env, tmp_path)
    assert proc.stdout == f"tafl-desktop {__version__}\n", proc.stdout + proc.stderr

    before = {p: p.stat().st_mtime_ns for p in installed.rglob("*")}
    proc = _run([str(launcher), "--self-test"], env, tmp_path)
    _assert_self_test_passed(proc, installed)
    assert {p: p.stat().st_mtime_ns for p in installed.rglob("*")} == before, "the app wrote into its own folder"

    proc = _run([str(installed / "uninstall.sh")], env, tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    left = [p for p in home.rglob("*") if p.is_file() and p.name != "mimeinfo.cache"]
    assert left == []
