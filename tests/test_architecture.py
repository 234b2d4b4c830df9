"""Import rules: core is Qt-free, TensorFlow only in the bridge, and opening a .pb stays light."""

import os
import subprocess
import sys

from conftest import ROOT


def test_import_linter_contracts_hold():
    exe = os.path.join(os.path.dirname(sys.executable), "lint-imports")
    proc = subprocess.run([exe, "--config", os.path.join(ROOT, "pyproject.toml")], cwd=ROOT,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert " 0 broken" in proc.stdout and "kept" in proc.stdout
    assert "layers" in open(os.path.join(ROOT, "pyproject.toml")).read()


def test_opening_a_pb_does_not_import_tensorflow(fx):
    code = ("import sys; from inspector.core.loaders import load; "
            "from inspector.core.analysis.summary import summarize; "
            f"m = load({os.path.join(fx, 'mobilenet_v2.pb')!r}); summarize(m.graph); "
            "print(len(m.graph)); "
            "bad = [k for k in sys.modules if k.split('.')[0] in "
            "('tensorflow', 'keras', 'PySide6')]; print(bad); sys.exit(1 if bad else 0)")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert int(proc.stdout.split()[0]) > 500
