"""summarize: TF's exact text, and the ranked report with its fixes for TF's blind spots."""

import json
import os

import numpy as np
import pytest
from conftest import run_cli

from inspector.core.analysis.summary import summarize
from inspector.core.formats.summary_format import tf_summary_text
from inspector.core.loaders import load
from inspector.core.model import protos
from inspector.core.model.graph import Graph
from inspector.core.model.humanize import cpp_std_sort, tf_human_readable_num

REFERENCE_TEXT = """\
Found 1 possible inputs: (name=input, type=float(1), shape=[1,4]) 
No variables spotted.
Found 1 possible outputs: (name=output, op=Relu) 
Found 16 (16) const parameters, 0 (0) variable parameters, and 0 control_edges
Op types used: 2 Const, 2 MatMul, 1 AddV2, 1 Identity, 1 Placeholder, 1 Relu
To use with tensorflow/tools/benchmark:benchmark_model try these arguments:
bazel run tensorflow/tools/benchmark:benchmark_model -- --graph=g.pb --show_flops \
--input_layer=input --input_layer_type=float --input_layer_shape=1,4 --output_layer=output
"""


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


def test_tf_format_matches_reference_example(tmp_path):
    path = tmp_path / "g.pb"
    path.write_bytes(reference_graph().SerializeToString())
    code, out, err = run_cli("summarize", "--format=tf", "g.pb", cwd=tmp_path)
    assert code == 0, err
    assert out == REFERENCE_TEXT


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


def test_tf_format_on_training_graph_counts_like_tf(fx):
    text, warnings, _ = tf_summary_text(load(os.path.join(fx, "v1_training.pb")).graph, "x.pb")
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


def test_const_parameter_count_equals_tensorflow_decoding(fx):
    import tensorflow as tf

    for name in ("inception_jpeg.pb", "mobilenet_v2.pb"):
        path = os.path.join(fx, name)
        gd = tf.compat.v1.GraphDef.FromString(open(path, "rb").read())
        expected = sum(tf.make_ndarray(n.attr["value"].tensor).size
                       for n in gd.node if n.op == "Const")
        assert summarize(load(path).graph).const_parameters == expected


def test_inception_preprocessing_chain_proposes_mul(fx):
    s = summarize(load(os.path.join(fx, "inception_jpeg.pb")).graph)
    best = s.inputs[0]
    assert best.name == "Mul" and best.dtype == "float" and best.shape == "[1,299,299,3]"
    assert "DecodeJpeg -> Cast -> ExpandDims -> ResizeBilinear -> Sub -> Mul" in best.reason
    assert s.outputs[0].name == "softmax" and "Softmax" in s.outputs[0].reason


def test_training_graph_ranks_real_inputs_and_outputs(fx):
    s = summarize(load(os.path.join(fx, "v1_training.pb")).graph)
    assert [c.name for c in s.inputs[:2]] == ["input", "labels"]
    assert "labels?" in s.inputs[1].reason
    assert s.outputs[0].name == "output"
    assert all(c.name != "save/Const" for c in s.inputs[:3])
    assert {c.name for c in s.unlikely_outputs} >= {"summaries/summaries"}
    assert s.variable_parameters == 3 * 3 * 1 * 8 + 4 * 8 + 512 * 10 + 10


def test_resource_variables_counted_and_not_inputs(fx):
    m = load(os.path.join(fx, "two_signatures"), freeze=False)
    s = summarize(m.graph, m.known_inputs, m.known_outputs)
    assert s.variable_parameters == 4 * 3 + 3
    assert {c.op for c in s.variables} == {"VarHandleOp"}
    assert all(c.op != "VarHandleOp" for c in s.inputs)


def test_a_saved_model_s_ports_keep_their_signature_names_and_shapes(fx):
    path = os.path.join(fx, "two_signatures")
    m = load(path, signature="embed")
    s = summarize(m.graph, m.known_inputs, m.known_outputs, m.signature)
    out = s.outputs[0]
    assert (out.title, out.dtype, out.shape) == (f"embedding ({out.name})", "float", "[?,3]")
    assert s.inputs[0].title == "features" and s.inputs[0].shape == "[?,4]"
    code, text, err = run_cli("summarize", "--signature", "embed", path)
    assert code == 0, err
    assert f"1. embedding ({out.name})  float [?,3]" in text
    code, text, err = run_cli("summarize", "--json", path)
    assert json.loads(text)["outputs"][0]["label"] == "probabilities"
    code, text, err = run_cli("explain", "--signature", "embed", path)
    assert code == 0, err
    assert f"(embedding ({out.name}): float [1,3])" in text


def test_cli_text_and_json(fx):
    code, out, err = run_cli("summarize", os.path.join(fx, "inception_jpeg.pb"))
    assert code == 0, err
    assert "1. Mul" in out and "--input_layer=Mul" in out and "--output_layer=softmax" in out
    code, out, err = run_cli("summarize", "--json", os.path.join(fx, "mobilenet_v2.pb"))
    data = json.loads(out)
    assert data["inputs"][0]["name"] == "input" and data["inputs"][0]["shape"] == "[1,224,224,3]"
    assert data["op_counts"]["Conv2D"] == 35 and data["op_counts"]["DepthwiseConv2dNative"] == 17
    assert sum(data["bytes_by_op"].values()) <= os.path.getsize(os.path.join(fx, "mobilenet_v2.pb"))


@pytest.mark.parametrize("name", ["inception_jpeg.pb", "mobilenet_v2.pb", "v1_training.pb",
                                  "v1_training.pbtxt", "text_really.pb", "v1_training.meta",
                                  "while_v1.pb", "while_v2.pb", "two_signatures", "tiny.keras",
                                  "tiny.h5"])
@pytest.mark.parametrize("fmt", ["text", "tf", "json"])
def test_summarize_works_on_every_fixture(fx, name, fmt):
    code, out, err = run_cli("summarize", f"--format={fmt}", os.path.join(fx, name))
    assert code == 0, err
    assert out.strip()
    assert "Traceback" not in err


def test_print_structure_lists_nodes_in_execution_order(tmp_path):
    path = tmp_path / "g.pb"
    path.write_bytes(reference_graph().SerializeToString())
    code, out, err = run_cli("summarize", "--format=tf", "--print_structure", "g.pb", cwd=tmp_path)
    assert code == 0, err
    structure = out[len(REFERENCE_TEXT):].splitlines()
    assert structure == [
        "w2 (Const): [], value=Tensor<type: float shape: [4,2] values: [0 1][2...]...>",
        "w (Const): [], value=Tensor<type: float shape: [4,2] values: [0 1][2...]...>",
        "input (Placeholder): []",
        "mm2 (MatMul): [input, w2]",
        "mm (MatMul): [input, w]",
        "add (AddV2): [mm, mm2]",
        "ident (Identity): [add]",
        "output (Relu): [ident]"]


def test_value_summaries_match_tensorflows_print_kernel():
    """TF's Print op writes SummarizeValue(summarize) to stderr: the same function as
    Tensor::DebugString, so it is the oracle for --print_structure's values."""
    import subprocess
    import sys

    from inspector.core.formats.tensor_text import summarize_values

    cases = ["np.arange(8, dtype=np.float32).reshape(4, 2)",
             "np.array([1/3, 2/3, 1.0, 0.5], np.float32)",
             "np.arange(6, dtype=np.int32).reshape(1, 6)", "np.array(3.5, np.float32)",
             "np.array([True, False])", "np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 7",
             "np.array([0.1, 1e-8, 12345678.0], np.float32)", "np.array([0.1, 2.5])",
             "np.zeros((2, 0), np.float32)"]
    code = ("import os\nos.environ['TF_CPP_MIN_LOG_LEVEL'] = '3'\n"
            "import numpy as np, tensorflow as tf\ng = tf.Graph()\nwith g.as_default():\n"
            "    ps = [tf.compat.v1.Print(tf.constant(0), [tf.constant(c)], message=f'C{i}:', "
            f"summarize=3) for i, c in enumerate([{', '.join(cases)}])]\n"
            "with tf.compat.v1.Session(graph=g) as s:\n    for p in ps:\n        s.run(p)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300)
    printed = [line for line in proc.stderr.splitlines() if line.startswith("C")]
    assert len(printed) == len(cases), proc.stderr[-2000:]
    for i, case in enumerate(cases):
        value = eval(case)
        assert printed[i] == f"C{i}:[{summarize_values(value)}]"
