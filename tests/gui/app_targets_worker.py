"""Run by tests/gui/test_gui_targets_worker.py in a fresh process: the app as users start it
(TensorFlow in the worker) at 1366x768 on a GraphDef: the Target report before anything was
converted, the Quantization tab's recipes run, the Conversion preview run, an int8 recipe
selected, then the Target report run from its button on that recipe's file. Prints one JSON
line of what it saw; screenshots go to the folder given."""

import os
import sys

from app_with_worker import finish, start_window, wait  # this script's folder is on the path
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtTest import QTest


def main(model: str, settings: str, shots: str) -> int:
    app, client, win = start_window(settings)
    seen = {"engine": None}
    idle = lambda: not win.tasks.is_busy()  # noqa: E731
    win.open_path(model)
    wait(app, lambda: win.state.model is not None and idle())
    win.workbench.set_marks(["pixels"], ["output"])
    seen["engine"] = type(win.state.engine).__name__
    next(a for a in win.findChildren(QAction)
         if a.text().startswith("Target &report")).trigger()
    view = win.targets.view
    wait(app, view.isVisible)
    seen["run_enabled_before"] = view.run_button.isEnabled()
    seen["summary_before"] = view.summary.text()
    win.targets.dialog.grab().save(os.path.join(shots, "target_before.png"))
    win.targets.dialog.hide()

    quant, mobile = win.quant_panel, win.mobile_panel
    win.show_panel(win.mobile_dock, mobile.tabs.indexOf(quant))
    mobile.samples.setValue(8)
    mobile.compare.setValue(4)
    for name, box in quant.boxes.items():
        box.setChecked(name in ("dynamic", "int8"))
    QTest.mouseClick(quant.run_button, Qt.LeftButton)
    wait(app, lambda: quant.table.rowCount() == 2 and idle(), 300)
    head = [quant.table.horizontalHeaderItem(c).text() for c in range(quant.table.columnCount())]
    seen["quant_rows"] = [{h: quant.table.item(r, c).text() for c, h in enumerate(head)}
                          for r in range(2)]
    seen["quant_tips"] = {h: quant.table.horizontalHeaderItem(c).toolTip()
                          for c, h in enumerate(head)}

    win.show_panel(win.mobile_dock, 1)            # the Conversion preview tab
    QTest.mouseClick(mobile.convert_button, Qt.LeftButton)
    wait(app, lambda: mobile.table.rowCount() == 4 and idle(), 300)
    head = [mobile.table.horizontalHeaderItem(c).text()
            for c in range(mobile.table.columnCount())]
    seen["preview_rows"] = [{h: mobile.table.item(r, c).text() for c, h in enumerate(head)}
                            for r in range(4)]
    seen["preview_tips"] = {h: mobile.table.horizontalHeaderItem(c).toolTip()
                            for c, h in enumerate(head)}
    seen["shapes"] = [type(win.state.tflite_preview).__name__,
                      type(win.state.quant.report).__name__,
                      type(win.state.tflite_preview.variants[0]).__name__,
                      type(win.state.quant.report.results[0]).__name__]

    win.show_panel(win.mobile_dock, mobile.tabs.indexOf(quant))
    row = next(r for r in range(quant.table.rowCount()) if quant.table.item(r, 0).text() ==
               "int8")
    rect = quant.table.visualItemRect(quant.table.item(row, 0))
    QTest.mouseClick(quant.table.viewport(), Qt.LeftButton, pos=rect.center())
    wait(app, lambda: win.state.quant.chosen == ("int8", ""))
    app.processEvents()
    win.grab().save(os.path.join(shots, "quantization_tab.png"))

    win.targets.open()
    seen["run_enabled_after"] = view.run_button.isEnabled()
    view.choose("ethos-u55-128")
    QTest.mouseClick(view.run_button, Qt.LeftButton)
    wait(app, lambda: win.state.overlay.targets is not None and idle(), 300)
    app.processEvents()
    report = win.state.overlay.targets
    seen["label"] = report.label
    seen["headline"] = view.headline.text()
    seen["details"] = view.details.text()
    seen["dialog_size"] = [win.targets.dialog.width(), win.targets.dialog.height()]
    win.targets.dialog.grab().save(os.path.join(shots, "target_report.png"))
    return finish(win, client, seen)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3]))
