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

# The package manager's locks: on a fresh Ubuntu machine the automatic updates hold them for
# minutes after boot. We wait for them (at most INSPECTOR_APT_LOCK_WAIT seconds, saying who
# holds them), and apt-get waits for the rest of that time itself (DPkg::Lock::Timeout).
read -r -a APT_LOCKS <<< "${INSPECTOR_APT_LOCKS:-/var/lib/dpkg/lock-frontend /var/lib/dpkg/lock /var/lib/apt/lists/lock /var/cache/apt/archives/lock}"
APT_LOCK_WAIT="${INSPECTOR_APT_LOCK_WAIT:-900}"
APT_LOCK_POLL="${INSPECTOR_APT_LOCK_POLL:-5}"
APT_LOCK_SAY_EVERY="${INSPECTOR_APT_LOCK_SAY_EVERY:-30}"
APT_BUSY=""         # set when the locks were still held after the wait
SUDO=""

# PIDs of the processes holding a lock file open (none when free, or without fuser to tell).
apt_lock_holders() {
  command -v fuser >/dev/null 2>&1 || return 0
  local lock
  for lock in "${APT_LOCKS[@]}"; do
    [ -e "$lock" ] || continue
    $SUDO fuser "$lock" 2>/dev/null || true
  done | tr -s ' \t' '\n' | grep -E '^[0-9]+$' | sort -un | paste -sd' ' - || true
}

# Seconds left of the lock wait since $1 (a $SECONDS reading), at least 10.
apt_time_left() {
  local left=$((APT_LOCK_WAIT - (SECONDS - $1)))
  [ "$left" -gt 10 ] && echo "$left" || echo 10
}

# Wait until no process holds the package manager's locks, at most APT_LOCK_WAIT seconds.
wait_for_apt_locks() {
  local start=$SECONDS holders names said=-1 waited
  holders="$(apt_lock_holders)"
  while [ -n "$holders" ]; do
    waited=$((SECONDS - start))
    names="$(for pid in $holders; do ps -o comm= -p "$pid" 2>/dev/null || true; done |
             sort -u | paste -sd, - || true)"
    if [ "$waited" -ge "$APT_LOCK_WAIT" ]; then
      say "the package manager is still busy after ${waited}s (${names:-process} $holders); not waiting longer"
      APT_BUSY="held by ${names:-process} $holders for over ${APT_LOCK_WAIT}s"
      return 1
    fi
    if [ "$said" -lt 0 ] || [ $((waited - said)) -ge "$APT_LOCK_SAY_EVERY" ]; then
      say "waiting for the package manager: ${names:-a process} (PID $holders) holds its lock," \
          "often a fresh machine's automatic updates (${waited}s, up to ${APT_LOCK_WAIT}s)"
      said=$waited
    fi
    sleep "$APT_LOCK_POLL"
    holders="$(apt_lock_holders)"
  done
  [ "$said" -ge 0 ] && say "the package manager is free after $((SECONDS - start))s"
  return 0
}

missing_system_packages() {
  local pkg
  for pkg in "${APT_PACKAGES[@]}"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || printf '%s\n' "$pkg"
  done
}

install_system_packages() {
  command -v dpkg >/dev/null 2>&1 || { say "not a Debian system: skipping apt packages"; return; }
  local missing=() start
  mapfile -t missing < <(missing_system_packages)
  [ ${#missing[@]} -eq 0 ] && return
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 && SUDO="sudo" || {
      say "missing system packages (${missing[*]}) and no root: install them with apt-get"; return; }
  fi
  say "installing system packages: ${missing[*]}"
  start=$SECONDS
  wait_for_apt_locks || return 0
  $SUDO apt-get -o DPkg::Lock::Timeout="$(apt_time_left "$start")" update -qq ||
    say "apt-get update failed; trying to install anyway"
  if ! DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout="$(apt_time_left "$start")" \
      install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; then
    wait_for_apt_locks || return 0
    for pkg in "${missing[@]}"; do   # names differ between releases: install what exists
      DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=60 install -y -qq \
        --no-install-recommends "$pkg" >/dev/null 2>&1 || say "could not install $pkg (continuing)"
    done
  fi
}

# The last words of the set-up: which system packages are still missing, and what that costs.
report_system_packages() {
  command -v dpkg >/dev/null 2>&1 || return 0
  local missing=()
  mapfile -t missing < <(missing_system_packages)
  if [ ${#missing[@]} -eq 0 ]; then
    say "system packages: all ${#APT_PACKAGES[@]} installed"
    return 0
  fi
  say "MISSING system packages (${#missing[@]} of ${#APT_PACKAGES[@]}): ${missing[*]}"
  [ -n "$APT_BUSY" ] && say "  not installed: the package manager was busy ($APT_BUSY)"
  say "  the tests that need them are skipped; install them with:"
  say "  sudo apt-get install --no-install-recommends ${missing[*]}"
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

# Compile the numba kernels that read a big GraphDef (core/model/wire_kernels.py) into numba's
# cache (~/.cache/graphdef-inspector/numba): a first big model would otherwise wait ~5 s.
warm_kernels() {
  "$VENV/bin/python" -c "from inspector.core.model import wire_columns; wire_columns.warm()" \
    >/dev/null 2>&1 || say "could not compile the numba kernels (big models open slower)"
}

if [ "${INSPECTOR_SETUP_DEFINE_ONLY:-}" != 1 ]; then   # 1: the functions only (tests)
  install_system_packages
  create_venv
  compile_bytecode
  warm_kernels
  report_system_packages
fi
