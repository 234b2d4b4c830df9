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
    columns.read_wire = lambda data, expected: None
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
    assert g._exact                         # read through the wire path
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
