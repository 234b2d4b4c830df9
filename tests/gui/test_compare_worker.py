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
                           os.path.join(ROOT, "inspector/core/app/demo_model/demo_digits.pb"),
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
    # "Run both" with a full-int8 .tflite as B: B runs in LiteRT in the worker (it refused
    # with "B would run 6 operation(s) that are not pure computation: CONV_2D ...")
    n = seen["numeric"]
    assert n["engines"][0].startswith("TensorFlow") and n["engines"][1].startswith("LiteRT")
    assert n["layers"][:2] == ["CONV_2D", "CONV_2D"] and n["layers"][-1] == "SOFTMAX"
    assert n["first"] == "digits_1/relu1_1/Relu" and n["selected"] == [n["first"]]
    assert all(20 < snr < 60 for snr in n["snr"]), n["snr"]    # int8: close, not equal
    assert "uniform in [0, 0.9972]" in n["inputs"][0]           # its calibrated input range
    assert "first node past" in n["status"] and "(B in LiteRT)" in n["status"]
    assert seen["tensorflow_here"] == []                        # nor LiteRT: the worker's
