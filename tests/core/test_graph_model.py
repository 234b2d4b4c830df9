"""The core graph model: edges, consumers, scopes, functions, attrs and tensors.

This file holds the tests that need neither TensorFlow nor Qt; the others are in
tests/tf/test_graph_model_tf.py."""

import os

import numpy as np

from inspector.core.loaders import load
from inspector.core.model.function_bodies import function_graph
from inspector.core.model.graph import InputRef, parse_input


def test_inputs_edges_and_consumers(data):
    g = load(os.path.join(data, "v1_training.pb")).graph
    assert parse_input("a:2") == InputRef("a", 2, False)
    assert parse_input("^a") == InputRef("a", -1, True) and str(parse_input("^a")) == "^a"
    assert parse_input("f:output:1") == InputRef("f", 1, False)  # function-body style
    relu = g.node("relu1")
    assert relu.data_inputs[0].node == "bn1/FusedBatchNorm"
    assert any(e.dst == "relu1" for e in g.consumers("bn1/FusedBatchNorm"))
    control = [e for e in g.edges() if e.control]
    assert len(control) == sum(1 for n in g for i in n.inputs if i.control) > 0


def test_scope_tree_counts_every_node(data):
    g = load(os.path.join(data, "inception_jpeg.pb")).graph
    root = g.scope_tree()
    assert root.node_count() == len(g)
    mixed = root.children["mixed"]
    assert set(mixed.children) == {"tower_0", "tower_1", "tower_2", "join"}
    assert "mixed/join" in mixed.nodes  # a node and a scope (its axis const) at once
    assert mixed.children["join"].nodes == ["mixed/join/axis"]
    assert mixed.children["tower_1"].children["conv"].path == "mixed/tower_1/conv"


def test_scope_tree_of_odd_names():
    """Scopes made in any order (a child seen before its parent's own nodes), empty segments,
    and names deeper than MAX_SCOPE_DEPTH kept in their 64th scope."""
    from inspector.core.model.graph import MAX_SCOPE_DEPTH, Graph
    from inspector.core.model.protos import graph_pb2

    deep = "d/" + "/".join(str(i) for i in range(100))
    names = ["a/b/c", "a", "x//y", "a/b", "b", "a/c/d", deep, "a/b/e"]
    gd = graph_pb2.GraphDef()
    for name in names:
        gd.node.add(name=name, op="NoOp")
    root = Graph(gd).scope_tree()
    assert list(root.children) == ["a", "x", "d"] and root.nodes == ["a", "b"]
    a = root.children["a"]
    assert list(a.children) == ["b", "c"] and a.nodes == ["a/b"]
    assert a.children["b"].nodes == ["a/b/c", "a/b/e"] and a.children["b"].path == "a/b"
    assert root.children["x"].children[""].path == "x/"
    assert root.children["x"].children[""].nodes == ["x//y"]
    scope, depth = root.children["d"], 1
    while scope.children:
        scope, depth = next(iter(scope.children.values())), depth + 1
    assert depth == MAX_SCOPE_DEPTH and scope.nodes == [deep]
    assert scope.path == "/".join(deep.split("/")[:MAX_SCOPE_DEPTH])
    assert root.node_count() == len(names)


def test_function_library_bodies_are_graphs(data):
    g = load(os.path.join(data, "while_v2.pb")).graph
    assert len(g.functions) == 2
    for name in g.functions:
        body = function_graph(g, name)
        ops = {n.op for n in body}
        assert "_Arg" in ops and "_Retval" in ops
        assert not body.dangling_inputs, body.dangling_inputs


def _networkx_upstream(gd, starts, stops) -> set:
    """The oracle of the GraphDef walk up (it no longer imports networkx): a BFS on the
    reversed DiGraph that does not leave the stop nodes."""
    import networkx as nx

    from inspector.core.model.reachability import digraph

    g = digraph(gd).reverse(copy=True)
    g.remove_edges_from([(s, n) for s in stops for n in list(g.successors(s))])
    return {n for layer in nx.bfs_layers(g, list(dict.fromkeys(starts))) for n in layer}


def test_walks_over_a_graph_equal_networkx_walks_over_its_graphdef():
    """upstream/downstream/between on a Graph walk its own indexes; on a GraphDef, upstream
    walks the NodeDefs' inputs and the others use networkx. All must agree with networkx
    (control edges, missing producers, stop nodes, cycles)."""
    import random

    from inspector.core.model import protos
    from inspector.core.model.graph import Graph
    from inspector.core.model.reachability import between, downstream, upstream

    rng = random.Random(7)
    for trial in range(30):
        gd = protos.GraphDef()
        count = rng.randint(2, 60)
        for i in range(count):
            node = gd.node.add(name=f"s{i % 4}/n{i}", op="Identity")
            for _ in range(rng.randint(0, 3)):
                j = rng.randint(0, count + 2)    # later nodes make cycles; past count: missing
                src = f"s{j % 4}/n{j}"
                node.input.append(rng.choice([src, f"^{src}", f"{src}:1"]))
        graph = Graph(gd)
        names = [n.name for n in gd.node]
        starts = rng.sample(names, rng.randint(1, 3))
        stops = rng.sample(names, rng.randint(0, 3))
        assert upstream(graph, starts, stops) == upstream(gd, starts, stops), trial
        assert upstream(gd, starts, stops) == _networkx_upstream(gd, starts, stops), trial
        assert downstream(graph, starts) == downstream(gd, starts), trial
        assert between(graph, stops, starts) == between(gd, stops, starts), trial
        assert between(graph, starts) == between(gd, starts), trial


def _tensor(dtype=1, dims=(2, 3), content=b"", unknown_rank=False, **values):
    from inspector.core.model import protos

    t = protos.tensor_pb2.TensorProto(dtype=dtype)
    if unknown_rank:
        t.tensor_shape.unknown_rank = True
    for d in dims:
        t.tensor_shape.dim.add(size=d)
    if content:
        t.tensor_content = content
    for field, vals in values.items():
        getattr(t, field).extend(vals)
    return t


def test_tensor_facts_agree_with_the_one_question_helpers():
    """facts() answers element_count, is_decodable and stored_bytes with one shape read."""
    from inspector.core.model import tensors
    from inspector.core.model.weights import LAZY_MARK

    lazy = _tensor(dims=(4, 4))
    lazy.version_number = LAZY_MARK
    cases = [_tensor(content=np.zeros(6, "<f4").tobytes()),       # consistent content
             _tensor(content=b"\0" * 5),                           # inconsistent content
             _tensor(dims=(), float_val=[1.5]),                    # scalar, typed field
             _tensor(dims=(7,), float_val=[0.0]),                  # TF repeats the last value
             _tensor(dims=(-1, 3)), _tensor(dims=(0, 3)),          # unknown and empty dims
             _tensor(unknown_rank=True, dims=()),
             _tensor(dtype=7, dims=(2,), string_val=[b"ab", b"cde"]),
             _tensor(dtype=20, dims=()), _tensor(dtype=99, dims=(1,)), lazy]
    for t in cases:
        f = tensors.facts(t)
        assert f.elements == tensors.element_count(t), t
        assert f.decodable == tensors.is_decodable(t), t
        assert f.stored == tensors.stored_bytes(t), t
        assert f.lazy == (t is lazy)
    assert tensors.facts(lazy).stored == 16 * 4


def test_consumer_index_is_built_only_when_asked(data):
    """Opening a graph builds no edge index; has_consumers answers from the input names."""
    g = load(os.path.join(data, "v1_training.pb")).graph
    assert g._consumers is None
    for node in g:
        assert g.has_consumers(node.name) == bool(g.consumers(node.name))
    assert g._consumers is not None
    facts = g.const_facts()
    consts = [n for n in g if n.op == "Const"]
    assert set(facts) == {n.name for n in consts}
    from inspector.core.model.parameters import const_elements

    assert all(facts[n.name].elements == const_elements(n.proto) for n in consts)


def test_consumers_match_the_edges_they_come_from(data):
    """The compact consumer index gives back every edge, in graph order of the consumers
    and input order within one, including a node reading the same producer twice."""
    from inspector.core.model.graph import Graph
    from inspector.core.model.protos import graph_pb2

    gd = graph_pb2.GraphDef()
    gd.node.add(name="a", op="Const")
    gd.node.add(name="b", op="Add", input=["a", "a", "^a"])
    gd.node.add(name="c", op="Identity", input=["a:1"])
    many = gd.node.add(name="wait", op="NoOp")
    for i in range(300):
        gd.node.add(name=f"n{i}", op="NoOp")
        many.input.append(f"^n{i}")
    for graph in (Graph(gd), load(os.path.join(data, "v1_training.pb")).graph):
        expected = {}
        for edge in graph.edges():
            expected.setdefault(edge.src, []).append(edge)
        for node in graph:
            assert graph.consumers(node.name) == expected.get(node.name, [])
            assert graph.consumer_names(node.name) == list(
                dict.fromkeys(e.dst for e in expected.get(node.name, [])))
    small = Graph(gd)
    assert [(e.dst, e.dst_index, e.src_port, e.control) for e in small.consumers("a")] == \
        [("b", 0, 0, False), ("b", 1, 0, False), ("b", 2, -1, True), ("c", 0, 1, False)]
    assert small.consumer_names("a") == ["b", "c"]
    assert small.consumers("n299") == [("n299", -1, "wait", 299, True)]


def test_facts_of_typed_values_measure_them_as_stored_bytes_does():
    """A tensor with values in a typed field (float_val, int_val, string_val): facts() says
    the same stored size as stored_bytes, and shares nothing else between tensors."""
    from inspector.core.model import protos, tensors

    def tensor(dtype, field, values, dims=()):
        t = protos.GraphDef().node.add().attr["value"].tensor
        t.dtype = dtype
        getattr(t, field).extend(values)
        for d in dims:
            t.tensor_shape.dim.add(size=d)
        return t

    cases = [tensor(1, "float_val", [1.0, 2.0], (2,)), tensor(1, "float_val", [3.0], (2,)),
             tensor(3, "int_val", [4]), tensor(7, "string_val", [b"abc", b"de"], (2,))]
    assert [tensors.facts(t).stored for t in cases] == [8, 4, 4, 5]
    assert all(tensors.facts(t).stored == tensors.stored_bytes(t) for t in cases)
    assert tensors.facts(cases[0]).elements == 2 and tensors.facts(cases[0]).decodable
