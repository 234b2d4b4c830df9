"""Run by tests/gui/test_compare_worker.py in a fresh process: the app as users start it
(TensorFlow in the worker) drives Preview > Compare… and All stages, then "Run both on the same
input" of a GraphDef against its full-int8 .tflite. Prints one JSON line of what it saw."""

import sys
import time

from app_with_worker import finish, start_window, wait  # this script's folder is on the path
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QMessageBox


def main(model: str, graphdef: str, tflite: str, settings: str) -> int:
    warnings = []
    QMessageBox.warning = staticmethod(lambda parent, title, text, *a: warnings.append(text))
    app, client, win = start_window(settings)
    seen = {"warnings": warnings}
    ctl = win.compare_ctl
    ctl.on_error = warnings.append
    win.open_path(model)
    wait(app, lambda: win.state.model is not None and not win.tasks.is_busy())
    win.workbench.set_marks(["Mul"], ["softmax"])
    win.workbench.set_text("fold_old_batch_norms quantize_weights(minimum_size=100)")
    wait(app, lambda: len(win.state.rows) == 3 and not win.tasks.is_busy())
    seen["engine"] = type(win.state.engine).__name__
    win.preview_panel.compare_button.click()          # Preview > Compare…
    wait(app, lambda: bool(ctl.windows) or bool(warnings))
    if ctl.windows:
        d = ctl.windows[-1].session.diff
        seen["step_compare"] = {
            "b_label": d.b_label,
            "merged_batch_norms": len({e.a for e in d.entries if e.status == "merged" and
                                       e.op_a.startswith("Fused")}),
            "dequantize": len([e for e in d.entries if e.op_b == "Dequantize"])}
    win.preview_panel.stages_button.click()           # Preview > All stages

    def lanes():
        return [w for w in ctl.windows if type(w).__name__ == "LanesWindow"]

    errors = len(warnings)
    wait(app, lambda: bool(lanes()) or len(warnings) > errors)
    wait(app, lambda: not win.tasks.is_busy())
    if lanes():
        seen["lanes"] = list(lanes()[0].session.labels)
    for w in list(ctl.windows):
        w.close()
    wait(app, lambda: not ctl.windows or not win.tasks.is_busy())
    # File > Compare with… a full-int8 .tflite of the open GraphDef, then "Run both"
    win.open_path(graphdef)
    wait(app, lambda: win.state.model is not None and not win.tasks.is_busy() and
         win.state.model.path == graphdef)
    count = len(ctl.windows)
    ctl.compare_with(tflite)
    wait(app, lambda: len(ctl.windows) > count or len(warnings) > errors)
    if len(ctl.windows) > count:
        cw = ctl.windows[-1]
        cw.resize(1366, 768)
        wait(app, lambda: cw.ready() and not win.tasks.is_busy())
        beats, last = [], [time.monotonic()]

        def beat():
            now = time.monotonic()
            beats.append(now - last[0])
            last[0] = now

        timer = QTimer()
        timer.timeout.connect(beat)
        timer.start(10)
        start = time.monotonic()
        cw.numeric_button.click()
        wait(app, lambda: (cw.divergence is not None or len(warnings) > errors) and
             not win.tasks.is_busy(), 300)
        seen["run_both_seconds"] = time.monotonic() - start
        timer.stop()
        seen["longest_stall"] = max(beats, default=0.0)
        d = cw.divergence
        if d is not None:
            seen["numeric"] = {"first": d.first, "engines": list(d.engines),
                               "layers": [d.layers.get(a) for a, _ in d.pairs],
                               "snr": [d.per_node[a]["snr_db"] for a, _ in d.pairs],
                               "inputs": d.inputs, "status": cw.totals.text(),
                               "selected": cw.session.selected["A"]}
    return finish(win, client, seen)


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:5]))
