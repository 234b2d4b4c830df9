"""The hierarchy's whole-graph passes on the columns (core/view/view_columns.py) give what
the walk of Node objects gave: constants, badges, edges, statistics and grouped edges, on
ordinary and hostile graphs, through the plain loops and the numpy steps; and laying out a
big graph makes no Node view but for the few nodes the picture draws."""

from __future__ import annotations

import random

import pytest

from inspector.core.model import graph_index, protos, scope_grouping
from inspector.core.model.graph import Graph
from inspector.core.runtime import pieces
from inspector.core.view import hierarchy as hierarchy_module
from inspector.core.view import view_columns
from inspector.core.view.hierarchy import build_hierarchy, edge_groups
from inspector.core.view.projection import LayoutCache, _Projection


def _graph_def(n: int, seed: int, extra=()):
    """Scoped nodes with Const, Const->Identity and Identity->Identity reads, data, port and
    control inputs, plus `extra` (name, op, inputs)."""
    rnd = random.Random(seed)
    gd = protos.GraphDef()
    for i in range(n):
        op = rnd.choice(["Const", "Const", "Identity", "Add", "Relu", "VariableV2"])
        node = gd.node.add(name=f"s{i % 5}/b{i % 3}/n{i}" if i % 11 else f"n{i}", op=op)
        for _ in range(1 if op == "Identity" else rnd.randrange(4) if op != "Const" else 0):
            j = rnd.randrange(n)
            text = f"s{j % 5}/b{j % 3}/n{j}" if j % 11 else f"n{j}"
            kind = rnd.randrange(6)
            node.input.append(text if kind < 3 else f"{text}:{rnd.randrange(3)}"
                              if kind < 5 else "^" + text)
    for name, op, inputs in extra:
        gd.node.add(name=name, op=op).input.extend(inputs)
    return gd


HOSTILE = {
    "plain": [],
    "dangling and malformed": [("x", "Add", ["missing", "a:b:c", "", "^gone", "n0:7"]),
                               ("i", "Identity", ["missing"])],
    "a control read of a constant by an Identity": [("c", "Const", []),
                                                    ("ci", "Identity", ["^c"])],
    "names drawn at the root from '/'": [("/lead", "Relu", ["n0", "/lead2"]),
                                         ("/lead2", "Const", []), ("y", "Add", ["/lead"])],
    "a huge port": [("big", "Add", ["n0:99999999999", "s1/b1/n1:3"])],
    "a flat scope cut into bands": [(f"flat/f{k}", "Add", [f"flat/f{k - 1}", "n0"] if k else [])
                                    for k in range(900)],
    "a flat root cut into bands, '/x' names in it": [
        (f"/q{k}" if k % 7 == 0 else f"r{k}", "Relu", [f"r{k - 1}", "n0"] if k % 7 != 1 else [])
        for k in range(900)],
}


def _walked(graph: Graph, fold: bool):
    """The hierarchy as the name-keyed walk of Node objects builds it (what build_hierarchy
    did before the columns; it still does for graphs whose names repeat)."""
    saved = graph.duplicate_names
    graph.duplicate_names = ["(force the walk)"]
    try:
        return build_hierarchy(graph, fold)
    finally:
        graph.duplicate_names = saved


def _old_edge_groups(h) -> tuple:
    """The walk of every edge that numbered containers and groups by first sight."""
    containers, index, where, groups = [], {}, {}, {}
    for position, (src, _, dst, control) in enumerate(h.edges):
        ends = []
        for name in (src, dst):
            if name not in where:
                key = tuple(h.parts(name))
                if key not in index:
                    index[key] = len(containers)
                    containers.append(key)
                where[name] = index[key]
            ends.append(where[name])
        groups.setdefault((ends[0], ends[1], control), []).append(position)
    return containers, groups


def _same(new, old) -> None:
    assert dict(new.consts.items()) == dict(old.consts.items())
    assert list(new.consts) == list(old.consts)
    assert new.folded == old.folded
    assert list(new.badge_sources.items()) == list(old.badge_sources.items())
    assert new.edges == old.edges
    assert [type(x) for e in new.edges[:50] for x in e] == \
        [type(x) for e in old.edges[:50] for x in e]
    assert list(new.stats.items()) == list(old.stats.items())
    assert new.group_parts == old.group_parts and new.group_labels == old.group_labels
    assert [(p, s.nodes, list(s.children)) for p, s in new.scopes.items()] == \
        [(p, s.nodes, list(s.children)) for p, s in old.scopes.items()]
    containers, groups = edge_groups(new)
    old_containers, old_groups = _old_edge_groups(old)
    assert containers == old_containers
    assert list(groups.items()) == list(old_groups.items())
    if hasattr(containers, "head_codes"):       # (a big graph's)
        for depth in (1, 2, 3, 5):
            _same_heads(containers, old_containers, depth)


def _same_heads(containers, old_containers, depth: int) -> None:
    """head_codes(depth): each container's head numbered by first sight, as from the list
    of heads."""
    heads = [c[:depth] for c in old_containers]
    distinct = list(dict.fromkeys(heads))
    number = {h: k for k, h in enumerate(distinct)}
    codes, found = containers.head_codes(depth)
    assert found == distinct
    assert codes.tolist() == [number[h] for h in heads]


@pytest.mark.parametrize("numpy_from", [10 ** 9, 1])
@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_the_columns_give_what_the_walk_of_nodes_gave(monkeypatch, case, numpy_from):
    """numpy_from 1: the columnar scope tree, groups and statistics too."""
    monkeypatch.setattr(view_columns, "NUMPY_FROM", numpy_from)
    monkeypatch.setattr(graph_index, "NUMPY_FROM", numpy_from)
    monkeypatch.setattr(pieces, "PIECE", 7)
    graph = Graph(_graph_def(600, 3, HOSTILE[case]))
    assert not graph.duplicate_names
    for fold in (True, False):
        _same(build_hierarchy(graph, fold), _walked(graph, fold))


def test_owner_pairs_from_the_numpy_groups_are_those_of_the_loop(monkeypatch):
    graph = Graph(_graph_def(2000, 5, HOSTILE["a flat scope cut into bands"]))
    rng = random.Random(7)
    looped = build_hierarchy(graph)
    monkeypatch.setattr(view_columns, "NUMPY_FROM", 1)
    grouped = build_hierarchy(graph)
    scopes = sorted(p for p in looped.scopes if p)
    for _ in range(10):
        exp = frozenset({""} | set(rng.sample(scopes, rng.randint(0, 15))))
        pairs = [_Projection(h, exp, "TB", None, LayoutCache(h), None, True).owner_pairs()
                 for h in (looped, grouped)]
        assert list(pairs[0].items()) == list(pairs[1].items())


def test_duplicate_names_keep_the_walk_by_name():
    graph = Graph(_graph_def(300, 2, [("n0", "Const", []), ("d", "Identity", ["n0"])]))
    assert graph.duplicate_names
    h = build_hierarchy(graph)
    assert type(h.consts) is dict and "d" in h.consts


def test_laying_out_a_big_graph_makes_no_node_view():
    from tests.fixtures.scale_models import blocks_graph
    from inspector.core.loaders import load
    from inspector.core.view.view_graph import ViewModel

    graph = load(blocks_graph(10_000)).graph
    assert len(graph) > 2 * view_columns.NUMPY_FROM
    view = ViewModel(graph)
    scene = view.scene(defer_params=True)
    made = sum(v is not None for v in graph._views)
    assert len(scene.items) > 3 and made <= 2 * len(scene.items) + 16, made
    largest = max((p for p in view.hierarchy.scopes if p), key=lambda p: view.alike(p))
    view.scene(frozenset({"", largest.split("/")[0]}), defer_params=True)
    assert sum(v is not None for v in graph._views) < len(graph) // 20
    assert hierarchy_module.edge_groups(view.hierarchy) is \
        hierarchy_module.edge_groups(view.hierarchy)


def _old_weight_homes(graph) -> dict:
    """parameters.weight_homes as the walk of Node objects counted them."""
    from inspector.core.model.parameters import VARIABLE_OPS, variable_elements

    facts = graph.const_facts()
    reads = {node.name for node in graph if node.op == "Identity" and len(node.inputs) == 1
             and node.inputs[0].node in facts}
    homes: dict = {}
    for node in graph:
        name = node.name
        if node.op in VARIABLE_OPS:
            n, home = variable_elements(node.proto), name
        elif name in facts:
            readers = []
            for edge in graph.data_consumers(name):
                if edge.dst not in reads:
                    readers.append(edge.dst)
                else:
                    readers += [e.dst for e in graph.data_consumers(edge.dst)
                                if e.dst not in reads]
            first = min(readers, key=lambda r: graph.node(r).index, default=None)
            n, home = facts[name].elements, first or name
        else:
            continue
        if n:
            homes[home] = homes.get(home, 0) + n
    return homes


@pytest.mark.parametrize("case", sorted(HOSTILE) + ["duplicates"])
def test_weight_homes_on_the_columns_are_those_of_the_walk(case):
    from inspector.core.model.parameters import weight_homes

    extra = HOSTILE.get(case, [("n0", "Const", []), ("d", "Identity", ["n0"]),
                               ("d", "Add", ["d", "n0"])])
    gd = _graph_def(500, 4, extra)
    for k, node in enumerate(gd.node):
        if node.op == "Const":
            node.attr["value"].tensor.dtype = 1
            node.attr["value"].tensor.tensor_shape.dim.add(size=k % 5 + 1)
        elif node.op == "VariableV2":
            node.attr["shape"].shape.dim.add(size=k % 3 + 2)
    homes = weight_homes(Graph(gd))
    assert homes and homes == _old_weight_homes(Graph(gd))
    assert list(homes) == list(_old_weight_homes(Graph(gd)))


@pytest.mark.parametrize("size", [10_000, 20_000])
def test_a_big_graphs_weight_homes_are_summed_on_arrays_as_the_loop_sums_them(size,
                                                                              monkeypatch):
    """A big graph without variables: numpy sums each constant at its home (no Python step
    per constant); the same homes, counts and dict order as the loop (and the walk of Nodes);
    a count too big for int64 (a hostile shape) goes the loop's way."""
    from inspector.core.loaders import load
    from inspector.core.model import parameters
    from tests.fixtures.scale_models import blocks_graph

    graph = load(blocks_graph(size)).graph
    assert len(graph.in_src) >= parameters.NUMPY_FROM
    on_arrays = parameters.weight_homes(graph)
    calls: list = []
    real = parameters._homes_on_arrays
    monkeypatch.setattr(parameters, "_homes_on_arrays",
                        lambda *a: calls.append(real(*a)) or None)
    by_loop = parameters.weight_homes(graph)
    assert calls and calls[0] == on_arrays
    assert on_arrays and list(on_arrays.items()) == list(by_loop.items())
    assert on_arrays == _old_weight_homes(graph)
    facts = graph.const_facts()
    name = next(iter(facts))
    monkeypatch.setitem(facts, name, facts[name]._replace(elements=1 << 70))
    calls.clear()
    homes = parameters.weight_homes(graph)
    assert calls == [None] and max(homes.values()) >= 1 << 70


def _old_dataflow_order(graph, names: list) -> list:
    """grouping.dataflow_order as it walked Node objects by name."""
    members = set(names)
    seen, out = set(), []
    for start in names:
        if start in seen:
            continue
        seen.add(start)
        stack = [(start, iter(graph.node(start).inputs))]
        while stack:
            name, inputs = stack[-1]
            for ref in inputs:
                if ref.node in members and ref.node not in seen:
                    seen.add(ref.node)
                    stack.append((ref.node, iter(graph.node(ref.node).inputs)))
                    break
            else:
                stack.pop()
                out.append(name)
    return out


@pytest.mark.parametrize("case", sorted(HOSTILE) + ["duplicates and a cycle"])
def test_dataflow_order_on_the_columns_is_that_of_the_walk(case):
    from inspector.core.view.grouping import dataflow_order

    extra = HOSTILE.get(case, [("n0", "Const", []), ("d", "Add", ["e", "n0"]),
                               ("e", "Relu", ["d", "^missing"]), ("d", "Add", ["d"])])
    graph = Graph(_graph_def(700, 6, extra))
    rng = random.Random(1)
    cases = (graph.name_list, graph.name_list[::-1],
             rng.sample(graph.name_list, 300) + ["d", "d"] * (case not in HOSTILE))
    found = [dataflow_order(graph, names) for names in cases]
    assert sum(v is not None for v in graph._views) == 0      # no Node made
    assert found == [_old_dataflow_order(graph, names) for names in cases]


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_first_readers_by_numpy_are_those_of_the_walk(monkeypatch, case):
    from inspector.core.model import parameters

    extra = HOSTILE[case] + [("k", "Const", []), ("k/read", "Identity", ["k"]),
                             ("k/read2", "Identity", ["k/read"]), ("use", "Add", ["k/read2"]),
                             ("use2", "Add", ["k/read", "k:0"])]
    gd = _graph_def(800, 8, extra)
    for k, node in enumerate(gd.node):
        if node.op == "Const":
            node.attr["value"].tensor.dtype = 1
            node.attr["value"].tensor.tensor_shape.dim.add(size=k % 5 + 1)
    graph = Graph(gd)
    monkeypatch.setattr(parameters, "NUMPY_FROM", 1)
    monkeypatch.setattr(parameters, "PIECE", 7)
    homes = parameters.weight_homes(graph)
    assert sum(v is not None for v in graph._views) == 0      # no Node made
    assert list(homes.items()) == list(_old_weight_homes(Graph(gd)).items())


def test_scope_groups_in_pieces_are_those_of_one_pass(monkeypatch):
    from array import array

    from inspector.core.model import graph_index, scope_grouping
    from inspector.core.model.inputs import scope_parts

    def one_pass(names):
        paths = ["/".join(scope_parts(name)) for name in names]
        ids = dict.fromkeys(paths)
        for k, path in enumerate(ids):
            ids[path] = k
        return list(ids), array("i", map(ids.__getitem__, paths))

    monkeypatch.setattr(graph_index, "PIECE", 5)
    names = Graph(_graph_def(300, 9, HOSTILE["names drawn at the root from '/'"])).name_list
    deep = names + ["/".join(["d"] * 70), "x" + "/y" * 65]
    for case in (names, deep, names[::-1], [], ["a"]):
        assert scope_grouping.scope_groups(case) == one_pass(case)


def test_scope_ids_read_ahead_in_batches_are_those_of_one_pass(monkeypatch):
    """A streamed graph groups its nodes by scope a piece at a time while it waits for the
    reader (Graph.read_scopes_ahead): the same paths and ids as scope_groups over every
    name, whatever the batches (a name too deep leaves it to scope_groups)."""
    from inspector.core.model import graph_index, scope_grouping

    monkeypatch.setattr(graph_index, "PIECE", 5)
    names = Graph(_graph_def(300, 9, HOSTILE["names drawn at the root from '/'"])).name_list
    names = names + ["", "/", "a//b", "a/b/"]
    deep = names + ["/".join(["d"] * 70), "x" + "/y" * 65]
    for case in (names, deep, names[::-1], [], ["a"]):
        ahead = scope_grouping.ScopeIds()
        for end in (0, 3, 17, 17, 120, len(case)):
            ahead.advance(case[:end])
        got = ahead.result(case)
        assert got == (None if case is deep else scope_grouping.scope_groups(case))


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_consumer_index_by_numpy_is_that_of_the_sort(monkeypatch, case):
    from array import array
    from itertools import accumulate

    from inspector.core.model import graph_index

    graph = Graph(_graph_def(900, 10, HOSTILE[case]))
    src = graph._src
    places = sorted((p for p in range(len(src)) if src[p] >= 0), key=src.__getitem__)
    counts = [0] * len(graph)
    for s in src:
        if s >= 0:
            counts[s] += 1
    expected = (array("q", accumulate(counts, initial=0)), array("q", places))
    monkeypatch.setattr(graph_index, "NUMPY_FROM", 1)
    assert graph_index.consumer_csr(graph) == expected
    monkeypatch.setattr(graph_index, "NUMPY_FROM", 10 ** 9)
    assert graph_index.consumer_csr(graph) == expected


@pytest.mark.parametrize("case", sorted(HOSTILE) + ["duplicates", "blocks", "flat"])
def test_scope_statistics_by_numpy_are_those_of_the_loop(monkeypatch, case):
    from inspector.core.loaders import load
    from inspector.core.view.grouping import Groups
    from tests.fixtures.scale_models import blocks_graph, flat_graph

    if case == "blocks":
        graph = load(blocks_graph(3000)).graph
    elif case == "flat":
        graph = load(flat_graph(1000)).graph
    else:
        extra = HOSTILE.get(case, [("n0", "VariableV2", []), ("d", "Identity", ["n0"]),
                                   ("d", "Const", [])])
        graph = Graph(_graph_def(900, 11, extra))
    for fold in (True, False):
        h = build_hierarchy(graph, fold)
        folded = set(h.folded)
        readers = (hierarchy_module.fold_constants_into_badges(graph, h.consts)[1]
                   if graph.duplicate_names else view_columns.fold(graph, h.consts)[1])
        root = Groups(graph, graph.scope_tree(), folded).root
        monkeypatch.setattr(view_columns, "NUMPY_FROM", 10 ** 9)
        looped = hierarchy_module.scope_statistics(graph, root, folded, readers)
        monkeypatch.setattr(view_columns, "NUMPY_FROM", 1)
        monkeypatch.setattr(pieces, "PIECE", 7)
        counted = hierarchy_module.scope_statistics(graph, root, folded, readers)
        monkeypatch.setattr(pieces, "PIECE", 8192)
        assert list(counted.items()) == list(looped.items())
        assert any(s.alike > 1 for s in looped.values()) or case != "blocks"
        assert len(looped) > 3 or case not in ("blocks", "flat")


@pytest.mark.parametrize("case", sorted(HOSTILE) + ["blocks"])
def test_scope_params_summed_by_place_are_those_of_each_home(case):
    from inspector.core.loaders import load
    from inspector.core.model.parameters import weight_homes
    from inspector.core.view.hierarchy import scope_params
    from tests.fixtures.scale_models import blocks_graph

    if case == "blocks":
        graph = load(blocks_graph(3000)).graph
    else:
        gd = _graph_def(700, 12, HOSTILE[case] + [("/w", "Const", []), ("/a", "Add", ["/w"]),
                                                 ("b", "Add", ["/w"])])
        for k, node in enumerate(gd.node):
            if node.op == "Const":
                node.attr["value"].tensor.dtype = 1
                node.attr["value"].tensor.tensor_shape.dim.add(size=k % 5 + 1)
        graph = Graph(gd)
    h = build_hierarchy(graph)
    each: dict = {}
    for home, elements in weight_homes(graph).items():
        parts = h.parts(home)
        for depth in range(len(parts) + 1):
            key = "/".join(parts[:depth])
            each[key] = each.get(key, 0) + elements
    assert each and list(scope_params(h).items()) == list(each.items())


def test_scope_statistics_of_a_big_graph_look_up_no_node_name():
    """The scopes' statistics take each scope's nodes from the graph's scope ids, and which
    nodes read or fold constants from the index masks of the fold: no name -> index look-up
    a node (the old count mapped every node's name, ~0.2 s at 300k nodes)."""
    from inspector.core.loaders import load
    from tests.fixtures.scale_models import blocks_graph

    class Counting(dict):
        calls = 0

        def __getitem__(self, key):
            Counting.calls += 1
            return dict.__getitem__(self, key)

        def get(self, key, default=None):
            Counting.calls += 1
            return dict.get(self, key, default)

    graph = load(blocks_graph(10_000)).graph
    expected = build_hierarchy(graph, True).stats
    graph._index = Counting(graph._index)
    h = build_hierarchy(graph, True)
    assert Counting.calls == 0
    assert list(h.stats.items()) == list(expected.items())
    assert len(h.stats) > 1000 and any(s.alike > 1 for s in h.stats.values())


def test_a_big_hierarchy_makes_its_edges_badge_lists_and_stats_when_asked():
    """A big graph's hierarchy keeps its edges, each reader's constants and each scope's
    statistics as columns: the first picture makes the few it draws, not a tuple an edge, a
    list a reader and a ScopeStats a scope (~160 ms at 300k nodes); every one read equals
    the walk's."""
    from inspector.core.loaders import load
    from inspector.core.view.view_graph import ViewModel
    from tests.fixtures.scale_models import blocks_graph

    graph = load(blocks_graph(10_000)).graph
    h = build_hierarchy(graph, True)
    assert not isinstance(h.edges, list) and not isinstance(h.badge_sources, dict)
    assert not isinstance(h.stats, dict)
    made, stats = [], []
    real, real_stats = type(h.edges).__getitem__, type(h.stats).__getitem__
    type(h.edges).__getitem__ = lambda self, k: made.append(k) or real(self, k)
    type(h.stats).__getitem__ = lambda self, k: stats.append(k) or real_stats(self, k)
    try:
        ViewModel(graph).scene()
    finally:
        type(h.edges).__getitem__ = real
        type(h.stats).__getitem__ = real_stats
    assert 0 < len(made) < len(h.edges) // 20
    assert 0 < len(stats) < len(h.stats) // 5
    old = _walked(graph, True)
    assert list(h.stats.items()) == list(old.stats.items())
    assert h.edges == old.edges and len(h.edges) > 4000
    assert list(h.badge_sources.items()) == list(old.badge_sources.items())
    assert "missing" not in h.badge_sources and h.badge_sources.get("missing", 7) == 7


def test_edge_groups_make_the_parts_of_the_containers_edges_touch_only(monkeypatch):
    """A big graph's edge groups number each node's container by its scope id and split
    into parts only the scopes an edge is drawn in, not every scope (60k at 300k nodes),
    and those only when asked (a picture asks for the heads of their paths)."""
    from inspector.core.loaders import load
    from inspector.core.view import edge_spans
    from tests.fixtures.scale_models import blocks_graph

    graph = load(blocks_graph(10_000)).graph
    h = build_hierarchy(graph, True)
    split = []
    real = edge_spans._parts_of
    monkeypatch.setattr(edge_spans, "_parts_of", lambda p: split.append(p) or real(p))
    containers, groups = edge_groups(h)
    paths = graph.scope_ids()[0]
    assert not split and len(containers) < len(paths) * 0.8     # parts made when asked
    assert containers[3] and len(split) == 1
    old_containers, old_groups = _old_edge_groups(h)
    assert containers == old_containers and list(groups.items()) == list(old_groups.items())
    assert containers.heads(1) == [c[:1] for c in old_containers]
    assert containers.heads(2) == [c[:2] for c in old_containers]


def test_heads_of_scopes_from_names_with_empty_parts_are_those_of_the_list(
        monkeypatch):
    """Names TensorFlow refuses but a file may hold ('//two/x', 'a//b'): a scope's parent is
    its path up to the last '/', so the scope '/' is a child of the root; a path's parts
    (inputs.path_parts: a leading '/' kept with the first) are its levels, so head_codes
    takes them from the tree's parent numbers as for any name (it fell back to the list)."""
    monkeypatch.setattr(view_columns, "NUMPY_FROM", 1)
    monkeypatch.setattr(graph_index, "NUMPY_FROM", 1)
    extra = [("//two/x", "Relu", ["n0"]), ("a//b", "Add", ["//two/x", "n1"]),
             ("a//b/c", "Relu", ["a//b"]), ("s1//d", "Relu", ["a//b/c"])]
    graph = Graph(_graph_def(300, 5, extra))
    h = build_hierarchy(graph, True)
    assert "/" in h.memo["columns"].paths and "a/" in h.memo["columns"].paths
    containers, _ = edge_groups(h)
    old_containers, _ = _old_edge_groups(_walked(graph, True))
    assert containers == old_containers
    for depth in (1, 2, 3):
        _same_heads(containers, old_containers, depth)
    assert containers._levels_made is not False       # (the tree's numbers, not the list)


def _hostile_name(rng, depth: int) -> str:
    """A name `depth` scopes deep whose parts may be empty: a leading, doubled or trailing
    '/' anywhere (its own part may be empty too)."""
    parts = [rng.choice(["", "", "a", "b"]) if rng.random() < 0.5 else f"s{rng.randrange(3)}"
             for _ in range(depth + 1)]
    return "/".join(parts)


@pytest.mark.parametrize("numpy_from", [10 ** 9, 1])
@pytest.mark.parametrize("seed", range(6))
def test_every_scope_of_names_with_empty_parts_is_found_by_its_path(monkeypatch, seed,
                                                                     numpy_from):
    """note15: ScopeMap looked a scope up by its path split at every '/', the tree keyed it
    by the part after its last '/': a graph of names like '//two/x' had a scope '/' whose
    lookup raised KeyError, and '/x' and 'x' were both the root's child 'x' (one of them,
    with its nodes, out of the tree). One rule now (inputs.path_parts): every scope the
    hierarchy makes is found by its path, in the walk's and in the columns' hierarchy, every
    node sits in one scope, and both hierarchies are the same. Names at depths 1-5 with
    leading, doubled and trailing '/'. (Fails on the old code.)"""
    from inspector.core.model.inputs import path_parts

    monkeypatch.setattr(view_columns, "NUMPY_FROM", numpy_from)
    monkeypatch.setattr(graph_index, "NUMPY_FROM", numpy_from)
    rng = random.Random(seed)
    names = dict.fromkeys(_hostile_name(rng, rng.randint(1, 5)) for _ in range(400))
    names = [n for n in names if n] + ["/x/n", "x/m", "/", "//", "/lead", "t/", "a//"]
    extra = [(n, "Relu", [rng.choice(names[:k])] if k else ["n0"]) for k, n in
             enumerate(dict.fromkeys(names))]
    graph = Graph(_graph_def(300, seed, extra))
    assert not graph.duplicate_names
    for fold in (True, False):
        h = build_hierarchy(graph, fold)
        walked = list(h.root.walk())
        assert len({s.path for s in walked}) == len(walked) == len(h.scopes)
        for scope in walked:
            assert h.scopes[scope.path] is scope and scope.path in h.scopes
            assert "/".join(path_parts(scope.path)) == scope.path
        held = [n for s in walked for n in s.nodes]
        assert sorted(held) == sorted(graph.name_list)
        _same(h, _walked(graph, fold))
        for n in extra:
            parts = h.parts(n[0])
            assert h.scopes["/".join(parts)] is not None


def test_a_big_graphs_container_heads_are_found_by_scope_numbers_not_paths():
    """A picture asks for the heads of the containers' paths (the first parts, which the
    expanded scopes tell apart): a grouped scope tree's are found from its parent numbers,
    reading only the distinct heads' paths (30k containers at 300k nodes: ~20 ms of cold
    strings before the first picture), with the codes of the list of heads."""
    from inspector.core.loaders import load
    from tests.fixtures.scale_models import blocks_graph

    graph = load(blocks_graph(10_000)).graph
    h = build_hierarchy(graph, True)
    containers, _ = edge_groups(h)
    old_containers, _ = _old_edge_groups(h)

    class Counted(list):
        reads = 0

        def __getitem__(self, k):
            Counted.reads += 1
            return list.__getitem__(self, k)

    containers._keys = Counted(containers._keys)
    for depth in (1, 2, 3):
        Counted.reads = 0
        _same_heads(containers, old_containers, depth)
        distinct = len(containers.head_codes(depth)[1])
        assert Counted.reads <= distinct + 64, (depth, Counted.reads, len(containers))
    assert len(containers) >= 1000


def test_a_big_graphs_constants_are_found_by_index_with_no_dict_of_names():
    """const_sources of a big graph keeps which Const each node shows as one array by node
    index (name -> node through the graph's own index), not a dict of 150k names at 300k
    nodes (~30 ms): it keeps about one object a constant (their positions), not two."""
    import gc
    import sys

    from inspector.core.loaders import load
    from tests.fixtures.scale_models import blocks_graph

    graph = load(blocks_graph(10_000)).graph
    expected = _walked(graph, True).consts
    gc.collect()
    gc.disable()
    try:
        before = sys.getallocatedblocks()
        consts = view_columns.const_sources(graph)
        kept = sys.getallocatedblocks() - before
    finally:
        gc.enable()
    assert len(consts) > 4000 and kept < 1.5 * len(consts)
    assert dict(consts.items()) == dict(expected.items())
    assert list(consts) == list(expected) and "nothing" not in consts
    assert consts.get("nothing") is None


def test_the_first_readers_of_a_big_graph_are_listed_a_piece_at_a_time(monkeypatch):
    """weight_homes' first readers (the scopes' parameters, counted in the settle after the
    first picture): one tolist of a 300k-node array held the GIL ~57 ms; now PIECE items
    a call. Same homes."""
    from inspector.core.model import graph_index, parameters

    gd = _graph_def(6000, 4, [])       # past NUMPY_FROM inputs: the numpy path
    for k, node in enumerate(gd.node):
        if node.op == "Const":
            node.attr["value"].tensor.dtype = 1
            node.attr["value"].tensor.tensor_shape.dim.add(size=k % 5 + 1)
    whole = parameters.weight_homes(Graph(gd))
    pieces = []
    real = graph_index.chunked_list
    monkeypatch.setattr(parameters, "PIECE", 7)
    monkeypatch.setattr(graph_index, "chunked_list", lambda arr, chunk=1 << 16: (
        pieces.append((len(arr), chunk)), real(arr, chunk))[1])
    graph = Graph(gd)
    assert parameters.weight_homes(graph) == whole and whole
    assert (len(graph), 7) in pieces          # the first readers, PIECE at a time
