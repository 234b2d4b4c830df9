"""The columnar Graph: the fast wire path gives exactly what the one-node-at-a-time path
gives, on ordinary and hostile graphs, and opening or grouping a graph makes no Node."""

from __future__ import annotations

import random

import pytest

from inspector.core.model import columns, protos
from inspector.core.model.graph import Graph


def _graph_def(n: int = 300, seed: int = 0, extra=None):
    rnd = random.Random(seed)
    gd = protos.GraphDef()
    for i in range(n):
        node = gd.node.add(name=f"s{i % 7}/b{i % 3}/n{i}", op=rnd.choice(["Const", "Add", "Relu"]))
        for _ in range(rnd.randrange(4)):
            j = rnd.randrange(n)
            text = f"s{j % 7}/b{j % 3}/n{j}"
            kind = rnd.randrange(5)
            node.input.append(text if kind < 3 else f"{text}:{rnd.randrange(3)}"
                              if kind == 3 else "^" + text)
        if i % 50 == 0:
            node.device = f"/device:CPU:{i % 2}"
    for name, op, inputs in extra or ():
        gd.node.add(name=name, op=op).input.extend(inputs)
    return gd


def _facts(g: Graph) -> dict:
    return {"nodes": [(n.name, n.op, tuple(n.inputs), n.device) for n in g.nodes],
            "problems": g.problems(), "ops": g.op_counts(),
            "consumers": {n.name: g.consumers(n.name) for n in g.nodes},
            "read": [g.has_consumers(n.name) for n in g.nodes],
            "scopes": [(s.path, s.nodes) for s in g.scope_tree().walk()]}


def _slow(gd) -> Graph:
    """The same graph read one NodeDef at a time (the exact path)."""
    saved = columns.read_wire
    columns.read_wire = lambda data, expected, consts=False: None
    try:
        return Graph(gd)
    finally:
        columns.read_wire = saved


HOSTILE = {
    "plain": [],
    "dangling and malformed": [("x", "Add", ["missing", "a:b:c", "", "^gone", "s0/b0/n0:7"])],
    "duplicates": [("s0/b0/n0", "Relu", ["s1/b1/n1"]), ("dup", "Add", []), ("dup", "Relu", ["dup"])],
    "a name with a colon": [("odd:1", "Add", ["odd:1", "s0/b0/n0"])],
    "the marker as an input": [("m", "Add", ["\x00"])],
    "the marker as a name": [("\x00", "Add", ["s0/b0/n0"])],
    "no op": [("noop", "", ["s0/b0/n0"])],
    "a huge port": [("big", "Add", ["s0/b0/n0:99999999999"])],
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_the_wire_path_gives_what_one_node_at_a_time_gives(case):
    gd = _graph_def(extra=HOSTILE[case])
    assert _facts(Graph(gd)) == _facts(_slow(gd))


def test_a_graph_streamed_in_batches_resolves_inputs_read_before_their_producer():
    gd = _graph_def(600, seed=3)
    whole = Graph(gd)
    streamed = Graph(protos.GraphDef(), complete=False)
    for start in range(0, 600, 150):       # each batch's own wire bytes, as the reader sends
        part = protos.GraphDef()
        part.node.extend(gd.node[start:start + 150])
        data = part.SerializeToString()
        streamed.structure.MergeFromString(data)
        streamed.add_new_nodes(data)
    streamed.finish()
    assert _facts(streamed) == _facts(whole)


def test_opening_counting_and_grouping_a_big_graph_makes_no_node_object():
    g = Graph(_graph_def(5000, seed=1))
    assert g._wire                          # read through the wire path
    g.scope_tree(), g.op_counts(), g.consumers("s0/b0/n0"), g.has_consumers("s1/b1/n1")
    assert sum(v is not None for v in g._views) == 0
    node = g.node("s3/b0/n3")               # a view is made when asked for, and kept
    assert g.nodes[node.index] is node and sum(v is not None for v in g._views) == 1


def test_the_columns_say_what_the_nodes_say():
    g = Graph(_graph_def(5000, seed=2))
    off, src, port = g.in_offsets, g.in_src, g.in_port
    for node in list(g.nodes)[::97]:
        assert g.op_names[g.op_codes[node.index]] == node.op
        got = [(g.name_list[src[p]], int(port[p]))
               for p in range(off[node.index], off[node.index + 1])]
        assert got == [(r.node, r.port) for r in node.inputs]
    paths, ids = g.scope_ids()
    assert paths[ids[g.index("s4/b1/n4")]] == "s4/b1"


def test_a_graph_and_its_views_are_freed_without_the_cycle_collector():
    """The app freezes what it has collected; a graph in a reference cycle would stay."""
    import gc
    import weakref

    g = Graph(_graph_def(500))
    list(g.nodes), g.scope_tree(), g.consumers("s0/b0/n0"), g.node("s1/b1/n1").inputs
    ref = weakref.ref(g)
    gc.disable()
    try:
        del g
        assert ref() is None
    finally:
        gc.enable()


def _field(number: int, text) -> bytes:
    data = text.encode() if isinstance(text, str) else text
    return bytes([number << 3 | 2]) + protos.varint(len(data)) + data


def _streamed(data: bytes) -> Graph:
    """The graph the reader process's stream makes of these GraphDef wire bytes."""
    g = Graph(protos.GraphDef(), complete=False)
    g.structure.MergeFromString(data)
    g.add_new_nodes(data)
    g.finish()
    return g


def test_a_streamed_node_with_its_name_or_op_written_twice_keeps_what_its_nodedef_says():
    """A NodeDef's last field wins; one node with two names next to one with none must
    not shift the names (nor two ops next to none the ops) of the wire path's columns."""
    plain = [_field(1, f"n{i}") + _field(2, "Add") + _field(3, f"n{i - 1}") for i in range(1, 99)]
    odd = [_field(1, "a") + _field(1, "b") + _field(2, "Add") + _field(3, "n1"),
           _field(2, "Add") + _field(3, "b"),
           _field(1, "c") + _field(2, "Add") + _field(2, "Mul"), _field(1, "d") + _field(3, "c"),
           _field(1, "") + _field(2, "Add"), _field(1, "e") + _field(2, "Add") + _field(3, ""),
           _field(1, "f") + _field(2, "Add") + _field(4, "/cpu:0") + _field(4, "")]
    data = b"".join(_field(1, body) for body in plain + odd)
    g = _streamed(data)
    assert [(n.name, n.op, n.device) for n in g.nodes] == \
        [(p.name, p.op, p.device) for p in g.structure.node]
    assert _facts(g) == _facts(_slow(g.structure))
    assert "node 'e' has a malformed input '' (expected name, name:port or ^name)" in g.problems()


def test_consumers_say_a_port_past_an_int32_as_written():
    g = Graph(_graph_def(extra=[("big", "Add", ["s0/b0/n0:99999999999", "s0/b0/n0:2147483648"])]))
    edges = [e for e in g.consumers("s0/b0/n0") if e.dst == "big"]
    assert [e.src_port for e in edges] == [99999999999, 2147483648]
    assert [r.port for r in g.node("big").inputs] == [99999999999, 2147483648]


@pytest.mark.parametrize("port", ["²", "9" * 5000, "٣"])
def test_a_port_of_digits_int_refuses_is_a_malformed_input_not_a_crash(port):
    g = Graph(_graph_def(extra=[("x", "Add", [f"s0/b0/n0:{port}"])]))
    ref = g.node("x").inputs[0]
    assert ref.node == "s0/b0/n0" and ref.port == (3 if port == "٣" else 0)
    malformed = "node 'x' has a malformed input"
    assert any(p.startswith(malformed) for p in g.problems()) == (port != "٣")


def test_forty_thousand_op_types_open():
    gd = protos.GraphDef()
    for i in range(40_000):
        gd.node.add(name=f"n{i}", op=f"Op{i}")
    g = Graph(gd)
    assert len(g.op_counts()) == 40_000 and g.node("n39999").op == "Op39999"
    assert g.op_names[g.op_codes[-1]] == "Op39999"


def test_a_name_holding_a_colon_parses_only_the_inputs_that_need_it(monkeypatch):
    """One odd name in an early batch used to send every later input through the parser."""
    from inspector.core.model import graph_index

    parsed = []
    real = graph_index.parse_input
    monkeypatch.setattr(graph_index, "parse_input", lambda t: parsed.append(t) or real(t))
    gd = _graph_def(2000, seed=4, extra=[("odd:1", "Add", ["odd:1", "s0/b0/n0"])])
    gd.node[5].name = "early:0"
    whole = _slow(gd)
    plain = sum(1 for n in gd.node for t in n.input if ":" not in t and "^" not in t)
    parsed.clear()
    streamed = Graph(protos.GraphDef(), complete=False)
    for start in range(0, len(gd.node), 500):
        part = protos.GraphDef()
        part.node.extend(gd.node[start:start + 500])
        data = part.SerializeToString()
        streamed.structure.MergeFromString(data)
        streamed.add_new_nodes(data)
    streamed.finish()
    assert _facts(streamed) == _facts(whole)
    assert len(parsed) < sum(len(n.input) for n in gd.node) - plain // 2


def test_walking_every_node_makes_their_inputs_in_one_pass_with_the_same_refs():
    from inspector.core.model.node_view import inputs_of

    for case in HOSTILE.values():
        g = Graph(_graph_def(extra=case + [("big", "Add", ["s0/b0/n0:99999999999"])]))
        one_by_one = [inputs_of(g._cols, i) for i in range(len(g))]
        assert [n.inputs for n in g.nodes] == one_by_one
        assert g._cols.refs is not None


def test_threads_asking_at_once_get_the_same_view_and_the_same_scope_tree(monkeypatch):
    import threading
    import time

    from inspector.core.model import graph_index, node_view, scope_grouping

    def slowly(real):
        return lambda *a: time.sleep(0.05) or real(*a)

    monkeypatch.setattr(node_view, "make_view", slowly(node_view.make_view))
    monkeypatch.setattr(scope_grouping, "scope_tree", slowly(scope_grouping.scope_tree))
    monkeypatch.setattr(graph_index, "consumer_csr", slowly(graph_index.consumer_csr))
    g = Graph(_graph_def(500))
    got = []

    def ask():
        got.append((g.nodes[7], g.scope_tree(), g.consumer_index()))

    threads = [threading.Thread(target=ask) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    (a, b) = got
    assert all(x is y for x, y in zip(a, b))


def test_a_batch_parsed_in_chunks_gives_what_one_node_at_a_time_gives(monkeypatch):
    """read_wire parses CHUNK bodies at a time (the peak of opening: 337 MB instead of
    465 MB for a flat 300k-node graph); a chunk with a node lacking its name falls back."""
    monkeypatch.setattr(columns, "CHUNK", 7)
    for case in HOSTILE.values():
        gd = _graph_def(extra=case)
        assert _facts(Graph(gd)) == _facts(_slow(gd))
    data = protos.GraphDef(node=_graph_def(100).node).SerializeToString() + \
        _field(1, _field(2, "Add") + _field(3, "s0/b0/n0"))
    assert columns.read_wire(data, 101) is None
    assert _facts(_streamed(data)) == _facts(_slow(_streamed(data).structure))


def test_a_node_asked_for_its_inputs_during_another_threads_walk_does_not_wait():
    """The window's thread asking one node's inputs while a worker makes every node's
    (cols.refs_lock held) gets them at once, made alone; the walk's table comes after."""
    g = Graph(_graph_def(500))
    nodes = list(g.nodes)                   # a walk: every view made
    with g._cols.refs_lock:                 # another thread making the table
        from inspector.core.model.node_view import inputs_of

        assert nodes[3].inputs == inputs_of(g._cols, 3) and g._cols.refs is None
    assert nodes[4].inputs is g._cols.refs[4]


def _scopes_node_by_node(names) -> list:
    """The scope tree as graph.py built it before the columns: node by node."""
    from inspector.core.model.inputs import MAX_SCOPE_DEPTH, scope_parts
    from inspector.core.model.scopes import Scope, add_scope

    root = Scope("")
    by_path = {"": root}
    for name in names:
        path = name.rpartition("/")[0] if name.count("/") <= MAX_SCOPE_DEPTH \
            else "/".join(scope_parts(name))
        (by_path.get(path) or add_scope(by_path, path)).nodes.append(name)
    return [(s.path, s.nodes) for s in root.walk()]


@pytest.mark.parametrize("kind", ["scope by scope", "interleaved", "flat", "deep", "one scope"])
def test_the_scope_tree_is_the_one_built_node_by_node(kind):
    n = 5000
    names = {"scope by scope": [f"a{i // 100}/b{i // 10 % 10}/n{i}" for i in range(n)],
             "interleaved": [f"a{i % 7}/b{i % 3}/n{i}" for i in range(n)],
             "flat": [f"n{i}" for i in range(n)],
             "deep": ["/".join(f"d{k}" for k in range(i % 130)) + f"/n{i}" for i in range(n)],
             "one scope": [f"only/n{i}" for i in range(n)]}[kind]
    gd = protos.GraphDef()
    for name in names:
        gd.node.add(name=name, op="Add")
    g = Graph(gd)
    assert [(s.path, s.nodes) for s in g.scope_tree().walk()] == _scopes_node_by_node(names)


def test_a_big_graph_hands_back_the_memory_its_opening_freed(monkeypatch):
    """The parse's buffers are freed among the objects kept: glibc keeps them in the RSS
    (flat 300k nodes: 311 MB after opening, 262 MB handed back) unless asked."""
    from inspector.core.model import graph as graph_module
    from inspector.core.runtime import gc_policy

    calls = []
    monkeypatch.setattr(gc_policy, "give_back_memory", lambda: calls.append(1))
    Graph(_graph_def(300))
    assert calls == []
    monkeypatch.setattr(graph_module, "TRIM_FROM", 300)
    Graph(_graph_def(300))
    assert calls == [1]
    monkeypatch.undo()
    gc_policy.give_back_memory()            # wherever it runs: no error


def test_the_read_nodes_are_found_when_asked_not_at_the_end_of_the_load():
    """The end of a load built a set of every node index some input reads (~90 ms holding
    the GIL at 1M nodes, just before the hierarchy): it is made on first use now, for a big
    graph a byte mask by one numpy step; has_consumers answers as the set did."""
    from inspector.core.loaders import load
    from inspector.core.model import graph_index
    from tests.fixtures.scale_models import blocks_graph

    graph = load(blocks_graph(20_000)).graph
    assert graph._reads is None
    read = set(graph._src)
    assert isinstance(graph_index.reads(graph), graph_index.ReadMask)
    assert [graph.has_consumers(n) for n in graph.name_list] == \
        [i in read for i in range(len(graph))]
    assert 0 < sum(map(graph.has_consumers, graph.name_list)) < len(graph)
    assert not graph.has_consumers("no such node")


@pytest.mark.parametrize("case", ["plain", "the marker as an input"])
def test_markers_found_by_equality_when_not_by_identity_give_the_same_batch(case,
                                                                           monkeypatch):
    data = _graph_def(extra=HOSTILE.get(case)).SerializeToString()
    expected = len(protos.GraphDef.FromString(data).node)
    by_identity = columns.read_wire(data, expected)
    monkeypatch.setattr(columns, "is_", lambda a, b: False)     # (another Python's strings)
    by_equality = columns.read_wire(data, expected)
    if case == "plain":
        assert by_identity is not None
        assert [by_identity.names, by_identity.ops, by_identity.inputs, by_identity.counts,
                by_identity.devices] == [by_equality.names, by_equality.ops,
                                         by_equality.inputs, by_equality.counts,
                                         by_equality.devices]
    else:         # refused both ways: read one node at a time
        assert by_identity is None and by_equality is None
