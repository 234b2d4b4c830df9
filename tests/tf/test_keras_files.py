"""Keras files no Keras could load or freeze (issue 38.6): frozen now, answering as their own
Keras does; and any Keras file that still cannot be loaded shows its layers read from its own
config, read-only, with nothing in it run."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from conftest import run_cli

from inspector.core.loaders import load
from inspector.core.model.parameters import parameter_counts
from tests.fixtures.keras_rnn_models import keras_rnn_dir

tf = pytest.importorskip("tensorflow")
v1 = tf.compat.v1


@pytest.fixture(scope="module")
def kd():
    return keras_rnn_dir()


def answer(model, x):
    """The frozen graph's answer, run by TensorFlow as an imported GraphDef."""
    graph_def = v1.GraphDef.FromString(model.graph.graph_def.SerializeToString())
    with tf.Graph().as_default() as g:
        tf.graph_util.import_graph_def(graph_def, name="")
    with v1.Session(graph=g) as sess:
        return sess.run(list(model.signature.outputs.values())[0],
                        {list(model.signature.inputs.values())[0]: x})


def test_keras3_lstm_with_dropout_freezes_and_answers_as_keras(kd):
    """Keras 3 RNN cells draw their dropout masks at inference too (a seed variable assigned
    in the graph); freezing failed with 'AssignVariableOp was passed int64 ... incompatible
    with expected resource'."""
    m = load(os.path.join(kd, "lstm_dropout.keras"))
    assert m.kind == "keras" and m.frozen
    assert "AssignVariableOp" not in {n.op for n in m.graph.graph_def.node}
    x = np.load(os.path.join(kd, "lstm_dropout_input.npy"))
    np.testing.assert_allclose(answer(m, x), np.load(os.path.join(kd, "lstm_dropout_expected.npy")),
                               atol=1e-5)   # measured 1.5e-8


def test_old_keras2_gru_h5_freezes_and_answers_as_the_keras_that_saved_it(kd):
    """GRU(reset_after=False) saved before Keras had reset_after: Keras 3 and legacy Keras
    both refused it ('GRU(reset_after=False) is not compatible with GRU(reset_after=True)')."""
    m = load(os.path.join(kd, "gru_old.h5"))
    assert m.frozen and any("reset_after=False" in n and "legacy Keras" in n for n in m.notes)
    x = np.load(os.path.join(kd, "gru_old_input.npy"))
    np.testing.assert_allclose(answer(m, x), np.load(os.path.join(kd, "gru_old_expected.npy")),
                               atol=1e-5)   # measured 0.0


def test_keras2_file_with_hard_sigmoid_is_read_by_the_keras_it_was_made_for(kd):
    """Keras 3 loads it, but its hard_sigmoid is another function (x/6 + 0.5, not 0.2x + 0.5):
    its answers were off by ~1e-3, silently."""
    import keras

    path = os.path.join(kd, "gru_hard_sigmoid.h5")
    x = np.load(os.path.join(kd, "gru_old_input.npy"))
    want = np.load(os.path.join(kd, "gru_old_expected.npy"))
    keras3 = keras.saving.load_model(path, compile=False, safe_mode=True).predict(x, verbose=0)
    assert np.abs(keras3 - want).max() > 1e-4       # what opening it with Keras 3 gave
    m = load(path)
    assert any("hard_sigmoid" in n for n in m.notes)
    np.testing.assert_allclose(answer(m, x), want, atol=1e-5)   # measured 0.0


def _weights_in_file(path: str) -> dict:
    """name -> array of the file's weights, read with h5py directly (the test's oracle)."""
    import io
    import zipfile

    import h5py

    out = {}
    if zipfile.is_zipfile(path):
        h5 = h5py.File(io.BytesIO(zipfile.ZipFile(path).read("model.weights.h5")), "r")
    else:
        h5 = h5py.File(path, "r")
    h5.visititems(lambda n, o: out.__setitem__(n, o[()]) if isinstance(o, h5py.Dataset)
                  else None)
    return out


@pytest.mark.parametrize("name", ["custom_layer.keras", "custom_layer.h5"])
def test_a_keras_file_no_keras_can_load_shows_its_layers_read_only(kd, name):
    """A layer class only the saving program had: both Keras refuse the file. It used to give
    one error and nothing to look at; now its layers from its config, weights with shapes."""
    path = os.path.join(kd, name)
    m = load(path)
    assert m.kind == "keras-layers" and not m.frozen and m.capabilities == frozenset()
    assert dict(m.ref.options)["freeze"] is False     # the worker reopens the view, no retry
    assert "cannot be frozen" in m.notes[0] and "Gate" in m.notes[0]
    assert "\n" not in m.notes[0]
    g = m.graph
    ops = {n.name: n.op for n in g}
    assert ops["features"] == "Placeholder" and ops["hidden"] == "Dense" and ops["gate"] == "Gate"
    assert g.get("hidden").proto.attr["activation"].s == b"relu"
    assert [r.node for r in g.get("gate").inputs][0] == "hidden"
    assert m.signature.inputs == {"features": "features:0"}
    assert list(m.signature.outputs.values()) == ["gate:0"]
    weights = {n.name: n for n in g if n.op == "Const"}
    shapes = {k: [d.size for d in n.proto.attr["value"].tensor.tensor_shape.dim]
              for k, n in weights.items()}
    assert sorted(shapes.values()) == [[5, 8], [8], [8, 4]]
    assert parameter_counts(g.structure.node) == (80, 0)
    # values read on demand from the file equal what h5py reads there
    stored = sorted(float(v.sum()) for v in _weights_in_file(path).values())
    from inspector.core.model import tensors

    full = g.graph_def
    ours = sorted(float(tensors.to_numpy(n.attr["value"].tensor).sum())
                  for n in full.node if n.op == "Const")
    np.testing.assert_allclose(ours, stored, rtol=1e-6)


def test_the_layer_view_runs_and_imports_nothing(kd, tmp_path):
    """Opened without freezing, in a fresh Python: no TensorFlow, no Keras imported (so no
    layer class from the file is ever looked up, let alone run)."""
    code = ("import sys, json\nfrom inspector.core.loaders import load\nout = {}\n"
            "for p in sys.argv[1:]:\n"
            "    m = load(p, freeze=False)\n"
            "    out[p] = [m.kind, len(m.graph), m.notes[0]]\n"
            "out['heavy'] = sorted(x for x in ('tensorflow', 'keras', 'tf_keras') "
            "if x in sys.modules)\nprint(json.dumps(out))\n")
    paths = [os.path.join(kd, n) for n in ("lstm_dropout.keras", "gru_old.h5",
                                          "custom_layer.keras")]
    proc = subprocess.run([sys.executable, "-c", code, *paths], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out.pop("heavy") == []
    assert all(kind == "keras-layers" and "--no-freeze" in note
               for kind, _, note in out.values())
    # lstm, the bidirectional GRU's two directions, scores: 3 layers + 1 input + 3+6+2 weights
    assert out[paths[0]][1] == 1 + 3 + 3 + 6 + 2


def test_without_tensorflow_a_keras_file_shows_its_layers(kd):
    """The light install has no TensorFlow: a Keras file opens as its layers, saying why."""
    from inspector.core.errors import TensorFlowUnavailable
    from inspector.core.runtime import executor

    class NoTensorFlow:
        def __getattr__(self, name):
            def missing(*args, **kwargs):
                raise TensorFlowUnavailable("this needs TensorFlow, which cannot be imported")
            return missing

    previous = executor.use(NoTensorFlow())
    try:
        m = load(os.path.join(kd, "lstm_dropout.keras"))
    finally:
        executor.use(previous)
    assert m.kind == "keras-layers" and "needs TensorFlow" in m.notes[0]
    assert {n.op for n in m.graph} >= {"LSTM", "Bidirectional", "Dense", "Placeholder"}


def test_the_layer_view_keeps_the_trust_rules():
    """A Lambda layer is refused before anything reads the file's layers, frozen or not."""
    from inspector.core.errors import UnsafeGraphError
    from tests.fixtures.hostile import inputs as hostile

    path = hostile.keras_lambda(os.environ.get("TMPDIR", "/tmp"))
    for freeze in (True, False):
        with pytest.raises(UnsafeGraphError, match="Lambda layer 'sneaky'"):
            load(path, freeze=freeze)


def test_the_command_line_shows_the_layers_and_refuses_to_transform_them(kd, tmp_path):
    path = os.path.join(kd, "custom_layer.keras")
    code, out, err = run_cli("summarize", path)
    assert code == 0, err
    assert "cannot be frozen" in err
    code, _, err = run_cli("transform", "--in_graph", path, "--out_graph",
                           str(tmp_path / "o.pb"), "--transforms", "remove_device")
    ours = [ln for ln in err.splitlines() if ln.startswith("graphdef-inspector:")]
    assert code == 2 and len(ours) == 1 and "read-only view" in ours[0]   # (TF logs aside)


def _configs(kd) -> list:
    import zipfile

    import h5py

    out = []
    for name in ("lstm_dropout.keras", "custom_layer.keras"):
        out.append(json.loads(zipfile.ZipFile(os.path.join(kd, name)).read("config.json")))
    for name in ("gru_old.h5", "custom_layer.h5"):
        with h5py.File(os.path.join(kd, name), "r") as h5:
            out.append(json.loads(h5.attrs["model_config"]))
    return out


def test_mangled_configs_give_a_view_or_one_error(kd):
    """The config is the file's, so anything may be in it: every mutation either draws or
    raises ModelLoadError (seeded, 600 cases)."""
    import copy
    import random

    from inspector.core.errors import ModelLoadError
    from inspector.core.loaders.keras_layers import LayerGraph

    junk = [None, 0, -1, 2 ** 70, 1.5, "", "x" * 300, [], {}, [[]], ["a", 0, 0], {"a": 1},
            True, [None, "b", 3], {"class_name": "__keras_tensor__", "config": {}}]
    rng = random.Random(38)
    configs = _configs(kd)
    drawn = 0
    for case in range(600):
        config = copy.deepcopy(rng.choice(configs))
        for _ in range(rng.randint(1, 4)):
            parent, key = config, None
            for _ in range(rng.randint(1, 8)):      # walk down to a random place
                keys = list(parent) if isinstance(parent, dict) else list(range(len(parent)))
                if not keys:
                    break
                key = rng.choice(keys)
                if not isinstance(parent[key], (dict, list)) or not parent[key] or \
                        rng.random() < 0.2:
                    break
                parent, key = parent[key], None
            if key is not None:
                parent[key] = copy.deepcopy(rng.choice(junk))
        try:
            LayerGraph(config)
            drawn += 1
        except ModelLoadError:
            pass
    assert drawn > 100      # most mangled configs still draw something
