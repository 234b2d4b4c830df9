"""The reasons tests/test_local_imports.py gives by module hold: the modules it says are on the
demo model's first picture are imported by then, and those it says the later imports' thread
imports are not, and are imported once that thread is done (tools/import_map.py's run of
the app, offscreen, as `python -m inspector` starts it)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from conftest import ROOT

sys.path.insert(0, os.path.join(ROOT, "tests"))
from test_local_imports import AFTER_FIRST_PICTURE, FIRST_PICTURE  # noqa: E402


def _module(path: str) -> str:
    name = path[:-3].replace("/", ".")
    return name[:-len(".__init__")] if name.endswith(".__init__") else name


def test_the_modules_named_for_the_first_picture_are_where_they_are_said_to_be(tmp_path):
    out = tmp_path / "map.json"
    env = {k: v for k, v in os.environ.items()
           if k not in ("INSPECTOR_SINGLE_INSTANCE", "PYTHONPATH")}
    env.update(QT_QPA_PLATFORM="offscreen")
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "import_map.py"),
                           str(out)], cwd=str(tmp_path), env=env, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    seen = json.loads(out.read_text())
    first, settled = set(seen["first"]), set(seen["settled"])
    assert "inspector.gui.main_window" in first and seen["record"]["numpy"]["thread"] != \
        "MainThread"
    assert [p for p in FIRST_PICTURE if _module(p) not in first] == []
    assert [p for p in AFTER_FIRST_PICTURE if _module(p) in first or
            _module(p) not in settled] == []
