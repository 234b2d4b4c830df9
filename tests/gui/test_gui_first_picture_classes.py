"""Issue 47, the dense model's first picture: PySide makes a Qt class, with every enum in it
(Python's enum module: ~13 us a member), when it is first read, also while it matches a
call's overloads. The first picture makes none it does not draw with: QBrush(colour) and
QPainter.fillRect made QGradient (169 presets), the window's findChildren(QDockWidget) at
each model change wrapped every widget inside the docks (QTextDocument, QHeaderView,
QAbstractItemDelegate, ...): ~4 ms of the first picture, ~18 ms on the slow class. No
timing here: the figures are bench/start_floor.py's (run it under bench/slow_class.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid

from conftest import ROOT

# the app started as a user starts it, stopped at its first picture: the Qt classes made
FIRST_PICTURE = r"""
import json, sys
import inspector.gui.app as app

def report(window, qapp):
    def done():
        made = sorted(f"{m}.{n}" for m, names in (
            ("QtGui", ("QGradient", "QTextDocument")),
            ("QtWidgets", ("QHeaderView", "QAbstractItemDelegate", "QFileDialog")))
            for n in names if n in vars(sys.modules["PySide6." + m]))
        print(json.dumps({"made": made, "items": len(window.canvas.items_by_id),
                          "path": window.state.model.path}), flush=True)
        qapp.exit(0)
    app.on_first_picture(window, done)

app.exit_after_first_frame = report
sys.exit(app.main(sys.argv[1:]))
"""


def _first_picture(tmp_path, *model):
    env = {k: v for k, v in os.environ.items() if k != "INSPECTOR_SINGLE_INSTANCE"}
    env.update(PYTHONPATH=ROOT, QT_QPA_PLATFORM="offscreen", INSPECTOR_EXIT_AFTER_FIRST_FRAME="1",
               INSPECTOR_INSTANCE_NAME=f"gi-classes-{uuid.uuid4().hex[:8]}",
               INSPECTOR_SETTINGS=str(tmp_path / "settings.ini"))
    proc = subprocess.run([sys.executable, "-c", FIRST_PICTURE, *model], cwd=str(tmp_path),
                          env=env, capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_the_demo_models_first_picture_makes_no_qt_class_it_does_not_draw_with(tmp_path):
    seen = _first_picture(tmp_path)
    assert seen["path"].endswith("demo_digits.pb") and seen["items"] > 3
    assert seen["made"] == []


def test_a_dense_models_first_picture_makes_no_qt_class_it_does_not_draw_with(tmp_path):
    from tests.fixtures import scale_models

    model = scale_models.dense_model(3, 512)       # 38 MB: a reader prestarted
    if os.path.exists(model + ".inspector.json"):
        os.remove(model + ".inspector.json")
    seen = _first_picture(tmp_path, model)
    assert seen["path"] == model and seen["items"] >= 3
    assert seen["made"] == []
