"""Run by tests/gui/test_use_cases_both_front_ends.py in a fresh process: the app as users
start it (TensorFlow in the worker, 1366x768) opens MODEL and runs each shared use case through
its menu's controller (Demo > Model card, Phone > TFLite check, File > Compare with…, Target
report, Phone > Quantization: Run recipes, then Save applied .tflite… for each row,
Phone > Selective build > Write ops_to_register.h…); prints one JSON line of the
answers, for the test to set beside the command line's answers on the same file."""

import json
import os
import sys

from app_with_worker import finish, start_window, wait  # this script's folder is on the path
from PySide6.QtWidgets import QLabel


def main(model: str, settings: str, *wanted) -> int:
    app, client, win = start_window(settings)
    seen = {"engine": None}
    win.open_path(model)
    wait(app, lambda: win.state.model is not None and win.state.summary is not None and
         not win.tasks.is_busy())
    seen["engine"] = type(win.state.engine).__name__
    m = win.state.model
    seen["opened"] = {"kind": m.kind, "frozen": m.frozen, "nodes": len(m.graph),
                      "notes": m.notes}
    if "card" in wanted:
        win.card.show_card()
        wait(app, lambda: win.card_panel.isVisible() and not win.tasks.is_busy())
        result = win.state.card
        seen["card"] = win.card_panel.card.as_dict()
        seen["card flops"] = {"total": result.flops.total, "assumed": result.flops.assumed}
        seen["card footnote"] = win.card_panel.footnote.text()
        seen["card text"] = [label.text() for label in win.card_panel.findChildren(QLabel)
                             if label.isVisible()]
    if "tflite" in wanted:          # Phone > Confirm with the converter: the check, then it
        win.mobile.confirm(False)
        wait(app, lambda: win.state.tflite_check is not None and
             bool(win.state.tflite_check.confirmed) and not win.tasks.is_busy(), 240)
        seen["tflite"] = win.state.tflite_check.as_dict()
        seen["tflite notes"] = win.state.overlay.compat_notes
    for other in [w[5:] for w in wanted if w.startswith("diff=")]:   # File > Compare with…
        ctl = win.compare_ctl
        ctl.compare_with(other)
        wait(app, lambda: bool(ctl.windows) and not win.tasks.is_busy(), 240)
        from inspector.core.compare.document import dumps

        seen["diff"] = json.loads(dumps(ctl.windows[-1].session.diff))
        ctl.windows[-1].close()
    for target in [w[7:] for w in wanted if w.startswith("target=")]:  # Phone > Target report
        before = win.state.overlay.targets
        win.targets.run(target)
        wait(app, lambda: win.state.overlay.targets is not before and
             not win.tasks.is_busy(), 240)
        seen.setdefault("targets", []).append(win.state.overlay.targets.as_json())
    for recipes in [w[8:].split(",") for w in wanted if w.startswith("recipes=")]:
        seen["recipes"] = run_recipes(app, win, recipes, settings)
    for path in [w[7:] for w in wanted if w.startswith("header=")]:  # Phone > Selective build
        from PySide6.QtWidgets import QFileDialog

        QFileDialog.getSaveFileName = staticmethod(lambda *a, **k: (path, ""))  # the user's
        panel = win.mobile_panel                                                  # answer
        panel.header_button.click()
        wait(app, lambda: win.state.ops_header is not None and not win.tasks.is_busy(), 240)
        header = win.state.ops_header
        seen["header"] = {"path": header.path, "ops": list(header.ops),
                          "kernels": list(header.kernels), "missing": list(header.missing),
                          "shown": panel.header_text.toPlainText(),
                          "said": panel.header_info.text()}
    for path in [w[5:] for w in wanted if w.startswith("save=")]:   # File > Save optimized
        from PySide6.QtWidgets import QFileDialog

        win.workbench.set_marks(["pixels"], ["output"])
        win.workbench.set_text(PIPELINE)
        wait(app, lambda: len(win.state.rows) == 4 and not win.tasks.is_busy(), 240)
        said = []
        win.state.message.connect(said.append)
        QFileDialog.getSaveFileName = staticmethod(lambda *a, **k: (path, ""))
        menu_action(win, "&Save optimized graph…").trigger()
        wait(app, lambda: any(t.startswith("Saved") for t in said) and
             not win.tasks.is_busy(), 240)
        seen["saved"] = {"said": [t for t in said if t.startswith("Saved")],
                         "nodes": win.state.rows[-1].metrics.node_count}
    seen["imported here"] = sorted(m for m in ("tensorflow", "keras") if m in sys.modules)
    return finish(win, client, seen)


PIPELINE = "fold_constants(ignore_errors=true) fold_batch_norms quantize_weights"


def menu_action(win, text: str):
    """The menu bar's action of this text (as the user picks it from its menu)."""
    for top in win.menuBar().actions():
        for action in top.menu().actions() if top.menu() else []:
            if action.text() == text:
                return action
    raise LookupError(text)


def run_recipes(app, win, recipes: list, settings: str) -> list:
    """Phone > Quantization: tick `recipes`, Run recipes (in the worker), then for each row
    click it on the chart (apply) and Save applied .tflite…; the save dialog answers with
    the name it proposed, in the folder of `settings`. Each row's figures and file."""
    from unittest import mock

    from inspector.core.mobile.recipes import figures
    from inspector.gui.panels.quant_panel import COLUMNS

    win.show_panel(win.mobile_dock, win.mobile_panel.tabs.indexOf(win.quant_panel))
    panel = win.quant_panel
    for name, box in panel.boxes.items():
        box.setChecked(name in recipes)
    panel.run_button.click()
    wait(app, lambda: win.state.quant is not None and not win.tasks.is_busy(), 240)
    folder, rows = os.path.dirname(settings), []
    for k, result in enumerate(win.state.quant.report.results):
        row, asked = figures(result), []
        row["cells"] = {c: panel.table.item(k, COLUMNS.index(c)).text()
                        for c in ("Recipe", "Size", "SNR dB")}   # what the table shows

        def answer(_parent, _title, proposed, _filter):
            asked.append(os.path.join(folder, os.path.basename(proposed)))
            return asked[-1], ""

        panel.applied.emit(result.recipe, result.keep_float)      # a point of the chart
        with mock.patch("inspector.gui.controllers.tflite_files.QFileDialog.getSaveFileName",
                        answer):
            panel.save_button.click()
        row["file"], row["status"] = asked[0], win.status_label.text()
        rows.append(row)
    return rows


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
