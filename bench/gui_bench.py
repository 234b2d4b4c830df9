"""GUI benchmark: launch-to-first-frame, expanding the largest scope, the longest GUI-thread
stall (a 10 ms heartbeat timer) and the frame time while panning at full zoom-out.

Run: .venv/bin/python bench/gui_bench.py [--pipeline] [--worker]   (offscreen; --pipeline
times the live preview of the mobile pipeline instead; --worker runs TensorFlow (and text
parsing) in the worker process as the app does, instead of in this process; needs the caches
of load_bench.py and transform_bench.py for the 30k-node and Inception v3 graphs, and the
test fixtures)
"""

from __future__ import annotations

import os
import statistics
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from bench.corpus import structure_text  # noqa: E402
from tests.fixtures import fixture_dir  # noqa: E402
from bench.heartbeat import Beat as Heartbeat, wait  # noqa: E402,F401  (compat_bench's too)

WORKER = "--worker" in sys.argv
if WORKER:
    from inspector.worker.client import install  # noqa: E402
else:
    from inspector.core.tf.executor import install  # noqa: E402
CLIENT = install()  # TensorFlow work runs in the worker process, or in this one


def measure(app, path: str) -> dict:
    from PySide6.QtCore import QSettings

    from inspector.gui.main_window import MainWindow

    beat = Heartbeat()
    t0 = time.perf_counter()
    win = MainWindow(QSettings(os.path.join(ROOT, "bench", ".cache", "gui.ini"),
                               QSettings.IniFormat))
    win.show()
    app.processEvents()
    startup = time.perf_counter() - t0
    beat.start()  # stalls are measured from here: loading, laying out, drawing
    win.open_path(path)
    wait(app, lambda: win.scenes_drawn > 0 and not win.tasks.is_busy())
    win.canvas.viewport().repaint()
    first = time.perf_counter() - t0
    stall_open = beat.stop()
    view, scene = win.state.view, win.state.scene
    scopes = [i for i in scene.items.values() if i.kind == "scope"]
    largest = max(scopes, key=lambda i: i.child_count) if scopes else None
    expand = stall_expand = 0.0
    if largest is not None:
        beat.start()
        before = win.scenes_drawn
        t = time.perf_counter()
        win.state.set_expanded(largest.id[:-1], True)
        wait(app, lambda: win.scenes_drawn > before and not win.tasks.is_busy())
        win.canvas.viewport().repaint()
        expand = time.perf_counter() - t
        stall_expand = beat.stop()
    win.canvas.fit()
    bar = win.canvas.verticalScrollBar()
    frames = []
    for i in range(30):
        bar.setValue(bar.minimum() + (bar.maximum() - bar.minimum()) * i // 29)
        t = time.perf_counter()
        win.canvas.viewport().repaint()
        frames.append(time.perf_counter() - t)
    result = dict(nodes=len(view.graph), first=first, startup=startup, stall_open=stall_open,
                  largest=largest.id if largest else "-",
                  largest_n=largest.child_count if largest else 0, expand=expand,
                  stall_expand=stall_expand, frame_med=statistics.median(frames),
                  frame_max=max(frames), items=len(win.state.scene.items))
    win.close()
    win.deleteLater()
    app.processEvents()
    return result


def main() -> None:
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])
    from inspector.gui.app import tune_runtime

    tune_runtime()
    paths = [p for p in [os.path.join(fixture_dir(), "mobilenet_v2.pb"),
                         os.path.join(ROOT, "bench", ".cache", "inception_v3_jpeg.pb"),
                         structure_text(),
                         os.path.join(ROOT, "bench", ".cache", "big_30000_100.pb")]
             if p and os.path.exists(p)]
    # the first use of TensorFlow in a session imports it (once); measured on its own
    import threading

    beat = Heartbeat()
    beat.start()
    worker = threading.Thread(target=CLIENT.available)
    t = time.perf_counter()
    worker.start()
    wait(app, lambda: not worker.is_alive())
    where = "in the worker process" if WORKER else "on a thread of this process"
    print(f"importing TensorFlow {where}: {time.perf_counter() - t:.2f} s, longest "
          f"GUI stall meanwhile {1000 * beat.stop():.0f} ms (once per session)")
    print(f"{'graph':<24} {'nodes':>6} {'first frame':>12} {'stall':>8} {'expand largest':>24}"
          f" {'stall':>8} {'pan frame med/max':>18}")
    for path in paths:
        r = measure(app, path)
        print(f"{os.path.basename(path):<24} {r['nodes']:>6} {r['first']:>10.2f} s "
              f"{1000 * r['stall_open']:>6.0f}ms {r['expand']:>8.3f} s ({r['largest_n']:>5} nodes)"
              f" {1000 * r['stall_expand']:>6.0f}ms {1000 * r['frame_med']:>8.1f}/"
              f"{1000 * r['frame_max']:.1f} ms")
    print("(first frame counts from creating the window; the window itself takes "
          f"{r['startup']:.2f} s of it; stalls count from opening the file)")
    print("targets: first frame <= 1 s (2.7k nodes), <= 3 s (30k); stall <= 100 ms; "
          "frame <= 16 ms")


if __name__ == "__main__" and "--pipeline" not in sys.argv:
    main()


def measure_pipeline_edit(app, path: str, inputs: list, outputs: list, transforms: str) -> dict:
    """Time from a pipeline edit to the first preview numbers, and the longest GUI stall."""
    from PySide6.QtCore import QSettings

    from inspector.core.app.workbench import session_path
    from inspector.gui.main_window import MainWindow

    if os.path.exists(session_path(path)):
        os.remove(session_path(path))  # start from a clean workbench, not the last run's
    win = MainWindow(QSettings(os.path.join(ROOT, "bench", ".cache", "gui.ini"),
                               QSettings.IniFormat))
    win.show()
    win.open_path(path)
    wait(app, lambda: win.scenes_drawn > 0 and not win.tasks.is_busy())
    win.workbench.set_marks(inputs, outputs)
    wait(app, lambda: not win.tasks.is_busy())
    beat = Heartbeat()
    beat.start()
    t = time.perf_counter()
    win.workbench.set_text(transforms)
    wait(app, lambda: len(win.state.rows) > 1)
    first = time.perf_counter() - t
    wait(app, lambda: not win.tasks.is_busy())
    everything = time.perf_counter() - t
    stall = beat.stop()
    beat.start()
    t = time.perf_counter()
    win.workbench.set_enabled(len(win.workbench.steps) - 1, False)  # an edit of the last step
    wait(app, lambda: not win.tasks.is_busy())
    edit = time.perf_counter() - t
    stall_edit = beat.stop()
    win.close()
    win.deleteLater()
    app.processEvents()
    if os.path.exists(session_path(path)):
        os.remove(session_path(path))
    return dict(first=first, everything=everything, stall=stall, edit=edit, stall_edit=stall_edit)


def pipeline_main() -> None:
    if "--warm" in sys.argv:  # TensorFlow already imported, as after its first use
        from inspector.core.tf import runtime

        runtime.tf()
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])
    from inspector.gui.app import tune_runtime

    tune_runtime()
    path = os.path.join(ROOT, "bench", ".cache", "inception_v3_jpeg.pb")
    seed = ('strip_unused_nodes(type=float, shape="1,299,299,3") remove_nodes(op=Identity, '
            'op=CheckNumerics) fold_constants(ignore_errors=true) fold_batch_norms '
            'fold_old_batch_norms quantize_weights')
    r = measure_pipeline_edit(app, path, ["Mul"], ["Identity"], seed)
    print(f"pipeline on {os.path.basename(path)}: first preview numbers {r['first']:.2f} s, "
          f"all steps with gzip and FLOPs {r['everything']:.2f} s, longest GUI stall "
          f"{1000 * r['stall']:.0f} ms; editing the last step: {r['edit']:.2f} s, stall "
          f"{1000 * r['stall_edit']:.0f} ms (targets: first numbers <= 1 s, stall <= 100 ms)")


if __name__ == "__main__" and "--pipeline" in sys.argv:
    pipeline_main()
