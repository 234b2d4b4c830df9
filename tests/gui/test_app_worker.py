"""The app as users run it: TensorFlow only in the worker process. Opening, previewing and
profiling leave `tensorflow` out of the GUI process; a worker killed mid-profile is one
message, the marks and pipeline stay, and the next profile works."""

import json
import os
import shutil
import subprocess
import sys

from conftest import ROOT


def test_the_gui_process_never_imports_tensorflow_and_survives_a_killed_worker(fx, tmp_path):
    model = tmp_path / "inception.pb"
    shutil.copy(os.path.join(fx, "inception_jpeg.pb"), model)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "gui",
                                                        "app_with_worker.py"),
                           str(model), str(tmp_path / "settings.ini")], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    seen = json.loads(proc.stdout.strip().splitlines()[-1])
    assert seen["tensorflow_here"] == [] and seen["tf_layer_here"] == []
    assert all(f > 0 for f in seen["flops"])  # shapes came from TF, in the worker
    assert seen["flops_per_node"] == [0, 0, 0, 0]  # totals only cross the pipe
    assert seen["profiled"] > 20
    assert "SIGKILL" in seen["error"] and "\n" not in seen["error"]
    assert seen["marks"] == [["Mul"], ["softmax"]]
    assert seen["steps"] == ["fold_constants", "fold_batch_norms", "quantize_weights"]
    assert seen["cancel_seconds"] < 5.0  # functional bound; bench/worker_bench.py has figures
    # the 1000 traced runs really stopped: told to (same worker) or killed (a new one)
    assert seen["next_answer_seconds"] < (3.0 if seen["same_worker"] else 20.0)
    assert seen["cancel_status"].startswith("Cancelled")
    assert seen["profiles"] == 2 and seen["worker_starts"] >= 2  # restarted after the kill
    # the preview lives in the worker: a step's graph, the check and a restart work
    assert seen["engine"] == "RemotePreview" and seen["step_ops"] == ["Dequantize"]
    assert "softmax: max abs error" in seen["check"]
    assert seen["calibrated"] == [2] and "top-1 agreement" in seen["compared"]
    assert "SIGKILL" in seen["calibration_error"] and "calibrat" in seen["calibration_error"]
    assert seen["calibration_child_gone"]
    assert seen["after_restart"] == ["original", "fold_constants", "fold_batch_norms"]
