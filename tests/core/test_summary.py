"""summarize: TF's exact text, and the ranked report with its fixes for TF's blind spots.

This file holds the tests that need neither TensorFlow nor Qt; the others are in
tests/cli/test_summary_cli.py, tests/tf/test_summary_tf.py."""

import os

import numpy as np

from inspector.core.analysis.summary import summarize
from inspector.core.formats.summary_format import tf_summary_text
from inspector.core.loaders import load
from inspector.core.model import protos
from inspector.core.model.graph import Graph
from inspector.core.model.humanize import cpp_std_sort, tf_human_readable_num


def reference_graph() -> protos.GraphDef:
    """The small graph of the reference's summarize_graph example."""
    g = protos.GraphDef()
    x = g.node.add(name="input", op="Placeholder")
    x.attr["dtype"].type = 1
    x.attr["shape"].shape.dim.add(size=1)
    x.attr["shape"].shape.dim.add(size=4)
    for name in ("w", "w2"):
        c = g.node.add(name=name, op="Const")
        c.attr["dtype"].type = 1
        t = c.attr["value"].tensor
        t.dtype = 1
        t.tensor_shape.dim.add(size=4)
        t.tensor_shape.dim.add(size=2)
        t.tensor_content = np.arange(8, dtype="<f4").tobytes()
    g.node.add(name="mm", op="MatMul", input=["input", "w"])
    g.node.add(name="mm2", op="MatMul", input=["input", "w2"])
    g.node.add(name="add", op="AddV2", input=["mm", "mm2"])
    g.node.add(name="ident", op="Identity", input=["add"])
    g.node.add(name="output", op="Relu", input=["ident"])
    return g


def test_tf_format_devices_are_glued_and_dangling_inputs_fail():
    g = reference_graph()
    g.node[0].device = "/cpu:0"
    g.node[3].device = "/cpu:0"
    g.node[4].device = "/gpu:0"
    text, _, ok = tf_summary_text(Graph(g), "g.pb")
    assert ok
    assert "2 nodes assigned to device '/cpu:0'1 nodes assigned to device '/gpu:0'Op types" in text
    g.node[6].input.append("ghost:2")
    text, warnings, ok = tf_summary_text(Graph(g), "g.pb")
    assert not ok and "Invalid input ghost for node ident\n" in text
    assert "Op types used" not in text
    assert warnings[-1] == "Invalid graph with inputs referring to nonexistent nodes"


def test_tf_format_on_training_graph_counts_like_tf(data):
    text, warnings, _ = tf_summary_text(load(os.path.join(data, "v1_training.pb")).graph, "x.pb")
    assert "Found 3 variables: (name=conv1/weights, type=float(1), shape=[3,3,1,8])" in text
    assert "0 (0) variable parameters" in text  # TF's quirk: VariableV2 has no value attr
    assert "Decoding Tensor failed for nodeconv1/weights" in warnings
    assert "--input_layer=input,labels,conv1/weights,fc/weights,fc/biases" in text


def test_human_readable_num_and_std_sort():
    assert [tf_human_readable_num(v) for v in (16, 1234, 23853946, 999999, 10 ** 15, -1234)] == \
        ["16", "1.23k", "23.85M", "1000.00k", "1E+15", "-1.23k"]
    pairs = [(chr(97 + i), i % 3) for i in range(40)]
    out = cpp_std_sort(pairs, lambda a, b: a[1] > b[1])
    assert [c for _, c in out] == sorted((c for _, c in pairs), reverse=True)
    assert sorted(out) == sorted(pairs)
    small = cpp_std_sort(pairs[:10], lambda a, b: a[1] > b[1])  # insertion sort: stable
    assert small == sorted(pairs[:10], key=lambda p: -p[1])


def test_inception_preprocessing_chain_proposes_mul(data):
    s = summarize(load(os.path.join(data, "inception_jpeg.pb")).graph)
    best = s.inputs[0]
    assert best.name == "Mul" and best.dtype == "float" and best.shape == "[1,299,299,3]"
    assert "DecodeJpeg -> Cast -> ExpandDims -> ResizeBilinear -> Sub -> Mul" in best.reason
    assert s.outputs[0].name == "softmax" and "Softmax" in s.outputs[0].reason


def test_training_graph_ranks_real_inputs_and_outputs(data):
    s = summarize(load(os.path.join(data, "v1_training.pb")).graph)
    assert [c.name for c in s.inputs[:2]] == ["input", "labels"]
    assert "labels?" in s.inputs[1].reason
    assert s.outputs[0].name == "output"
    assert all(c.name != "save/Const" for c in s.inputs[:3])
    assert {c.name for c in s.unlikely_outputs} >= {"summaries/summaries"}
    assert s.variable_parameters == 3 * 3 * 1 * 8 + 4 * 8 + 512 * 10 + 10


def test_resource_variables_counted_and_not_inputs(data):
    m = load(os.path.join(data, "two_signatures"), freeze=False)
    s = summarize(m.graph, m.known_inputs, m.known_outputs)
    assert s.variable_parameters == 4 * 3 + 3
    assert {c.op for c in s.variables} == {"VarHandleOp"}
    assert all(c.op != "VarHandleOp" for c in s.inputs)
