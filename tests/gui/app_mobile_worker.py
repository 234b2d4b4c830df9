"""Run by tests/gui/test_gui_mobile.py in a fresh process: the app as users start it (TensorFlow
in the worker) converts a model to four TFLite variants, then a second conversion is
cancelled mid-way. Prints one JSON line of what it saw."""

import json
import sys
import time

import psutil
from app_with_worker import wait  # this script's folder is on the path
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from inspector.gui.main_window import MainWindow
from inspector.worker.client import install


def descendants() -> set:
    return {p.pid for p in psutil.Process().children(recursive=True)}


def main(model: str, settings: str) -> int:
    app = QApplication([])
    client = install()
    win = MainWindow(QSettings(settings, QSettings.IniFormat))
    win.show()
    seen = {}
    win.open_path(model)
    wait(app, lambda: win.state.model is not None and not win.tasks.is_busy())
    win.workbench.set_marks(["input"], ["Identity"])
    panel = win.mobile_panel
    panel.samples.setValue(4)
    panel.compare.setValue(2)
    win.mobile.convert(False)
    wait(app, lambda: panel.table.rowCount() == 4 and not win.tasks.is_busy())
    rows = win.state.tflite_preview.variants
    seen["engine"] = type(win.state.engine).__name__
    seen["variants"] = [r.variant for r in rows]
    seen["sizes"] = [r.size for r in rows]
    seen["int8_input"] = rows[3].inputs[0]["dtype"]
    seen["compared"] = [r.compared for r in rows]
    before = descendants()
    texts = []
    win.tasks.progress.connect(lambda d, t, text: texts.append(text))
    panel.samples.setValue(400)
    panel.compare.setValue(50)
    win.mobile.convert(False)
    wait(app, lambda: any("converting: dynamic" in t for t in texts))
    during = descendants()
    start = time.monotonic()
    win.cancel_button.click()
    wait(app, lambda: not win.tasks.is_busy(), 60)
    seen["cancel_seconds"] = time.monotonic() - start
    seen["cancel_status"] = win.status_label.text()
    client.available()              # the worker answers again (drained or restarted)
    time.sleep(0.5)
    after = descendants()
    worker = {client.process.pid} if client.process is not None else set()
    seen["orphans"] = sorted((during | after) - before - worker -
                             {p for p in during if not psutil.pid_exists(p)})
    seen["left_after"] = sorted(after - worker - before)
    seen["table_kept"] = panel.table.rowCount()
    seen["tensorflow_here"] = sorted(m for m in sys.modules
                                     if m.split(".")[0] in ("tensorflow", "keras"))
    print(json.dumps(seen))
    win.tasks.cancel()
    client.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
