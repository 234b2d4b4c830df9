"""Where the bytes go: node sizes add up to the file size. The protobuf framing of every node
(tag + length varint in GraphDef.node) is counted in the node, and the graph's library and
versions fields with their framing in `other`, so for a binary GraphDef the unaccounted
remainder is 0 bytes, lazily read files included (demo: 47,898 = 47,893 in nodes + 5 for
versions). Groups add up, duplicates are found by their bytes, and the squarified treemap
tiles the rectangle.

This file holds the tests that need TensorFlow (an oracle, a model built or run by it); the
others are in tests/core/test_sizes.py, tests/cli/test_sizes_cli.py."""

from __future__ import annotations

import os

import numpy as np
import pytest

from inspector.core.analysis import sizes as sz
from inspector.core.loaders import load
from tests.conftest import DEMO


@pytest.mark.parametrize("name", ["mobilenet_v2.pb"])   # the others: tests/core/test_sizes.py
def test_node_sizes_add_up_to_the_file(name, fx):
    path = DEMO if name == "demo" else os.path.join(fx, name)
    m = load(path)
    s = sz.sizes(m.graph, os.path.getsize(path))
    assert s.total + s.other + s.remainder == s.file_size
    assert s.remainder == 0            # framing included: nothing unaccounted, lazy or not
    if m.graph.lazy:                   # and each node as big as in a full parse
        from inspector.core.model.graph import Graph
        from inspector.core.model.protos import GraphDef

        with open(path, "rb") as f:
            full = Graph(GraphDef.FromString(f.read()))
        assert sz.node_sizes(full) == s.nodes
        assert m.graph.weights.bytes_read == 0
    for by in sz.BY:
        root = sz.group(m.graph, s.nodes, by)
        assert root.bytes == s.total == sum(g.bytes for g in root.children.values())


def test_duplicates_are_found_by_their_bytes():
    import tensorflow as tf

    from inspector.core.model.graph import Graph
    from inspector.core.model.protos import GraphDef

    g = tf.Graph()
    values = np.random.default_rng(0).standard_normal((64, 64)).astype(np.float32)
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [1, 64], name="x")
        a = tf.constant(values, name="w_a")
        b = tf.constant(values, name="w_b")
        c = tf.constant(values + 1, name="w_c")        # same shape, other bytes
        tf.add_n([x @ a, x @ b, x @ c], name="out")
    graph = Graph(GraphDef.FromString(g.as_graph_def().SerializeToString()))
    dup = sz.duplicates(graph)
    assert [sorted(names) for _, names in dup.groups] == [["w_a", "w_b"]]
    assert dup.wasted == values.nbytes and dup.tensors == 2


def test_before_and_after_a_step(fx):
    from inspector.core.transforms import run_pipeline

    m = load(os.path.join(fx, "mobilenet_v2.pb"))
    after = run_pipeline(m.graph.graph_def, "quantize_weights", ["input"], ["Identity"])[-1]
    from inspector.core.model.graph import Graph

    g2 = Graph(after.graph_def)
    rows = sz.compare(sz.group(m.graph, sz.node_sizes(m.graph), "dtype"),
                      sz.group(g2, sz.node_sizes(g2), "dtype"))
    table = {name: (b, a) for name, b, a in rows}
    assert table["float"][1] < table["float"][0] / 3       # weights became 8-bit
    assert table["quint8"][0] == 0 and table["quint8"][1] > 0


def test_duplicates_of_a_lazily_opened_model_read_only_same_length_constants(tmp_path):
    """Two equal weight tensors (one reshaped), one of the same dtype and length with other
    bytes, one of another length: only the three of equal length are read, and the pair is
    found."""
    import tensorflow as tf

    rng = np.random.default_rng(2)
    values = rng.standard_normal((512, 1024)).astype(np.float32)     # 2 MB each
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [1, 512], name="x")
        a = tf.constant(values, name="w_a")
        b = tf.constant(values.reshape(1024, 512), name="w_b")          # same bytes
        c = tf.constant(values + 1, name="w_c")                         # same length
        d = tf.constant(rng.standard_normal((512, 256)).astype(np.float32), name="w_d")
        h = x @ a + x @ c
        tf.identity(h @ b @ d, name="out")
    path = tmp_path / "dup.pb"
    path.write_bytes(g.as_graph_def().SerializeToString())
    m = load(str(path))
    assert m.graph.lazy and m.graph.weights.bytes_read == 0
    s = sz.sizes(m.graph, os.path.getsize(path))
    assert m.graph.weights.bytes_read == 0 and s.total + s.other + s.remainder == s.file_size
    dup = sz.duplicates(m.graph)
    assert [sorted(names) for _, names in dup.groups] == [["w_a", "w_b"]]
    assert dup.wasted == values.nbytes
    read = m.graph.weights.bytes_read
    assert 3 * values.nbytes <= read < 3 * values.nbytes + 64, read    # w_d never read
