"""A selected scope in the Properties panel (note13: selecting a collapsed group box left the
table empty): its whole name, its nodes and op types, parameters and constant bytes, and
the tensors crossing its border, counted off the GUI thread through the scope-facts use
case (core/app/properties.start_scope_facts)."""

import threading

import pytest
from test_gui import click_item, open_and_wait

from inspector.core.model import protos

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def scoped_graph(path) -> str:
    """x -> block/conv (a 3x3x1x4 weight) -> block/relu, block/relu -> out and -> block2/neg;
    block also reads y by control."""
    g = protos.GraphDef()
    for name in ("x", "y"):
        node = g.node.add(name=name, op="Placeholder")
        node.attr["dtype"].type = 1
    w = g.node.add(name="block/w", op="Const")
    w.attr["dtype"].type = 1
    t = w.attr["value"].tensor
    t.dtype = 1
    for d in (3, 3, 1, 4):
        t.tensor_shape.dim.add(size=d)
    t.tensor_content = bytes(4 * 36)
    conv = g.node.add(name="block/conv", op="Conv2D", input=["x", "block/w", "^y"])
    conv.attr["T"].type = 1
    conv.attr["strides"].list.i.extend([1, 1, 1, 1])
    conv.attr["padding"].s = b"SAME"
    for name, op, inputs in (("block/relu", "Relu", ["block/conv"]),
                             ("out", "Identity", ["block/relu"]),
                             ("block2/neg", "Neg", ["block/relu"])):
        g.node.add(name=name, op=op, input=inputs).attr["T"].type = 1
    path.write_bytes(g.SerializeToString())
    return str(path)


def rows(window) -> dict:
    """{key: (value, {child key: (value, jump target)})} of the Properties tree."""
    from PySide6.QtCore import Qt

    tree, out = window.properties.tree, {}
    for k in range(tree.topLevelItemCount()):
        top = tree.topLevelItem(k)
        out[top.text(0)] = (top.text(1), {top.child(c).text(0): (
            top.child(c).text(1), top.child(c).data(0, Qt.UserRole))
            for c in range(top.childCount())})
    return out


def test_a_selected_scope_says_what_it_holds_and_what_crosses_its_border(
        qtbot, window, tmp_path, monkeypatch):
    from inspector.core.view import scope_facts

    counted_on = []
    real = scope_facts.scope_facts

    def watched(*args, **kwargs):
        counted_on.append(threading.current_thread() is threading.main_thread())
        return real(*args, **kwargs)

    monkeypatch.setattr("inspector.core.app.properties.scope_facts", watched)
    window.resize(1366, 768)
    open_and_wait(qtbot, window, scoped_graph(tmp_path / "scoped.pb"))
    assert window.canvas.items_by_id["block/"].item.kind == "scope"
    click_item(qtbot, window, "block/")                   # a click on the collapsed box
    assert window.state.selected == "block/"
    qtbot.waitUntil(lambda: "parameters" in rows(window), timeout=30000)
    assert counted_on == [False]                          # in a task, not on the GUI thread
    got = rows(window)
    assert "Scope" in window.properties.title.text() and "block" in \
        window.properties.title.text()
    assert got["name"][0] == "block"
    assert got["nodes"][0] == "3"                         # w, conv, relu
    assert got["op types"][1] == {"Const": ("1", None), "Conv2D": ("1", None),
                                  "Relu": ("1", None)}
    assert got["parameters"][0] == "36"
    assert got["constants"][0] == "1" and got["constant data"][0] == "144 B"
    ins, outs = got["inputs"], got["outputs"]
    assert ins[0] == "2 tensors" and set(ins[1]) == {"x", "^y"}
    assert ins[1]["x"] == ("float", "x")                  # double-click: to x
    assert ins[1]["^y"] == ("control", "y")
    assert outs[0] == "1 tensor" and set(outs[1]) == {"block/relu"}
    assert outs[1]["block/relu"][0] == "float · 2 readers"
    # a node selected next shows the node's rows, and the scope's late facts do not mix in
    click_item(qtbot, window, "out")
    qtbot.waitUntil(lambda: "op" in rows(window), timeout=10000)
    assert "parameters" not in rows(window)


def test_a_selected_group_is_named_as_its_box_is(qtbot, window):
    """A scope too big to show flat is drawn as groups ("input … conv_37_BiasAdd"); selecting
    one names it so, not by its inner path ("#1"), and counts it as a scope."""
    from tests.fixtures import scale_models

    open_and_wait(qtbot, window, scale_models.flat_graph(3_000))
    view = window.state.view
    group = next(p for p in view.hierarchy.group_labels if f"{p}/" in window.canvas.items_by_id)
    label = view.group_label(group)
    assert " … " in label
    click_item(qtbot, window, f"{group}/")
    qtbot.waitUntil(lambda: "parameters" in rows(window), timeout=30000)
    got = rows(window)
    assert window.properties.title.text() == f"<b>Group</b> {label}"
    assert got["name"][0] == label and got["in scope"][0] == "(the top level)"
    assert got["nodes"][0] == f"{view.hierarchy.stats[group].count:,}"
