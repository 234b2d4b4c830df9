"""Recorded shapes (`_output_shapes`) that are not a list of shapes (a damaged or hostile
file: a shape, a list of ints, a tensor) are no recorded shapes: the FLOP count of such a
graph (the diff's totals) goes on without them on both propagation paths, instead of a
TypeError out of Propagation._recorded."""

from __future__ import annotations

import pytest

from inspector.core.analysis import shape_columns as sc
from inspector.core.analysis import static_shapes as ss
from inspector.core.analysis.graph_flops import graph_flops
from inspector.core.model import protos
from inspector.core.model.graph import Graph


def hostile_recorded(kind: str):
    gd = protos.GraphDef()
    x = gd.node.add(name="x", op="Placeholder")
    x.attr["dtype"].type = 1
    for size in (1, 4):
        x.attr["shape"].shape.dim.add(size=size)
    u = gd.node.add(name="u", op="FooCustom", input=["x"])      # no rule: recorded shapes
    attr = u.attr["_output_shapes"]
    if kind == "shape":
        attr.shape.dim.add(size=4)
    elif kind == "ints":
        attr.list.i.extend([1, 4])
    elif kind == "tensor":
        attr.tensor.dtype = 1
    else:
        attr.list.shape.add().dim.add(size=4)
    m = gd.node.add(name="m", op="MatMul", input=["u", "u"])
    m.attr["T"].type = 1
    return gd


@pytest.mark.parametrize("kind", ["shape", "ints", "tensor"])
def test_recorded_shapes_that_are_not_a_list_of_shapes_are_none(kind):
    graph = Graph(hostile_recorded(kind))
    shapes, _ = ss.static_shapes(graph)
    assert shapes["u"] == [None]
    assert sc.columnar(graph)
    start, _ = ss.placeholder_shapes(graph, None)
    _, out = sc.column_shapes(graph, start, True)
    assert out[graph.index("u")] == [None]
    report = graph_flops(graph, allow_tf=False)
    assert report.unknown_shape and "m" not in report.per_node


def test_a_list_of_shapes_is_still_read():
    graph = Graph(hostile_recorded("list"))
    assert ss.static_shapes(graph)[0]["u"] == [(4,)]


@pytest.mark.parametrize("target", [[-7, 4], [-1, -1], [-3, -1]])
def test_a_reshape_to_a_size_tf_refuses_gives_no_negative_size_nor_flops(target):
    """review15: a hostile Reshape's target of [-7, 4] (or two -1s) was taken as the shape:
    its MatMul's output said [-7,3] (summarize) and `flops` said 'Total FLOPs: -168'. A
    size below -1, or a second -1, is one TF refuses: unknown here, on both paths."""
    gd = protos.GraphDef()
    x = gd.node.add(name="x", op="Placeholder")
    x.attr["dtype"].type = 1
    for size in (1, 8):
        x.attr["shape"].shape.dim.add(size=size)
    for name, dims, dtype in (("shp", [2], 3), ("w", [4, 3], 1)):
        const = gd.node.add(name=name, op="Const")
        const.attr["dtype"].type = dtype
        t = const.attr["value"].tensor
        t.dtype = dtype
        for d in dims:
            t.tensor_shape.dim.add(size=d)
        if dtype == 3:
            t.int_val.extend(target)
        else:
            t.tensor_content = bytes(48)
    gd.node.add(name="r", op="Reshape", input=["x", "shp"]).attr["T"].type = 1
    gd.node.add(name="m", op="MatMul", input=["r", "w"]).attr["T"].type = 1
    graph = Graph(gd)
    shapes, _ = ss.static_shapes(graph)
    assert all(d is None or d >= 0 for d in shapes["r"][0]), shapes["r"]
    assert all(d is None or d >= 0 for d in shapes["m"][0] or ()), shapes["m"]
    start, _ = ss.placeholder_shapes(graph, None)
    _, out = sc.column_shapes(graph, start, True)
    assert out[graph.index("r")] == shapes["r"]
    report = graph_flops(graph, allow_tf=False)
    assert report.total >= 0 and "m" not in report.per_node, report.per_node
