"""The layered layout on small graphs: edges point down, nothing overlaps, cycles and long
edges are handled, left-to-right is the transpose, cancelling stops it."""

from __future__ import annotations

import threading

import pytest

from inspector.core.errors import Cancelled
from inspector.core.runtime.job import Job
from inspector.core.view.layout import layered_layout

SIZE = (80.0, 38.0)


def _layout(ids, edges, sizes=None):
    sizes = sizes or {i: SIZE for i in ids}
    return layered_layout(ids, sizes, edges), sizes


def _no_overlaps(positions, sizes):
    boxes = [(x, y, x + sizes[i][0], y + sizes[i][1]) for i, (x, y) in positions.items()]
    for k, a in enumerate(boxes):
        for b in boxes[k + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)


def test_a_chain_goes_top_to_bottom_in_one_column():
    ids = ["a", "b", "c", "d"]
    result, sizes = _layout(ids, [("a", "b"), ("b", "c"), ("c", "d")])
    ys = [result.positions[i][1] for i in ids]
    assert ys == sorted(ys) and len(set(ys)) == 4
    assert len({result.positions[i][0] for i in ids}) == 1  # straight down, no zigzag
    _no_overlaps(result.positions, sizes)


def test_a_diamond_puts_siblings_side_by_side_without_crossing():
    ids = ["in", "left", "right", "out"]
    result, sizes = _layout(ids, [("in", "left"), ("in", "right"), ("left", "out"),
                                  ("right", "out")])
    p = result.positions
    assert p["left"][1] == p["right"][1] and p["in"][1] < p["left"][1] < p["out"][1]
    _no_overlaps(p, sizes)
    assert result.width >= 2 * SIZE[0] and result.height >= 3 * SIZE[1]


def test_a_long_edge_gets_bend_points_on_the_layers_it_crosses():
    ids = ["a", "b", "c", "d"]
    result, _ = _layout(ids, [("a", "b"), ("b", "c"), ("c", "d"), ("a", "d")])
    route = result.routes[("a", "d")]
    assert len(route) == 2  # one point on each layer between a and d
    assert result.positions["a"][1] < route[0][1] < route[1][1] < result.positions["d"][1]
    assert result.routes.get(("a", "b"), []) == []


def test_a_cycle_is_laid_out_with_one_edge_reversed():
    ids = ["a", "b", "c"]
    result, sizes = _layout(ids, [("a", "b"), ("b", "c"), ("c", "a")])
    assert set(result.positions) == set(ids)
    _no_overlaps(result.positions, sizes)
    ys = {i: result.positions[i][1] for i in ids}
    assert ys["a"] < ys["b"] < ys["c"]  # the back edge c -> a goes up


def test_self_loops_and_unknown_endpoints_are_ignored():
    result, _ = _layout(["a", "b"], [("a", "a"), ("a", "b"), ("a", "ghost")])
    assert set(result.positions) == {"a", "b"}


def test_mixed_sizes_never_overlap():
    ids = [f"n{i}" for i in range(12)]
    sizes = {i: (40.0 + 23 * (k % 5), 30.0 + 9 * (k % 3)) for k, i in enumerate(ids)}
    edges = [(ids[0], i) for i in ids[1:6]] + [(i, ids[11]) for i in ids[1:11]]
    result = layered_layout(ids, sizes, edges)
    _no_overlaps(result.positions, sizes)


def test_cancelling_stops_a_layout():
    ids = [f"n{i}" for i in range(2000)]
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(Cancelled):
        layered_layout(ids, {i: SIZE for i in ids}, list(zip(ids, ids[1:])), Job(cancel))


def test_left_to_right_is_the_transpose(data):
    """The view lays out left to right by swapping axes: edges then point right."""
    import os

    from inspector.core.loaders import load
    from inspector.core.view.view_graph import ViewModel

    view = ViewModel(load(os.path.join(data, "inception_jpeg.pb")).graph)
    view.direction = "LR"
    scene = view.scene()
    for edge in scene.edges:
        a, b = scene.items[edge.src], scene.items[edge.dst]
        if not edge.control:
            assert a.x + a.w <= b.x + 1e-6, (edge.src, edge.dst)
