"""The per-node timing table (walk17): every timed node with its ms a run, share and op,
slowest first, sortable by a header click, and a click on a row goes to the node."""

import json

import pytest
from PySide6.QtCore import Qt
from test_gui import open_and_wait

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def test_every_timed_node_is_a_row_sorted_by_time_and_a_click_goes_to_it(qtbot, window,
                                                                        tmp_path):
    """walk17 (mobilenet_v2 profiled in TensorFlow at 1366x768): "which nodes eat the time"
    was a top-12 bar chart whose bars were ~30 px wide beside their labels in the side
    dock, with no figures; the 13th node and the order by op could not be seen. Fails on
    the old code: the Chart list has no table of the nodes."""
    from inspector.core.model import protos

    g = protos.GraphDef()
    g.node.add(name="x", op="Placeholder")
    for i in range(14):
        g.node.add(name=f"block_{i}/conv", op="Conv2D" if i % 2 else "Relu", input=["x"])
    model = tmp_path / "many.pb"
    model.write_bytes(g.SerializeToString())
    window.resize(1366, 768)
    open_and_wait(qtbot, window, str(model))
    events = [{"ph": "X", "name": "k", "dur": 100 * (i + 1),
               "args": {"name": f"block_{i}/conv", "op": "Conv2D" if i % 2 else "Relu"}}
              for i in range(14)]
    trace = tmp_path / "many.json"
    trace.write_text(json.dumps({"traceEvents": events}))
    window.overlays.import_timings(str(trace))
    panel = window.overlays_panel
    window.overlays_dock.raise_()
    choice = panel.chart_choice                     # as a user: the Chart list
    index = choice.findText("time per node (table)")
    assert index >= 0, [choice.itemText(i) for i in range(choice.count())]
    choice.setCurrentIndex(index)
    table = panel.per_node
    assert panel.charts.currentWidget() is table
    qtbot.waitUntil(lambda: table.rowCount() == 14)
    shown = window.state.overlay.profile.by_graph_node(window.state.view.graph)
    rows = [(table.item(r, 2).text(), float(table.item(r, 0).text()),
             float(table.item(r, 1).text()), table.item(r, 3).text()) for r in range(14)]
    assert [n for n, *_ in rows] == [f"block_{i}/conv" for i in reversed(range(14))]
    total = sum(shown.values())
    for name, ms, share, op in rows:
        assert ms == pytest.approx(shown[name], abs=5e-4)
        assert share == pytest.approx(100 * shown[name] / total, abs=0.05)
        assert op == window.state.view.graph.node(name).op
    assert table.width() < 380 and table.isColumnHidden(3)   # the side dock: no op column
    assert table.columnWidth(2) >= 120, table.columnWidth(2)    # the name has the room
    window.overlays_dock.setFloating(True)          # a wider dock shows the op to sort by
    window.overlays_dock.resize(700, 600)
    qtbot.waitUntil(lambda: not table.isColumnHidden(3))
    head = table.horizontalHeader()                 # sort by op: a header click
    qtbot.mouseClick(head.viewport(), Qt.LeftButton,
                     pos=head.rect().topLeft() + _centre(head, 3))
    ops = [table.item(r, 3).text() for r in range(14)]
    assert ops == sorted(ops) or ops == sorted(ops, reverse=True)
    row = next(r for r in range(14) if table.item(r, 2).text() == "block_4/conv")
    table.scrollToItem(table.item(row, 2))
    rect = table.visualItemRect(table.item(row, 2))
    qtbot.mouseClick(table.viewport(), Qt.LeftButton, pos=rect.center())
    assert window.state.selected == "block_4/conv"
    qtbot.keyClick(table, Qt.Key_Down)              # the arrow keys walk the rows
    assert window.state.selected == table.item(row + 1, 2).text()
    window.overlays_panel.reset()
    assert table.rowCount() == 0


def _centre(head, section: int):
    from PySide6.QtCore import QPoint

    x = head.sectionViewportPosition(section) + head.sectionSize(section) // 2
    return QPoint(x, head.height() // 2)
