"""What the app's first picture needs of the core imports no numpy and no transform (issue 37,
start-up): opening a binary GraphDef and laying it out; numpy and the transforms' catalogue
come with their first use, and then everything is as before."""

from __future__ import annotations

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEMO = os.path.join(ROOT, "resources", "demo_digits.pb")


def _run(code: str) -> dict:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, env=dict(os.environ, PYTHONPATH=ROOT))
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_opening_and_laying_out_a_graphdef_imports_no_numpy():
    seen = _run(f"""
import json, sys
from inspector.core.app.opening import open_for_user
from inspector.core.app.state import AppState
from inspector.core.app import exports, queries  # noqa: F401  (the window's doors)
from inspector.core.view.view_graph import ViewModel
import inspector.core.transforms.syntax  # noqa: F401  (a session file's pipeline)
model = open_for_user({DEMO!r}, None, False)
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


def test_the_transforms_package_registers_every_transform_on_first_use():
    seen = _run("""
import json, sys
import inspector.core.transforms as t
before = "inspector.core.transforms.catalogue" in sys.modules
from inspector.core.transforms import REGISTRY, run_pipeline  # noqa: F401
from inspector.core.app.queries import TRANSFORMS
print(json.dumps({"before": before, "n": len(REGISTRY), "same": TRANSFORMS is REGISTRY,
                  "numpy": "numpy" in sys.modules, "spec": str(t.TransformSpec("x", {}))}))
""")
    assert not seen["before"] and seen["same"] and seen["numpy"]
    assert seen["n"] > 25 and seen["spec"] == "x"


def test_dtype_sizes_without_numpy_match_numpy():
    import numpy as np

    from inspector.core.model import dtypes

    for value, (name, _field) in dtypes._STORAGE.items():
        expected = 0 if name == "object" else np.dtype(name).itemsize
        assert dtypes.item_size(value) == expected, name
        assert dtypes.item_size(value + dtypes.REF_OFFSET) == expected
        assert dtypes.numpy_dtype(value) == np.dtype(name)
    assert dtypes.item_size(999) == 0 and dtypes.numpy_dtype(999) is None
