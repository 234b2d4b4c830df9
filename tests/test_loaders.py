"""Loaders: content sniffing, every fixture kind, freezing checked by running TensorFlow."""

import os

import numpy as np
import pytest
from conftest import run_cli

from inspector.core.errors import ModelLoadError
from inspector.core.loaders import load
from inspector.core.loaders.savedmodel import describe, read_saved_model
from tests.fixtures.hostile.manifest import LOADER_CASES as MANIFEST


@pytest.mark.parametrize("name,kind,text", [
    ("inception_jpeg.pb", "graphdef", False), ("v1_training.pbtxt", "graphdef", True),
    ("text_really.pb", "graphdef", True), ("v1_training.meta", "metagraph", False),
    ("while_v1.pb", "graphdef", False), ("while_v2.pb", "graphdef", False),
])
def test_kinds_are_sniffed_from_content(fx, name, kind, text):
    m = load(os.path.join(fx, name))
    assert (m.kind, m.is_text) == (kind, text)
    assert len(m.graph) > 5 and not m.problems


def graph_with_debug_info(demo_model):
    """The demo model with one stack trace in debug_info (field 5, as TF writes it)."""
    from inspector.core.model import protos

    with open(demo_model, "rb") as f:
        graph_def = protos.GraphDef.FromString(f.read())
    graph_def.debug_info.files.append("make_demo_model.py")
    frame = graph_def.debug_info.traces["digits_1/relu1_1/Relu"].file_line_cols.add()
    frame.file_index, frame.line, frame.col, frame.func = 0, 42, 4, "call"
    return graph_def


def test_a_graph_def_with_debug_info_opens_and_keeps_it(demo_model, tmp_path):
    """Issue 38.2: GraphDef field 5 (debug_info) was taken for a MetaGraphDef's."""
    from inspector.core.loaders.lazy_graphdef import open_lazily
    from inspector.core.loaders.sniff import GRAPHDEF, METAGRAPH, sniff_binary
    from inspector.core.model import protos

    graph_def = graph_with_debug_info(demo_model)
    data = graph_def.SerializeToString()
    path = tmp_path / "digits_debug.pb"
    path.write_bytes(data)
    model = load(str(path))
    assert model.kind == "graphdef" and len(model.graph) == len(graph_def.node) == 59
    assert model.graph.graph_def.debug_info == graph_def.debug_info
    lazy, _ = open_lazily(str(path), os.stat(path))  # the reading of big files
    assert lazy.debug_info == graph_def.debug_info
    # saved: converted, and through a pipeline
    out = tmp_path / "out.pb"
    code, _, err = run_cli("convert", str(path), "-o", str(out))
    assert code == 0, err
    assert protos.GraphDef.FromString(out.read_bytes()).debug_info == graph_def.debug_info
    from inspector.core.transforms import run_pipeline

    (report,) = run_pipeline(graph_def, "strip_unused_nodes", ["pixels"],
                             ["digits_1/logits_1/BiasAdd"])
    assert len(report.graph_def.node) < 59 and report.graph_def.debug_info == graph_def.debug_info
    # one node only (field 1 once) still sniffs as a GraphDef; MetaGraphDefs with a
    # signature_def (field 5) still as MetaGraphDefs
    single = protos.GraphDef()
    single.node.add().CopyFrom(graph_def.node[0])
    single.versions.producer = 1
    single.debug_info.CopyFrom(graph_def.debug_info)
    assert sniff_binary(single.SerializeToString(), "") == GRAPHDEF
    meta = protos.MetaGraphDef()
    meta.signature_def["serving_default"].method_name = "tensorflow/serving/predict"
    meta.collection_def["x"].node_list.value.append("a")
    assert sniff_binary(meta.SerializeToString(), "") == METAGRAPH
    meta.graph_def.CopyFrom(single)
    assert sniff_binary(meta.SerializeToString(), "") == METAGRAPH
    meta.meta_info_def.tags.append("serve")
    assert sniff_binary(meta.SerializeToString(), "") == METAGRAPH
    # TensorFlow reads the file as a GraphDef too
    tf = pytest.importorskip("tensorflow")
    theirs = tf.compat.v1.GraphDef.FromString(data)
    assert len(theirs.node) == 59 and "digits_1/relu1_1/Relu" in theirs.debug_info.traces


def test_text_and_binary_give_the_same_graph(fx):
    a = load(os.path.join(fx, "v1_training.pb")).graph.graph_def
    b = load(os.path.join(fx, "v1_training.pbtxt")).graph.graph_def
    assert a == b


def test_saved_model_signatures_listed_without_freezing(fx):
    metas = describe(read_saved_model(os.path.join(fx, "two_signatures")))
    assert metas[0]["tags"] == ["serve"]
    sigs = metas[0]["signatures"]
    assert set(sigs) == {"serving_default", "embed"}
    assert sigs["embed"]["inputs"]["features"]["shape"] == "[?,4]"
    assert "probabilities" in sigs["serving_default"]["outputs"]


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


def test_missing_checkpoint_is_a_clear_error(fx):
    with pytest.raises(ModelLoadError, match="checkpoint .* not found"):
        load(os.path.join(fx, "v1_training.meta"), checkpoint="/nonexistent/ckpt",
             outputs=["output"])


def test_unknown_signature_lists_the_available_ones(fx):
    code, _, err = run_cli("summarize", "--signature", "nope", os.path.join(fx, "two_signatures"))
    assert code == 2
    assert "no signature 'nope' (available: embed, serving_default)" in err


LOADER_CASES = [c for c in MANIFEST if not c[4]]  # the isolated ones run in test_hostile


@pytest.mark.parametrize("case", LOADER_CASES, ids=[c[0].__name__ for c in LOADER_CASES])
def test_every_manifest_input_loads_or_fails_with_its_message(case, tmp_path):
    """The loaders on the hostile-input manifest (the same inputs and messages the CLI and
    the app are tested with): a ModelLoadError naming the problem, or a graph."""
    from inspector.core.errors import InspectorError

    make, expect, message, overrides, _ = case
    expect, message = overrides.get("summarize", (expect, message))
    path = make(str(tmp_path))
    if expect in ("error", "refused"):
        with pytest.raises(InspectorError) as info:
            load(path)
        assert message in info.value.one_line()
        assert "\n" not in info.value.one_line()
    else:
        try:
            model = load(path)
        except InspectorError as exc:
            assert expect == "clean", exc.one_line()
            return
        assert len(model.graph) > 0
        if expect == "problems":
            assert any(message in p for p in model.problems)


def test_unreadable_file_is_reported():
    code, _, err = run_cli("summarize", "/proc/self/mem")
    assert code == 2 and "cannot read" in err and len(err.strip().splitlines()) == 1


def test_dangling_inputs_still_load_with_problems_listed(fx):
    path = os.path.join(fx, "bad", "dangling.pb")
    m = load(path)
    assert len(m.graph) == 3
    assert m.problems == ["node 'y' has input 'ghost', which is not in the graph",
                          "node 'z' has input 'phantom', which is not in the graph"]
    code, out, _ = run_cli("summarize", path)
    assert code == 0 and "Problem: node 'y' has input 'ghost'" in out
    code, out, err = run_cli("summarize", "--format=tf", path)
    assert code == 2 and "Invalid input ghost for node y" in out


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


@pytest.mark.parametrize("kind", ["fifo", "device", "directory", "over_2gb"])
def test_non_regular_or_oversized_files_are_refused_before_reading(tmp_path, kind):
    """Refused from the file's metadata, with one line: never blocks on a FIFO, never reads
    /dev/zero forever, never allocates a 2.2 GB buffer (the file below is sparse)."""
    from inspector.core.errors import ModelLoadError

    path = {"device": "/dev/zero"}.get(kind, str(tmp_path / "x.pb"))
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "directory":
        os.mkdir(path)
    elif kind == "over_2gb":
        with open(path, "wb") as f:
            f.truncate(2200 << 20)
    words = {"fifo": "FIFO", "device": "device", "directory": "holds no model",
             "over_2gb": "2 GB limit"}[kind]
    with pytest.raises(ModelLoadError, match=words) as info:
        load(path)
    assert "\n" not in info.value.one_line()


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
