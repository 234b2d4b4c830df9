"""The frozen build's entry point answers `-c CODE` and `-m MODULE` as Python does: the app
starts its TensorFlow worker and reader processes as `sys.executable -c/-m ...`, and in a
build sys.executable is the app itself (issue 37). Run here from source; CI runs the build."""

from __future__ import annotations

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ENTRY = os.path.join(ROOT, "packaging", "pyinstaller", "entry.py")


def run(*args, **env):
    return subprocess.run([sys.executable, ENTRY, *args], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=ROOT, **env), timeout=120)


def test_dash_c_runs_code_with_python_argv_and_path():
    out = run("-c", "import sys; print(sys.argv, repr(sys.path[0])); sys.exit(3)", "a", "b")
    assert out.returncode == 3
    assert out.stdout.strip() == "['-c', 'a', 'b'] ''"


def test_dash_m_runs_a_module_as_main():
    out = run("-m", "inspector", "--version")
    assert out.returncode == 0 and out.stdout.startswith("graphdef-inspector ")


def test_dash_p_before_dash_m_is_accepted_as_python_does():
    """The legacy Keras reader starts `sys.executable -P -m MODULE ...` (a Keras 2 file in the
    full build failed with "unrecognized arguments: -P -m")."""
    out = run("-P", "-m", "inspector", "--version")
    assert out.returncode == 0 and out.stdout.startswith("graphdef-inspector "), out.stderr
    out = run("-P", "-c", "import sys; print(sys.argv)", "x")
    assert out.returncode == 0 and out.stdout.strip() == "['-c', 'x']"


def test_plain_arguments_go_to_the_app():
    out = run("--version")
    assert out.returncode == 0 and out.stdout.startswith("graphdef-inspector ")


def test_worker_children_inherit_the_offline_hook():
    code = "import socket; socket.getaddrinfo('example.org', 80)"
    out = run("-c", code, INSPECTOR_FORBID_NETWORK="1")
    assert out.returncode != 0 and "network attempt blocked" in out.stderr
