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


# -- each phase on its own -------------------------------------------------------------------
def test_phase_acyclic_drops_loops_duplicates_and_strangers_and_turns_back_edges():
    from inspector.core.view.layout import acyclic, back_edges

    dag, back = acyclic(["a", "b", "c"], [("a", "b"), ("a", "b"), ("b", "b"), ("b", "c"),
                                          ("c", "a"), ("a", "ghost")])
    assert back == {("c", "a")}
    assert dag == [("a", "b"), ("b", "c"), ("a", "c")]       # c -> a turned round
    assert back_edges(["a", "b"], {"a": ["b"], "b": []}) == set()


def test_phase_ranks_are_longest_paths_and_a_source_sits_above_its_first_consumer():
    from inspector.core.view.layout import assign_ranks

    rank = assign_ranks(["a", "b", "c", "d", "w"],
                        [("a", "b"), ("b", "c"), ("c", "d"), ("a", "d"), ("w", "d")])
    assert rank == {"a": 0, "b": 1, "c": 2, "d": 3, "w": 2}   # w: just above d, not on top
    assert assign_ranks(["x", "y"], []) == {"x": 0, "y": 0}


def test_phase_dummies_put_a_point_on_each_layer_a_long_edge_crosses(monkeypatch):
    import inspector.core.view.layout as layout

    rank = {"a": 0, "b": 1, "d": 3}
    ranked, chains, succ, pred = layout.insert_dummies(["a", "b", "d"], [("a", "b"), ("a", "d")],
                                                       rank)
    assert chains == {("a", "b"): [], ("a", "d"): [("~", "a", "d", 1), ("~", "a", "d", 2)]}
    assert ranked[("~", "a", "d", 2)] == 2 and "~" not in str(list(rank))   # input kept
    assert succ["a"] == ["b", ("~", "a", "d", 1)] and pred["d"] == [("~", "a", "d", 2)]
    monkeypatch.setattr(layout, "MAX_DUMMIES", 2)            # past the cap: straight edges
    _, chains, succ, _ = layout.insert_dummies(["a", "b", "d"], [("a", "d")], rank)
    assert chains == {("a", "d"): []} and succ["a"] == ["d"]


def test_phase_order_starts_depth_first_and_sweeps_remove_a_crossing():
    from inspector.core.view.layout import barycentre_sweeps, initial_order

    rank = {"a": 0, "b": 0, "c": 1, "d": 1}
    succ = {"a": ["d"], "b": ["c"], "c": [], "d": []}
    pred = {"a": [], "b": [], "c": ["b"], "d": ["a"]}
    assert initial_order(["a", "b", "c", "d"], rank, succ, pred) == [["a", "b"], ["d", "c"]]
    crossing = [["a", "b"], ["c", "d"]]                      # a->d and b->c cross
    assert barycentre_sweeps(crossing, succ, pred) == [["a", "b"], ["d", "c"]]


def test_phase_x_packs_a_layer_without_overlap_and_centres_a_lone_child():
    from inspector.core.view.layout import H_GAP, assign_x

    sizes = {"p": (100.0, 38.0), "l": (60.0, 38.0), "r": (80.0, 38.0), "c": (40.0, 38.0)}
    levels = [["p"], ["l", "r"], ["c"]]
    succ = {"p": ["l", "r"], "l": ["c"], "r": [], "c": []}
    pred = {"p": [], "l": ["p"], "r": ["p"], "c": ["l"]}
    x, width = assign_x(levels, sizes, succ, pred)
    assert width == {u: sizes[u][0] for u in sizes}
    assert x["r"] - 40.0 >= x["l"] + 30.0 + H_GAP - 1e-9      # side by side, a gap between
    assert x["c"] == x["l"]                                  # straight under its producer


def test_phase_y_makes_each_layer_as_tall_as_its_tallest_item():
    from inspector.core.view.layout import V_GAP, assign_y

    y, height = assign_y([["a", "b"], ["c"]], {"a": (1, 40.0), "b": (1, 20.0), "c": (1, 30.0)})
    assert y == {"a": 0.0, "b": 10.0, "c": 40.0 + V_GAP}      # b centred in its layer
    assert height == 40.0 + V_GAP + 30.0


def test_phase_routes_follow_the_original_direction_of_each_edge():
    from inspector.core.view.layout import route_edges

    chains = {("a", "c"): ["d1", "d2"], ("a", "b"): []}
    x, y = {"d1": 10.0, "d2": 20.0}, {"d1": 1.0, "d2": 2.0}
    assert route_edges(chains, set(), x, y, 5.0) == {("a", "c"): [(5.0, 1.0), (15.0, 2.0)],
                                                     ("a", "b"): []}
    back = route_edges(chains, {("c", "a")}, x, y)           # drawn c -> a, upwards
    assert back[("c", "a")] == [(20.0, 2.0), (10.0, 1.0)] and ("a", "c") not in back
