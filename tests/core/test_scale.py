"""Big models: weights read only when someone looks at them, flat graphs grouped, and the scale
benchmark's measurements run functionally on a 100k-node graph (generous bounds: the figures
themselves are bench/scale.py's).

This file holds the tests that need neither TensorFlow nor Qt; the others are in
tests/tf/test_scale_tf.py, tests/gui/test_scale_gui.py."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from conftest import ROOT

from inspector.core.loaders import load
from inspector.core.model import protos, tensors
from tests.fixtures import scale_models


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


@pytest.mark.heavy("runs the whole bench in a subprocess; builds ~330 MB of models when cold")
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
