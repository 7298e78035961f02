"""Fast checks of the installer sources (the full PyInstaller build is tests/test_installer_bundle.py).

What can be verified without building: the icon set drawn from one image, the desktop files
(validated by the freedesktop tools when installed), the Inno Setup script against the bundle layout
the spec produces, the frozen entry point's order of calls, and install.sh / uninstall.sh run on a
stand-in bundle in a temporary HOME.
"""

from __future__ import annotations

import ast
import configparser
import importlib.util
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import Image

from tafl_desktop import __version__

ROOT = Path(__file__).resolve().parents[1]
INSTALLER = ROOT / "installer"
LINUX = INSTALLER / "linux"
_spec = importlib.util.spec_from_file_location("make_icons", INSTALLER / "make_icons.py")
make_icons = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_icons)

APP_ID = make_icons.APP_ID
DESKTOP = LINUX / f"{APP_ID}.desktop"
METAINFO = LINUX / f"{APP_ID}.metainfo.xml"
ISS = INSTALLER / "windows" / "tafl_desktop.iss"
SPEC = INSTALLER / "tafl_desktop.spec"


# ------------------------------------------------------------------------------------- icons
@pytest.fixture(scope="module")
def icons(tmp_path_factory):
    return make_icons.build(tmp_path_factory.mktemp("icons"))


def test_icon_set_has_every_size_from_one_master(icons):
    master = Image.open(icons["master"])
    assert master.size == (1024, 1024) and master.mode == "RGBA"
    for n in (16, 24, 32, 48, 64, 128, 256, 512):
        path = icons[f"png{n}"]
        assert path.relative_to(icons["master"].parent).as_posix() == f"hicolor/{n}x{n}/apps/{APP_ID}.png"
        img = Image.open(path)
        assert img.size == (n, n) and img.mode == "RGBA"
        assert img.getpixel((0, 0))[3] < 64, "the rounded corner is transparent"
        assert img.getpixel((n // 2, n // 2))[3] == 255, "the piece in the middle is opaque"
    assert Image.open(icons["ico"]).info["sizes"] == {(n, n) for n in (16, 24, 32, 48, 64, 128, 256)}
    assert icons["icns"].read_bytes()[:4] == b"icns"


def test_icon_is_drawn_the_same_every_time():
    assert make_icons.draw_master(64).tobytes() == make_icons.draw_master(64).tobytes()


# ------------------------------------------------------------------------------ desktop files
def test_desktop_entry_fields():
    cp = configparser.ConfigParser(interpolation=None)
    cp.optionxform = str
    cp.read(DESKTOP, encoding="utf-8")
    entry = cp["Desktop Entry"]
    assert entry["Type"] == "Application"
    assert entry["Exec"].split()[0] == "tafl-desktop"  # install.sh rewrites this to the launcher's full path
    assert entry["Exec"].split()[1] == "gui"  # `tafl-desktop FILE` alone is not a valid command line
    assert entry["Icon"] == APP_ID
    assert "BoardGame;" in entry["Categories"]


@pytest.mark.skipif(shutil.which("desktop-file-validate") is None, reason="desktop-file-utils not installed")
def test_desktop_entry_validates():
    proc = subprocess.run(["desktop-file-validate", str(DESKTOP)], capture_output=True, text=True)
    assert proc.returncode == 0 and not proc.stdout.strip(), proc.stdout + proc.stderr


def test_metainfo_matches_app_id_and_version():
    root = ET.parse(METAINFO).getroot()
    assert root.findtext("id") == APP_ID
    assert root.find("launchable").text == DESKTOP.name
    assert root.find("provides/binary").text == "tafl-desktop"
    assert root.find("releases/release").get("version") == __version__, "add a <release> for the new version"


@pytest.mark.skipif(shutil.which("appstreamcli") is None, reason="appstream not installed")
def test_metainfo_validates():
    proc = subprocess.run(["appstreamcli", "validate", "--no-net", str(METAINFO)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


# ------------------------------------------------------------------------------ spec and entry
def _spec_constant(name: str) -> str:
    for node in ast.parse(SPEC.read_text()).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == name for t in node.targets):
            return ast.literal_eval(node.value)
    raise AssertionError(f"{name} not found in the spec")


def test_spec_bundles_resources_where_paths_looks():
    text = SPEC.read_text()
    assert text.startswith("# ruff: noqa")
    assert 'datas=[(str(ROOT / "resources"), "resources")]' in text  # -> sys._MEIPASS/resources
    assert 'name=f"{DISPLAY_NAME}.app"' in text and "BUNDLE(" in text
    assert _spec_constant("APP_NAME") == "tafl-desktop"
    for unused in ("QtQml", "QtQuick", "QtNetwork", "QtWebEngineCore"):
        assert unused in _spec_constant("QT_UNUSED")
    paths_src = (ROOT / "tafl_desktop" / "core" / "paths.py").read_text()
    assert 'Path(bundle) / "resources"' in paths_src


def test_spec_excludes_no_qt_module_the_app_imports():
    """If the app starts using, say, QtPrintSupport or QtSvg, the spec must stop excluding it."""
    used = set()
    for path in (ROOT / "tafl_desktop").rglob("*.py"):
        text = path.read_text()
        used |= set(re.findall(r"PySide6\.(Qt\w+)", text))
        for names in re.findall(r"from PySide6 import \(?([\w, \n]+)", text):
            used |= {n.strip() for n in names.split(",") if n.strip().startswith("Qt")}
    assert {"QtCore", "QtGui", "QtWidgets"} <= used
    assert used.isdisjoint(_spec_constant("QT_UNUSED")), sorted(used & set(_spec_constant("QT_UNUSED")))


def test_frozen_entry_calls_freeze_support_before_anything_else():
    tree = ast.parse((INSTALLER / "frozen_main.py").read_text())
    main = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "main")
    first = main.body[0]
    assert isinstance(first, ast.Expr) and ast.unparse(first) == "multiprocessing.freeze_support()"
    top_imports = {a.name for n in tree.body if isinstance(n, ast.Import) for a in n.names}
    assert not any(name.startswith("tafl_desktop") for name in top_imports)


# ------------------------------------------------------------------------------- Inno Setup
def make_icons_ico_name() -> str:
    """The .ico file name make_icons.build writes (read from its source, without running it)."""
    return re.search(r'out / "([^"]+\.ico)"', (INSTALLER / "make_icons.py").read_text())[1]


def _iss() -> tuple[dict[str, str], str]:
    text = ISS.read_text()
    setup = dict(re.findall(r"^(\w+)=(.*)$", text.split("[Setup]", 1)[1].split("\n[", 1)[0], re.M))
    return setup, text


def test_inno_setup_script_matches_the_bundle_layout():
    setup, text = _iss()
    assert setup["AppId"] == "{{D312F608-2C7F-4F6C-821B-8E4F125EED36}", "AppId must never change"
    assert setup["SourceDir"] == r"..\.."
    assert re.search(r'#define AppVersion "([^"]+)"', text)[1] == __version__
    app = _spec_constant("APP_NAME")
    assert f'#define AppExe "{app}.exe"' in text
    sources = re.findall(r'^Source: "([^"]+)"', text, re.M)
    assert sources == [rf"dist\{app}\*"]
    assert setup["SetupIconFile"] == r"build\icons\tafl-desktop.ico"
    assert setup["SetupIconFile"].endswith(make_icons_ico_name())
    assert "{autoprograms}" in text and "{autodesktop}" in text


# ------------------------------------------------------------------- install.sh / uninstall.sh
FAKE_BUNDLE = """#!/bin/sh
# stand-in for the PyInstaller executable
case "$1" in
    --version) echo "tafl-desktop {version}" ;;
    *) echo "args: $*" ;;
esac
"""


def test_install_and_uninstall_in_a_temporary_home(tmp_path, icons):
    bundle = tmp_path / "bundle"
    (bundle / "_internal" / "resources").mkdir(parents=True)
    exe = bundle / "tafl-desktop"
    exe.write_text(FAKE_BUNDLE.format(version=__version__))
    exe.chmod(0o755)
    stage = tmp_path / "stage" / f"tafl-desktop-{__version__}"
    subprocess.run([str(LINUX / "stage.sh"), str(bundle), str(icons["master"].parent), str(stage)], check=True)

    home = tmp_path / "home with space"
    home.mkdir()
    keep = home / ".local" / "bin" / "someone-elses-tool"
    keep.parent.mkdir(parents=True)
    keep.write_text("#!/bin/sh\n")
    env = {**{k: v for k, v in os.environ.items() if k != "PREFIX"}, "HOME": str(home)}
    proc = subprocess.run([str(stage / "install.sh")], env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"Installed tafl-desktop {__version__}" in proc.stdout

    local = home / ".local"
    launcher = local / "bin" / "tafl-desktop"
    run = subprocess.run([str(launcher), "--version"], capture_output=True, text=True)
    assert run.stdout.strip() == f"tafl-desktop {__version__}"
    assert subprocess.run([str(launcher), "gui", "my game.tafl.json"], capture_output=True,
                          text=True).stdout.strip() == "args: gui my game.tafl.json"
    assert (local / "lib" / "tafl-desktop" / "_internal" / "resources").is_dir()
    assert (local / "lib" / "tafl-desktop" / "uninstall.sh").is_file()
    desktop = local / "share" / "applications" / DESKTOP.name
    assert f'Exec="{launcher}" gui %f' in desktop.read_text()
    assert f"TryExec={launcher}\n" in desktop.read_text()
    if shutil.which("desktop-file-validate"):
        assert subprocess.run(["desktop-file-validate", str(desktop)]).returncode == 0
    assert (local / "share" / "metainfo" / METAINFO.name).is_file()
    for n in (16, 48, 256, 512):
        assert (local / "share" / "icons" / "hicolor" / f"{n}x{n}" / "apps" / f"{APP_ID}.png").is_file()

    # Installing again (an upgrade) replaces the bundle whole.
    (local / "lib" / "tafl-desktop" / "stale-file").write_text("from an older version")
    assert subprocess.run([str(stage / "install.sh")], env=env, capture_output=True).returncode == 0
    assert not (local / "lib" / "tafl-desktop" / "stale-file").exists()

    proc = subprocess.run([str(local / "lib" / "tafl-desktop" / "uninstall.sh")], env=env, capture_output=True,
                          text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    # mimeinfo.cache is update-desktop-database's index of every entry in the folder, not ours to delete.
    left = sorted(p.relative_to(home).as_posix() for p in home.rglob("*") if p.is_file() and p.name != "mimeinfo.cache")
    assert left == [".local/bin/someone-elses-tool"]


def test_install_refuses_a_folder_without_the_bundle(tmp_path):
    shutil.copy(LINUX / "install.sh", tmp_path / "install.sh")
    proc = subprocess.run(["sh", str(tmp_path / "install.sh")], env={**os.environ, "HOME": str(tmp_path)},
                          capture_output=True, text=True)
    assert proc.returncode == 1
    assert "is missing: run install.sh from the unpacked tafl-desktop folder" in proc.stderr
    assert not (tmp_path / ".local").exists()


def test_shell_scripts_parse():
    for script in ("build_linux.sh", "linux/install.sh", "linux/uninstall.sh", "linux/stage.sh"):
        path = INSTALLER / script
        assert os.access(path, os.X_OK), f"{script} is not executable"
        assert subprocess.run(["sh", "-n", str(path)]).returncode == 0, script
