"""The core graph model: edges, consumers, scopes, functions, attrs and tensors.

This file holds the tests that need TensorFlow (an oracle, a model built or run by it); the
others are in tests/core/test_graph_model.py."""

import os

import numpy as np

from inspector.core.loaders import load
from inspector.core.model.attrs import DType, Shape, TensorValue


def test_attrs_decode_to_plain_values(fx):
    import tensorflow as tf

    path = os.path.join(fx, "inception_jpeg.pb")
    g = load(path).graph
    conv = g.node("conv/Conv2D")
    attrs = conv.attrs
    assert attrs["T"] == DType(1) and str(attrs["T"]) == "float"
    assert attrs["strides"] == [1, 2, 2, 1] and attrs["padding"] == "SAME"
    ph = g.node("DecodeJpeg/contents")
    assert str(ph.attr("dtype")) == "string" and ph.attr("shape") == Shape(())
    w = g.node("conv/weights").attr("value")
    assert isinstance(w, TensorValue) and str(w.shape) == "[3,3,3,16]"
    gd = tf.compat.v1.GraphDef.FromString(open(path, "rb").read())
    for node in gd.node:
        if node.op == "Const":
            ours = g.node(node.name).attr("value").numpy()
            np.testing.assert_array_equal(ours, tf.make_ndarray(node.attr["value"].tensor))
