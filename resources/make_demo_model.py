"""Make the bundled demo model (inspector/core/app/demo_model/demo_digits.pb): a small convnet with batch norm trained on 8x8 digits.

The digits come with scikit-learn, so nothing is downloaded. Training takes a few seconds and
gives real weights and activations. Run: python resources/make_demo_model.py
"""

from __future__ import annotations

import os
import sys

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")


def build_and_train(epochs: int = 40):
    import tensorflow as tf
    from sklearn.datasets import load_digits

    tf.keras.utils.set_random_seed(7)
    digits = load_digits()
    x = (digits.images.astype(np.float32) / 16.0)[..., None]
    y = digits.target.astype(np.int64)
    L = tf.keras.layers
    inputs = tf.keras.Input((8, 8, 1), name="pixels")
    h = L.Conv2D(16, 3, padding="same", use_bias=False, name="conv1")(inputs)
    h = L.BatchNormalization(name="bn1")(h)
    h = L.ReLU(name="relu1")(h)
    h = L.Conv2D(32, 3, padding="same", use_bias=False, name="conv2")(h)
    h = L.BatchNormalization(name="bn2")(h)
    h = L.ReLU(name="relu2")(h)
    h = L.MaxPooling2D(2, name="pool")(h)
    h = L.Flatten(name="flatten")(h)
    h = L.Dense(10, name="logits")(h)
    outputs = L.Softmax(name="probabilities")(h)
    model = tf.keras.Model(inputs, outputs, name="digits")
    model.compile("adam", "sparse_categorical_crossentropy", metrics=["accuracy"])
    model.fit(x[:1500], y[:1500], epochs=epochs, batch_size=64, verbose=0)
    _, acc = model.evaluate(x[1500:], y[1500:], verbose=0)
    return model, acc


def freeze(model):
    import tensorflow as tf
    from tensorflow.python.framework.convert_to_constants import (
        convert_variables_to_constants_v2)

    fn = tf.function(lambda pixels: model(pixels, training=False)).get_concrete_function(
        tf.TensorSpec([None, 8, 8, 1], tf.float32, name="pixels"))
    graph_def = convert_variables_to_constants_v2(fn).graph.as_graph_def()
    for node in graph_def.node:  # give the function's return node a name people can read
        if node.name == "Identity" and node.op == "Identity":
            node.name = "output"
    return graph_def


def main(out: str) -> None:
    model, acc = build_and_train()
    graph_def = freeze(model)
    tmp = out + ".tmp"
    with open(tmp, "wb") as fh:
        fh.write(graph_def.SerializeToString())
    os.replace(tmp, out)
    print(f"wrote {out}: {len(graph_def.node)} nodes, held-out accuracy {acc:.3f}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else
         os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "inspector",
                      "core", "app", "demo_model", "demo_digits.pb"))
