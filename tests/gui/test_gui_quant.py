"""Quantization tab driven as a user: pick recipes, run them (the table, the per-layer error
overlay on the graph), keep the worst layer float from the list and see the new figures, the
size-versus-error chart, a click on a point applies that recipe; a screenshot is saved."""

import os

import pytest
from conftest import DEMO
from PySide6.QtCore import QPoint, QPointF, Qt
from test_gui import open_and_wait

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
SHOTS = os.environ.get("INSPECTOR_SHOTS", "")


@pytest.fixture
def demo(tmp_path):
    import shutil

    path = tmp_path / "demo_digits.pb"
    shutil.copy(DEMO, path)
    return str(path)


def _cell(table, row, col):
    return table.item(row, col).text()


def test_recipes_overlay_keep_float_and_pareto_click(qtbot, window, demo, tmp_path):
    open_and_wait(qtbot, window, demo)
    window.workbench.set_marks(["pixels"], ["output"])
    mobile, panel = window.mobile_panel, window.quant_panel
    window.show_panel(window.mobile_dock, mobile.tabs.indexOf(panel))
    mobile.samples.setValue(12)
    mobile.compare.setValue(6)
    for name, box in panel.boxes.items():
        box.setChecked(name in ("float", "dynamic", "int8"))
    qtbot.mouseClick(panel.run_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: panel.table.rowCount() == 3 and not window.tasks.is_busy(),
                    timeout=180000)
    t = panel.table
    assert [_cell(t, r, 0) for r in range(3)] == ["float", "dynamic", "int8"]
    assert [_cell(t, r, 10) for r in range(3)] == ["TF's converter", "ai-edge-quantizer",
                                                  "ai-edge-quantizer"]
    assert "LiteRT" in panel.summary.text()
    run = window.state.quant
    assert run.chosen == ("int8", "")                    # the worst recipe is shown
    assert window.state.overlay.mode == "quant_error"
    # the overlay colours the GraphDef nodes the int8 error maps to, SNR badges on them
    errors = run.node_errors()
    conv = next(n for n in errors if window.state.model.graph.node(n).op == "Conv2D")
    item = window.canvas.items_by_id[window.state.visible_id(conv)]
    assert item.heat and item.badge.endswith("dB")
    # the worst layer first; keep it float: the chosen recipe runs again
    layers = panel.layers
    assert layers.topLevelItemCount() >= 3
    snrs = [layers.topLevelItem(k).text(3) for k in range(layers.topLevelItemCount())]
    worst = next(layers.topLevelItem(k) for k in range(layers.topLevelItemCount())
                 if layers.topLevelItem(k).text(1) == "CONV_2D")   # the worst convolution
    tensor = worst.data(0, Qt.UserRole)
    before = next(e for e in run.row().tensors if e.tensor == tensor)
    layers.scrollToItem(worst)                   # a short, narrow list: scroll to the row
    rect = layers.visualItemRect(worst)          # and click its visible start
    qtbot.mouseClick(layers.viewport(), Qt.LeftButton, pos=QPoint(20, rect.center().y()))
    assert panel.keep_button.isEnabled() and snrs[0] != ""
    qtbot.mouseClick(panel.keep_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: t.rowCount() == 4 and not window.tasks.is_busy(), timeout=180000)
    run = window.state.quant
    assert run.chosen[0] == "int8" and tensor in run.chosen[1].replace("\\", "")
    assert panel.keep.text() == run.chosen[1] and _cell(t, 3, 1) == "1"
    after = next(e for e in run.row().tensors if e.tensor == tensor)
    assert before.dtype == "int8" and after.dtype == "float32"
    assert after.mse < before.mse                          # kept float: its error drops
    # select a node on the canvas, keep its layer float as well: a fifth row, two layers
    other = next(e for e in run.row().tensors if e.op == "CONV_2D" and e.tensor != tensor)
    window.state.select(other.nodes[0])
    qtbot.mouseClick(panel.keep_selected, Qt.LeftButton)
    qtbot.waitUntil(lambda: t.rowCount() == 5 and not window.tasks.is_busy(), timeout=180000)
    assert window.state.quant.chosen[1].count("|") == 1 and _cell(t, 4, 1) == "2"
    assert next(e for e in window.state.quant.row().tensors
                if e.tensor == other.tensor).dtype == "float32"
    # the chart: a point per recipe tried; a click on one applies it
    window.mobile_panel.tabs.setCurrentIndex(mobile.tabs.indexOf(panel))
    panel.below.setCurrentIndex(1)
    qtbot.waitUntil(lambda: panel.pareto.plot is not None and
                    getattr(panel, "scatter", None) is not None, timeout=10000)
    points = panel.scatter.points()
    assert len(points) == 5
    target = next(p for p in points if panel._points[p.data()].recipe == "dynamic")
    plot = panel.pareto.plot
    box = plot.getViewBox()
    qtbot.wait(200)
    scene_pos = box.mapViewToScene(QPointF(target.pos().x(), target.pos().y()))
    pos = plot.mapFromScene(scene_pos)
    qtbot.mouseClick(plot.viewport(), Qt.LeftButton, pos=pos)
    qtbot.waitUntil(lambda: window.state.quant.applied == ("dynamic", ""), timeout=5000)
    assert window.state.quant.chosen == ("dynamic", "")
    assert "applied: dynamic" in panel.summary.text()
    # data-free sensitivity: ranked list, and its overlay on the graph
    panel.below.setCurrentIndex(2)
    qtbot.mouseClick(panel.sens_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: panel.sensitivity.topLevelItemCount() == 3, timeout=30000)
    kurt = [float(panel.sensitivity.topLevelItem(k).text(2)) for k in range(3)]
    assert kurt == sorted(kurt, reverse=True)                 # most sensitive first
    assert window.state.overlay.mode == "sensitivity"
    top = panel.sensitivity.topLevelItem(0).text(0)
    assert window.canvas.items_by_id[window.state.visible_id(top)].badge.startswith("κ ")
    # save the applied recipe; open it beside: the .tflite graph takes the same colours
    saved = window.quant.save(str(tmp_path / "digits_dynamic.tflite"))
    assert open(saved, "rb").read() == window.state.quant.row(("dynamic", "")).model
    qtbot.mouseClick(panel.beside_button, Qt.LeftButton)
    other = window._beside[-1]
    qtbot.addWidget(other)
    qtbot.waitUntil(lambda: other.state.quant is not None and other.scenes_drawn > 0 and
                    not other.tasks.is_busy(), timeout=60000)
    assert other.state.model.kind == "tflite" and other.state.overlay.mode == "quant_error"
    mine = window.state.quant.row().tensors
    theirs = other.state.quant.node_errors()
    assert len(theirs) == len(mine)                 # every measured tensor found its op
    relu = next(e for e in mine if e.op == "CONV_2D")
    node = next(n for n, e in theirs.items() if e.tensor == relu.tensor)
    assert theirs[node].snr_db == relu.snr_db
    item = other.canvas.items_by_id[other.state.visible_id(node)]
    assert item.heat and item.badge.endswith("dB")
    if SHOTS:
        other.resize(1100, 800)
        qtbot.wait(300)
        other.grab().save(os.path.join(SHOTS, "quant_tflite_beside.png"))
    if SHOTS:
        window.resize(1500, 950)
        qtbot.wait(300)
        window.grab().save(os.path.join(SHOTS, "quant_window.png"))
        panel.grab().save(os.path.join(SHOTS, "quant_panel.png"))
        panel.below.setCurrentIndex(0)
        window.mobile_dock.resize(1500, 600)
        panel.resize(1400, 560)
        qtbot.wait(200)
        panel.grab().save(os.path.join(SHOTS, "quant_layers.png"))
