"""Timing charts (issue 38.22): each bar says which node it is (no two bars share a label:
the distinguishing part of a long name is kept) and a click on a bar goes to its node."""

import json

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QFontMetrics
from test_gui import open_and_wait

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

TIMED = {"mixed/tower_0/conv/Conv2D": 300.0, "mixed/tower_1/conv/Conv2D": 200.0,
         "mixed/tower_1/conv_1/Conv2D": 150.0, "MatMul": 100.0}


def _import(qtbot, window, tmp_path, monkeypatch):
    from inspector.gui.controllers import overlays_controller

    events = [{"ph": "X", "name": n.rsplit("/", 1)[-1], "dur": us,
               "args": {"name": n, "op": n.rsplit("/", 1)[-1]}} for n, us in TIMED.items()]
    trace = tmp_path / "trace.json"
    trace.write_text(json.dumps({"traceEvents": events}))
    monkeypatch.setattr(overlays_controller.QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (str(trace), "")))
    window.overlays_dock.raise_()
    qtbot.mouseClick(window.overlays_panel.import_timings, Qt.LeftButton)


def _labels(slot) -> list:
    ticks = slot.plot.getPlotItem().getAxis("left")._tickLevels[0]
    return [text for _, text in ticks]


def _click_bar(qtbot, slot, row: int) -> None:
    plot = slot.plot
    vb = plot.getPlotItem().getViewBox()
    at = vb.mapViewToScene(QPointF(0.001, row))     # the bar's start, on its row
    pos = plot.mapFromScene(at)
    pos.setX(pos.x() + 6)
    qtbot.mouseClick(plot.viewport(), Qt.LeftButton, pos=pos)


def test_each_bar_names_its_node_and_a_click_goes_there(qtbot, window, model, tmp_path,
                                                       monkeypatch):
    window.resize(1366, 768)
    open_and_wait(qtbot, window, model)
    _import(qtbot, window, tmp_path, monkeypatch)
    panel = window.overlays_panel
    panel.charts.setCurrentIndex(1)               # top nodes
    qtbot.waitUntil(lambda: panel.top_nodes.plot is not None)
    qtbot.wait(50)
    labels = _labels(panel.top_nodes)
    assert len(labels) == len(TIMED) and len(set(labels)) == len(labels), labels
    assert "tower_0" in labels[0] and "tower_1" in labels[1], labels  # what tells them apart
    _click_bar(qtbot, panel.top_nodes, 1)
    assert window.state.selected == "mixed/tower_1/conv/Conv2D"
    _click_bar(qtbot, panel.top_nodes, 3)
    assert window.state.selected == "MatMul"
    panel.charts.setCurrentIndex(0)               # time by op type: its slowest node
    qtbot.waitUntil(lambda: panel.by_type.plot is not None)
    qtbot.wait(50)
    assert _labels(panel.by_type)[0] == "Conv2D"
    for slot in (panel.by_type, panel.top_nodes):   # each label fits (else it is not drawn)
        axis = slot.plot.getPlotItem().getAxis("left")
        metrics = QFontMetrics(axis.style.get("tickFont") or slot.plot.font())
        assert axis.width() >= max(metrics.horizontalAdvance(t) for t in _labels(slot)) + 8
    _click_bar(qtbot, panel.by_type, 0)
    assert window.state.selected == "mixed/tower_0/conv/Conv2D"


def test_unique_labels_keep_the_distinguishing_part():
    from inspector.gui.panels.overlay_charts import unique_labels

    names = ["a/very/long/scope/tower_0/conv/Conv2D", "a/very/long/scope/tower_1/conv/Conv2D",
             "Relu", "b/Relu"]
    labels = unique_labels(names, limit=28)
    assert len(set(labels)) == 4 and all(len(x) <= 28 for x in labels), labels
    assert "tower_0" in labels[0] and "tower_1" in labels[1] and labels[0].endswith("Conv2D")
    assert labels[2] == "Relu" and labels[3] == "b/Relu"


def test_every_bar_has_a_row_of_its_own(qtbot, window, tmp_path, monkeypatch):
    """The timing charts at their least height (110 px) drew their twelve names over each
    other; each name has its font's height now."""
    from inspector.core.model import protos

    g = protos.GraphDef()
    for i in range(14):
        g.node.add(name=f"n{i}", op=f"Op{i}")
    model = tmp_path / "many.pb"
    model.write_bytes(g.SerializeToString())
    open_and_wait(qtbot, window, str(model))
    events = [{"ph": "X", "name": f"Op{i}", "dur": 100 * (i + 1),
               "args": {"name": f"n{i}", "op": f"Op{i}"}} for i in range(14)]
    trace = tmp_path / "many.json"
    trace.write_text(json.dumps({"traceEvents": events}))
    window.overlays.import_timings(str(trace))
    slot = window.overlays_panel.top_nodes
    window.overlays_dock.raise_()
    window.overlays_panel.charts.setCurrentWidget(slot)
    qtbot.waitUntil(lambda: slot.plot is not None and len(_labels(slot)) == 12, timeout=20000)
    qtbot.waitUntil(lambda: slot.height() >= slot.minimumHeight(), timeout=5000)
    qtbot.wait(50)
    item = slot.plot.getPlotItem()
    font = item.getAxis("left").style.get("tickFont") or item.font()
    row = item.getViewBox().sceneBoundingRect().height() / 12
    assert row >= QFontMetrics(font).height(), (row, QFontMetrics(font).height())
