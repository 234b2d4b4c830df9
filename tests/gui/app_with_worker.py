"""Run by tests/gui/test_app_worker.py in a fresh process: the app as users start it (TensorFlow
in the worker), driven through open, preview, profile and a worker killed mid-profile.
Prints one JSON line of what it saw."""

import json
import os
import signal
import sys
import time

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from inspector.gui.main_window import MainWindow
from inspector.worker.client import install


def wait(app, condition, seconds=120.0):
    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > end:
            raise TimeoutError("the app did not get there in time")
        app.processEvents()
        time.sleep(0.005)


def start_window(settings: str, size=(1366, 768)):
    """The app as users start it: (application, worker client, main window shown at `size`)."""
    app = QApplication([])
    client = install()
    win = MainWindow(QSettings(settings, QSettings.IniFormat))
    if size:
        win.resize(*size)
    win.show()
    return app, client, win


def finish(win, client, seen: dict) -> int:
    """Say which TensorFlow-side modules the window's process imported, print what was seen
    as one JSON line, stop the tasks and the worker."""
    seen["tensorflow_here"] = sorted(m for m in sys.modules
                                     if m.split(".")[0] in ("tensorflow", "keras",
                                                            "ai_edge_litert"))
    print(json.dumps(seen))
    win.tasks.cancel()
    client.stop()
    return 0


def main(model: str, settings: str) -> int:
    app = QApplication([])
    client = install()
    win = MainWindow(QSettings(settings, QSettings.IniFormat))
    win.show()
    seen = {}
    win.open_path(model)
    wait(app, lambda: win.state.model is not None and not win.tasks.is_busy())
    win.workbench.set_marks(["Mul"], ["softmax"])
    win.workbench.set_text("fold_constants(ignore_errors=true) fold_batch_norms quantize_weights")
    wait(app, lambda: len(win.state.rows) == 4 and not win.tasks.is_busy() and
         all(r.metrics.flops is not None for r in win.state.rows[1:]))
    seen["flops"] = [r.metrics.flops.total for r in win.state.rows]
    seen["flops_per_node"] = [len(r.metrics.flops.per_node) for r in win.state.rows]
    seen["engine"] = type(win.state.engine).__name__
    # a step's graph comes from the worker, laid out off the GUI thread
    original = win.state.view
    win.preview_panel.table.selectRow(3)
    wait(app, lambda: win.state.view is not original and not win.tasks.is_busy())
    seen["step_ops"] = sorted({n.op for n in win.state.view.graph} & {"Dequantize"})
    win.preview.check_outputs(False)
    wait(app, lambda: "max abs error" in win.preview_panel.check_result.text())
    seen["check"] = win.preview_panel.check_result.text()
    win.overlays_panel.samples.setValue(2)   # calibration: ranges logged, frozen, compared
    win.overlays_panel.calibrate_random.click()
    wait(app, lambda: bool(win.overlays.records) and not win.tasks.is_busy(), 300)
    seen["calibrated"] = sorted({len(v) for v in win.overlays.records.values()})
    seen["compared"] = win.overlays_panel.compare.text()
    # the worker killed in the middle of a calibration: its TensorFlow child goes with it
    import psutil

    win.overlays_panel.samples.setValue(400)
    win.overlays.calibrate(None)
    wait(app, lambda: client.running() and
         psutil.Process(client.process.pid).children(), 120)
    child = psutil.Process(client.process.pid).children()[0]
    time.sleep(0.5)
    os.kill(client.process.pid, signal.SIGKILL)
    wait(app, lambda: not win.tasks.is_busy())
    seen["calibration_error"] = win.last_error
    seen["calibration_child_gone"] = not psutil.wait_procs([child], timeout=10)[1]
    win.overlays_panel.runs.setValue(2)
    win.overlays.profile(False)
    wait(app, lambda: bool(win.overlays.profiles) and not win.tasks.is_busy())
    seen["profiled"] = len(win.overlays.profile_now.nodes)
    # a worker killed in the middle of a profile: one message, the work kept, next one works
    win.overlays_panel.runs.setValue(200)
    win.overlays.profile(False)
    wait(app, lambda: client.running() and win.tasks.is_busy())
    time.sleep(0.5)
    os.kill(client.process.pid, signal.SIGKILL)
    wait(app, lambda: not win.tasks.is_busy())
    seen["error"] = win.last_error
    seen["marks"] = [win.workbench.inputs, win.workbench.outputs]
    seen["steps"] = [s.name for s in win.workbench.steps]
    win.overlays_panel.runs.setValue(2)
    win.overlays.profile(False)
    wait(app, lambda: len(win.overlays.profiles) == 2 and not win.tasks.is_busy())
    seen["profiles"] = len(win.overlays.profiles)
    # the new worker opens the model again for the preview of the next edit
    win.workbench.remove_step(2)
    wait(app, lambda: len(win.state.rows) == 3 and not win.tasks.is_busy() and
         all(r.metrics.flops is not None for r in win.state.rows[1:]))
    seen["after_restart"] = [r.label.split("(")[0] for r in win.state.rows]
    # Cancel (the status bar button) while TensorFlow is deep in a long profile
    win.overlays_panel.runs.setValue(1000)
    win.overlays.profile(False)
    wait(app, lambda: client.running() and win.tasks.is_busy())
    time.sleep(1.0)
    pid = client.process.pid
    start = time.monotonic()
    win.cancel_button.click()
    wait(app, lambda: not win.tasks.is_busy(), 30)
    seen["cancel_seconds"] = time.monotonic() - start
    seen["cancel_status"] = win.status_label.text()
    start = time.monotonic()  # the next request is answered soon: the 2000 runs stopped
    client.available()
    seen["next_answer_seconds"] = time.monotonic() - start
    seen["same_worker"] = client.process is not None and client.process.pid == pid
    seen["tensorflow_here"] = sorted(m for m in sys.modules
                                     if m.split(".")[0] in ("tensorflow", "keras"))
    seen["tf_layer_here"] = sorted(m for m in sys.modules if m.startswith("inspector.core.tf"))
    seen["worker_starts"] = client.starts
    print(json.dumps(seen))
    win.tasks.cancel()
    client.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
