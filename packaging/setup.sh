#!/usr/bin/env bash
# One-time (and idempotent) set-up on Debian/Ubuntu: system packages when missing, a virtualenv
# in .venv, and the Python dependencies. Sourced by run-demo.sh and run-tests.sh.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${INSPECTOR_VENV:-$ROOT/.venv}"
PYTHON="${PYTHON:-python3}"

say() { printf '[setup] %s\n' "$*" >&2; }

# Graphviz renders DOT exports; xvfb gives the GUI a screen in screenshot tests; the rest are the
# runtime libraries Qt 6's xcb and offscreen platforms load; Chromium and poppler's pdftoppm
# check exported tours (HTML opened offline in a headless browser, PDF pages rendered);
# desktop-file-utils, shared-mime-info, xdg-utils and GIO check the desktop entry and the MIME
# types (tests/packaging), faketime runs the built app's smoke test years ahead (.ci/run).
APT_PACKAGES=(graphviz xvfb xauth chromium poppler-utils libgl1 libegl1 libxkbcommon0 libxkbcommon-x11-0 libfontconfig1
  libdbus-1-3 libxcb-cursor0 libxcb-icccm4 libxcb-image0 libxcb-keysyms1 libxcb-randr0
  libxcb-render-util0 libxcb-shape0 libxcb-xinerama0 libxcb-xfixes0 python3-venv
  desktop-file-utils shared-mime-info xdg-utils libglib2.0-bin faketime)

install_system_packages() {
  command -v dpkg >/dev/null 2>&1 || { say "not a Debian system: skipping apt packages"; return; }
  local missing=()
  for pkg in "${APT_PACKAGES[@]}"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 && sudo="sudo" || {
      say "missing system packages (${missing[*]}) and no root: install them with apt-get"; return; }
  fi
  say "installing system packages: ${missing[*]}"
  $sudo apt-get update -qq || say "apt-get update failed; trying to install anyway"
  if ! DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
      "${missing[@]}" >/dev/null; then
    for pkg in "${missing[@]}"; do   # names differ between releases: install what exists
      DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
        "$pkg" >/dev/null 2>&1 || say "could not install $pkg (continuing)"
    done
  fi
}

# Legacy Keras (tf-keras) reads Keras 2 files and the Keras objects in SavedModels written by
# TF 2.x before Keras 3. It must match TensorFlow's minor version, and it declares a dependency
# on the "tensorflow" distribution, which would install a second TensorFlow over tensorflow-cpu:
# so it is installed here without dependencies instead of as an extra.
install_legacy_keras() {
  local tfv
  tfv="$("$VENV/bin/python" - <<'PY' 2>/dev/null
from importlib import metadata as m
for dist in ("tensorflow-cpu", "tensorflow"):
    try:
        print(".".join(m.version(dist).split(".")[:2]))
        break
    except m.PackageNotFoundError:
        pass
PY
)" || return 0
  [ -n "$tfv" ] || return 0
  "$VENV/bin/python" -m pip install -q --no-deps "tf-keras~=${tfv}.0" ||
    say "could not install tf-keras ${tfv}: Keras 2 files will not open"
}

create_venv() {
  if [ ! -x "$VENV/bin/python" ]; then
    say "creating virtualenv in $VENV"
    "$PYTHON" -m venv "$VENV"
  fi
  local stamp="$VENV/.inspector-deps"
  local want
  want="$(cat "$ROOT/pyproject.toml" "${BASH_SOURCE[0]}" | sha256sum | cut -d' ' -f1)"
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    say "installing Python dependencies (first run takes a few minutes)"
    "$VENV/bin/python" -m pip install -q --upgrade pip >/dev/null
    "$VENV/bin/python" -m pip install -q -e "$ROOT[tf,gui,dev]"
    install_legacy_keras
    echo "$want" > "$stamp"
  fi
}

# Byte-compile our own modules: an editable install leaves that to the first import, which
# never writes it when PYTHONDONTWRITEBYTECODE is set, and compiling them costs every start
# 0.15-0.2 s. Only files changed since the last run are compiled again.
compile_bytecode() {
  "$VENV/bin/python" -m compileall -q "$ROOT/inspector" >/dev/null 2>&1 ||
    say "could not byte-compile inspector/ (start-up will be slower)"
}

install_system_packages
create_venv
compile_bytecode
