"""Loaders: content sniffing, every fixture kind, freezing checked by running TensorFlow.

This file holds the tests that need TensorFlow (an oracle, a model built or run by it); the
others are in tests/core/test_loaders.py, tests/cli/test_loaders_cli.py."""

import os

import numpy as np
import pytest
from conftest import run_cli

from inspector.core.loaders import load


def _run_frozen(graph_def, feeds: dict, fetches: list):
    import tensorflow as tf

    gd = tf.compat.v1.GraphDef.FromString(graph_def.SerializeToString())
    graph = tf.Graph()
    with graph.as_default():
        tf.compat.v1.import_graph_def(gd, name="")
    with tf.compat.v1.Session(graph=graph) as sess:
        return sess.run(fetches, feeds)


@pytest.mark.parametrize("signature,key", [("serving_default", "probabilities"),
                                           ("embed", "embedding")])
def test_frozen_saved_model_matches_the_saved_model(fx, signature, key):
    import tensorflow as tf

    path = os.path.join(fx, "two_signatures")
    m = load(path, signature=signature)
    assert m.frozen and m.signature.key == signature
    ops = {n.op for n in m.graph}
    assert "StatefulPartitionedCall" not in ops and "VarHandleOp" not in ops
    x = np.random.default_rng(0).normal(size=(3, 4)).astype(np.float32)
    expected = tf.saved_model.load(path).signatures[signature](features=tf.constant(x))[key]
    got = _run_frozen(m.graph.graph_def, {m.signature.inputs["features"]: x},
                      [m.signature.outputs[key]])[0]
    np.testing.assert_allclose(got, expected.numpy(), rtol=1e-6, atol=1e-6)


def test_meta_viewed_as_is_and_frozen_with_checkpoint(fx):
    import tensorflow as tf

    meta = os.path.join(fx, "v1_training.meta")
    raw = load(meta)
    assert not raw.frozen and any(n.op == "VariableV2" for n in raw.graph)
    frozen = load(meta, checkpoint=os.path.join(fx, "v1_training.ckpt"), outputs=["output"])
    assert frozen.frozen
    assert not any(n.op in ("VariableV2", "VarHandleOp", "SaveV2") for n in frozen.graph)
    x = np.random.default_rng(1).normal(size=(2, 8, 8, 1)).astype(np.float32)
    graph = tf.Graph()
    with graph.as_default(), tf.compat.v1.Session(graph=graph) as sess:
        saver = tf.compat.v1.train.import_meta_graph(meta)
        saver.restore(sess, os.path.join(fx, "v1_training.ckpt"))
        expected = sess.run("output:0", {"input:0": x})
    got = _run_frozen(frozen.graph.graph_def, {"input:0": x}, ["output:0"])[0]
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", ["tiny.keras", "tiny.h5"])
def test_keras_file_frozen_matches_keras(fx, name):
    import keras

    path = os.path.join(fx, name)
    m = load(path)
    assert m.kind == "keras" and m.frozen
    x = np.random.default_rng(2).normal(size=(2, 8, 8, 1)).astype(np.float32)
    expected = keras.saving.load_model(path, compile=False)(x, training=False)
    got = _run_frozen(m.graph.graph_def, {m.signature.inputs["pixels"]: x},
                      list(m.signature.outputs.values()))[0]
    np.testing.assert_allclose(got, np.asarray(expected), rtol=1e-5, atol=1e-6)


def test_a_saved_model_that_cannot_be_frozen_opens_as_stored_with_an_explanation(fx, tmp_path):
    """It used to stop with TensorFlow's internals and no way on."""
    import shutil

    path = str(tmp_path / "no_weights")
    shutil.copytree(os.path.join(fx, "two_signatures"), path)
    shutil.rmtree(os.path.join(path, "variables"))
    m = load(path)
    assert not m.frozen and m.signature.key == "serving_default"
    assert "StatefulPartitionedCall" in {n.op for n in m.graph}
    assert len(m.notes) == 1 and m.notes[0].startswith(
        "Signature 'serving_default' could not be frozen, so this is the graph as stored")
    assert "variables/ folder) are missing" in m.notes[0]
    code, out, err = run_cli("summarize", path)
    assert code == 0 and "Signature: serving_default" in out
    assert "note: Signature 'serving_default' could not be frozen" in err


def _tf1_builder_saved_model(directory):
    """A SavedModel as TF 1.x's SavedModelBuilder wrote them: ref variables, batch norm with
    moving averages, a serving signature; returns (input, expected output) of one run."""
    import tensorflow as tf

    v1 = tf.compat.v1
    x = np.random.default_rng(5).normal(size=(3, 6)).astype(np.float32)
    with tf.Graph().as_default(), v1.Session() as sess:
        inp = v1.placeholder(tf.float32, [None, 6], name="features")
        w = v1.get_variable("w", initializer=np.arange(24, dtype=np.float32).reshape(6, 4) / 10,
                            use_resource=False)
        mean = v1.get_variable("moving_mean", initializer=np.full(4, 0.5, np.float32),
                               use_resource=False, trainable=False)
        out = tf.nn.softmax(tf.matmul(inp, w) - mean, name="probs")
        sess.run(v1.global_variables_initializer())
        expected = sess.run(out, {inp: x})
        builder = v1.saved_model.Builder(directory)
        sig = v1.saved_model.predict_signature_def({"features": inp}, {"probs": out})
        builder.add_meta_graph_and_variables(sess, ["serve"],
                                             signature_def_map={"serving_default": sig})
        builder.save()
    return x, expected


@pytest.mark.parametrize("object_loader", ["works", "fails"])
def test_tf1_builder_saved_model_freezes_either_way(tmp_path, monkeypatch, object_loader):
    from inspector.core.tf import freeze

    directory = str(tmp_path / "tf1_model")
    x, expected = _tf1_builder_saved_model(directory)
    if object_loader == "fails":
        def fails(*_):
            raise AttributeError("'_UserObject' object has no attribute 'add_slot'")
        monkeypatch.setattr(freeze, "_freeze_with_object_loader", fails)
    m = load(directory)
    assert m.frozen and not any(n.op in ("VariableV2", "VarHandleOp") for n in m.graph)
    assert any("MetaGraph" in n for n in m.notes) == (object_loader == "fails")
    got = _run_frozen(m.graph.graph_def, {m.signature.inputs["features"]: x},
                      [m.signature.outputs["probs"]])[0]
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)
