"""packaging/setup.sh's system packages on a machine whose package manager is busy (a fresh
Ubuntu's automatic updates hold its lock for minutes): it waits for the lock, saying who holds
it, installs once it is free, and ends by naming the packages still missing. Run in bash with
a fake apt-get, dpkg and sudo first on PATH (the fake apt-get fails while the lock is held, as
apt does past its timeout) and a real process holding a lock file open: nothing touches the
machine's packages."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SETUP = os.path.join(ROOT, "packaging", "setup.sh")

FAKE_DPKG = """#!/usr/bin/env bash
[ "$1" = "-s" ] && [ -e "$FAKE_ROOT/installed/$2" ]
"""
FAKE_APT_GET = """#!/usr/bin/env bash
echo "$*" >> "$FAKE_ROOT/apt.log"
if fuser "$FAKE_LOCK" >/dev/null 2>&1; then
  echo "E: Could not get lock $FAKE_LOCK. It is held by process $(fuser "$FAKE_LOCK" 2>/dev/null)" >&2
  exit 100
fi
install=0; names=()
for a in "$@"; do
  case "$a" in install) install=1 ;; -*|DPkg::*) ;; *) [ $install = 1 ] && names+=("$a") ;; esac
done
for n in "${names[@]}"; do
  grep -qx "$n" "$FAKE_ROOT/available" || { echo "E: Unable to locate package $n" >&2; exit 100; }
done
for n in "${names[@]}"; do touch "$FAKE_ROOT/installed/$n"; done
"""
FAKE_SUDO = """#!/usr/bin/env bash
exec "$@"
"""


def fake_machine(tmp_path):
    bin_dir, root = tmp_path / "bin", tmp_path / "machine"
    bin_dir.mkdir()
    (root / "installed").mkdir(parents=True)
    (root / "installed" / "python3-venv").touch()            # one there already
    (root / "available").write_text("graphviz\nxvfb\npython3-venv\n")
    for name, text in (("dpkg", FAKE_DPKG), ("apt-get", FAKE_APT_GET), ("sudo", FAKE_SUDO)):
        (bin_dir / name).write_text(text)
        (bin_dir / name).chmod(0o755)
    lock = root / "lock-frontend"
    lock.touch()
    return bin_dir, root, lock


def run_setup(tmp_path, bin_dir, root, lock, wait: int):
    script = f"""
set -euo pipefail
INSPECTOR_SETUP_DEFINE_ONLY=1
source {SETUP}
APT_PACKAGES=(graphviz xvfb python3-venv no-such-package)
install_system_packages
report_system_packages
"""
    env = dict(os.environ, PATH=f"{bin_dir}:{os.environ['PATH']}", FAKE_ROOT=str(root),
               FAKE_LOCK=str(lock), INSPECTOR_APT_LOCKS=str(lock),
               INSPECTOR_APT_LOCK_WAIT=str(wait), INSPECTOR_APT_LOCK_POLL="1",
               INSPECTOR_APT_LOCK_SAY_EVERY="2", INSPECTOR_VENV=str(tmp_path / "venv"),
               PYTHON="false")       # never a virtualenv, should the script run past its functions
    began = time.monotonic()
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, env=env,
                          timeout=60)
    return done, time.monotonic() - began


def hold(lock, seconds: float):
    """A process that holds the lock file open (as apt and unattended-upgrades hold theirs)."""
    holder = subprocess.Popen([sys.executable, "-c", f"import time; f = open({str(lock)!r}); "
                               f"time.sleep({seconds})"])
    time.sleep(0.5)
    return holder


def name_of(process) -> str:
    return subprocess.run(["ps", "-o", "comm=", "-p", str(process.pid)], capture_output=True,
                          text=True).stdout.strip()


@pytest.fixture(autouse=True)
def need_tools():
    for tool in ("bash", "fuser", "ps"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed")


def test_setup_waits_for_the_lock_then_installs_and_names_what_is_missing(tmp_path):
    bin_dir, root, lock = fake_machine(tmp_path)
    holder = hold(lock, 4)
    name = name_of(holder)
    try:
        done, took = run_setup(tmp_path, bin_dir, root, lock, wait=30)
    finally:
        holder.kill()
    err = done.stderr
    assert done.returncode == 0, err
    assert f"waiting for the package manager: {name} (PID {holder.pid}) holds its lock" in err
    assert "the package manager is free after" in err and took >= 3
    assert "Could not get lock" not in err                  # apt-get ran only once it was free
    log = (root / "apt.log").read_text()
    assert "-o DPkg::Lock::Timeout=" in log                 # and apt waits for the rest itself
    assert (root / "installed" / "graphviz").exists() and (root / "installed" / "xvfb").exists()
    assert "could not install no-such-package" in err
    last = err.strip().splitlines()[-3:]                    # the last words of the set-up
    assert last[0] == "[setup] MISSING system packages (1 of 4): no-such-package"
    assert "tests that need them are skipped" in last[1]
    assert last[-1].endswith("apt-get install --no-install-recommends no-such-package")


def test_a_lock_held_past_the_wait_is_said_and_nothing_is_skipped_silently(tmp_path):
    bin_dir, root, lock = fake_machine(tmp_path)
    holder = hold(lock, 30)
    name = name_of(holder)
    try:
        done, took = run_setup(tmp_path, bin_dir, root, lock, wait=2)
    finally:
        holder.kill()
    err = done.stderr
    assert done.returncode == 0, err
    assert took < 15 and "still busy after" in err
    assert not (root / "apt.log").exists()                  # no install into a held lock
    assert "could not install" not in err
    assert "MISSING system packages (3 of 4): graphviz xvfb no-such-package" in err
    assert f"the package manager was busy (held by {name} {holder.pid}" in err
