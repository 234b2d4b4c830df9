"""Quantization recipes on Inception v1 (the fixture's Inception-style network behind its JPEG
chain, fed at Mul, 1x299x299x3; the model worker_bench.py calls Inception v1): the time of each
recipe (build with ai-edge-quantizer or TF's converter, measure with LiteRT: answers and every
tensor), in this process; then the same recipes run from the window with TensorFlow, LiteRT and
ai-edge-quantizer in the worker, and the window's longest stall meanwhile (10 ms heartbeat;
budget: none over 100 ms). Prints this machine's Python speed first.

    .venv/bin/python bench/quant_bench.py [--samples 32]
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHAPES = {"Mul": [1, 299, 299, 3]}


def _model() -> str:
    sys.path.insert(0, ROOT)
    from tests.fixtures import fixture_dir

    return os.path.join(fixture_dir(), "inception_jpeg.pb")


def in_process(samples: int) -> None:
    from inspector.core.loaders import load
    from inspector.core.mobile.recipes import DEFAULT, run_recipes
    from inspector.core.runtime.job import Job
    from inspector.core.tf.executor import install

    install()
    graph = load(_model()).graph
    stamps = []

    def progress(done, total, text=""):
        if text.startswith("recipe: ") or text in ("done", "converting to a float .tflite"):
            stamps.append((text, time.perf_counter()))

    start = time.perf_counter()
    report = run_recipes(graph.graph_def, ["Mul"], ["softmax"], SHAPES, DEFAULT, "",
                         {"kind": "random", "count": samples, "seed": 0}, 8, 8,
                         job=Job(on_progress=progress))
    total = time.perf_counter() - start
    print(f"Inception v1 ({len(graph.graph_def.node)} nodes), {samples} calibration samples, "
          f"answers on 8, every tensor on 8; {report.engine}")
    print(f"  {'step':<34}{'seconds':>8}{'size':>10}{'MSE':>11}{'SNR dB':>8}  tool")
    print(f"  {'inputs, TF answers':<34}{stamps[0][1] - start:>8.2f}")
    rows = {r.recipe: r for r in report.results}
    for (text, at), (_, end) in zip(stamps, stamps[1:]):
        name = text[len("recipe: "):] if text.startswith("recipe: ") else "float .tflite (TF)"
        row = rows.get(name)
        extra = ""
        if row is not None and row.model is not None:
            snr = row.output.get("snr_db")
            extra = f"{row.size:>10,}{row.output.get('mse', 0):>11.3g}" \
                    f"{snr if snr is not None else float('nan'):>8.1f}  {row.tool}"
        print(f"  {name:<34}{end - at:>8.2f}{extra}")
    print(f"  {'total':<34}{total:>8.2f}")


def gui_one(samples: int) -> dict:
    """In a fresh process: the window with the worker, the recipes run from the tab."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    sys.path.insert(0, ROOT)
    import threading

    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    app = QApplication([])
    from inspector.worker.client import install

    executor = install()
    from bench.heartbeat import Heartbeat
    from inspector.gui.main_window import MainWindow

    beat = Heartbeat()

    def phase(action, done, timeout=600.0) -> tuple:
        print(f"phase {len(out)}", file=sys.stderr, flush=True)
        return beat.phase(app, action, done, timeout)

    import tempfile

    win = MainWindow(QSettings(os.path.join(tempfile.mkdtemp(), "q.ini"), QSettings.IniFormat))
    win.resize(1400, 900)
    win.show()
    app.processEvents()
    out = {}
    win.state.error.connect(lambda text: print(f"error: {text}", file=sys.stderr, flush=True))
    thread = threading.Thread(target=executor.available)
    out["import TensorFlow (worker)"] = phase(thread.start, lambda: not thread.is_alive())
    idle = lambda: not win.tasks.is_busy()  # noqa: E731
    drawn = win.scenes_drawn
    out["open the model"] = phase(lambda: win.open_path(_model()),
                                  lambda: win.scenes_drawn > drawn and idle())
    win.workbench.set_marks(["Mul"], ["softmax"])
    win.workbench.set_input_shape("Mul", tuple(SHAPES["Mul"])) \
        if hasattr(win.workbench, "set_input_shape") else None
    phase(lambda: None, idle)
    panel, mobile = win.quant_panel, win.mobile_panel
    win.show_panel(win.mobile_dock, mobile.tabs.indexOf(panel))
    mobile.samples.setValue(samples)
    mobile.compare.setValue(8)
    for box in panel.boxes.values():
        box.setChecked(True)
    out["six recipes (worker)"] = phase(
        panel.run_button.click,
        lambda: idle() and panel.table.rowCount() == 6)
    panel.below.setCurrentIndex(1)
    out["Pareto chart shown"] = phase(lambda: None,
                                      lambda: getattr(panel, "scatter", None) is not None)
    layers = panel.layers
    panel.below.setCurrentIndex(0)
    conv = next(k for k in range(layers.topLevelItemCount())
                if layers.topLevelItem(k).text(1) == "CONV_2D")
    layers.setCurrentItem(layers.topLevelItem(conv))
    layers.itemClicked.emit(layers.topLevelItem(conv), 0)     # as a click on the row
    out["keep a layer float, rerun"] = phase(panel.keep_button.click,
                                             lambda: idle() and panel.table.rowCount() == 7)
    out["messages"] = [win.status_label.text()]
    out["engine"] = type(win.state.engine).__name__
    out["imported here"] = sorted(m for m in sys.modules if m.split(".")[0] in
                                  ("tensorflow", "ai_edge_litert", "ai_edge_quantizer", "keras"))
    out["rows"] = [[r.recipe, r.keep_float, r.tool, r.size]
                   for r in win.state.quant.report.results]
    return out


def main() -> int:
    samples = int(sys.argv[sys.argv.index("--samples") + 1]) if "--samples" in sys.argv else 32
    if "--gui" in sys.argv:
        print(json.dumps(gui_one(samples)))
        return 0
    sys.path.insert(0, ROOT)
    from bench.scale import python_speed

    print(f"this machine's Python speed: a loop of 10M additions takes {python_speed():.2f} s "
          "(a laptop: ~0.3 s)")
    in_process(samples)
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", PYTHONPATH=ROOT)
    proc = subprocess.run([sys.executable, __file__, "--gui", "--samples", str(samples)],
                          capture_output=True, text=True, timeout=1800, env=env)
    line = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not line:
        print(f"window run failed:\n{proc.stderr[-3000:]}")
        return 1
    found = json.loads(line[-1])
    print("\nFrom the window, TensorFlow/LiteRT/ai-edge-quantizer in the worker:")
    print(f"  {'phase':<30}{'longest GUI stall':>18}{'wall':>9}")
    for key, value in found.items():
        if key not in ("messages", "engine", "imported here", "rows"):
            print(f"  {key:<30}{value[0] * 1000:>16.0f}ms{value[1]:>8.1f}s")
    print(f"  status bar: {found['messages'][0]}")
    print("budget: no GUI stall over 100 ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
