#!/usr/bin/env bash
# make_deb.sh APP_DIR light|full VERSION OUT_DIR: a .deb of a one-folder build with dpkg-deb:
# the app in /opt/graphdef-inspector, /usr/bin/graphdef-inspector, the desktop entry, hicolor
# icons, the MIME types; maintainer scripts refresh the MIME, desktop and icon caches (they
# honour $DPKG_ROOT, so `dpkg --root DIR --force-script-chrootless` works in a scratch root).
set -euo pipefail
APP="$1"; FLAVOUR="$2"; VERSION="$3"; OUT="$4"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PKG=graphdef-inspector; OTHER=graphdef-inspector-full
[ "$FLAVOUR" = full ] && { PKG=graphdef-inspector-full; OTHER=graphdef-inspector; }
STAGE="$(mktemp -d)"
trap 'rm -rf "$STAGE"' EXIT
ROOTFS="$STAGE/root"
mkdir -p "$ROOTFS/opt" "$ROOTFS/usr/bin" "$ROOTFS/usr/share/applications" \
  "$ROOTFS/usr/share/mime/packages" "$ROOTFS/DEBIAN" "$ROOTFS/usr/share/doc/$PKG"
cp -a "$APP" "$ROOTFS/opt/graphdef-inspector"
ln -s /opt/graphdef-inspector/graphdef-inspector "$ROOTFS/usr/bin/graphdef-inspector"
install -m 644 "$HERE/graphdef-inspector.desktop" "$ROOTFS/usr/share/applications/"
install -m 644 "$HERE/graphdef-inspector.xml" "$ROOTFS/usr/share/mime/packages/"
for png in "$HERE"/icons/graphdef-inspector-*.png; do
  size="$(basename "$png" .png)"; size="${size##*-}"
  install -D -m 644 "$png" "$ROOTFS/usr/share/icons/hicolor/${size}x${size}/apps/graphdef-inspector.png"
done
install -D -m 644 "$HERE/icons/graphdef-inspector.svg" \
  "$ROOTFS/usr/share/icons/hicolor/scalable/apps/graphdef-inspector.svg"
printf 'GraphDef Inspector %s (%s flavour). Licences of the bundled parts:\n/opt/graphdef-inspector/_internal/licenses (bundled.json lists them).\n' \
  "$VERSION" "$FLAVOUR" > "$ROOTFS/usr/share/doc/$PKG/copyright"
installed_kb="$(du -sk "$ROOTFS" | cut -f1)"
cat > "$ROOTFS/DEBIAN/control" <<CONTROL
Package: $PKG
Version: $VERSION
Architecture: $(dpkg --print-architecture)
Maintainer: GraphDef Inspector developers <graphdef-inspector@localhost>
Installed-Size: $installed_kb
Depends: libc6, libfontconfig1, libxkbcommon0, libdbus-1-3
Recommends: libxkbcommon-x11-0, libxcb-cursor0, libxcb-icccm4, libxcb-keysyms1, libxcb-shape0, graphviz
Conflicts: $OTHER
Replaces: $OTHER
Section: science
Priority: optional
Description: look inside TensorFlow models (desktop app and command line)
 GraphDef Inspector opens GraphDefs, SavedModels, checkpoints, TFLite and TF.js
 models, shows their graph, inputs, outputs and sizes, and optimizes them for
 phones. Works offline: no network access, no telemetry, no expiry date.
 This is the $FLAVOUR flavour.
CONTROL
cat > "$ROOTFS/DEBIAN/postinst" <<'SCRIPT'
#!/bin/sh
set -e
R="${DPKG_ROOT:-}"
if command -v update-mime-database >/dev/null 2>&1; then update-mime-database "$R/usr/share/mime" || true; fi
if command -v update-desktop-database >/dev/null 2>&1; then update-desktop-database -q "$R/usr/share/applications" || true; fi
if command -v gtk-update-icon-cache >/dev/null 2>&1; then gtk-update-icon-cache -q -t -f "$R/usr/share/icons/hicolor" || true; fi
exit 0
SCRIPT
cat > "$ROOTFS/DEBIAN/postrm" <<'SCRIPT'
#!/bin/sh
set -e
R="${DPKG_ROOT:-}"
case "$1" in
  remove|purge)
    # files a Python given with --tf-python may have left (byte code) go with the package
    rm -rf "$R/opt/graphdef-inspector"
    if command -v update-mime-database >/dev/null 2>&1 && [ -d "$R/usr/share/mime/packages" ]; then update-mime-database "$R/usr/share/mime" || true; fi
    if command -v update-desktop-database >/dev/null 2>&1; then update-desktop-database -q "$R/usr/share/applications" || true; fi
    if command -v gtk-update-icon-cache >/dev/null 2>&1; then gtk-update-icon-cache -q -t -f "$R/usr/share/icons/hicolor" || true; fi
    ;;
esac
exit 0
SCRIPT
chmod 755 "$ROOTFS/DEBIAN/postinst" "$ROOTFS/DEBIAN/postrm"
mkdir -p "$OUT"
DEB="$OUT/${PKG}_${VERSION}_$(dpkg --print-architecture).deb"
dpkg-deb --root-owner-group -Zxz -z1 --build "$ROOTFS" "$DEB" >/dev/null
echo "[deb] $DEB ($(du -m "$DEB" | cut -f1) MB)" >&2
