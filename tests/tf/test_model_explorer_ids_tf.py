"""Our Model Explorer node ids against the adapter's own conversion of .tflite files that
TensorFlow's converter makes (a signature, a loop's extra subgraphs, two inputs, a constant
read twice) and of GraphDefs with function bodies and in text form: every node we draw has
the id of the very node ME draws for it, and no two of ours share one (issue 45.10)."""

from __future__ import annotations

import os

import numpy as np

from inspector.core.formats import me_ids
from inspector.core.loaders import load
from tests.fixtures.me_oracle import convert, resolve


def _check(path: str) -> tuple[str, int]:
    model = load(path)
    ids = me_ids.for_model(model)
    me = convert(path)
    assert ids.graph in me, (ids.graph, list(me))
    graph = me[ids.graph]
    tflite = model.kind == "tflite"
    seen = {}
    for node in model.graph.nodes:
        key = ids.key(node.name)
        assert key is not None, node.name
        found = resolve(graph, key)
        assert found is not None, (node.name, key)
        if not tflite:
            assert (found["namespace"], found["label"]) == (node.name, node.op)
        elif node.op == "Placeholder":
            assert found["label"] == "GraphInputs" and key == node.attr("tflite_tensor")
        elif "tflite_index" in node.proto.attr:
            assert found["label"] == node.op.lower() and found["id"] == ids.of[node.name]
        else:
            assert found["label"] == "pseudo_const", (node.name, found["label"])
        assert key not in seen, (key, seen.get(key), node.name)
        seen[key] = node.name
    return ids.graph, len(seen)


def _convert(fn, tmp_path, name) -> str:
    import tensorflow as tf

    converter = tf.lite.TFLiteConverter.from_concrete_functions(
        [fn.get_concrete_function()], fn)
    path = str(tmp_path / name)
    with open(path, "wb") as f:
        f.write(converter.convert())
    return path


def test_tflite_ids_resolve_in_model_explorer(tmp_path):
    import tensorflow as tf

    from tests.fixtures.tflite_graphs import dynamic_batch, signed_conv

    for name, data in (("signed.tflite", signed_conv()), ("dyn.tflite", dynamic_batch())):
        (tmp_path / name).write_bytes(data)
        _check(str(tmp_path / name))
    w = tf.constant(np.arange(16, dtype=np.float32).reshape(4, 4))

    @tf.function(input_signature=[tf.TensorSpec([1, 4], tf.float32, name="a"),
                                  tf.TensorSpec([1, 4], tf.float32, name="b")])
    def two(a, b):                       # two inputs (one GraphInputs), w read twice
        return tf.matmul(a, w) + tf.matmul(b, w)

    graph_id, count = _check(_convert(two, tmp_path, "two.tflite"))
    assert count >= 5

    @tf.function(input_signature=[tf.TensorSpec([1, 4], tf.float32, name="x")])
    def loop(x):                         # a WHILE: its body and condition are subgraphs
        i = tf.constant(0)
        _, y = tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, tf.tanh(y) * 2.0),
                             [i, x])
        return y

    path = _convert(loop, tmp_path, "loop.tflite")
    assert len(convert(path)) >= 3
    _check(path)


def test_graphdef_ids_resolve_in_model_explorer(data, tmp_path):
    for name in ("while_v2.pb", "v1_training.pbtxt", "speech_commands.pb"):
        graph_id, count = _check(os.path.join(data, name))
        assert graph_id == "main" and count == len(load(os.path.join(data, name)).graph)
