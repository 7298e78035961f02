#!/bin/sh
# Remove what install.sh put under $PREFIX (default ~/.local).  Your settings and saved games are kept
# (~/.config/TaflDesktop and ~/.local/share/TaflDesktop); delete those folders yourself to forget them.
set -eu

APP=tafl-desktop
APP_ID=io.github.tafldesktop.TaflDesktop
PREFIX=${PREFIX:-$HOME/.local}
LIB=$PREFIX/lib/$APP
BIN=$PREFIX/bin
SHARE=$PREFIX/share

# Only remove a launcher that install.sh wrote (it names the bundle folder), never someone else's file.
if [ -f "$BIN/$APP" ] && grep -q "$LIB/$APP" "$BIN/$APP" 2>/dev/null; then
    rm -f "$BIN/$APP"
fi
rm -f "$SHARE/applications/$APP_ID.desktop" "$SHARE/metainfo/$APP_ID.metainfo.xml"
for icon in "$SHARE"/icons/hicolor/*/apps/"$APP_ID".png; do
    if [ -e "$icon" ]; then rm -f "$icon"; fi
done
rm -rf "$LIB" "$LIB.new"

if command -v update-desktop-database >/dev/null 2>&1; then
    update-desktop-database -q "$SHARE/applications" 2>/dev/null || true
fi
echo "Tafl Desktop removed from $PREFIX (settings and saved games kept)."
