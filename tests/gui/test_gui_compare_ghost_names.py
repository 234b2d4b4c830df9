"""The merged view's ghosts have names of their own: A with both `x` and a node literally
named `x (gone)`, both lost in B, which has an `x` of its own (A's `a` renamed), drew two
ghosts named `x (gone)`, one box for both, and a click on it picked either."""

from PySide6.QtCore import QPointF, Qt
from test_gui_compare import compare_paths

from inspector.core.formats.writer import write_graph
from inspector.core.model import protos


def _graph_def(nodes):
    gd = protos.GraphDef()
    for name, op, inputs in nodes:
        node = gd.node.add(name=name, op=op)
        node.input.extend(inputs)
        if op != "Placeholder":
            node.attr["T"].type = 1
        else:
            node.attr["dtype"].type = 1
    return gd


def test_ghosts_of_x_and_a_node_named_x_gone_are_two(qtbot, window, tmp_path):
    a, b = str(tmp_path / "a.pb"), str(tmp_path / "b.pb")
    write_graph(_graph_def([("in", "Placeholder", []), ("a", "Relu", ["in"]),
                            ("x", "Tanh", ["a"]), ("x (gone)", "Sigmoid", ["x"]),
                            ("out", "Softmax", ["x (gone)"])]), a)
    write_graph(_graph_def([("in", "Placeholder", []), ("x", "Relu", ["in"]),
                            ("out", "Softmax", ["x"])]), b)
    win = compare_paths(qtbot, window, a, b)                  # File > Compare with…
    s = win.session
    assert {(e.status, e.a) for e in s.diff.entries} >= {("removed", "x"),
                                                          ("removed", "x (gone)")}
    qtbot.mouseClick(win.merged_box, Qt.LeftButton)          # the user's click
    qtbot.waitUntil(lambda: win.merged_on and win.ready(), timeout=60000)
    view, ghosts = s.merged
    assert ghosts["x (gone)"] == "x (gone)"                  # A's own name, B has none such
    assert len(set(ghosts.values())) == 2 and not set(ghosts.values()) & {"x", "in", "out"}
    names = [n.name for n in view.graph.nodes]
    assert len(names) == len(set(names)) == 5
    canvas = win.canvases["B"]
    for source, ghost in ghosts.items():
        box = canvas.items_by_id[ghost].sceneBoundingRect()
        canvas.centerOn(box.center())
        pos = canvas.mapFromScene(box.topLeft() + QPointF(10, 10))
        qtbot.mouseClick(canvas.viewport(), Qt.LeftButton, pos=pos)   # a click on its box
        qtbot.waitUntil(lambda: not window.tasks.is_busy(), timeout=60000)
        assert s.selected["A"] == [source], (ghost, source)
