"""`flops MODEL.tflite` (issue 45.7): it refused a .tflite ("read-only view"); now it counts the
.tflite's FLOPs from its own tensors, in a process that never imports TensorFlow."""

import os
import subprocess
import sys

from conftest import ROOT

DEMO_PROFILER = 627_036     # tf.profiler's count of demo_digits.pb at batch 1 (TF 2.21)


def test_flops_of_a_tflite_are_counted_without_tensorflow():
    env = {k: v for k, v in os.environ.items() if k != "TF_CPP_MIN_LOG_LEVEL"}
    for name in ("digits_float.tflite", "digits_int8.tflite"):
        lite = os.path.join(ROOT, "tests", "core", "data", name)
        code = ("import sys\nfrom inspector.cli.main import main\n"
                f"rc = main({['flops', lite]!r})\n"
                "print('tensorflow' in sys.modules, rc, file=sys.stderr)\n")
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              timeout=120, env=env, cwd=ROOT)
        assert proc.stderr.strip().splitlines()[-1] == "False 0", proc.stderr
        first = proc.stdout.splitlines()[0]
        registry = int(first.split("operators ")[1].split(" ")[0].replace(",", ""))
        assert abs(registry - DEMO_PROFILER) / DEMO_PROFILER < 0.01
        assert "counted from the .tflite's tensor shapes, without TensorFlow" in proc.stdout
        assert "estimated latency on phone (10 GFLOP/s)" in proc.stdout
        assert "CONV_2D" in proc.stdout and "not counted" not in proc.stdout


def test_a_tiny_models_latency_estimates_read_in_microseconds():
    """Regression: the demo's estimates read "0.0 ms" / "0.1 ms"; under 0.1 ms they are said
    in µs, as the Preview's latency column says them (humanize.latency)."""
    demo = os.path.join(ROOT, "inspector", "core", "app", "demo_model", "demo_digits.pb")
    lite = os.path.join(ROOT, "tests", "core", "data", "digits_float.tflite")
    for model in (demo, lite):
        proc = subprocess.run([sys.executable, "-m", "inspector", "flops", model],
                              capture_output=True, text=True, timeout=300, cwd=ROOT)
        said = [line.rsplit(": ", 1)[1] for line in proc.stdout.splitlines()
                if "estimated latency on" in line]
        assert len(said) == 3 and "0.0 ms" not in said, proc.stdout
        assert said[0].endswith(" µs") and 10 < float(said[0].split()[0]) < 100, said
