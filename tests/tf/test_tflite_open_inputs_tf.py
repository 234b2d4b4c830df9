"""`tflite` (and Phone > Conversion preview, the same use case) on models other people ship:
the TF.js SSD hand detector's input is [1,?,?,3] and its 72 _FusedConv2D stay Select TF ops
after TF's converter. The command died with a traceback twice: "unsupported operand type(s)
for *: 'int' and 'NoneType'" (random samples of the open sizes; the window showed that
sentence), then "Select TensorFlow op(s) ... not supported by this interpreter" (timing a
Flex model in this Python, which allocated it). Now the open sizes are taken as 1 and said,
and a variant that needs Select TF ops is converted, listed and said not to run here."""

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


def test_a_variant_that_needs_select_tf_ops_is_listed_and_said_not_to_run_here(tmp_path):
    path = tmp_path / "fused.pb"
    path.write_bytes(_fused_graph().SerializeToString())
    code, out, err = run_cli("tflite", str(path), "--inputs", "x", "--outputs", "conv",
                             "--variants", "float", "--samples", "2", "--compare", "2")
    assert code == 0, err
    assert "Traceback" not in err
    assert "Select TF ops: _FusedConv2D" in out
    assert "answers not compared: cannot run it here: " in out
    assert "Select TF ops _FusedConv2D run only where the flex delegate is" in out
    assert "Answers not compared: no variant could be run here" in out   # was "by no interpreter"


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
    assert "Select TF ops: " in out and "_FusedConv2D" in out
    assert "answers not compared: cannot run it here: " in out
