"""`graphdef-inspector --version` and `--info` (issue 37): what a bug report needs, without a
window and without importing TensorFlow."""

from __future__ import annotations

import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(*args, hide_tf=False):
    env = dict(os.environ, PYTHONPATH=ROOT)
    if hide_tf:   # the light build's situation: no TensorFlow importable
        env["PYTHONPATH"] = os.pathsep.join([os.path.join(ROOT, "tests", "no_qt"), ROOT])
        env["INSPECTOR_HIDE"] = "tf"
    return subprocess.run([sys.executable, "-m", "inspector", *args], capture_output=True,
                          text=True, env=env, timeout=120)


def test_version_matches_pyproject():
    from inspector.diagnostics import VERSION

    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as fh:
        assert re.search(r'^version = "([^"]+)"', fh.read(), re.M).group(1) == VERSION
    out = run("--version")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith(f"graphdef-inspector {VERSION} (source")


def test_info_lists_versions_flavour_and_folders():
    out = run("--info")
    assert out.returncode == 0, out.stderr
    rows = dict(line.split(":", 1) for line in out.stdout.splitlines())
    rows = {k: v.strip() for k, v in rows.items()}
    for key in ("Python", "Qt", "PySide6", "protobuf", "numpy", "TensorFlow", "frozen",
                "flavour", "config dir", "cache dir", "crash log"):
        assert rows.get(key), f"--info has no {key}: {out.stdout}"
    assert rows["frozen"] == "no" and rows["flavour"] == "source"
    assert rows["cache dir"].endswith("graphdef-inspector")


def test_info_without_tensorflow_says_not_available_and_never_imports_it():
    out = run("--info", hide_tf=True)
    assert out.returncode == 0, out.stderr
    assert "TensorFlow:" in out.stdout
    line = next(x for x in out.stdout.splitlines() if x.startswith("TensorFlow:"))
    assert line.split(":", 1)[1].strip() == "not available"


def test_info_does_not_import_tensorflow():
    code = ("import sys, io, contextlib; from inspector import launcher; "
            "f = io.StringIO()\nwith contextlib.redirect_stdout(f): launcher.main(['--info'])\n"
            "print('tensorflow' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=ROOT), timeout=120)
    assert out.stdout.strip() == "False", out.stderr


def test_smoke_test_needs_an_output_path():
    out = run("--smoke-test")
    assert out.returncode == 2 and "needs OUT.png" in out.stderr
