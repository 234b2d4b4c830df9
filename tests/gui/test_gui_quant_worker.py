"""The Quantization tab as users start the app: the recipes run in the TensorFlow worker (the
window's process never imports TensorFlow, LiteRT or ai-edge-quantizer), keeping a layer float
reruns there too. Drives bench/quant_bench.py's window run in a fresh process (it owns a
worker); the stall figures are the bench's, asserted here only as a functional bound."""

import json
import os
import subprocess
import sys

from conftest import ROOT


def test_recipes_run_in_the_worker_not_in_the_window(fx):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", TF_CPP_MIN_LOG_LEVEL="3",
               PYTHONPATH=ROOT)
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "quant_bench.py"),
                           "--gui", "--samples", "8"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    seen = json.loads([ln for ln in proc.stdout.splitlines() if ln.startswith("{")][-1])
    assert seen["engine"] == "RemotePreview" and seen["imported here"] == []
    rows = seen["rows"]
    assert [r[0] for r in rows[:6]] == ["float", "dynamic", "float16", "int8", "int16x8",
                                        "int4-blockwise"]
    assert len(rows) == 7 and rows[6][1].startswith("^")      # the layer kept float
    assert all(r[3] > 0 for r in rows)
    assert seen["six recipes (worker)"][0] < 2.0     # functional: the window kept beating
