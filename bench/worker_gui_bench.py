"""The window's longest stall (10 ms heartbeat) with TensorFlow in the worker process, against
TensorFlow on threads of the GUI process, measured in the same run (each mode in a fresh
process): importing TensorFlow, opening Inception v3 (binary and text), expanding every scope,
the mobile pipeline preview, profiling, and a numeric check. Also the GUI process's peak memory.

    .venv/bin/python bench/worker_gui_bench.py      (needs bench/.cache from load_bench.py)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODEL = os.path.join(ROOT, "bench", ".cache", "inception_v3_jpeg.pb")
TEXT = os.path.join(ROOT, "bench", ".cache", "inception_v3_structure.pbtxt")
PIPELINE = ('strip_unused_nodes(type=float, shape="1,299,299,3") remove_nodes(op=Identity, '
            'op=CheckNumerics) fold_constants(ignore_errors=true) fold_batch_norms '
            'fold_old_batch_norms quantize_weights')


def run_one(mode: str) -> dict:
    """In a fresh process: the app's window with the given executor, phase by phase."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    sys.path.insert(0, ROOT)
    import psutil
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from inspector.gui.app import tune_runtime

    app = QApplication([])
    tune_runtime()
    if mode == "worker":
        from inspector.worker.client import install
    else:
        from inspector.core.tf.executor import install
    executor = install()
    from bench.heartbeat import Heartbeat
    from inspector.core.app.workbench import session_path
    from inspector.gui.main_window import MainWindow

    beat, peaks = Heartbeat(), []

    def phase(action, done, timeout=300.0, record=True) -> float:
        worst, _ = beat.phase(app, action, done, timeout, name=mode)
        if record:
            peaks.append(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
        return worst

    for path in (MODEL, TEXT):
        if os.path.exists(session_path(path)):
            os.remove(session_path(path))
    win = MainWindow(QSettings(os.path.join(ROOT, "bench", ".cache", f"w{mode}.ini"),
                               QSettings.IniFormat))
    win.show()
    app.processEvents()
    import resource
    import threading

    baseline = psutil.Process().memory_info().rss / 2 ** 20   # Qt, PySide6, numpy, our code
    out = {}

    thread = threading.Thread(target=executor.available)
    out["import TensorFlow"] = phase(thread.start, lambda: not thread.is_alive())
    idle = lambda: not win.tasks.is_busy()  # noqa: E731
    drawn = win.scenes_drawn
    out["open text .pbtxt"] = phase(lambda: win.open_path(TEXT),
                                    lambda: win.scenes_drawn > drawn and idle())
    drawn = win.scenes_drawn
    out["open binary .pb"] = phase(lambda: win.open_path(MODEL),
                                   lambda: win.scenes_drawn > drawn and idle())
    drawn = win.scenes_drawn
    out["expand everything"] = phase(win.state.expand_all,
                                     lambda: win.scenes_drawn > drawn and idle())
    win.workbench.set_marks(["Mul"], ["Identity"])
    phase(lambda: None, idle, record=False)
    out["pipeline preview"] = phase(
        lambda: win.workbench.set_text(PIPELINE),
        lambda: idle() and len(win.state.rows) == 7 and
        all(r.metrics.flops is not None for r in win.state.rows[1:]))
    win.overlays_panel.runs.setValue(3)
    out["profile (3 runs)"] = phase(lambda: win.overlays.profile(False),
                                    lambda: bool(win.overlays.profiles) and idle())
    out["check outputs"] = phase(lambda: win.preview.check_outputs(False), idle)
    out["peaks MB"] = peaks
    out["peak RSS MB"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out["end RSS MB"] = psutil.Process().memory_info().rss / 2 ** 20
    out["baseline RSS MB"] = baseline
    return out


def main() -> int:
    if len(sys.argv) > 2 and sys.argv[1] == "--one":
        print(json.dumps(run_one(sys.argv[2])))
        return 0
    if not os.path.exists(MODEL):
        print("run bench/load_bench.py first (it builds bench/.cache/inception_v3_jpeg.pb)")
        return 1
    sys.path.insert(0, ROOT)
    from bench.corpus import structure_text

    structure_text()  # the .pbtxt case, built once
    results = {}
    for mode in ("in-process", "worker"):
        proc = subprocess.run([sys.executable, __file__, "--one", mode], capture_output=True,
                              text=True, timeout=1800)
        line = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
        if proc.returncode != 0 or not line:
            print(f"{mode} failed:\n{proc.stderr[-2000:]}")
            return 1
        results[mode] = json.loads(line[-1])
    a, b = results["in-process"], results["worker"]
    print(f"{'longest GUI stall during':<28}{'TF in GUI process':>20}{'TF in worker':>14}"
          f"{'ratio':>8}")
    for key in a:
        if key.endswith("MB"):
            continue
        print(f"{key:<28}{a[key] * 1000:>18.0f}ms{b[key] * 1000:>12.0f}ms"
              f"{b[key] / max(a[key], 1e-9):>7.2f}x")
    size = os.path.getsize(MODEL) / 2 ** 20
    for key, what in (("baseline RSS MB", "GUI memory before a model"),
                      ("peak RSS MB", "GUI process peak memory"),
                      ("end RSS MB", "GUI memory at the end")):
        print(f"{what:<28}{a[key]:>18.0f}MB{b[key]:>12.0f}MB{b[key] / a[key]:>7.2f}x")
    phases = [k for k in a if not k.endswith("MB")]
    print("GUI peak so far, after each phase (worker mode): " + ", ".join(
        f"{k} {p:.0f} MB" for k, p in zip(phases, b["peaks MB"])))
    budget = b["baseline RSS MB"] + 2.5 * size
    print(f"model file {size:.0f} MB; memory budget (baseline + 2.5x the file) {budget:.0f} MB: "
          f"peak above the baseline is {(b['peak RSS MB'] - b['baseline RSS MB']) / size:.2f}x "
          "the file in the worker mode")
    print("budget: no stall over 100 ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
