#!/bin/sh
# Lay out the Linux release folder that becomes the tarball:
#
#   stage.sh BUNDLE_DIR ICONS_DIR STAGE_DIR
#
#   STAGE_DIR/tafl-desktop/            copy of BUNDLE_DIR (the PyInstaller one-folder bundle)
#   STAGE_DIR/install.sh, uninstall.sh
#   STAGE_DIR/share/applications/      .desktop entry
#   STAGE_DIR/share/metainfo/          AppStream file
#   STAGE_DIR/share/icons/hicolor/     ICONS_DIR/hicolor (installer/make_icons.py)
#   STAGE_DIR/README.txt
#
# A script of its own so that the fast tests can stage a stand-in bundle and exercise install.sh and
# uninstall.sh exactly as players get them, without a 30-second PyInstaller build.
set -eu

if [ $# -ne 3 ]; then
    echo "usage: stage.sh BUNDLE_DIR ICONS_DIR STAGE_DIR" >&2
    exit 2
fi
BUNDLE=$1
ICONS=$2
STAGE=$3
HERE=$(cd "$(dirname "$0")" && pwd)
APP=tafl-desktop
APP_ID=io.github.tafldesktop.TaflDesktop

[ -x "$BUNDLE/$APP" ] || { echo "stage.sh: $BUNDLE/$APP is not an executable" >&2; exit 1; }
[ -d "$ICONS/hicolor" ] || { echo "stage.sh: $ICONS/hicolor is missing (run installer/make_icons.py)" >&2; exit 1; }

rm -rf "$STAGE"
mkdir -p "$STAGE/share/applications" "$STAGE/share/metainfo" "$STAGE/share/icons"
cp -R "$BUNDLE" "$STAGE/$APP"
cp "$HERE/install.sh" "$HERE/uninstall.sh" "$STAGE/"
chmod 755 "$STAGE/install.sh" "$STAGE/uninstall.sh"
cp "$HERE/$APP_ID.desktop" "$STAGE/share/applications/"
cp "$HERE/$APP_ID.metainfo.xml" "$STAGE/share/metainfo/"
cp -R "$ICONS/hicolor" "$STAGE/share/icons/"
cat > "$STAGE/README.txt" <<README
Tafl Desktop for Linux

Install for your user (into ~/.local, no root needed):   ./install.sh
Uninstall:                                                ~/.local/lib/$APP/uninstall.sh
Run without installing:                                   ./$APP/$APP
Check that everything works on this machine:              ./$APP/$APP --self-test

The app needs the usual desktop libraries of any Qt 6 program (OpenGL/EGL, fontconfig, X11 or
Wayland), which every desktop distribution has.  Settings and saved games live in ~/.config/TaflDesktop
and ~/.local/share/TaflDesktop; uninstalling keeps them.
README
