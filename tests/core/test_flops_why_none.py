"""When a FLOP count counts nothing, its one line says why: where the shape walk back from
the arithmetic stops. handtrack.js's TF.js 0.x detector resizes its input in a TF 1 while
loop (TensorArrays) before every convolution, and `flops --input_shape` said only "no shapes
are known" (wild16). The same graph here, by hand, without TensorFlow."""

import os

from inspector.core.analysis.flops import count_flops
from inspector.core.analysis.graph_flops import graph_flops
from inspector.core.analysis.static_shapes import static_shapes
from inspector.core.loaders import load
from inspector.core.model import protos
from inspector.core.model.graph import Graph

LOOP = "pre/map/while"


def _node(gd, name, op, inputs=(), **attrs):
    n = gd.node.add(name=name, op=op, input=list(inputs))
    n.attr["T"].type = 1
    for key, value in attrs.items():
        if isinstance(value, bytes):
            n.attr[key].s = value
        elif key == "shape":
            for d in value:
                n.attr[key].shape.dim.add().size = d
    return n


def _const(gd, name, dims):
    w = gd.node.add(name=name, op="Const")
    w.attr["dtype"].type = 1
    t = w.attr["value"].tensor
    t.dtype = 1
    for d in dims:
        t.tensor_shape.dim.add().size = d
    t.float_val.append(1.0)


def loop_graph(open_input: bool = False):
    """x [1,8,8,3] -> a while loop (Enter, Merge, Switch, NextIteration, Exit) -> Identity
    -> Conv2D 3x3x3x4 -> BiasAdd."""
    gd = protos.GraphDef()
    x = _node(gd, "x", "Placeholder", shape=(-1, -1, -1, 3) if open_input else (1, 8, 8, 3))
    x.attr["dtype"].type = 1
    _node(gd, f"{LOOP}/Enter", "Enter", ["x"], frame_name=f"{LOOP}/while_context".encode())
    _node(gd, f"{LOOP}/Merge", "Merge", [f"{LOOP}/Enter", f"{LOOP}/NextIteration"])
    gd.node.add(name=f"{LOOP}/cond", op="Const").attr["dtype"].type = 10
    _node(gd, f"{LOOP}/LoopCond", "LoopCond", [f"{LOOP}/cond"])
    _node(gd, f"{LOOP}/Switch", "Switch", [f"{LOOP}/Merge", f"{LOOP}/LoopCond"])
    _node(gd, f"{LOOP}/body", "Identity", [f"{LOOP}/Switch:1"])
    _node(gd, f"{LOOP}/NextIteration", "NextIteration", [f"{LOOP}/body"])
    _node(gd, f"{LOOP}/Exit", "Exit", [f"{LOOP}/Switch"])
    _node(gd, "pre/stack", "Identity", [f"{LOOP}/Exit"])
    _const(gd, "w", (3, 3, 3, 4))
    conv = _node(gd, "conv", "Conv2D", ["pre/stack", "w"], padding=b"SAME")
    conv.attr["strides"].list.i.extend([1, 1, 1, 1])
    _const(gd, "b", (4,))
    _node(gd, "out", "BiasAdd", ["conv", "b"])
    return gd


def test_a_count_stopped_by_a_while_loop_names_the_loop_and_the_node_that_reads_it(
        tmp_path):
    """Fails on the old code: it said "no shapes are known for the ops that do the
    arithmetic (give the inputs' shapes)", the inputs' shapes given."""
    gd = loop_graph()
    path = str(tmp_path / "loop.pb")
    with open(path, "wb") as fh:
        fh.write(gd.SerializeToString())
    expected = ("no shapes are known for the ops that do the arithmetic: the while loop "
                f"'{LOOP}' hides them (the shape walk stops at node 'pre/stack' (Identity), "
                "which reads its result)")
    graph = load(path).graph                    # the shapes by node index (shape_columns)
    assert graph_flops(graph, {"x": (1, 8, 8, 3)}, allow_tf=False).unknown == expected
    assert graph_flops(graph, allow_tf=False).unknown == expected
    plain = Graph(gd, "loop")                   # the shapes by name (count_flops)
    shapes, _ = static_shapes(plain, {"x": (1, 8, 8, 3)})
    report = count_flops(plain, shapes)
    assert report.unknown == expected and "\n" not in report.unknown
    assert report.unknown_shape == ["conv", "out"]


def test_a_count_stopped_at_an_input_of_open_sizes_asks_for_them_and_one_stopped_at_an_op():
    gd = loop_graph(open_input=True)
    for node in gd.node:                        # no loop: x -> pre/stack -> conv
        if node.name == "pre/stack":
            node.input[:] = ["x"]
    graph = Graph(gd, "open")
    shapes = {"x": [(None, None, None, 3)], "pre/stack": [(None, None, None, 3)],
              "w": [(3, 3, 3, 4)], "b": [(4,)]}     # as a walk that leaves the sizes open
    assert count_flops(graph, shapes).unknown == (
        "no shapes are known for the ops that do the arithmetic: input 'x' has open sizes "
        "(give the inputs' shapes)")
    for node in gd.node:
        if node.name == "pre/stack":
            node.op = "NoSuchOp"
    graph = Graph(gd, "unknown op")
    shapes, _ = static_shapes(graph, {"x": (1, 8, 8, 3)})
    assert count_flops(graph, shapes).unknown == (
        "no shapes are known for the ops that do the arithmetic: the shape walk stops at "
        "node 'pre/stack' (NoSuchOp), whose output has no known shape")
