"""The reader process: a big GraphDef's structure read in a second process and streamed back
gives exactly the graph and weight slots of reading it here, and any failure of the process
falls back to reading here (or reports the file's own error).

This file holds the tests that need TensorFlow (an oracle, a model built or run by it); the
others are in tests/core/test_reader_process.py."""

from __future__ import annotations

import os

from test_reader_process import _streamed  # noqa: F401

from inspector.core.loaders import load
from inspector.core.loaders.lazy_graphdef import open_lazily
from inspector.core.model.graph import Graph


def test_a_real_frozen_model_streams_to_the_same_graph_def(fx, monkeypatch):
    path = os.path.join(fx, "mobilenet_v2.pb")
    streamed = _streamed(path, monkeypatch)
    with open(path, "rb") as fh:
        full = type(streamed.structure).FromString(fh.read())
    assert streamed.lazy and streamed.graph_def == full


def test_stored_sizes_are_each_node_s_full_size_and_the_summary_counts_them(fx, monkeypatch,
                                                                         tmp_path):
    """Sizes by op come from the node sizes the walk saw in the file (values included), by
    stream and by the walk here: the same bytes a full parse counts, without a pass over
    the NodeDefs; devices come from the graph's own index."""
    from inspector.core.analysis.summary import summarize
    from inspector.core.model import protos

    path = os.path.join(fx, "mobilenet_v2.pb")
    with open(path, "rb") as fh:
        full_def = protos.GraphDef.FromString(fh.read())
    full_def.node[3].device = "/device:CPU:0"
    moved = str(tmp_path / "with_device.pb")
    with open(moved, "wb") as fh:
        fh.write(full_def.SerializeToString())
    full = Graph(full_def)
    expected = [n.ByteSize() for n in full_def.node]
    streamed = _streamed(moved, monkeypatch)
    sizes: list = []
    open_lazily(moved, os.stat(moved), sizes=sizes)[1].close()
    assert list(streamed.stored_sizes) == sizes == expected
    assert list(load(moved).graph.stored_sizes) == expected      # the walk here
    assert streamed.lazy and full.stored_sizes is None
    want, got = summarize(full), summarize(streamed)
    assert got.bytes_by_op == want.bytes_by_op and got.devices == want.devices == \
        {"/device:CPU:0": 1}
    assert streamed.devices == full.devices == {3: "/device:CPU:0"}
