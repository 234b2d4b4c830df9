"""Offline, for good (issue 37): the smoke test passes with every Python-level network call
failing loudly (an audit hook), in a network namespace with no interfaces (`unshare -n`,
where permitted) and with the clock years ahead (faketime, where installed).

What this proves: no code path of the smoke test calls the network from Python, the app
needs no network interface, and nothing expires by date. `.ci/run` does the same with the
built artifact and adds strace, which sees native connect() calls too."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def can_unshare() -> bool:
    return shutil.which("unshare") is not None and subprocess.run(
        ["unshare", "-n", "true"], capture_output=True).returncode == 0


def test_audit_hook_blocks_and_reports_a_connect():
    code = ("from inspector.offline import forbid_network; forbid_network()\n"
            "import socket\n"
            "try:\n    socket.create_connection(('127.0.0.1', 9), timeout=1)\n"
            "except RuntimeError as e:\n    print('blocked', e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=ROOT), timeout=60)
    assert "blocked network access is forbidden" in out.stdout
    assert "network attempt blocked: socket." in out.stderr


def test_smoke_test_offline_and_years_ahead(tmp_path):
    prefix = []
    if can_unshare():
        prefix += ["unshare", "-n"]
    if shutil.which("faketime"):
        prefix += ["faketime", "+5 years"]
    if not prefix:
        pytest.skip("neither unshare -n nor faketime available: only the audit hook would run")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "tests", "no_qt"),
                                                       ROOT]),
               INSPECTOR_HIDE="tf", QT_QPA_PLATFORM="offscreen", INSPECTOR_FORBID_NETWORK="1")
    probe = subprocess.run([*prefix, sys.executable, "-c",
                            "import datetime; print(datetime.date.today().year)"],
                           capture_output=True, text=True, env=env, timeout=60)
    import datetime

    if "faketime" in prefix:
        assert int(probe.stdout) >= datetime.date.today().year + 4   # the clock is ahead
    out = subprocess.run([*prefix, sys.executable, "-m", "inspector", "--smoke-test",
                          str(tmp_path / "offline.png")], capture_output=True, text=True,
                         env=env, timeout=240)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "network attempt" not in out.stderr
    assert (tmp_path / "offline.png").stat().st_size > 1000
