"""TF.js graph models written here the way the converter writes them (topology as protobuf
JSON, Const values in shards, optionally quantized): values decoded, broken ones refused with
one line. The real converter's output is tested on @spotify/basic-pitch (test_wild_models).

This file holds the tests that need neither TensorFlow nor Qt; the others are in
tests/tf/test_tfjs_tf.py."""

import json
import os

import numpy as np
import pytest
from google.protobuf import json_format

from inspector.core.errors import ModelLoadError
from inspector.core.loaders import load
from inspector.core.model import protos
from inspector.core.model.tensors import to_numpy


def _graph():
    g = protos.GraphDef()
    x = g.node.add(name="x", op="Placeholder")
    x.attr["dtype"].type = 1
    for name in ("w", "b", "k"):
        c = g.node.add(name=name, op="Const")
        c.attr["dtype"].type = 3 if name == "k" else 1
        c.attr["value"].tensor.dtype = 3 if name == "k" else 1
    mm = g.node.add(name="y", op="_FusedMatMul", input=["x", "w", "b"])
    mm.attr["T"].type = 1
    mm.attr["num_args"].i = 1
    mm.attr["fused_ops"].list.s.append(b"BiasAdd")
    return g


W = np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4)

B = np.array([0.5, -0.25, 0.0, 1.0], np.float32)

K = np.array([7, -3], np.int32)


def write_tfjs(folder, quantize=None, shard_cut=0, paths=None):
    """model.json + one shard for _graph() with weights W, B, K."""
    weights, chunks = [], []
    for name, value in (("w", W), ("b", B), ("k", K)):
        spec = {"name": name, "shape": list(value.shape),
                "dtype": "int32" if value.dtype == np.int32 else "float32"}
        if quantize == "uint8" and value.dtype == np.float32:
            lo, hi = float(value.min()), float(value.max())
            scale = (hi - lo) / 255
            q = np.round((value - lo) / scale).astype(np.uint8)
            spec["quantization"] = {"dtype": "uint8", "scale": scale, "min": lo}
            chunks.append(q.tobytes())
        elif quantize == "float16" and value.dtype == np.float32:
            spec["quantization"] = {"dtype": "float16"}
            chunks.append(value.astype(np.float16).tobytes())
        else:
            chunks.append(value.tobytes())
        weights.append(spec)
    data = b"".join(chunks)
    with open(os.path.join(folder, "group1-shard1of1.bin"), "wb") as fh:
        fh.write(data[:len(data) - shard_cut])
    doc = {"format": "graph-model", "generatedBy": "2.4.1", "convertedBy": "test",
           "modelTopology": json_format.MessageToDict(_graph()),
           "weightsManifest": [{"paths": paths or ["group1-shard1of1.bin"],
                                "weights": weights}],
           "signature": {"inputs": {"x": {"name": "x:0"}}, "outputs": {"y": {"name": "y:0"}}}}
    path = os.path.join(folder, "model.json")
    with open(path, "w") as fh:
        json.dump(doc, fh)
    return path


def values(model, name):
    return to_numpy(model.graph.node(name).proto.attr["value"].tensor)


@pytest.mark.parametrize("quantize,tolerance", [(None, 0), ("float16", 1e-3), ("uint8", 5e-3)])
def test_weights_are_decoded_and_dequantized(tmp_path, quantize, tolerance):
    m = load(write_tfjs(str(tmp_path), quantize))
    assert m.kind == "tfjs" and m.signature.outputs == {"y": "y:0"}
    np.testing.assert_allclose(values(m, "w"), W, atol=tolerance)
    np.testing.assert_allclose(values(m, "b"), B, atol=tolerance)
    np.testing.assert_array_equal(values(m, "k"), K)
    assert values(m, "w").dtype == np.float32


@pytest.mark.parametrize("break_it,said", [
    (lambda d: write_tfjs(d, shard_cut=3), "shards end inside weight 'k'"),
    (lambda d: write_tfjs(d, paths=["../../etc/passwd"]), "points outside the model's folder"),
    (lambda d: write_tfjs(d, paths=["missing.bin"]), "'missing.bin' is missing"),
])
def test_broken_tfjs_models_are_refused_with_one_line(tmp_path, break_it, said):
    with pytest.raises(ModelLoadError, match=said):
        load(break_it(str(tmp_path)))


def test_a_layers_model_is_named_not_misread(tmp_path):
    path = tmp_path / "model.json"
    path.write_text(json.dumps({"format": "layers-model", "modelTopology": {
        "class_name": "Sequential", "config": {}}, "weightsManifest": []}))
    with pytest.raises(ModelLoadError, match="layers model"):
        load(str(path))


@pytest.mark.parametrize("spoil,said", [
    (lambda doc: doc["weightsManifest"][0]["weights"][0].update(
        quantization={"dtype": "uint8", "scale": "abc", "min": 0}), "malformed"),
    (lambda doc: doc["weightsManifest"][0]["weights"].__setitem__(0, "w"), "malformed"),
    (lambda doc: doc.update(signature=["x"]), "malformed"),
    (lambda doc: doc["weightsManifest"][0]["paths"].append("group1-shard1of1.bin"),
     "listed more than once"),
])
def test_model_json_fields_of_the_wrong_kind_give_one_line(tmp_path, spoil, said):
    path = write_tfjs(str(tmp_path))
    with open(path) as fh:
        doc = json.load(fh)
    spoil(doc)
    with open(path, "w") as fh:
        json.dump(doc, fh)
    with pytest.raises(ModelLoadError, match=said):
        load(path)
