"""FLOPs from a graph's own shapes, without TensorFlow (issue 45.7): a GraphDef's by a
pure-Python shape propagation, a .tflite's from its operators' tensors and builtin options.
The profiler comparisons on more models are in tests/tf/test_flops_static_tf.py."""

import os

from inspector.core.analysis.graph_flops import OWN, graph_flops
from inspector.core.model.origin import is_tflite
from inspector.core.loaders import load

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "tests", "core", "data")
DEMO = os.path.join(ROOT, "inspector/core/app/demo_model/demo_digits.pb")
# tf.compat.v1.profiler's float_operation total of demo_digits.pb fed a [1, 8, 8, 1] input
# (TensorFlow 2.21; tests/tf/test_flops_static_tf.py measures it again)
DEMO_PROFILER = 627_036


def test_the_demo_graphdef_counts_what_the_profiler_counts_without_tensorflow():
    graph = load(DEMO).graph
    report = graph_flops(graph, allow_tf=False)
    assert report.tf_total == DEMO_PROFILER and not report.unknown_shape
    assert report.source == OWN and report.assumed == ["batch 1 assumed for input 'pixels'"]
    # the flatten's Reshape takes its shape from Shape -> StridedSlice -> Pack: followed
    assert report.per_node["digits_1/logits_1/MatMul"] == 2 * 512 * 10


def test_its_tflite_conversions_count_within_one_percent_from_their_operators():
    for name in ("digits_float.tflite", "digits_int8.tflite"):
        graph = load(os.path.join(DATA, name)).graph
        assert is_tflite(graph) and not is_tflite(load(DEMO).graph)
        report = graph_flops(graph)
        assert report.source == "the .tflite's tensor shapes" and not report.unknown_shape
        assert abs(report.tf_total - DEMO_PROFILER) / DEMO_PROFILER < 0.01
        # the pool's 2x2 window comes from its builtin options; the fused ReLUs are extra
        pool = graph.node("digits_1/pool_1/MaxPool2d")
        assert (pool.attr("filter_width"), pool.attr("stride_h")) == (2, 2)
        assert report.per_node["digits_1/pool_1/MaxPool2d"] == 2 * 2 * 4 * 4 * 32
        assert report.total - report.tf_total == 8 * 8 * (16 + 32)     # RELU: one per output


def test_shapes_follow_the_inputs_before_a_stale_recorded_shape():
    """A GraphDef whose recorded _output_shapes predate a change of its input (batch 1 -> 2):
    the propagated shapes count, the recorded one only fills what propagation cannot know."""
    from inspector.core.model import protos
    from inspector.core.model.graph import Graph

    gd = protos.GraphDef()
    x = gd.node.add(name="x", op="Placeholder")
    x.attr["dtype"].type = 1
    for d in (2, 4):
        x.attr["shape"].shape.dim.add().size = d
    w = gd.node.add(name="w", op="Const")
    w.attr["dtype"].type = 1
    t = w.attr["value"].tensor
    t.dtype = 1
    for d in (4, 3):
        t.tensor_shape.dim.add().size = d
    t.float_val.append(1.0)
    mm = gd.node.add(name="mm", op="MatMul", input=["x", "w"])
    stale = mm.attr["_output_shapes"].list.shape.add()
    for d in (1, 3):
        stale.dim.add().size = d
    odd = gd.node.add(name="odd", op="SomeCustomOp", input=["mm"])
    known = odd.attr["_output_shapes"].list.shape.add()
    for d in (2, 3):
        known.dim.add().size = d
    gd.node.add(name="act", op="Relu", input=["odd"])
    report = graph_flops(Graph(gd), allow_tf=False)
    assert report.per_node["mm"] == 2 * 4 * 2 * 3          # batch 2, as x says now
    assert report.per_node["act"] == 6                      # after an op only recorded



def test_the_propagation_order_from_the_graphs_arrays_is_the_order_by_names():
    """static_shapes' order (data_order) read from the Graph's CSR inputs is the one the
    walk by names gives, on a graph with a control input, an input naming no node and a
    cycle."""
    from inspector.core.analysis.data_order import data_order
    from inspector.core.model import protos
    from inspector.core.model.graph import Graph

    gd = protos.GraphDef()
    for name, op, inputs in (("x", "Placeholder", []), ("w", "Const", []),
                             ("mm", "MatMul", ["^w", "gone", "x", "w:0"]),
                             ("a", "Add", ["mm", "b"]), ("b", "Relu", ["a"]),
                             ("out", "Mul", ["mm", "mm:1", "^x"])):
        gd.node.add(name=name, op=op, input=inputs)

    class ByNames:          # the same graph without its arrays: the walk by names
        def __init__(self, graph):
            self.nodes = list(graph)

        def __iter__(self):
            return iter(self.nodes)

    for graph in (Graph(gd), load(DEMO).graph):
        assert hasattr(graph, "in_src")
        fast = [n.name for n in data_order(graph)]
        assert fast == [n.name for n in data_order(ByNames(graph))]
        assert sorted(fast) == sorted(n.name for n in graph)


def test_the_order_of_ties_does_not_follow_the_graphs_node_order():
    """A frozen Keras model's nodes come in another order at each run (bilstm.keras: the
    forward and backward LSTM's equal ops); the top nodes and the op types of equal FLOPs
    are ordered by name, the nodes not counted too, whatever the node order. Fails on the old
    code: the ties came in node order."""
    from inspector.core.model import protos
    from inspector.core.model.graph import Graph

    def graph(reverse: bool):
        gd = protos.GraphDef()
        nodes = [("x", "Placeholder", [], (2, 4)), ("u", "Placeholder", [], None),
                 ("w", "Const", [], (4, 3)),
                 ("fw_mm", "MatMul", ["x", "w"], None), ("bw_mm", "MatMul", ["x", "w"], None),
                 ("fw_add", "Add", ["x", "x"], None), ("bw_sub", "Sub", ["x", "x"], None),
                 ("fw_lost", "Add", ["u", "u"], None), ("bw_lost", "Add", ["u", "u"], None)]
        for name, op, inputs, shape in (reversed(nodes) if reverse else nodes):
            node = gd.node.add(name=name, op=op, input=inputs)
            node.attr["dtype" if op != "Add" and op != "Sub" else "T"].type = 1
            if op == "Placeholder" and shape:
                for d in shape:
                    node.attr["shape"].shape.dim.add().size = d
            elif op == "Placeholder":
                node.attr["shape"].shape.unknown_rank = True
            elif op == "Const":
                t = node.attr["value"].tensor
                t.dtype = 1
                for d in shape:
                    t.tensor_shape.dim.add().size = d
                t.float_val.append(1.0)
        return Graph(gd)

    reports = [graph_flops(graph(reverse), allow_tf=False) for reverse in (False, True)]
    assert reports[0].top(3) == reports[1].top(3) == [("bw_mm", 48), ("fw_mm", 48),
                                                      ("bw_sub", 8)]
    assert reports[0].unknown_shape == reports[1].unknown_shape == ["bw_lost", "fw_lost"]
    assert reports[0].by_op() == reports[1].by_op() == [("MatMul", 96), ("Add", 8),
                                                        ("Sub", 8)]
