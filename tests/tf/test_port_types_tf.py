"""The canvas's edge labels on a model made as users make it: inception_jpeg.pb through
TensorFlow's own graph transform engine with quantize_weights (issue: each Dequantize's
edge said 'quint8', its input type, instead of 'float'); every edge's dtype is checked
against the dtype TensorFlow itself gives the tensor when it imports the graph."""

import os

from inspector.core.analysis.summary import tensor_label
from inspector.core.loaders import load
from inspector.core.model import protos
from inspector.core.model.graph import Graph
from inspector.core.view.view_graph import ViewModel


def test_dequantize_edges_are_float_as_tensorflow_says(data):
    import tensorflow as tf
    from tensorflow.python.util._pywrap_transform_graph import TransformGraphWithStringInputs

    ga = load(os.path.join(data, "inception_jpeg.pb")).graph
    out = TransformGraphWithStringInputs(ga.graph_def.SerializeToString(), b"",
                                         b"softmax", b"quantize_weights")
    gb = Graph(protos.GraphDef.FromString(out))
    deq = [n for n in gb if n.op == "Dequantize"]
    assert deq and all(n.proto.attr["T"].type == 12 for n in deq)     # quint8 in, ...
    with tf.Graph().as_default() as tfg:
        tf.graph_util.import_graph_def(tf.compat.v1.GraphDef.FromString(out), name="")
    for node in gb:
        for port, tensor in enumerate(tfg.get_operation_by_name(node.name).outputs):
            want = tensor.dtype.base_dtype
            want = {"float32": "float", "float64": "double"}.get(want.name, want.name)
            assert tensor_label(gb, node.name, port).split(" ")[0] == want, (node.name, port)
    scene = ViewModel(gb, fold_constants=False).scene(
        expanded={s.path for s in gb.scope_tree().walk()})
    labels = [e.label for e in scene.edges if e.src in {n.name for n in deq} and e.count == 1]
    assert labels and all(label.startswith("float") for label in labels), labels
