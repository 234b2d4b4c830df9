#!/usr/bin/env bash
# packaging/build.sh light|full: a PyInstaller one-folder build of GraphDef Inspector from a
# clean virtualenv pinned by packaging/constraints.txt, then its .tar.gz and .deb in dist/.
#   light: no TensorFlow (TF actions say why and how: --tf-python PATH); target < 200 MB
#   full:  TensorFlow, LiteRT, the quantizer and Vela inside
# The build virtualenv lives in $INSPECTOR_BUILD_DIR (default build/), reused while the
# constraints and pyproject.toml are unchanged.
set -euo pipefail
FLAVOUR="${1:-}"
case "$FLAVOUR" in light|full) ;; *) echo "usage: packaging/build.sh light|full" >&2; exit 2;; esac
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${INSPECTOR_BUILD_DIR:-$ROOT/build}"
DIST="$ROOT/dist"
VENV="$BUILD/venv-$FLAVOUR"
PYTHON="${PYTHON:-python3}"
say() { printf '[build %s] %s\n' "$FLAVOUR" "$*" >&2; }
started=$SECONDS

extras="gui"; [ "$FLAVOUR" = full ] && extras="gui,tf"
requirements() {  # the app's dependencies from pyproject.toml (not the app itself)
  "$PYTHON" - "$ROOT/pyproject.toml" "$extras" <<'PY'
import sys, tomllib
project = tomllib.load(open(sys.argv[1], "rb"))["project"]
deps = list(project["dependencies"])
for extra in sys.argv[2].split(","):
    deps += project["optional-dependencies"][extra]
print("\n".join(deps))
PY
}

want="$(cat "$ROOT/packaging/constraints.txt" "$ROOT/pyproject.toml" | sha256sum | cut -d' ' -f1)"
if [ ! -f "$VENV/.stamp" ] || [ "$(cat "$VENV/.stamp")" != "$want" ]; then
  say "creating the build virtualenv $VENV"
  rm -rf "$VENV"
  "$PYTHON" -m venv "$VENV"
  requirements > "$BUILD/requirements-$FLAVOUR.txt"
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check \
    -c "$ROOT/packaging/constraints.txt" pyinstaller -r "$BUILD/requirements-$FLAVOUR.txt"
  echo "$want" > "$VENV/.stamp"
fi
if [ "$FLAVOUR" = full ] && ! "$VENV/bin/python" -c "import tf_keras" 2>/dev/null; then
  # legacy Keras reads Keras 2 files, as in a source install (packaging/setup.sh); it declares
  # the "tensorflow" distribution, which would add a second TensorFlow: no dependencies
  say "tf-keras (pinned, no dependencies)"
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check --no-deps \
    -c "$ROOT/packaging/constraints.txt" tf_keras
fi
VERSION="$("$VENV/bin/python" -c 'import sys; sys.path.insert(0, sys.argv[1]); from inspector.diagnostics import VERSION; print(VERSION)' "$ROOT")"

STAGE="$BUILD/stage-$FLAVOUR"
rm -rf "$STAGE" && mkdir -p "$STAGE/icons"
echo "$FLAVOUR" > "$STAGE/flavour.txt"
"$VENV/bin/python" "$ROOT/packaging/collect_licenses.py" "$STAGE/licenses"
cp "$ROOT/packaging/linux/icons/"*.png "$ROOT/packaging/linux/icons/"*.svg "$STAGE/icons/"
# the package as source files (for a --tf-python worker), without caches
cp -r "$ROOT/inspector" "$STAGE/inspector"
find "$STAGE/inspector" -name '__pycache__' -prune -exec rm -rf {} +

say "the modules imported by the first picture (stored uncompressed)"
PYTHONPATH="$ROOT" "$VENV/bin/python" "$ROOT/packaging/startup_modules.py" \
  "$STAGE/startup-modules.txt"
say "PySide's support code, compiled once"
"$VENV/bin/python" "$ROOT/packaging/shiboken_code.py" "$STAGE/shiboken-code.bin"
say "PyInstaller (one folder)"
INSPECTOR_ROOT="$ROOT" INSPECTOR_FLAVOUR="$FLAVOUR" INSPECTOR_STAGE="$STAGE" \
  "$VENV/bin/pyinstaller" --noconfirm --log-level WARN --clean \
  --distpath "$BUILD/dist-$FLAVOUR" --workpath "$BUILD/work-$FLAVOUR" \
  "$ROOT/packaging/pyinstaller/graphdef-inspector.spec"
APP="$BUILD/dist-$FLAVOUR/graphdef-inspector"
"$VENV/bin/python" "$ROOT/packaging/collect_licenses.py" --prune "$APP" \
  "$BUILD/work-$FLAVOUR/graphdef-inspector/PYZ-00.pyz"
# Python's own libraries carry debug symbols (libpython: 22 MB of 4): strip those only; the
# wheels' libraries (numpy.libs, pillow.libs, Qt) are patched by auditwheel and break if
# stripped ("ELF load command address/offset not page-aligned")
find "$APP/_internal" -maxdepth 1 -name 'libpython*.so*' -type f -exec strip --strip-debug {} +
find "$APP/_internal/python3"* -name '*.so' -type f -exec strip --strip-debug {} + 2>/dev/null || true

mkdir -p "$DIST"
NAME="graphdef-inspector-$VERSION-$FLAVOUR-linux-$(uname -m)"
say "$NAME.tar.gz"
tar -C "$BUILD/dist-$FLAVOUR" --transform "s,^graphdef-inspector,$NAME," -czf \
  "$DIST/$NAME.tar.gz" graphdef-inspector
bash "$ROOT/packaging/linux/make_deb.sh" "$APP" "$FLAVOUR" "$VERSION" "$DIST"
size=$(du -sm "$APP" | cut -f1)
say "done in $((SECONDS - started)) s: $APP ($size MB on disk)"
echo "$APP"
