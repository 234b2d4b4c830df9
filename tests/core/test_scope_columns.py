"""A big graph's hierarchy built once on arrays (issue 47): the scope tree as columns with its
Scope objects made when asked for, a flat scope's bands cut on arrays (dataflow order walked
only from nodes that read a later one), statistics and edge groups from the grouped tree's
columns. Each gives what the walk of Scope objects gave, and the first picture makes the few
scopes it draws."""

from __future__ import annotations

import random

import pytest

from inspector.core.loaders import load
from inspector.core.model import graph_index, protos
from inspector.core.model.graph import Graph
from inspector.core.model.scope_tree import ScopeTree
from inspector.core.view import grouping, view_columns
from inspector.core.view.hierarchy import build_hierarchy
from inspector.core.view.view_graph import ViewModel
from tests.core.test_view_columns import HOSTILE, _graph_def, _same, _walked
from tests.fixtures.scale_models import blocks_graph, flat_graph


def _tree(graph: Graph):
    return [(s.path, s.nodes, list(s.children)) for s in graph.scope_tree().walk()]


def _shuffled(path: str, seed: int) -> protos.GraphDef:
    """The graph's nodes in a random order: inputs read nodes written after them."""
    gd = protos.GraphDef()
    with open(path, "rb") as f:
        gd.ParseFromString(f.read())
    nodes = list(gd.node)
    random.Random(seed).shuffle(nodes)
    out = protos.GraphDef()
    out.node.extend(nodes)
    return out


def test_the_columnar_scope_tree_is_the_tree_of_scope_objects(monkeypatch):
    deep = "d/" + "/".join(str(i) for i in range(100))
    names = ["a/b/c", "a", "x//y", "a/b", "b", "a/c/d", deep, "a/b/e", "/lead", "q/r/s/t"]
    gd = protos.GraphDef()
    for k in range(3):
        for name in names:
            gd.node.add(name=f"{name}{k}" if k else name, op="NoOp")
    whole = _tree(Graph(gd))
    monkeypatch.setattr(graph_index, "NUMPY_FROM", 1)
    graph = Graph(gd)
    assert ScopeTree.of(graph.scope_tree()) is not None
    assert _tree(graph) == whole
    assert graph.scope_tree().node_count() == len(graph)


def test_a_big_graphs_first_picture_makes_the_scopes_it_draws_only():
    """1M nodes have 200k scopes: the tree as Scope objects with their node lists cost
    ~0.6 s before the first picture; now a scope and its nodes are made when asked for."""
    graph = load(blocks_graph(20_000)).graph
    tree = ScopeTree.of(graph.scope_tree())
    assert tree is not None and len(tree.paths) > 4000
    ViewModel(graph).scene()
    made = tree._made.values()
    assert len(made) < len(tree.paths) // 20
    assert sum(s._nodes is not None for s in made) < len(tree.paths) // 100


@pytest.mark.parametrize("case", ["flat", "flat, shuffled", "blocks, shuffled"])
def test_bands_cut_on_arrays_are_those_of_the_walk(case):
    """A flat scope's bands from the arrays equal grouping.Groups' walk by names, also when
    inputs read nodes written after them (the depth-first walk then runs from those)."""
    if case == "flat":
        graph = load(flat_graph(5000)).graph
    else:
        path = flat_graph(6000, 1) if case.startswith("flat") else blocks_graph(6000, 1)
        gd = _shuffled(path, 3)
        if case.startswith("blocks"):        # a few big scopes
            for k in range(900):
                gd.node.add(name=f"wide/w{k}", op="Relu", input=[f"wide/w{k + 1}"]
                            if k % 3 else [])
        graph = Graph(gd)
    assert ScopeTree.of(graph.scope_tree()) is not None
    for fold in (True, False):
        new, old = build_hierarchy(graph, fold), _walked(graph, fold)
        assert new.memo["columns"] is not None and old.memo["columns"] is None
        assert new.group_labels and len(new.group_parts) > 400
        _same(new, old)


def test_a_topologically_written_flat_graph_is_grouped_with_no_walk(monkeypatch):
    """Every input written before its reader (TensorFlow's way): the dataflow order is the
    graph order, found by one comparison of the input columns; the walk by names held the
    window's load thread 1.9 s on a flat 1M-node graph before the first picture."""
    graph = load(flat_graph(5000)).graph
    walked = []
    monkeypatch.setattr(grouping, "dataflow_order", lambda *a: walked.append(a))
    h = build_hierarchy(graph)
    assert not walked and len(h.group_parts) > 4000


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hostile_graphs_on_the_columns_at_every_size(monkeypatch, case):
    monkeypatch.setattr(view_columns, "NUMPY_FROM", 1)
    monkeypatch.setattr(graph_index, "NUMPY_FROM", 1)
    graph = Graph(_graph_def(1500, 8, HOSTILE[case]))
    for fold in (True, False):
        _same(build_hierarchy(graph, fold), _walked(graph, fold))


def test_a_big_hierarchy_copies_no_whole_graph_set_or_dict_in_one_call(monkeypatch):
    """One C call over every folded constant (frozenset(folded): 400k at 1M nodes) or every
    scope path (the statistics' {path: place}: 200k) held the GIL ~100-200 ms before the
    first picture (bench/stall_watch.py --gil-ms). The fold's own answer is kept (a mask by
    node index, no set of names), and the statistics find a scope by the tree's numbers."""
    import gc

    graph = load(blocks_graph(20_000)).graph
    made = []
    real = view_columns.fold
    monkeypatch.setattr(view_columns, "fold", lambda *a: made.append(real(*a)) or made[-1])
    h = build_hierarchy(graph)
    assert h.folded is made[0][0] and len(h.folded) > 4000
    n_scopes = len(h.scopes)
    assert not [x for x in gc.get_referents(h.stats)
                if isinstance(x, dict) and len(x) >= n_scopes // 2]
    old = _walked(graph, True)
    assert list(h.stats.items()) == list(old.stats.items())
    assert "no such scope" not in h.stats and h.stats.get("no such scope") is None
    # the folded constants: a mask by node index, not a set of 400k names
    assert not isinstance(h.folded, (set, frozenset)) and h.folded == old.folded
    assert all(h.is_folded(n) == (n in old.folded) for n in graph.name_list[:3000])
    assert "no such node" not in h.folded


def test_edge_groups_are_spans_of_one_list_and_the_picture_makes_no_list_a_group():
    """1M nodes have 200k edge groups: a list of positions each cost ~90 ms before the first
    picture. The groups are spans of one positions list; a projection walks the spans."""
    from inspector.core.view.hierarchy import edge_groups
    from inspector.core.view.projection import LayoutCache, _Projection
    from inspector.core.view.view_columns import EdgeGroups
    from tests.core.test_view_columns import _old_edge_groups

    graph = load(blocks_graph(20_000)).graph
    view = ViewModel(graph)
    h = view.hierarchy
    scene = view.scene()
    containers, groups = edge_groups(h)
    assert isinstance(groups, EdgeGroups) and groups._at is None    # no look-up made
    assert len(groups) > 2000 and scene.items
    old_containers, old_groups = _old_edge_groups(h)
    assert containers == old_containers and list(groups.items()) == list(old_groups.items())
    assert groups[next(iter(old_groups))] == next(iter(old_groups.values()))
    small = ViewModel(Graph(_graph_def(300, 4, HOSTILE["a flat scope cut into bands"])))
    exp = frozenset({"", "flat", "s1"})
    for view in (ViewModel(graph), small):
        hh = view.hierarchy
        got = _Projection(hh, exp, "TB", None, LayoutCache(hh), None, True).owner_pairs()
        pairs: dict = {}
        for (ka, kb, control), edges in _old_edge_groups(hh)[1].items():
            for position in edges:
                src, port, dst, _ = hh.edges[position]
                a, b = hh.owner(src, exp), hh.owner(dst, exp)
                if a != b:
                    hit = pairs.setdefault((a, b, control), [0, src, port, position])
                    hit[0] += 1
        expected = {k: v[:3] for k, v in sorted(pairs.items(), key=lambda kv: kv[1][3])}
        assert list(got.items()) == list(expected.items()) and got


def test_the_statistics_make_no_pass_over_the_nodes_per_op_type():
    """The statistics counted each op type over every node (a compare, a running sum and
    gathers a type: ~130 ms at 1M nodes with 8 types). Each scope's own counts are now one
    bincount, a subtree's a difference of running sums down the scopes: two running sums
    over the nodes (reads, shows) whatever the number of op types. Same statistics."""
    import numpy

    from inspector.core.view import hierarchy, scope_stats

    graph = load(blocks_graph(20_000)).graph
    h = build_hierarchy(graph)
    assert len(graph.op_names) >= 6

    class Counting:
        long = 0

        def __getattr__(self, name):
            return getattr(numpy, name)

        def cumsum(self, a, *args, **kwargs):
            Counting.long += len(a) >= len(graph) // 2
            return numpy.cumsum(a, *args, **kwargs)

    marks = hierarchy._marks(graph, *reversed(view_columns.fold(
        graph, view_columns.const_sources(graph))[2:]))
    got = scope_stats.scope_statistics(Counting(), graph, h.memo["columns"], marks,
                                       hierarchy.summary_of, hierarchy.ScopeStats)
    assert Counting.long == 2
    assert isinstance(got._keys, tuple) and len(got) == len(h.stats)   # walked when asked
    assert list(got.items()) == list(_walked(graph, True).stats.items())


def test_the_badges_of_a_big_graph_are_arrays_not_lists():
    """The fold listed every badge's constant (and each reader's bounds) as Python ints:
    ~400k at 1M nodes, ~40 ms of the load thread before the first picture. They are
    array('q') columns now; each reader's badges are the same names."""
    import gc
    from array import array

    graph = load(blocks_graph(20_000)).graph
    h = build_hierarchy(graph)
    assert not [x for x in gc.get_referents(h.badge_sources)
                if isinstance(x, list) and len(x) > 1000 and x is not graph._names]
    assert isinstance(h.badge_sources._shown, array) and len(h.badge_sources._shown) > 4000
    assert list(h.badge_sources.items()) == list(_walked(graph, True).badge_sources.items())


def test_distinct_op_mixes_by_hash_are_those_of_the_sort_even_when_hashes_collide():
    """The scopes' op mixes are told apart by one hash a scope (a lexsort of the whole
    table took ~40-60 ms at 1M nodes); a collision falls back to the sort."""
    import numpy

    from inspector.core.view import scope_stats

    rng = numpy.random.default_rng(3)
    table = rng.integers(0, 3, (5, 2000))
    table[:, 1000:] = table[:, :1000]             # every column twice

    def partition(one, inverse):
        return [frozenset(numpy.flatnonzero(inverse == k).tolist()) for k in range(len(one))]

    want = set(partition(*scope_stats._distinct_rows(numpy, table.T)))

    class Colliding:
        def __getattr__(self, name):
            return getattr(numpy, name)

        def unique(self, values, **kwargs):
            return numpy.unique(numpy.zeros_like(values), **kwargs)

    for np in (numpy, Colliding()):
        one, inverse = scope_stats._distinct_columns(np, table)
        assert set(partition(one, inverse)) == want
        assert (table[:, one][:, inverse] == table).all()


def test_the_scopes_walked_a_piece_at_a_time_are_those_of_one_walk():
    """every_scope a piece of paths at a time (EveryScope.advance, while a streamed graph
    waits for the reader): the same scopes, parents and numbers as one walk, missing
    parents made in the same places; another list starts over."""
    from inspector.core.model.scope_tree import EveryScope, every_scope

    rng = random.Random(4)
    for _ in range(300):
        pool = ["/".join(rng.choice("abc") for _ in range(rng.randint(1, 4)))
                for _ in range(rng.randint(0, 30))]
        paths = list(dict.fromkeys(pool))
        ahead, grown = EveryScope(), []
        for path in paths:
            grown.append(path)
            ahead.advance(grown, rng.choice((0, 1, 2)))
        assert ahead.result(grown) == every_scope(paths)
        assert ahead.result(list(paths)) == every_scope(paths)     # another list


@pytest.mark.parametrize("compiled", [True, False], ids=["numba", "no numba"])
def test_a_streamed_graph_walks_its_scopes_while_it_waits(monkeypatch, compiled):
    """At 1M nodes the scope tree's walk of 200k paths (~65 ms at normal speed) ran after the
    last piece, before the first picture; it runs while the window waits for the reader
    now, and the tree is the one walked at once."""
    import os

    from inspector.core.loaders import reader_process
    from inspector.core.loaders.readers import _receive
    from inspector.core.model import scope_tree
    from tests.core.test_reader_process import _compiled_or_not, no_frame_waiting

    _compiled_or_not(monkeypatch, compiled)
    no_frame_waiting(monkeypatch)
    monkeypatch.setattr(reader_process, "CHUNK_NODES", 1000)
    path = blocks_graph(10_000)
    graph = _receive(reader_process.start(path, os.stat(path)), path)
    paths = graph.scope_ids()[0]
    assert graph._every.source is paths and graph._every.done > len(paths) // 2
    left = []
    real_advance = scope_tree.EveryScope.advance
    monkeypatch.setattr(scope_tree.EveryScope, "advance", lambda self, p, most=0: (
        left.append(len(p) - self.done), real_advance(self, p, most)))
    assert _tree(graph) == _tree(load(path).graph)
    assert left and left[0] < len(paths) // 2
