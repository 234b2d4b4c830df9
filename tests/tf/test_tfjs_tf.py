"""TF.js graph models written here the way the converter writes them (topology as protobuf
JSON, Const values in shards, optionally quantized): values decoded, broken ones refused with
one line. The real converter's output is tested on @spotify/basic-pitch (test_wild_models).

This file holds the tests that need TensorFlow (an oracle, a model built or run by it); the
others are in tests/core/test_tfjs.py."""

import json
import os

import numpy as np
import pytest
from google.protobuf import json_format
from test_tfjs import B, K, W, _graph, write_tfjs  # noqa: F401

from inspector.core.loaders import load
from inspector.core.model import protos


def test_fused_ops_get_their_targs_back_and_import_into_tensorflow(tmp_path):
    tf = pytest.importorskip("tensorflow")
    m = load(write_tfjs(str(tmp_path)))
    assert list(m.graph.node("y").proto.attr["TArgs"].list.type) == [1]
    graph_def = tf.compat.v1.GraphDef.FromString(m.graph.graph_def.SerializeToString())
    x = np.ones((2, 3), np.float32)
    with tf.Graph().as_default() as g:
        tf.graph_util.import_graph_def(graph_def, name="")
    with tf.compat.v1.Session(graph=g) as sess:
        got = sess.run("y:0", {"x:0": x})
    np.testing.assert_allclose(got, x @ W + B, atol=1e-6)


def _fused_model(folder, op, fused_ops, extra_weights):
    """A TF.js model of one fused op the converter writes: x -> op(x, w, *args)."""
    rng = np.random.default_rng(7)
    g = protos.GraphDef()
    g.node.add(name="x", op="Placeholder").attr["dtype"].type = 1
    weights = {"w": rng.normal(size=(3, 3, 4, 1 if "Depthwise" in op else 5)).astype(np.float32)}
    weights.update(extra_weights)
    for name, value in weights.items():
        c = g.node.add(name=name, op="Const")
        c.attr["dtype"].type = 1
        c.attr["value"].tensor.dtype = 1
    node = g.node.add(name="y", op=op, input=["x", *weights])
    node.attr["T"].type = 1
    node.attr["num_args"].i = len(extra_weights)
    node.attr["strides"].list.i.extend([1, 1, 1, 1])
    node.attr["dilations"].list.i.extend([1, 1, 1, 1])
    node.attr["padding"].s = b"SAME"
    node.attr["data_format"].s = b"NHWC"
    node.attr["fused_ops"].list.s.extend(fused_ops)
    data = b"".join(v.tobytes() for v in weights.values())
    with open(os.path.join(folder, "w.bin"), "wb") as fh:
        fh.write(data)
    doc = {"format": "graph-model", "modelTopology": json_format.MessageToDict(g),
           "weightsManifest": [{"paths": ["w.bin"], "weights": [
               {"name": k, "shape": list(v.shape), "dtype": "float32"}
               for k, v in weights.items()]}]}
    path = os.path.join(folder, "model.json")
    with open(path, "w") as fh:
        json.dump(doc, fh)
    return path, weights


@pytest.mark.parametrize("op,fused_ops", [
    ("FusedDepthwiseConv2dNative", [b"BiasAdd", b"Relu6"]),
    ("_FusedConv2D", [b"BiasAdd", b"Prelu"]),
])
def test_fused_ops_tensorflow_cannot_run_are_split_and_compute_the_same(tmp_path, op,
                                                                        fused_ops):
    tf = pytest.importorskip("tensorflow")
    channels = 4 if "Depthwise" in op else 5
    extra = {"bias": np.linspace(-1, 1, channels).astype(np.float32)}
    if b"Prelu" in fused_ops:
        extra["alpha"] = np.full(channels, 0.25, np.float32)
    path, weights = _fused_model(str(tmp_path), op, fused_ops, extra)
    m = load(path)
    assert m.graph.node("y").op in ("Relu6", "Sub") and any("split into plain" in n
                                                            for n in m.notes)
    x = np.random.default_rng(8).normal(size=(1, 6, 6, 4)).astype(np.float32)
    conv = (tf.nn.depthwise_conv2d(x, weights["w"], [1, 1, 1, 1], "SAME") if "Depthwise" in op
            else tf.nn.conv2d(x, weights["w"], 1, "SAME")).numpy() + weights["bias"]
    want = np.clip(conv, 0, 6) if b"Relu6" in fused_ops else \
        np.where(conv > 0, conv, extra.get("alpha", 0) * conv)
    graph_def = tf.compat.v1.GraphDef.FromString(m.graph.graph_def.SerializeToString())
    with tf.Graph().as_default() as g:
        tf.graph_util.import_graph_def(graph_def, name="")
    with tf.compat.v1.Session(graph=g) as sess:
        got = sess.run("y:0", {"x:0": x})
    np.testing.assert_allclose(got, want, atol=1e-5)
