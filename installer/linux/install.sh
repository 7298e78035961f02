#!/bin/sh
# Install Tafl Desktop for the current user only: no root, nothing outside $PREFIX (default ~/.local).
#
#   $PREFIX/lib/tafl-desktop/        the bundle (replaced whole on every install) and uninstall.sh
#   $PREFIX/bin/tafl-desktop         a small launcher script
#   $PREFIX/share/applications/      the menu entry (its Exec= points at the launcher's full path,
#                                    because ~/.local/bin is not on every desktop session's PATH)
#   $PREFIX/share/icons/hicolor/     the icon, 16 to 512 px
#   $PREFIX/share/metainfo/          the AppStream description (software centres)
#
# Run it from the unpacked tarball: ./install.sh   (PREFIX=/some/where ./install.sh to install elsewhere)
set -eu

APP=tafl-desktop
APP_ID=io.github.tafldesktop.TaflDesktop
HERE=$(cd "$(dirname "$0")" && pwd)
PREFIX=${PREFIX:-$HOME/.local}
LIB=$PREFIX/lib/$APP
BIN=$PREFIX/bin
SHARE=$PREFIX/share

if [ ! -x "$HERE/$APP/$APP" ]; then
    echo "install.sh: $HERE/$APP/$APP is missing: run install.sh from the unpacked $APP folder" >&2
    exit 1
fi

# Copy next to the old install first, then swap: an interrupted copy never leaves a broken app behind,
# and files that a newer version dropped do not linger.
mkdir -p "$PREFIX/lib" "$BIN" "$SHARE/applications" "$SHARE/metainfo"
rm -rf "$LIB.new"
cp -R "$HERE/$APP" "$LIB.new"
cp "$HERE/uninstall.sh" "$LIB.new/uninstall.sh"
chmod 755 "$LIB.new/uninstall.sh"
rm -rf "$LIB"
mv "$LIB.new" "$LIB"

# A launcher script rather than a symlink: the bundle finds its _internal folder next to the real file.
cat > "$BIN/$APP" <<LAUNCHER
#!/bin/sh
# Tafl Desktop launcher (written by install.sh; removed by $LIB/uninstall.sh)
exec "$LIB/$APP" "\$@"
LAUNCHER
chmod 755 "$BIN/$APP"

sed -e "s|^Exec=$APP |Exec=\"$BIN/$APP\" |" -e "s|^TryExec=.*|TryExec=$BIN/$APP|" \
    "$HERE/share/applications/$APP_ID.desktop" > "$SHARE/applications/$APP_ID.desktop"
cp "$HERE/share/metainfo/$APP_ID.metainfo.xml" "$SHARE/metainfo/"
for icon in "$HERE"/share/icons/hicolor/*/apps/"$APP_ID".png; do
    size=$(basename "$(dirname "$(dirname "$icon")")")
    mkdir -p "$SHARE/icons/hicolor/$size/apps"
    cp "$icon" "$SHARE/icons/hicolor/$size/apps/"
done

# Let menus and icon themes notice at once; harmless if the tools are not installed.
if command -v update-desktop-database >/dev/null 2>&1; then
    update-desktop-database -q "$SHARE/applications" 2>/dev/null || true
fi
if command -v gtk-update-icon-cache >/dev/null 2>&1 && [ -f "$SHARE/icons/hicolor/index.theme" ]; then
    gtk-update-icon-cache -q -t "$SHARE/icons/hicolor" 2>/dev/null || true
fi

if ! version=$("$LIB/$APP" --version 2>&1); then
    echo "install.sh: installed, but the app does not start on this system: $version" >&2
    exit 1
fi
echo "Installed $version into $LIB"
echo "Start it from the menu (Games > Tafl Desktop) or with: $BIN/$APP"
case ":$PATH:" in
    *":$BIN:"*) ;;
    *) echo "Note: $BIN is not on your PATH; add it to start tafl-desktop by name." ;;
esac
echo "Uninstall with: $LIB/uninstall.sh"
