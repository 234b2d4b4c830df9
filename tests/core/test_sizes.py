"""Where the bytes go: node sizes add up to the file size. The protobuf framing of every node
(tag + length varint in GraphDef.node) is counted in the node, and the graph's library and
versions fields with their framing in `other`, so for a binary GraphDef the unaccounted
remainder is 0 bytes, lazily read files included (demo: 47,898 = 47,893 in nodes + 5 for
versions). Groups add up, duplicates are found by their bytes, and the squarified treemap
tiles the rectangle.

This file holds the tests that need neither TensorFlow nor Qt; the others are in
tests/tf/test_sizes_tf.py, tests/cli/test_sizes_cli.py."""

from __future__ import annotations

import os

import numpy as np
import pytest

from inspector.core.analysis import sizes as sz
from inspector.core.loaders import load
from inspector.core.view.treemap import nested, squarify
from tests.conftest import DEMO
from tests.fixtures import scale_models


@pytest.mark.parametrize("name", ["demo", "inception_jpeg.pb", "v1_training.pb",
                                  "while_v2.pb"])   # mobilenet_v2.pb: tests/tf/test_sizes_tf.py
def test_node_sizes_add_up_to_the_file(name, data):
    path = DEMO if name == "demo" else os.path.join(data, name)
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


def test_a_lazily_opened_model_is_sized_without_reading_weights():
    path = scale_models.dense_model(2, 512)
    m = load(path)
    assert m.graph.lazy
    s = sz.sizes(m.graph, os.path.getsize(path))
    assert m.graph.weights.bytes_read == 0
    assert len(m.graph.weights.slots) > 0
    assert s.remainder == 0 and s.total + s.other == os.path.getsize(path)
    by_dtype = sz.group(m.graph, s.nodes, "dtype")
    assert by_dtype.children["float"].bytes > 0.99 * s.total


def test_scope_tree_and_top_groups(data):
    m = load(os.path.join(data, "inception_jpeg.pb"))
    s = sz.sizes(m.graph)
    root = sz.group(m.graph, s.nodes, "scope")
    for g in root.children.values():
        if g.children:
            assert g.bytes == sum(c.bytes for c in g.children.values())
    rows = sz.top(root, 1)
    assert rows == sorted(rows, key=lambda r: -r[1]) and rows[0][0] == "softmax"


def test_squarified_tiles_cover_the_rectangle():
    rng = np.random.default_rng(1)
    items = [(f"t{k}", f"t{k}", float(w)) for k, w in enumerate(rng.uniform(1, 100, 40))]
    tiles = squarify(items, 0, 0, 400, 300)
    total = sum(i[2] for i in items)
    assert len(tiles) == 40
    assert sum(t[5] * t[6] for t in tiles) == pytest.approx(400 * 300)
    for ident, _, weight, x, y, w, h in tiles:
        assert w * h == pytest.approx(400 * 300 * weight / total)
        assert -1e-6 <= x and x + w <= 400 + 1e-6 and -1e-6 <= y and y + h <= 300 + 1e-6
    for i, a in enumerate(tiles):                       # no two tiles overlap
        for b in tiles[i + 1:]:
            overlap_w = min(a[3] + a[5], b[3] + b[5]) - max(a[3], b[3])
            overlap_h = min(a[4] + a[6], b[4] + b[6]) - max(a[4], b[4])
            assert overlap_w <= 1e-6 or overlap_h <= 1e-6
    worst = max(max(t[5] / t[6], t[6] / t[5]) for t in tiles)
    slices = max(max(300 / (400 * w / total), (400 * w / total) / 300) for *_, w in items)
    assert worst < slices / 5          # far squarer than slicing the width


def test_nested_tiles_follow_the_scope_tree(data):
    m = load(os.path.join(data, "inception_jpeg.pb"))
    root = sz.group(m.graph, sz.node_sizes(m.graph), "scope")
    tiles = nested(root, 0, 0, 800, 600, depth=2)
    tops = [t for t in tiles if t.depth == 0]
    assert {t.id for t in tops} == {g.node or g.name + "/" for g in root.children.values()
                                    if g.bytes > 0}
    assert sum(t.w * t.h for t in tops) == pytest.approx(800 * 600)
    inner = [t for t in tiles if t.depth == 1]
    assert inner and all(any(p.x <= t.x and t.x + t.w <= p.x + p.w + 1e-6 for p in tops)
                         for t in inner)
