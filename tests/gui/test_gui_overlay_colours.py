"""One colour meaning per overlay (issue 38.11): while an overlay paints the graph, every box
(nodes, collapsed scopes) takes that overlay's colours, never its op category's, and the
Legend lists that overlay's key instead of the op categories."""

import json

import pytest
from conftest import DEMO
from PySide6.QtCore import Qt
from test_gui import open_and_wait
from test_gui_mobile import odd_model  # noqa: F401  (fixture)

from inspector.core.mobile.tflite_compat import COLOURS, STATUSES
from inspector.core.model.op_categories import COLOURS as CATEGORY_COLOURS
from inspector.core.overlays.registry import NO_VALUE

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _boxes(window):
    return {i: item for i, item in window.canvas.items_by_id.items()
            if item.item.kind in ("node", "scope")}


def test_the_tflite_overlay_paints_scopes_and_nodes_by_status_only(qtbot, window,
                                                                   odd_model):  # noqa: F811
    open_and_wait(qtbot, window, odd_model)
    assert window.legend.showing == "categories"
    window.workbench.set_marks(["x"], ["out"])
    window.mobile_dock.raise_()
    qtbot.mouseClick(window.mobile_panel.check_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: bool(window.state.overlay.compat) and
                    not window.tasks.is_busy(), timeout=30000)
    boxes = _boxes(window)
    assert any(i.endswith("/") for i in boxes)
    allowed = set(COLOURS.values()) | {NO_VALUE}
    wrong = {i: item.heat for i, item in boxes.items() if item.heat not in allowed}
    assert not wrong, wrong                  # no box keeps its op category's colour
    assert boxes["erfinv/"].heat == COLOURS["custom"]     # its worst node's status
    assert boxes["erfinv/"].bar[0][0] == COLOURS["custom"]
    # the minimap too
    qtbot.waitUntil(lambda: not window.tasks.is_busy("minimap"), timeout=10000)
    assert set(window.minimap.groups) - {"#efe9dc"} <= allowed, set(window.minimap.groups)
    assert COLOURS["custom"] in window.minimap.groups
    # the Legend is the overlay's key: statuses and "not checked", no op categories
    window.legend_dock.raise_()
    rows = window.legend.rows()
    assert [c for c, _ in rows] == [COLOURS[s] for s in STATUSES] + [NO_VALUE]
    assert any(t.startswith("needs Select TF ops (2)") for _, t in rows), rows
    assert not any(t.split()[0] in CATEGORY_COLOURS for _, t in rows)
    # overlay off: categories again, on the boxes and in the Legend
    qtbot.mouseClick(window.overlays_panel.mode_buttons["none"], Qt.LeftButton)
    assert all(item.heat is None for item in _boxes(window).values())
    assert window.legend.showing == "categories"
    assert {c for c, _ in window.legend.rows()} <= set(CATEGORY_COLOURS.values())
    qtbot.waitUntil(lambda: not window.tasks.is_busy("minimap"), timeout=10000)
    assert set(window.minimap.groups) - {"#efe9dc"} <= set(CATEGORY_COLOURS.values())


def test_timings_paint_untimed_boxes_white_not_by_category(qtbot, window, tmp_path,
                                                           monkeypatch):
    from inspector.gui.controllers import overlays_controller

    trace = tmp_path / "trace.json"
    trace.write_text(json.dumps({"traceEvents": [
        {"ph": "X", "name": "MatMul", "dur": 100.0, "args": {"name": "output", "op": "MatMul"}}]}))
    open_and_wait(qtbot, window, DEMO)
    monkeypatch.setattr(overlays_controller.QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (str(trace), "")))
    window.overlays_dock.raise_()
    qtbot.mouseClick(window.overlays_panel.import_timings, Qt.LeftButton)
    boxes = _boxes(window)
    timed = {i for i, item in boxes.items() if item.badge}
    assert timed == {"output"}
    assert all(item.heat == NO_VALUE for i, item in boxes.items() if i not in timed)
    assert boxes["output"].heat not in (None, NO_VALUE)
    assert window.legend.showing == "timings"
    assert window.legend.rows()[-1] == (NO_VALUE, "not timed")
