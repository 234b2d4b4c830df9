"""Tours (Qt-free): stops kept in the session file, checked when read, and the auto-tour built
from the model itself in data-flow order.

This file holds the tests that need TensorFlow (an oracle, a model built or run by it); the
others are in tests/core/test_tour.py."""

from __future__ import annotations

import os

import pytest
from test_tour import _assert_data_flow_order, _tour_of  # noqa: F401

from inspector.core.app import auto_tour


def _slim_like(path) -> str:
    """A slim-style classifier as TF-slim exports it: a few preprocessing nodes at the root,
    weights under InceptionV3/<block>/, the ops using them under InceptionV3/InceptionV3/
    <block>/, then Logits (a 1x1 convolution) and Predictions (the softmax)."""
    import numpy as np

    tf = pytest.importorskip("tensorflow")
    v1 = tf.compat.v1
    rng = np.random.RandomState(0)

    def const(shape, name, value=None):
        data = rng.normal(scale=0.1, size=shape) if value is None else np.full(shape, value)
        return tf.constant(data.astype(np.float32), name=name)

    with tf.Graph().as_default() as g:
        x = v1.placeholder(tf.float32, [1, 32, 32, 3], name="input")
        h = tf.subtract(x, const([], "sub/y", 0.5), name="sub")
        h = tf.multiply(h, const([], "mul/y", 2.0), name="mul")
        cin = 3
        for block, cout, stride in [("Conv2d_1a_3x3", 8, 2), ("Conv2d_2a_3x3", 8, 1),
                                    ("Conv2d_2b_3x3", 16, 1), ("Mixed_5b", 16, 1),
                                    ("Mixed_5c", 16, 1)]:
            ops = f"InceptionV3/InceptionV3/{block}"
            h = tf.nn.conv2d(h, const([3, 3, cin, cout], f"InceptionV3/{block}/weights"),
                             stride, "SAME", name=f"{ops}/Conv2D")
            h = v1.nn.fused_batch_norm(
                h, const([cout], f"InceptionV3/{block}/BatchNorm/Const", 1.0),
                const([cout], f"InceptionV3/{block}/BatchNorm/beta"),
                const([cout], f"InceptionV3/{block}/BatchNorm/moving_mean"),
                const([cout], f"InceptionV3/{block}/BatchNorm/moving_variance", 1.0),
                is_training=False, name=f"{ops}/BatchNorm/FusedBatchNormV3")[0]
            h = tf.nn.relu(h, name=f"{ops}/Relu")
            cin = cout
        h = tf.nn.avg_pool2d(h, 16, 1, "VALID", name="InceptionV3/Logits/AvgPool_1a_8x8/AvgPool")
        h = tf.nn.conv2d(h, const([1, 1, cin, 10], "InceptionV3/Logits/Conv2d_1c_1x1/weights"),
                         1, "VALID", name="InceptionV3/Logits/Conv2d_1c_1x1/Conv2D")
        h = tf.nn.bias_add(h, const([10], "InceptionV3/Logits/Conv2d_1c_1x1/biases"),
                           name="InceptionV3/Logits/Conv2d_1c_1x1/BiasAdd")
        logits = tf.squeeze(h, [1, 2], name="InceptionV3/Logits/SpatialSqueeze")
        tf.nn.softmax(logits, name="InceptionV3/Predictions/Softmax")
    target = os.path.join(str(path), "slim_like.pb")
    with open(target, "wb") as fh:
        fh.write(g.as_graph_def().SerializeToString())
    return target


def test_the_auto_tour_of_a_slim_model_walks_its_blocks_not_one_wrapper(tmp_path):
    view, stops = _tour_of(_slim_like(tmp_path))
    titles = [s.title for s in stops if s.kind == "graph"]
    assert "InceptionV3" not in titles
    assert titles[0] == "Conv2d_1a_3x3" and titles[-1] == "Logits", titles
    _assert_data_flow_order(view, stops)
    first = next(s for s in stops if s.title == "Conv2d_1a_3x3")
    assert first.caption.startswith("Feature extractor block: pattern detection")
    assert "keeping positive values" in first.caption and "learned numbers" in first.caption
    logits = next(s for s in stops if s.title == "Logits")
    assert logits.caption.startswith("Classifier block"), logits.caption
    assert not [s.title for s in stops if "switching" in s.caption]
    # a demo run's blocks are the same ones
    from inspector.core.analysis.blocks import top_blocks

    assert auto_tour.wrapper_paths(view) == ["InceptionV3", "InceptionV3/InceptionV3"]
    assert top_blocks(view.graph)[:1] == ["InceptionV3/InceptionV3/Conv2d_1a_3x3"]
    assert "InceptionV3/Logits" in top_blocks(view.graph)


def _wild(name: str) -> str:
    from tests.fixtures import wild_models

    try:
        return wild_models.model(name)
    except wild_models.Unavailable as exc:
        pytest.skip(f"package registry unavailable: {exc}")


def _sequential_keras(folder) -> str:
    tf = pytest.importorskip("tensorflow")
    model = tf.keras.Sequential([tf.keras.Input((16, 16, 3), name="pixels"),
                                 tf.keras.layers.Conv2D(4, 3, activation="relu", name="conv"),
                                 tf.keras.layers.Conv2D(4, 3, activation="relu", name="conv_b"),
                                 tf.keras.layers.Flatten(name="flatten"),
                                 tf.keras.layers.Dense(3, activation="softmax", name="probs")])
    path = os.path.join(str(folder), "seq.keras")
    model.save(path)
    return path


@pytest.mark.parametrize("kind, get, sits_in", [
    ("Keras functional, 4 inputs", lambda fx, tmp: _wild("deeplc_keras"), "functional_9_1"),
    ("Keras 2 model", lambda fx, tmp: _wild("fer_h5"), "model_1_1"),
    ("Keras sequential", lambda fx, tmp: _sequential_keras(tmp), "sequential_1"),
    ("SavedModel with weights at the root", lambda fx, tmp: _wild("basic_pitch_saved_model"),
     "StatefulPartitionedCall/model_1"),
    ("TF.js", lambda fx, tmp: _wild("basic_pitch_tfjs"), "StatefulPartitionedCall/model_1"),
    ("TF.js detector beside its postprocessing", lambda fx, tmp: _wild("handtrack_float32"),
     "StatefulPartitionedCall"),
])
def test_the_auto_tour_opens_the_scopes_a_model_sits_in(kind, get, sits_in, fx, tmp_path):
    view, stops = _tour_of(get(fx, tmp_path))
    assert auto_tour.wrapper_paths(view)[-1] == sits_in
    blocks = [s for s in stops if s.kind == "graph"]
    assert len(blocks) >= 4, [s.title for s in stops]
    inside = [s for s in blocks if all(f.startswith(sits_in + "/") for f in s.focus)]
    assert len(inside) >= 0.75 * len(blocks), [s.focus for s in blocks]
    assert all(s.focus != [sits_in + "/"] for s in blocks)
