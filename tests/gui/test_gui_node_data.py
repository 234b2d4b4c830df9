"""Model Explorer node data in the window (issue 36.7), as a user: File > Import Model
Explorer node data colours the nodes it names (and the scopes holding them), the Legend shows
its key, the Overlays panel its button; File > Export writes the overlay shown; a hostile file
is one message and changes nothing."""

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from test_gui import open_and_wait

from inspector.core.overlays.registry import NO_VALUE

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _action(window, text) -> QAction:
    return next(a for a in window.findChildren(QAction) if a.text() == text)


def _choose(monkeypatch, path, save=False):
    from inspector.gui.controllers import overlays_controller

    name = "getSaveFileName" if save else "getOpenFileName"
    monkeypatch.setattr(overlays_controller.QFileDialog, name,
                        staticmethod(lambda *a, **k: (str(path), "")))


def test_import_colours_nodes_then_export_writes_them_back(qtbot, window, model, tmp_path,
                                                          monkeypatch):
    open_and_wait(qtbot, window, model)
    window.state.expand_all()
    qtbot.waitUntil(lambda: "conv/Conv2D" in window.canvas.items_by_id, timeout=20000)
    path = tmp_path / "vendor_me_input_mse.json"
    path.write_text(json.dumps({
        "results": {"conv/Conv2D": {"value": 0.5}, "conv_1/Conv2D:0": {"value": 3.0},
                    "mixed/tower_0/conv/Conv2D": {"value": 9.0},
                    "npu/ghost": {"value": 1.0}},
        "thresholds": [{"value": 1, "bgColor": "rgb(200, 255, 0)"},
                       {"value": 5, "bgColor": "#c87f00"},
                       {"value": 10, "bgColor": "#c80000"}]}))
    _choose(monkeypatch, path)
    _action(window, "Import Model Explorer &node data…").trigger()
    qtbot.waitUntil(lambda: window.state.overlay.mode == "node-data", timeout=20000)
    items = window.canvas.items_by_id
    assert items["conv/Conv2D"].heat == "#c8ff00"
    assert items["conv_1/Conv2D"].heat == "#c87f00"
    assert items["mixed/tower_0/conv/Conv2D"].heat == "#c80000"
    assert items["conv/Relu"].heat == NO_VALUE            # no entry: white, not a category
    assert items["conv/Conv2D"].badge == "0.5"
    assert window.overlays_panel.mode_buttons["node-data"].isChecked()
    window.legend_dock.raise_()
    assert window.legend.showing == "node-data"
    assert ("#c8ff00", "up to 1") in window.legend.rows()
    assert "npu/ghost" in window.status_label.text()
    # export what is shown: the same values, the same colours
    out = tmp_path / "back.json"
    _choose(monkeypatch, out, save=True)
    _action(window, "Export overlay as Model Explorer node data…").trigger()
    qtbot.waitUntil(lambda: "Wrote the node-data overlay" in window.status_label.text(),
                    timeout=20000)
    # keyed as Model Explorer looks it up: its graph id, its adapter's node ids
    from tests.fixtures.me_oracle import convert, resolve

    me = convert(window.state.model.path)["main"]
    results = json.loads(out.read_text())["main"]["results"]
    landed = {resolve(me, k)["namespace"]: e for k, e in results.items()}
    assert landed["conv_1/Conv2D"] == {"value": 3.0, "bgColor": "#c87f00"}
    assert len(landed) == 3
    # and that id-keyed file, Model Explorer's own form, imports onto the same nodes
    window.overlays_panel.mode_buttons["none"].click()
    _choose(monkeypatch, out)
    _action(window, "Import Model Explorer &node data…").trigger()
    qtbot.waitUntil(lambda: window.state.overlay.mode == "node-data", timeout=20000)
    assert window.state.overlay.node_data.values == {
        "conv/Conv2D": 0.5, "conv_1/Conv2D": 3.0, "mixed/tower_0/conv/Conv2D": 9.0}
    qtbot.waitUntil(lambda: window.canvas.items_by_id["conv_1/Conv2D"].heat == "#c87f00",
                    timeout=20000)
    window.canvas.grab().save(str(tmp_path / "node_data.png"))
    # collapsed: a scope shows its largest value's colour
    window.state.collapse_all()
    qtbot.waitUntil(lambda: "mixed/" in window.canvas.items_by_id, timeout=20000)
    qtbot.waitUntil(lambda: window.canvas.items_by_id["mixed/"].heat == "#c80000",
                    timeout=20000)
    assert window.canvas.items_by_id["conv/"].heat == "#c8ff00"
    assert window.canvas.items_by_id["conv_1/"].heat == "#c87f00"
    window.state.expand_all()
    qtbot.waitUntil(lambda: "conv/Conv2D" in window.canvas.items_by_id, timeout=20000)
    items = window.canvas.items_by_id
    # a hostile file: one message, the overlay as it was
    before = window.state.overlay
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"results": {"conv/Conv2D": {"value": {"deep": [1]}}}}))
    errors = []
    window.state.error.connect(errors.append)
    _choose(monkeypatch, bad)
    _action(window, "Import Model Explorer &node data…").trigger()
    qtbot.waitUntil(lambda: bool(errors), timeout=20000)
    assert len(errors) == 1 and "\n" not in errors[0] and "bad.json" in errors[0]
    assert window.state.overlay is before
    qtbot.mouseClick(window.overlays_panel.mode_buttons["none"], Qt.LeftButton)
    assert window.canvas.items_by_id["conv/Conv2D"].heat is None
