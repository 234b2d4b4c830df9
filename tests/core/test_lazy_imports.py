"""What the app's first picture needs of the core imports no numpy and no transform (issue 37,
start-up): opening a binary GraphDef with its session file and laying it out; numpy and the
transforms come once the picture is up (core.app.start.import_after_first_picture)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEMO = os.path.join(ROOT, "inspector/core/app/demo_model/demo_digits.pb")


def _run(code: str) -> dict:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, env=dict(os.environ, PYTHONPATH=ROOT))
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_opening_and_laying_out_a_graphdef_imports_no_numpy():
    seen = _run(f"""
import json, sys
from inspector.core.app.opening import open_model
from inspector.core.app.state import AppState
from inspector.core.app import compare_runs, exports, pipeline_runs  # noqa: F401
from inspector.core.view.view_graph import ViewModel
import inspector.core.transforms.syntax  # noqa: F401  (a session file's pipeline)
model = open_model({DEMO!r})
view = ViewModel(model.graph, fold_constants=True)
scene = view.scene(frozenset({{""}}))
state = AppState()
state.workbench.restore(model.path)
print(json.dumps({{"items": len(scene.items), "steps": len(state.workbench.steps),
                  "text": state.workbench.text,
                  "later": sorted(m for m in ("numpy", "inspector.core.transforms.catalogue",
                                              "inspector.core.formats.tour_html", "_hashlib")
                                  if m in sys.modules)}}))
""")
    assert seen["items"] > 3 and seen["steps"] == 3
    assert seen["text"] == "strip_unused_nodes fold_constants quantize_weights"
    assert seen["later"] == []


def test_what_waits_for_the_first_picture_is_imported_after_it():
    seen = _run("""
import json, sys
from inspector.core.app.start import import_after_first_picture
before = sorted(m for m in ("numpy", "inspector.core.transforms.fold_constants") if m in sys.modules)
import_after_first_picture()
from inspector.core.transforms import REGISTRY, catalogue
print(json.dumps({"before": before, "numpy": "numpy" in sys.modules,
                  "registered": sorted(dict.keys(REGISTRY)) == sorted(REGISTRY),
                  "modules": all(f"inspector.core.transforms.{m}" in sys.modules
                                 for m in catalogue.MODULES)}))
""")
    assert seen["before"] == [] and seen["numpy"] and seen["registered"] and seen["modules"]


def test_the_vocabulary_reads_the_tflite_statuses_when_first_asked():
    """core.view.vocabulary (the window's words and colours, imported at its start) hands out
    the TFLite statuses of core.mobile.tflite_compat, imported when a name is first read."""
    seen = _run("""
import json, sys
from inspector.core.view import vocabulary
before = "inspector.core.mobile.tflite_compat" in sys.modules
from inspector.core.view.vocabulary import STATUS_COLOURS, STATUS_LABELS, STATUSES
from inspector.core.mobile import tflite_compat as t
print(json.dumps({"before": before, "same": [STATUS_COLOURS is t.COLOURS,
                  STATUS_LABELS is t.LABELS, STATUSES is t.STATUSES]}))
""")
    assert seen == {"before": False, "same": [True, True, True]}
