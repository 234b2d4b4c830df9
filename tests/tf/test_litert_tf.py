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


def _retyped(model: bytes, edit) -> bytes:
    """The .tflite with edit(tensor) applied to every tensor of its main subgraph."""
    import flatbuffers
    from ai_edge_litert import schema_py_generated as S

    m = S.ModelT.InitFromObj(S.Model.GetRootAsModel(model, 0))
    for t in m.subgraphs[0].tensors:
        edit(t)
    builder = flatbuffers.Builder(0)
    builder.Finish(m.Pack(builder), file_identifier=b"TFL3")
    return bytes(builder.Output())


def test_scales_litert_runs_are_not_refused_as_ones_it_aborts_on(tmp_path):
    """review15 of b194067: check_scales refused every .tflite with a quantization scale of 0,
    'LiteRT aborts on a scale that is not a positive number'. But LiteRT runs an int8 Conv2D
    whose per-channel weight and bias scales hold a 0 (an all-zero, pruned channel, as some
    converters write it), and a float ADD whose tensors say scale 0 (a float kernel never
    reads it): both were refused on the old code (Preview, Run both, targets). The int8
    ADD of scale 0 that LiteRT aborts on is still refused."""
    import tensorflow as tf

    from inspector.core.model.tflite_calls import check_scales
    from tests.fixtures.hostile import inputs as hostile

    inp = tf.keras.Input((8, 8, 3), batch_size=1)
    conv = tf.keras.layers.Conv2D(4, 3, padding="same")
    model = tf.keras.Model(inp, conv(inp))
    weights, bias = conv.get_weights()
    weights[..., 1], bias[1] = 0.0, 0.0          # channel 1 pruned
    conv.set_weights([weights, bias])
    converter = tf.lite.TFLiteConverter.from_keras_model(model)
    converter.optimizations = [tf.lite.Optimize.DEFAULT]
    rnd = np.random.default_rng(0)
    converter.representative_dataset = lambda: (
        [rnd.random((1, 8, 8, 3), np.float32)] for _ in range(8))
    converter.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
    converter.inference_input_type = converter.inference_output_type = tf.int8

    def zero_channel(t):                         # TF's converter writes ~4e-9 there
        q = t.quantization
        if q is not None and q.scale is not None and len(q.scale) > 1:
            q.scale = [0.0 if k == 1 else s for k, s in enumerate(q.scale)]

    pruned = _retyped(converter.convert(), zero_channel)
    added = open(hostile.tflite_zero_scale(str(tmp_path)), "rb").read()

    def as_float(t):
        t.type = 0                               # FLOAT32, its scale 0 kept

    floats = _retyped(added, as_float)
    for runs in (pruned, floats):
        assert check_scales(runs) == ""
        interp, _ = litert.interpreter(runs, allocate=True)
        detail = interp.get_input_details()[0]
        interp.set_tensor(detail["index"], np.ones(detail["shape"], detail["dtype"]))
        litert.invoke(interp, runs)
    with pytest.raises(InspectorError, match="tensor 0 .'x'. has a quantization scale of 0"):
        litert.interpreter(added, allocate=True)
