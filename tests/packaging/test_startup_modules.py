"""packaging/startup_modules.py lists what the frozen build stores uncompressed: the modules
imported by the first picture of the demo model, and not what comes after it."""

from __future__ import annotations

import subprocess
import sys

from conftest import ROOT


def test_the_list_is_what_the_first_picture_imported(tmp_path):
    out = tmp_path / "startup-modules.txt"
    proc = subprocess.run([sys.executable, f"{ROOT}/packaging/startup_modules.py", str(out)],
                          cwd=str(tmp_path), capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr[-3000:]
    names = set(out.read_text().split())
    assert {"inspector.gui.main_window", "inspector.gui.canvas.graph_canvas",
            "PySide6.QtWidgets", "google.protobuf.descriptor"} <= names
    assert "numpy" not in names and "pyqtgraph" not in names    # imported after it
