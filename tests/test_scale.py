"""Big models: weights read only when someone looks at them, flat graphs grouped, and the scale
benchmark's measurements run functionally on a 100k-node graph (generous bounds: the figures
themselves are bench/scale.py's)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

from inspector.core.errors import ModelLoadError
from inspector.core.loaders import load
from inspector.core.model import protos, tensors
from tests.fixtures import scale_models

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(scope="module")
def dense():
    return scale_models.dense_model(4)      # 4 layers of 1024: 192 MB of weights


def test_a_weight_heavy_model_opens_reading_under_one_percent_of_it(dense):
    size = os.path.getsize(dense)
    model = load(dense)
    graph = model.graph
    assert graph.lazy and graph.weights.total_read < 0.01 * size, graph.weights.total_read
    from inspector.core.analysis.summary import summarize

    summary = summarize(graph)   # parameter counts and sizes from dtype x shape
    assert summary.const_parameters == 4 * (4 * 1024 * 1024 + 2 * 4 * 1024 * 1024 + 6 * 1024
                                            + 1024 * 3)
    assert graph.weights.bytes_read == 0


def test_a_selected_constant_is_read_then_and_its_statistics_are_numpys(dense):
    from inspector.core.analysis.tensor_stats import describe_tensor

    graph = load(dense).graph
    name = "encoder/layer_2/intermediate/kernel"
    described = describe_tensor(graph, name)
    assert graph.weights.bytes_read == 1024 * 4096 * 4
    with open(dense, "rb") as fh:   # the same bytes, decoded without our lazy path
        full = protos.GraphDef.FromString(fh.read())
    node = next(n for n in full.node if n.name == name)
    expected = tensors.to_numpy(node.attr["value"].tensor)
    np.testing.assert_array_equal(described.values, expected)
    for key, fn in (("min", np.min), ("max", np.max), ("mean", np.mean), ("std", np.std)):
        assert described.stats[key] == pytest.approx(float(fn(expected.astype(np.float64))))
    assert described.counts.sum() == expected.size


def test_a_lazy_tensor_never_decodes_as_zeros(dense):
    graph = load(dense).graph
    proto = graph.node("encoder/layer_0/query/kernel").proto.attr["value"].tensor
    assert not proto.tensor_content
    with pytest.raises(ValueError, match="still in the model file"):
        tensors.to_numpy(proto)
    assert tensors.stored_bytes(proto) == 1024 * 1024 * 4


def test_the_whole_graph_def_equals_a_full_parse(fx):
    path = os.path.join(fx, "mobilenet_v2.pb")
    graph = load(path).graph
    assert graph.lazy
    with open(path, "rb") as fh:
        full = protos.GraphDef.FromString(fh.read())
    assert graph.graph_def == full
    assert not graph.lazy


def test_weights_of_a_file_changed_after_opening_are_refused(fx, tmp_path):
    path = str(tmp_path / "m.pb")
    shutil.copy(os.path.join(fx, "mobilenet_v2.pb"), path)
    graph = load(path).graph
    lazy = next(n.name for n in graph if n.op == "Const" and
                graph.weights.slot(n.index) is not None)
    with open(path, "ab") as fh:
        fh.write(b"\0" * 16)
    with pytest.raises(ModelLoadError, match="changed on disk"):
        graph.tensor_value(lazy)


def test_a_flat_graph_is_grouped_and_every_node_can_be_revealed():
    from inspector.core.view.view_graph import ViewModel

    graph = load(scale_models.flat_graph(10_000)).graph
    view = ViewModel(graph)
    scene = view.scene()
    assert 10 <= len(scene.items) < 200
    labels = [i.label for i in scene.items.values() if i.kind == "scope"]
    assert labels[0].startswith("input … ")     # named by the first and last node they hold
    for node in graph:
        host = view.badge_host(node.name)
        parts = view.parts(host)
        expanded = {"/".join(parts[:i]) for i in range(len(parts) + 1)}
        assert view.owner(host, expanded) == host


def test_the_flat_graph_in_the_app_draws_groups_and_search_finds_a_node(qtbot, window):
    from PySide6.QtCore import Qt

    path = scale_models.flat_graph(10_000)
    window.open_path(path)
    qtbot.waitUntil(lambda: window.state.model is not None and window.scenes_drawn > 0 and
                    not window.tasks.is_busy(), timeout=60000)
    window.canvas.fit()
    drawn = [i for i in window.canvas.scene().items() if i.isVisible()]
    assert len(window.state.scene.items) < 200 and len(drawn) < 2000
    window.search_panel.box.setText("conv_777_Relu")
    qtbot.waitUntil(lambda: window.search.searches > 0, timeout=30000)
    qtbot.keyClick(window.search_panel.box, Qt.Key_Return)
    qtbot.waitUntil(lambda: window.state.selected == "conv_777_Relu" and
                    "conv_777_Relu" in window.state.scene.items and
                    not window.tasks.is_busy(), timeout=30000)


def test_the_scale_measurements_run_on_a_100k_node_graph():
    """Functional version of bench/scale.py (app half) on 100k nodes: opens, draws, expands,
    searches, marks and previews in a fresh process with the worker; bounds are generous
    (~30 s on the 2-core machine, building the graph the first time adds ~15 s)."""
    path = scale_models.blocks_graph(100_000)
    out = subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {ROOT!r}); "
                          "from bench.scale_app import main; main()", path],
                         capture_output=True, text=True, timeout=600, cwd=ROOT,
                         env=dict(os.environ, QT_QPA_PLATFORM="offscreen",
                                  TF_CPP_MIN_LOG_LEVEL="3"))
    assert out.returncode == 0, out.stderr[-2000:]
    r = json.loads(out.stdout.strip().splitlines()[-1])
    assert r["first"] < 60 and r["items"] < 400
    assert set(r["stalls"]) == {"open", "expand", "search", "mark", "strip preview",
                                "constants"}
    assert max(r["stalls"].values()) < 5.0, r["stalls"]
    assert r["window_peak"] < os.path.getsize(path) / 2 ** 20 + 2000
    assert r["worker_rss"] > 0   # the strip preview ran in the worker


def test_the_ci_sized_bench_runs_and_prints_every_figure():
    """bench/scale.py --small without the app half (that half is the test above): every
    model is built, parsed and summarized on the command line, and the per-node line covers
    them all. Figures are printed, never asserted (the machines are shared)."""
    out = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "scale.py"), "--small",
                          "--no-gui"], capture_output=True, text=True, timeout=900, cwd=ROOT,
                         env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3"))
    assert out.returncode == 0, out.stderr[-2000:]
    assert "this machine's Python speed" in out.stdout     # which speed the figures are at
    names = ("blocks 10k", "blocks 100k", "flat 10k", "dense 200 MB")
    for name in names:
        block = out.stdout.split(name + ":", 1)[1].split("\n\n", 1)[0]
        assert "protobuf parse alone" in block and "summarize (process)" in block, block
    per_node = next(line for line in out.stdout.splitlines() if line.startswith("per node"))
    assert all(name in per_node for name in names)


def test_a_saved_model_past_2_gb_opens_unfrozen_and_says_why():
    """Building the 2.5 GB fixture takes ~20 s once (cached after)."""
    from tests.fixtures.big_saved_model import big_saved_model, can_build

    if not can_build():
        pytest.skip("needs 10 GB free on the cache's disk to build a 2.5 GB SavedModel")
    path = big_saved_model()
    model = load(path)          # asks to freeze, as the app does by default
    assert not model.frozen
    assert any("2.5 GB" in n and "2 GB limit" in n and "TensorFlow Lite" in n
               for n in model.notes), model.notes
    variables = [n for n in model.graph if n.op == "VarHandleOp"]
    assert len(variables) == 5
    from inspector.core.analysis.summary import summarize

    assert summarize(model.graph).variable_parameters == 5 * 128 * 2 ** 20


def test_saving_a_graph_past_2_gb_is_refused_before_anything_is_written(tmp_path,
                                                                         monkeypatch):
    from inspector.core.errors import InspectorError
    from inspector.core.formats import writer

    # what a 3 GB GraphDef measures; serializing it is never attempted
    monkeypatch.setattr(writer.protos, "graph_def_size", lambda graph_def: 3 * 2 ** 30)
    target = tmp_path / "frozen.pb"
    with pytest.raises(InspectorError, match="over protobuf's 2 GB limit.*TensorFlow Lite"):
        writer.write_graph(object(), str(target))
    assert not target.exists()
