"""Compare as users run it: TensorFlow in the worker (the default). Preview > Compare… and All
stages fetch the step graphs from the worker's preview engine (issue 45: both failed with
"'RemotePreview' object has no attribute 'graph_for'")."""

import json
import os
import subprocess
import sys

from conftest import ROOT

DATA = os.path.join(ROOT, "tests", "core", "data")


def run_app(tmp_path) -> dict:
    import shutil

    model = tmp_path / "inception_jpeg.pb"       # the window writes its session beside it
    shutil.copy(os.path.join(DATA, "inception_jpeg.pb"), model)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", TF_CPP_MIN_LOG_LEVEL="3")
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "gui",
                                                        "app_compare_worker.py"),
                           str(model),
                           os.path.join(ROOT, "resources", "demo_digits.pb"),
                           os.path.join(DATA, "digits_int8.tflite"),
                           str(tmp_path / "settings.ini")], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_preview_compare_and_all_stages_work_through_the_worker(tmp_path):
    seen = run_app(tmp_path)
    assert seen["engine"] == "RemotePreview"
    assert seen["warnings"] == []
    step = seen["step_compare"]            # the step's graph came from the worker
    assert step["b_label"].startswith("after quantize_weights")
    assert step["merged_batch_norms"] == 5 and step["dequantize"] > 0
    assert seen["lanes"][0] == "original" and len(seen["lanes"]) == 3
    assert seen["tensorflow_here"] == []
