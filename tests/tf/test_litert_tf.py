"""LiteRT is the interpreter of every .tflite we run: its answers equal TensorFlow's
deprecated tf.lite.Interpreter's on the float and int8 variants of two models; a model with
Select TF ops says exactly why it cannot run here."""

from __future__ import annotations

import os

import numpy as np
import pytest

from inspector.core.errors import InspectorError
from inspector.core.loaders import load
from inspector.core.tf import lite, litert
from tests.conftest import DEMO

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def _tf_answers(model: bytes, x) -> np.ndarray:
    import tensorflow as tf

    interp = tf.lite.Interpreter(model_content=model)
    interp.allocate_tensors()
    ind, out = interp.get_input_details()[0], interp.get_output_details()[0]
    scale, zero = ind["quantization"]
    if ind["dtype"] == np.int8:
        x = np.clip(np.round(x / scale + zero), -128, 127).astype(np.int8)
    interp.set_tensor(ind["index"], x)
    interp.invoke()
    y = interp.get_tensor(out["index"])
    scale, zero = out["quantization"]
    return (y.astype(np.float32) - zero) * scale if out["dtype"] == np.int8 else y


def _models(fx):
    yield load(DEMO).graph.graph_def, "pixels", "output", (1, 8, 8, 1), (0.0, 1.0)
    yield (load(os.path.join(fx, "inception_jpeg.pb")).graph.graph_def, "Mul", "softmax",
           (1, 299, 299, 3), (-1.0, 1.0))


@pytest.mark.parametrize("variant", ["float", "int8"])
def test_litert_answers_equal_tf_interpreter(fx, variant):
    rng = np.random.default_rng(3)
    for gd, feed, fetch, shape, (lo, hi) in _models(fx):
        shapes = {feed: list(shape)}
        reps = [{feed: rng.uniform(lo, hi, shape).astype(np.float32)} for _ in range(8)]
        made = lite.convert_tflite(gd, [feed], [fetch], variant, input_shapes=shapes,
                                   representative=reps if variant == "int8" else None)
        model = made["model"]
        assert model is not None, made["errors"]
        x = rng.uniform(lo, hi, shape).astype(np.float32)
        ours, engine = lite.tflite_run(model, [[x]])
        assert engine.startswith("LiteRT ")           # LiteRT ran it, not TF's interpreter
        want = _tf_answers(model, x)
        # same kernels (XNNPACK in both): equal within float rounding of the delegate
        np.testing.assert_allclose(ours[0][0], want, rtol=1e-5, atol=1e-6)
        assert lite.tflite_details(model)["engine"].startswith("LiteRT ")


def test_select_tf_ops_model_says_why_it_cannot_run():
    import tensorflow as tf

    from inspector.core.model.protos import GraphDef

    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [1, 4, 4], name="x")
        tf.identity(tf.linalg.det(x) + 1.0, name="out")
    gd = GraphDef.FromString(g.as_graph_def().SerializeToString())
    model = lite.convert_tflite(gd, ["x"], ["out"], "float", select_tf_ops=True)["model"]
    assert litert.flex_codes(model) == ["FlexMatrixDeterminant"]
    details = lite.tflite_details(model)             # reading it works
    assert "has no Select TF ops delegate" in details["engine"]
    with pytest.raises(InspectorError) as err:
        lite.tflite_run(model, [[np.eye(4, dtype=np.float32)[None]]])
    line = err.value.one_line()
    assert "LiteRT 2." in line and "no Select TF ops (flex) delegate" in line
    assert "MatrixDeterminant" in line and "tf.lite.Interpreter has none" in line


def test_a_missing_package_is_named_in_one_line(monkeypatch):
    """Without LiteRT TF's interpreter runs (and says which package would run it); without
    ai-edge-quantizer a recipe says which package to install."""
    import sys

    model = lite.convert_tflite(load(DEMO).graph.graph_def, ["pixels"], ["output"],
                                "float")["model"]
    monkeypatch.setattr(litert, "litert_version", lambda: None)
    _, engine = lite.tflite_run(model, [[np.zeros((1, 8, 8, 1), np.float32)]])
    assert engine == "TensorFlow's tf.lite.Interpreter (LiteRT is not installed: " \
                     "pip install ai-edge-litert)"
    monkeypatch.setitem(sys.modules, "ai_edge_quantizer", None)     # import fails
    with pytest.raises(InspectorError) as err:
        litert.tflite_quantize(model, [{"regex": ".*", "operation": "*",
                                        "algorithm_key": "no_quantize"}])
    assert err.value.one_line() == "ai-edge-quantizer is not installed: pip install " \
                                   "ai-edge-quantizer"


def test_the_command_line_says_why_a_select_tf_ops_variant_was_not_run(tmp_path):
    import tensorflow as tf

    from tests.conftest import run_cli

    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [1, 4, 4], name="x")
        tf.identity(tf.linalg.det(x) + 1.0, name="out")
    path = tmp_path / "det.pb"
    path.write_bytes(g.as_graph_def().SerializeToString())
    code, out, err = run_cli("tflite", str(path), "--inputs", "x", "--outputs", "out",
                             "--variants", "float", "--samples", "2", "--compare", "2")
    assert code == 0, err
    assert "Select TF ops: MatrixDeterminant" in out
    assert "cannot run it here: LiteRT 2." in out and "has no Select TF ops (flex) " \
        "delegate, and TensorFlow 2." in out and "tf.lite.Interpreter has none linked" in out
