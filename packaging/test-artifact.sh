#!/usr/bin/env bash
# packaging/test-artifact.sh [light|full]: test the BUILT app (not the source tree), as CI does
# after packaging/build.sh: --info says frozen, the smoke test passes offscreen with no network
# (unshare -n, strace, the audit hook) and the clock 5 years ahead (faketime), its PNG is drawn
# and its SVG parses, ldd finds every bundled library, the smoke test passes again under Xvfb
# with the xcb platform, the .deb installs into a scratch root (dpkg --root, maintainer scripts
# chrootless) with a valid desktop entry and working MIME types and `dpkg -r` leaves nothing,
# and the light build stays within 10 % of its recorded size (packaging/size-budget.txt).
set -euo pipefail
FLAVOUR="${1:-light}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
APP="${INSPECTOR_BUILD_DIR:-$ROOT/build}/dist-$FLAVOUR/graphdef-inspector"
EXE="$APP/graphdef-inspector"
PKG=graphdef-inspector; [ "$FLAVOUR" = full ] && PKG=graphdef-inspector-full
DEB="$(ls "$ROOT"/dist/${PKG}_*.deb | tail -1)"
PY="${INSPECTOR_VENV:-$ROOT/.venv}/bin/python"   # the venv of run-tests.sh (Pillow)
CHECK="$PY $ROOT/packaging/check_artifact.py"
OUT="$(mktemp -d)"; trap 'rm -rf "$OUT"' EXIT
step() { printf '\n[artifact %s] %s (at %d s)\n' "$FLAVOUR" "$*" "$SECONDS"; }
unset PYTHONPATH   # the built app must not lean on the source tree
export QT_QPA_PLATFORM=offscreen XDG_CACHE_HOME="$OUT/cache" XDG_CONFIG_HOME="$OUT/config"

step "--version and --info"
"$EXE" --version
"$EXE" --info | tee "$OUT/info.txt"
grep -q '^frozen: *yes' "$OUT/info.txt" || { echo "FAILED: --info does not say frozen"; exit 1; }
grep -q "^flavour: *$FLAVOUR" "$OUT/info.txt" || { echo "FAILED: wrong flavour"; exit 1; }
if [ "$FLAVOUR" = light ]; then
  grep -q '^TensorFlow: *not available' "$OUT/info.txt" || { echo "FAILED: TF in light"; exit 1; }
fi

step "smoke test offline: no network namespace, strace, audit hook, clock +5 years"
wrap=()
if unshare -n true 2>/dev/null; then wrap+=(unshare -n); else echo "(unshare -n not permitted here: skipped)"; fi
if command -v faketime >/dev/null; then wrap+=(faketime "+5 years"); else echo "(faketime missing: clock not moved)"; fi
trace=()
if strace -qq -o /dev/null true 2>/dev/null; then
  trace=(strace -f -qq -e trace=connect,sendto,sendmsg -o "$OUT/strace.log")
else echo "(strace missing or ptrace not permitted: native calls not traced)"; fi
INSPECTOR_FORBID_NETWORK=1 "${wrap[@]}" "${trace[@]}" "$EXE" --smoke-test "$OUT/smoke.png" | tee "$OUT/smoke.txt"
grep -q "process name: graphdef-inspec" "$OUT/smoke.txt" || { echo "FAILED: process name"; exit 1; }
grep -q "sys.modules: no" "$OUT/smoke.txt" || { echo "FAILED: tensorflow imported"; exit 1; }
$CHECK png "$OUT/smoke.png"
$CHECK svg "$OUT/smoke.svg"
[ -f "$OUT/strace.log" ] && $CHECK strace "$OUT/strace.log"

step "ldd: every bundled library resolves"
$CHECK ldd "$APP"

step "smoke test under Xvfb with the xcb platform"
QT_QPA_PLATFORM=xcb xvfb-run -a -s "-screen 0 1280x800x24" "$EXE" --smoke-test "$OUT/xcb.png" | tee "$OUT/xcb.txt"
grep -q "Qt platform xcb" "$OUT/xcb.txt" || { echo "FAILED: not the xcb platform"; exit 1; }
$CHECK png "$OUT/xcb.png"

step ".deb into a scratch root (dpkg --root, maintainer scripts chrootless)"
S="$OUT/root"
mkdir -p "$S/var/lib/dpkg/info" "$S/var/lib/dpkg/updates" "$S/var/log"
touch "$S/var/lib/dpkg/status"
# as on a desktop: the shared MIME database exists (shared-mime-info's own types)
mkdir -p "$S/usr/share/mime/packages"
cp /usr/share/mime/packages/freedesktop.org.xml "$S/usr/share/mime/packages/"
dpkg --root="$S" --force-script-chrootless --force-depends --log="$S/var/log/dpkg.log" -i "$DEB" 2>&1 | grep -v '^(Reading database' | tail -4
test -x "$S/opt/graphdef-inspector/graphdef-inspector"
[ "$(readlink "$S/usr/bin/graphdef-inspector")" = /opt/graphdef-inspector/graphdef-inspector ]
"$S/opt/graphdef-inspector/graphdef-inspector" --version
for size in 16 22 24 32 48 64 128 256 512; do
  test -f "$S/usr/share/icons/hicolor/${size}x${size}/apps/graphdef-inspector.png"
done
test -f "$S/usr/share/icons/hicolor/scalable/apps/graphdef-inspector.svg"
desktop-file-validate "$S/usr/share/applications/graphdef-inspector.desktop"
echo "desktop entry valid"
test -f "$S/usr/share/mime/mime.cache" || { echo "FAILED: postinst did not build the MIME cache"; exit 1; }
D="$ROOT/tests/core/data"
mkdir -p "$OUT/tfjs" && printf '{"format": "graph-model", "modelTopology": {}}' > "$OUT/tfjs/model.json"
cp "$D/two_signatures/saved_model.pb" "$OUT/exported.pb"
while read -r file want; do
  got="$(XDG_DATA_DIRS="$S/usr/share:/usr/share" XDG_CURRENT_DESKTOP=GNOME xdg-mime query filetype "$file")"
  [ "$got" = "$want" ] || { echo "FAILED: xdg-mime: $file is $got, not $want"; exit 1; }
  echo "xdg-mime: $(basename "$file") -> $got"
done <<LIST
$D/v1_training.pb application/x-tensorflow-graphdef
$D/two_signatures/saved_model.pb application/x-tensorflow-savedmodel
$OUT/exported.pb application/x-tensorflow-savedmodel
$D/text_really.pb text/x-tensorflow-pbtxt
$D/v1_training.pbtxt text/x-tensorflow-pbtxt
$D/v1_training.meta application/x-tensorflow-metagraph
$D/digits_float.tflite application/x-tflite
$OUT/tfjs/model.json application/x-tensorflowjs-model
LIST
dpkg --root="$S" --force-script-chrootless --log="$S/var/log/dpkg.log" -r "$PKG" 2>&1 | tail -2
left="$(find "$S" -path "$S/var" -prune -o \( -name '*graphdef-inspector*' -o -path '*/opt/*' \) -print)"
[ -z "$left" ] || { echo "FAILED: dpkg -r left: $left"; exit 1; }
if grep -rqs tensorflow "$S/usr/share/mime"; then echo "FAILED: our MIME types outlived the package"; exit 1; fi
echo "dpkg -r left nothing behind (and the MIME database no longer has our types)"

if [ "$FLAVOUR" = light ]; then
  step "size budget"
  $CHECK size "$APP" "$ROOT/packaging/size-budget.txt"
fi
step "all artifact checks passed"
