"""The real app (TensorFlow, LiteRT and Vela in the worker) driven through Phone > Target
report for three targets: the longest pause of the window's event loop while each runs, and
which of those packages the window's process imported (none may).

    python bench/targets_app_bench.py MODEL.tflite"""
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from inspector.gui.main_window import MainWindow  # noqa: E402
from inspector.worker.client import install  # noqa: E402


def wait(app, cond, seconds=180.0):
    end = time.monotonic() + seconds
    worst, last = 0.0, time.monotonic()
    while not cond():
        if time.monotonic() > end:
            raise TimeoutError
        app.processEvents()
        now = time.monotonic()
        worst, last = max(worst, now - last), now
        time.sleep(0.005)
    return worst


from bench.scale import python_speed  # noqa: E402

print(f"this machine's Python speed: a loop of 10M additions takes {python_speed():.2f} s "
      "(0.88 s on the slow 2-core class)")
app = QApplication([])
client = install()
win = MainWindow(QSettings(os.path.join(os.path.dirname(sys.argv[1]) or ".", ".bench.ini"),
                           QSettings.IniFormat))
win.resize(1400, 900)
win.show()
win.open_path(sys.argv[1])
wait(app, lambda: win.state.model is not None and not win.tasks.is_busy())
seen = {}
for target in ("ethos-u55-128", "cpu", "gpu"):
    before = win.state.overlay.targets
    view = win.targets.open()
    view.choose(target)
    view.run_button.click()
    seen[target + "_worst_gap_ms"] = round(1e3 * wait(
        app, lambda: win.state.overlay.targets is not before and not win.tasks.is_busy()), 1)
    seen[target] = win.state.overlay.targets.summary()
seen["gui_imported"] = sorted(m for m in ("tensorflow", "ai_edge_litert", "ethosu")
                              if m in sys.modules)
print(json.dumps(seen))
client.stop()
