"""FLOPs over the graph's columns (analysis/shape_columns.py, issue 47): the same shapes (in
the same order) and the same report as the per-node propagation and count on real models
(GraphDef, text, .tflite, a while loop, a training graph; with and without given input
shapes), and a Node view made only for the nodes whose rule reads attributes."""

import os

from inspector.core.analysis import shape_columns as sc
from inspector.core.analysis import static_shapes as ss
from inspector.core.analysis.flops import count_flops
from inspector.core.analysis.graph_flops import graph_flops
from inspector.core.loaders import load
from tests.fixtures.scale_models import blocks_graph, flat_graph

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "tests", "core", "data")
MODELS = [os.path.join(ROOT, "inspector/core/app/demo_model/demo_digits.pb")] + [
    os.path.join(DATA, name) for name in (
        "digits_float.tflite", "digits_int8.tflite", "inception_jpeg.pb", "speech_commands.pb",
        "v1_training.pb", "v1_training.pbtxt", "while_v1.pb", "while_v2.pb")]


def _both(graph, given=None) -> tuple:
    old, assumed = ss.static_shapes(graph, given)
    before = count_flops(graph, old)
    start, assumed_now = ss.placeholder_shapes(graph, given)
    order, out = sc.column_shapes(graph, start, not given)
    now = dict(zip(map(graph.name_list.__getitem__, order), map(out.__getitem__, order)))
    after = sc.count_flops_columns(graph, out)
    assert assumed_now == assumed
    return (list(old.items()), before), (list(now.items()), after)


def _report(r) -> tuple:
    return (list(r.per_node.items()), r.total, r.tf_total, r.unknown_shape, r.ops, r.unknown)


def test_the_columns_give_the_per_node_paths_shapes_and_flops_on_real_models():
    counted = 0
    for path in MODELS + [blocks_graph(3000, 0), flat_graph(1000, 0)]:
        graph = load(path).graph
        assert sc.columnar(graph)
        placeholders = [n.name for n in graph if n.op == "Placeholder"]
        for given in (None, {placeholders[0]: (2, 9, 9, 3)} if placeholders else None):
            (shapes, before), (now, after) = _both(graph, given)
            assert now == shapes, path
            assert _report(after) == _report(before), path
            counted += before.total > 0
    assert counted >= 8


def test_the_flops_of_a_block_chain_make_views_only_where_a_rule_reads_attributes():
    """Before: every node's view (the topological walk listed them all) and its inputs."""
    graph = load(blocks_graph(3000, 0)).graph
    report = graph_flops(graph, allow_tf=False)
    assert report.total > 0 and not report.unknown_shape
    made = sum(v is not None for v in graph.nodes._views)
    convs = len(graph.nodes_of_op("Conv2D"))
    assert convs > 250 and made <= convs + 10 < len(graph) / 8


def test_alike_convolutions_run_their_rule_once_for_each_distinct_kind():
    """A Conv2D's rule decodes its attributes (~45 us a node): nodes with the same op,
    attributes and input shapes take the first one's answer (the shapes stay equal to the
    per-node path's: the test above)."""
    graph = load(blocks_graph(3000, 0)).graph
    ran, real = [], sc.ColumnPropagation._rules
    sc.ColumnPropagation._rules = lambda self, node: ran.append(node.op) or real(self, node)
    try:
        start, _ = ss.placeholder_shapes(graph, None)
        order, out = sc.column_shapes(graph, start, True)
    finally:
        sc.ColumnPropagation._rules = real
    convs = graph.nodes_of_op("Conv2D")
    assert len(convs) > 250 and 0 < ran.count("Conv2D") < 20
    assert all(out[i] is not out[convs[0]] for i in convs[1:])       # each its own list


def test_the_inputs_shapes_read_only_the_placeholders_nodedefs(monkeypatch):
    """placeholder_shapes hands default_input_shapes the Placeholders' NodeDefs (found by op
    code), not every NodeDef (100k nodes: ~50 ms a side of a diff's FLOPs), with the same
    shapes and words, in graph order."""
    from inspector.core.analysis import metrics

    from inspector.core.model import protos
    from inspector.core.model.graph import Graph

    gd = protos.GraphDef()
    gd.CopyFrom(load(blocks_graph(3000)).graph.graph_def)
    for node in gd.node:
        if node.op == "Placeholder":
            node.attr["shape"].shape.dim[0].size = -1      # an open batch: assumed, said
    graph = Graph(gd)
    whole = metrics.default_input_shapes(graph.graph_def, None)
    seen, real = [], metrics.default_input_shapes
    monkeypatch.setattr(ss, "default_input_shapes",
                        lambda structure, given: seen.append(len(structure.node)) or
                        real(structure, given))
    assert ss.placeholder_shapes(graph, None) == whole and whole[0]
    assert seen == [len(graph.nodes_of_op("Placeholder"))] and seen[0] < len(graph) // 100
