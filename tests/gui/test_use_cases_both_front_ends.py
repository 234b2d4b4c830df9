"""Issue 46: one use case, two front ends. The command line and the window (as users start it,
TensorFlow in the worker) run the same core.app use case on the same file and give the same
answer: the model card, the TFLite check."""

import json
import os
import subprocess
import sys

from conftest import DEMO, ROOT, run_cli


def window_answers(model: str, tmp_path, *wanted) -> dict:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=ROOT)
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "gui",
                                                        "app_use_cases_worker.py"),
                           model, str(tmp_path / "settings.ini"), *wanted],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    seen = json.loads([ln for ln in proc.stdout.splitlines() if ln.startswith("{")][-1])
    assert seen["engine"].startswith("Remote") and seen["imported here"] == []
    return seen


def test_the_model_card_is_the_same_in_the_window_and_on_the_command_line(tmp_path):
    """The demo model leaves its batch open: both count FLOPs for batch 1 and say so (the
    window's card counted from the view's shapes and assumed nothing)."""
    from inspector.core.app.card import card
    from inspector.core.app.demo import engine_here
    from inspector.core.loaders import load

    seen = window_answers(DEMO, tmp_path, "card")
    code, out, err = run_cli("explain", DEMO, "--json")
    assert code == 0, err
    assert seen["card"] == json.loads(out)
    here = card(load(DEMO), engine_here(load(DEMO).graph.graph_def))
    assert seen["card flops"] == {"total": here.flops.total, "assumed": here.flops.assumed}
    assert here.flops.assumed == ["batch 1 assumed for input 'pixels'"]
