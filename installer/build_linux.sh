#!/bin/sh
# Build the Linux release: a PyInstaller one-folder bundle and the tarball players install from.
#
#   installer/build_linux.sh            (from anywhere; paths are taken from this file's location)
#
# Produces:
#   dist/tafl-desktop/                                   the bundle (run dist/tafl-desktop/tafl-desktop)
#   dist/tafl-desktop-<version>-linux-<arch>.tar.gz       bundle + menu entry + icons + install.sh/uninstall.sh
#
# Why a separate build venv (build/venv, git-ignored): PyInstaller collects whatever the venv holds, so it
# gets exactly the app's runtime dependencies from pyproject.toml (PySide6-Essentials, never the Addons;
# no test tools) plus PyInstaller, and the project's .venv is left alone.  It is reused while
# pyproject.toml is unchanged.  Set BUILD_VENV to use another folder, PYTHON to pick the interpreter.
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
PYTHON=${PYTHON:-python3}
BUILD_VENV=${BUILD_VENV:-$ROOT/build/venv}
PYINSTALLER_SPEC="pyinstaller>=6.10,<7"
APP=tafl-desktop
APP_ID=io.github.tafldesktop.TaflDesktop
VERSION=$(sed -n 's/^__version__ = "\(.*\)"/\1/p' tafl_desktop/__init__.py)
ARCH=$(uname -m)
STAGE_NAME=$APP-$VERSION
TARBALL=dist/$APP-$VERSION-linux-$ARCH.tar.gz

now() { date +%s; }
started=$(now)
say() { echo "build_linux: $*"; }

# ---- 1. build venv with the runtime dependencies and PyInstaller --------------------------------------
requirements=$("$PYTHON" -c '
import sys, tomllib
project = tomllib.load(open("pyproject.toml", "rb"))["project"]
# the runtime dependencies and the makers extra (DXF for laser cutters): the bundle writes every format
deps = project["dependencies"] + project["optional-dependencies"]["maker"]
print("\n".join(deps))')
stamp_text=$(printf '%s\n%s\n' "$requirements" "$PYINSTALLER_SPEC")
if [ ! -x "$BUILD_VENV/bin/python" ] || [ "$(cat "$BUILD_VENV/.deps" 2>/dev/null)" != "$stamp_text" ]; then
    say "creating the build venv in $BUILD_VENV"
    rm -rf "$BUILD_VENV"
    "$PYTHON" -m venv "$BUILD_VENV"
    printf '%s\n' "$requirements" > "$BUILD_VENV/requirements.txt"
    "$BUILD_VENV/bin/python" -m pip install --quiet --upgrade pip
    "$BUILD_VENV/bin/python" -m pip install --quiet -r "$BUILD_VENV/requirements.txt" "$PYINSTALLER_SPEC"
    printf '%s' "$stamp_text" > "$BUILD_VENV/.deps"
fi
if "$BUILD_VENV/bin/python" -m pip show --quiet PySide6-Addons >/dev/null 2>&1; then
    echo "build_linux: PySide6-Addons is installed in $BUILD_VENV; the bundle would grow by hundreds of MB" >&2
    exit 1
fi
say "$("$BUILD_VENV/bin/python" -m PyInstaller --version | sed 's/^/PyInstaller /'), $("$BUILD_VENV/bin/python" --version)"

# The native engine (tafl_native/, Rust): built into the build venv in the release profile when cargo is
# there, so PyInstaller bundles it (the spec lists it and marks the bundle; its self-test then checks it).
if command -v cargo >/dev/null 2>&1; then
    # for players' machines, not this one: a baseline processor (tafl_native/.cargo/config.toml builds
    # for the build machine's own processor, which only suits `make run`)
    case "$(uname -m)" in
        x86_64) NATIVE_RUSTFLAGS="-C target-cpu=x86-64-v2" ;;
        *) NATIVE_RUSTFLAGS="" ;;
    esac
    say "building the native engine into the build venv (${NATIVE_RUSTFLAGS:-default target})"
    RUSTFLAGS="$NATIVE_RUSTFLAGS" "$BUILD_VENV/bin/python" -m pip install --quiet --force-reinstall --no-deps ./tafl_native
else
    "$BUILD_VENV/bin/python" -m pip uninstall --quiet --yes tafl-native >/dev/null 2>&1 || true
    say "cargo not found: the bundle plays on the Python engine"
fi

# ---- 2. the bundle ---------------------------------------------------------------------------------
say "building dist/$APP with PyInstaller"
t0=$(now)
rm -rf "dist/$APP"
"$BUILD_VENV/bin/python" -m PyInstaller --noconfirm --clean --log-level WARN \
    --distpath dist --workpath build/pyinstaller installer/tafl_desktop.spec
bundle_seconds=$(( $(now) - t0 ))
[ -d "dist/$APP/_internal/resources/variants" ] || { echo "build_linux: resources missing from the bundle" >&2; exit 1; }
dangling=$(find "dist/$APP" -xtype l)
[ -z "$dangling" ] || { echo "build_linux: dangling links in the bundle: $dangling" >&2; exit 1; }
"dist/$APP/$APP" --version

# The X11 platform plugin links a few xcb helper libraries that minimal systems lack (Qt then aborts
# with a message about xcb-cursor even when another one is missing).  PyInstaller bundles them when
# the build machine has them; say which are missing rather than ship a bundle that cannot open a
# window there.  (Debian: libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1.)
xcb_missing=$(LD_LIBRARY_PATH="dist/$APP/_internal:dist/$APP/_internal/PySide6/Qt/lib" \
    ldd "dist/$APP/_internal/PySide6/Qt/plugins/platforms/libqxcb.so" 2>/dev/null | sed -n 's/^\t*\(\S*\) => not found/\1/p' | sort -u | tr '\n' ' ')
if [ -n "$xcb_missing" ]; then
    echo "build_linux: warning: the X11 plugin needs $xcb_missing- not on this build machine, so not in the bundle;" \
        "the app then needs them on the player's system (Debian: libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1)" >&2
else
    say "X11 plugin: every library it links is in the bundle or on this system"
fi

# ---- 3. the tarball ---------------------------------------------------------------------------------
rm -rf build/stage
installer/linux/stage.sh "dist/$APP" build/icons "build/stage/$STAGE_NAME"   # icons: written by the spec
rm -f "$TARBALL"
tar -C build/stage -czf "$TARBALL" "$STAGE_NAME"

# ---- 4. validate the desktop files where the validators are installed -------------------------------
if command -v desktop-file-validate >/dev/null 2>&1; then
    desktop-file-validate "installer/linux/$APP_ID.desktop"
    say "desktop-file-validate: ok"
else
    say "desktop-file-validate not installed (Debian: desktop-file-utils): skipped"
fi
if command -v appstreamcli >/dev/null 2>&1; then
    appstreamcli validate --no-net "installer/linux/$APP_ID.metainfo.xml" >/dev/null
    say "appstreamcli validate: ok"
else
    say "appstreamcli not installed (Debian: appstream): skipped"
fi

say "bundle dist/$APP: $(du -sh "dist/$APP" | cut -f1) on disk, built in ${bundle_seconds} s"
say "tarball $TARBALL: $(du -h "$TARBALL" | cut -f1)"
say "total $(( $(now) - started )) s"
