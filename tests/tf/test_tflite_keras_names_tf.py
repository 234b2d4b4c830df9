"""A .tflite made by TF's converter straight from a Keras model (the way most people make one)
names its input and output tensors like TF tensors ('serving_default_image:0'); read as node
names, the ':0' made every edge from the input and the output list point at no node: the first
convolution had no input (its FLOPs 'not counted'), the diff saw no input. Checked through the
command line on a file TF's converter wrote."""

from __future__ import annotations

from inspector.core.loaders import load
from tests.conftest import run_cli


def _keras_tflite(path):
    import tensorflow as tf

    tf.keras.utils.set_random_seed(3)
    L = tf.keras.layers
    inputs = tf.keras.Input((16, 16, 3), name="image")
    h = L.Conv2D(8, 3, strides=2, padding="same", activation="relu", name="conv")(inputs)
    h = L.GlobalAveragePooling2D(name="pool")(h)
    outputs = L.Dense(4, activation="softmax", name="head")(h)
    model = tf.keras.Model(inputs, outputs)
    path.write_bytes(tf.lite.TFLiteConverter.from_keras_model(model).convert())
    return path


def test_a_keras_converted_tflite_has_its_input_and_output_connected(tmp_path):
    path = _keras_tflite(tmp_path / "keras.tflite")
    m = load(str(path))
    names = {n.name for n in m.graph}
    assert not any(":" in n for n in names)
    for n in m.graph:
        for r in n.inputs:
            assert r.node in names, (n.name, r.node)
    for tensors in (m.known_inputs, m.known_outputs):     # tensor names: node ':0'
        assert tensors and all(t.count(":") == 1 and t.split(":")[0] in names for t in tensors)
    code, out, err = run_cli("flops", str(path))
    assert code == 0, err
    assert "not counted" not in out
