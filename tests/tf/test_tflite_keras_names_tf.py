"""A .tflite made by TF's converter straight from a Keras model (the way most people make one)
names its input and output tensors like TF tensors ('serving_default_image:0'); read as node
names, the ':0' made every edge from the input and the output list point at no node: the first
convolution had no input (its FLOPs 'not counted'), the diff saw no input. Checked through the
command line on a file TF's converter wrote."""

from __future__ import annotations

from inspector.core.loaders import load
from tests.conftest import run_cli


def _keras_tflite(path, frozen=None):
    import tensorflow as tf

    tf.keras.utils.set_random_seed(3)
    L = tf.keras.layers
    inputs = tf.keras.Input((16, 16, 3), name="image")
    h = L.Conv2D(8, 3, strides=2, padding="same", activation="relu", name="conv")(inputs)
    h = L.GlobalAveragePooling2D(name="pool")(h)
    outputs = L.Dense(4, activation="softmax", name="head")(h)
    model = tf.keras.Model(inputs, outputs)
    path.write_bytes(tf.lite.TFLiteConverter.from_keras_model(model).convert())
    if frozen is not None:       # the same model frozen as a GraphDef, input 'input'
        from tensorflow.python.framework.convert_to_constants import (
            convert_variables_to_constants_v2)

        fn = tf.function(lambda x: model(x, training=False)).get_concrete_function(
            tf.TensorSpec([1, 16, 16, 3], tf.float32, name="input"))
        graph_def = convert_variables_to_constants_v2(fn).graph.as_graph_def()
        frozen.write_bytes(graph_def.SerializeToString())
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


def test_run_both_feeds_a_keras_tflite_whose_input_has_another_name(tmp_path):
    """The GraphDef's input is 'input', the .tflite's 'serving_default_image': the matching
    leaves them unpaired, and diff --numeric refused ("B's input ... matches none of the inputs
    A is fed at: mark A's inputs", with A's one input marked). The matching now pairs the one
    input of each side (the "interface" rule), which is fed the same array, and the layers
    agree (a float conversion)."""
    frozen = tmp_path / "keras.pb"
    path = _keras_tflite(tmp_path / "keras.tflite", frozen)
    code, out, err = run_cli("diff", str(frozen), str(path), "--numeric")
    assert code in (0, 1), err
    assert "input renamed 'input' -> 'serving_default_image'" in out
    layers = [line for line in out.splitlines() if " SNR " in line and " -> " in line]
    assert any("CONV_2D" in line for line in layers), out
    assert "no activation past it" in out


def test_a_keras_tflite_against_its_graphdef_renames_the_input_and_output_either_way(tmp_path):
    """The converter renames the model's ends ('input' is 'serving_default_image', the output
    Identity is the SOFTMAX 'StatefulPartitionedCall_1'). Before, the diff's interface read
    "input 'input' removed" and "new input 'serving_default_image'" (the same for the output),
    and the head's BiasAdd and Softmax were "removed": what a user's feeding code must change
    went unsaid. Both orders now say the ends were renamed."""
    frozen = tmp_path / "keras.pb"
    path = _keras_tflite(tmp_path / "keras.tflite", frozen)
    for a, b, (i, o) in ((frozen, path, ("'input' -> 'serving_default_image'",
                                         "'Identity' -> 'StatefulPartitionedCall_1'")),
                         (path, frozen, ("'serving_default_image' -> 'input'",
                                         "'StatefulPartitionedCall_1' -> 'Identity'"))):
        code, out, err = run_cli("diff", str(a), str(b), "--no-flops")
        assert code == 1, err
        interface = out.split("Interface")[1].split("Totals:")[0]
        assert f"input renamed {i}" in interface and f"output renamed {o}" in interface
        assert "removed" not in interface and "new " not in interface
        assert "removed BiasAdd" not in out and "added BiasAdd" not in out
