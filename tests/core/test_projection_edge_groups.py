"""A picture's edges between visible items come from the edges grouped once by where their
ends are drawn (hierarchy.edge_groups), not from a walk of every edge per picture: the same
pairs, counts, first edges and order as that walk, for any scopes open."""

import os
import random

from inspector.core.loaders import load
from inspector.core.view.hierarchy import edge_groups
from inspector.core.view.projection import LayoutCache, _Projection
from inspector.core.view.view_graph import ViewModel

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INCEPTION = os.path.join(ROOT, "tests", "core", "data", "inception_jpeg.pb")


def walked(hierarchy, expanded) -> dict:
    """The pairs as a walk of every edge makes them (what projection did before)."""
    exp = set(expanded) | {""}
    pairs: dict = {}
    for src, port, dst, control in hierarchy.edges:
        a, b = hierarchy.owner(src, exp), hierarchy.owner(dst, exp)
        if a != b:
            hit = pairs.get((a, b, control))
            if hit is None:
                pairs[(a, b, control)] = [1, src, port]
            else:
                hit[0] += 1
    return pairs


def grouped(hierarchy, expanded) -> dict:
    p = _Projection(hierarchy, expanded, "TB", None, LayoutCache(hierarchy), None, True)
    return p.owner_pairs()


def check(view, seed: int, rounds: int = 12) -> None:
    h = view.hierarchy
    scopes = sorted(p for p in h.scopes if p)
    rng = random.Random(seed)
    for k in range(rounds):
        opened = set(rng.sample(scopes, min(len(scopes), rng.randint(0, 12))))
        if k % 3 == 0:      # with their parents open, as the window opens them
            opened |= {"/".join(p.split("/")[:i]) for p in opened
                       for i in range(1, p.count("/") + 1)}
        expanded = frozenset({""} | opened)
        assert list(grouped(h, expanded).items()) == list(walked(h, expanded).items())


def test_grouped_edges_give_the_pairs_of_a_walk_of_every_edge():
    check(ViewModel(load(INCEPTION).graph), 1)


def test_grouped_edges_in_a_flat_graph_cut_into_bands_and_in_repeated_blocks():
    from tests.fixtures.scale_models import blocks_graph, flat_graph

    flat = ViewModel(load(flat_graph(1000)).graph)
    assert flat.hierarchy.group_parts                     # drawn in bands, not scopes
    check(flat, 2)
    check(ViewModel(load(blocks_graph(3000)).graph), 3)


def test_edge_groups_are_made_once_per_hierarchy():
    h = ViewModel(load(INCEPTION).graph).hierarchy
    containers, groups = edge_groups(h)
    assert edge_groups(h)[1] is groups
    assert sum(len(g) for g in groups.values()) == len(h.edges)
    assert len(groups) < len(h.edges)


def test_a_superseded_layout_stops_while_it_walks_the_edge_groups(monkeypatch):
    """n pressed again in the diff window cancels the layout it asked for: on 300k nodes that
    one went on through every edge group (no check) beside the next layout and the GUI
    thread, three threads taking turns at the GIL (bench/stall_watch.py --compare)."""
    import pytest

    from inspector.core.errors import Cancelled
    from inspector.core.runtime.job import Job
    from inspector.core.view import projection
    from tests.fixtures.scale_models import blocks_graph

    from inspector.core.view import owner_pairs

    h = ViewModel(load(blocks_graph(10_000)).graph).hierarchy
    counted = []
    real = projection._count
    for module in (projection, owner_pairs):
        monkeypatch.setattr(module, "_count", lambda *a: (counted.append(1), real(*a))[1])
    opened = set(h.scopes)       # every scope open: every group is walked edge by edge

    def pairs(job):
        return _Projection(h, opened, "TB", None, LayoutCache(h), job, True).owner_pairs()

    pairs(Job())
    whole = len(counted)
    assert len(edge_groups(h)[1]) > 1024 and whole

    class CancelledLater:       # the request is superseded once the walk has begun
        asked = 0

        def is_set(self):
            self.asked += 1
            return self.asked > 1

    counted.clear()
    with pytest.raises(Cancelled):
        pairs(Job(CancelledLater()))
    assert 0 < len(counted) < whole


def test_pairs_on_the_groups_arrays_are_those_of_the_walk_at_every_size(monkeypatch):
    """A big graph's pairs come from the groups' arrays (owner_pairs.py): which item shows a
    container is worked out once per head of its path, the groups between two collapsed
    scopes summed by array steps. Same pairs, counts, first edges and order as the walk of
    every edge, for hostile graphs, bands, repeated blocks and a shuffled graph."""
    from inspector.core.model import graph_index
    from inspector.core.model.graph import Graph
    from inspector.core.view import view_columns
    from tests.core.test_view_columns import HOSTILE, _graph_def
    from tests.fixtures.scale_models import blocks_graph, flat_graph

    monkeypatch.setattr(view_columns, "NUMPY_FROM", 1)
    monkeypatch.setattr(graph_index, "NUMPY_FROM", 1)
    views = [ViewModel(Graph(_graph_def(400, 8, HOSTILE[case]))) for case in sorted(HOSTILE)]
    views += [ViewModel(load(flat_graph(1000)).graph), ViewModel(load(blocks_graph(3000)).graph),
              ViewModel(load(INCEPTION).graph)]
    for seed, view in enumerate(views):
        if len(view.hierarchy.edges):
            assert edge_groups(view.hierarchy)[1].arrays is not None
        check(view, seed, rounds=6)


def test_the_first_picture_asks_which_item_shows_each_head_once(monkeypatch):
    """1M nodes have 100k containers: the walk asked outermost_collapsed for each (split
    into parts first) and walked 200k groups in Python, ~300 ms at normal speed."""
    from inspector.core.view import owner_pairs
    from tests.fixtures.scale_models import blocks_graph

    h = ViewModel(load(blocks_graph(20_000)).graph).hierarchy
    asked = []
    real = owner_pairs.outermost_collapsed
    monkeypatch.setattr(owner_pairs, "outermost_collapsed",
                        lambda *a: asked.append(a[0]) or real(*a))
    got = grouped(h, frozenset({""}))
    containers, groups = edge_groups(h)
    assert len(containers) > 1000 and len(groups) > 1000
    assert 0 < len(asked) < len(containers) // 10
    assert list(got.items()) == list(walked(h, {""}).items())
