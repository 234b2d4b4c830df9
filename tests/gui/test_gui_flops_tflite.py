"""Issue 45.7 in the window, as users start the app (TensorFlow in the worker): File > Compare
with a .tflite shows FLOPs and the latency estimate of both sides (they were "not counted for a
.tflite", or TF's "Op type not registered 'CONV_2D'" when the .tflite had more than 63
constants before its first operator), and a .tflite's model card counts its arithmetic."""

import json
import os
import subprocess
import sys

from conftest import ROOT

from inspector.core.loaders import load
from inspector.core.runtime.executor import tensorflow


def test_compare_with_a_tflite_and_its_card_count_flops_in_the_window(fx, tmp_path):
    gd = load(os.path.join(fx, "mobilenet_v2.pb")).graph.graph_def
    lite = tmp_path / "mobilenet_v2.tflite"
    lite.write_bytes(tensorflow().convert_tflite(gd, ["input"], ["Identity"], "float")["model"])
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=ROOT)
    env.pop("TF_CPP_MIN_LOG_LEVEL", None)
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "gui",
                                                        "app_compare_tflite_worker.py"),
                           os.path.join(fx, "mobilenet_v2.pb"), str(lite),
                           str(tmp_path / "settings.ini")],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    seen = json.loads([ln for ln in proc.stdout.splitlines() if ln.startswith("{")][-1])
    assert seen["engine"].startswith("Remote") and seen["imported here"] == []
    a, b = seen["totals"]["FLOPs"]
    assert isinstance(a, int) and isinstance(b, int) and abs(b - a) / a < 0.02
    assert all(isinstance(v, float) for v in seen["totals"]["latency ms (phone)"])
    assert f"FLOPs {a:,} -> {b:,}" in seen["totals text"] and "latency (phone)" in \
        seen["totals text"]
    assert "E0000" not in proc.stderr and "not registered" not in proc.stderr
    assert seen["card arithmetic"] == "621 million" and seen["card layers"] == "53"


def test_a_tflite_tour_counts_its_blocks_without_asking_tensorflow(tmp_path):
    """`tour MODEL.tflite --auto` sent the .tflite's graph to TF's shape inference for its
    FLOPs (an E0000 line per node attribute TF does not know): its own tensors now serve."""
    lite = os.path.join(ROOT, "tests", "core", "data", "digits_float.tflite")
    out = tmp_path / "t.html"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=ROOT)
    env.pop("TF_CPP_MIN_LOG_LEVEL", None)
    proc = subprocess.run([sys.executable, "-m", "inspector", "tour", lite, "--auto", "-o",
                           str(out)], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "E0000" not in proc.stderr and "not registered" not in proc.stderr
    assert out.read_text().startswith("<!DOCTYPE html>")
