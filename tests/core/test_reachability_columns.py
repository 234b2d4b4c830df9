"""Walks over a Graph's columns (node indexes, input and consumer CSR; numpy levels on big
graphs) reach exactly what a walk by names through Node views reaches, on ordinary and
hostile graphs, and make no Node object."""

from __future__ import annotations

import random

import pytest

from inspector.core.model import protos, reachability
from inspector.core.model.graph import Graph


def _graph_def(n: int, seed: int, wide: bool):
    """Random inputs (data, ports, control), some dangling, a few duplicate names; `wide`:
    most inputs read the first nodes, so levels are wide (the numpy steps)."""
    rnd = random.Random(seed)
    gd = protos.GraphDef()
    for i in range(n):
        node = gd.node.add(name=f"s{i % 7}/n{i}" if i % 97 else "dup", op="Add")
        for _ in range(rnd.randrange(4)):
            j = rnd.randrange(min(n, 50)) if wide and rnd.random() < 0.7 else rnd.randrange(n)
            text = f"s{j % 7}/n{j}" if j % 97 else "dup"
            kind = rnd.randrange(6)
            node.input.append(text if kind < 3 else f"{text}:{rnd.randrange(3)}" if kind == 3
                              else "^" + text if kind == 4 else "missing_" + text)
    return gd


def _by_names(graph: Graph, starts, stop, backwards: bool) -> set:
    """The walk as it was written over names and Node views (the reference)."""
    seen = {s for s in starts if s in graph}
    todo = [s for s in seen if s not in stop]
    while todo:
        nxt = []
        for name in todo:
            step = [r.node for r in graph.node(name).inputs] if backwards else \
                graph.consumer_names(name)
            for other in step:
                if other not in seen and other in graph:
                    seen.add(other)
                    if other not in stop:
                        nxt.append(other)
        todo = nxt
    return seen


@pytest.mark.parametrize("n, wide", [(300, False), (6000, False), (6000, True)])
def test_walks_on_the_columns_reach_what_walks_by_names_reach(n, wide):
    gd = _graph_def(n, seed=n, wide=wide)
    walked, reference = Graph(gd), Graph(gd)
    assert walked.duplicate_names and walked.dangling_inputs
    rnd = random.Random(7)
    names = walked.name_list
    for _ in range(12):
        starts = rnd.sample(names, rnd.choice([1, 1, 3])) + ["not_a_node"]
        stop = rnd.sample(names, rnd.choice([0, 2, 20]))
        assert reachability.upstream(walked, starts, stop=stop) == \
            _by_names(reference, starts, set(stop), backwards=True)
        assert reachability.downstream(walked, starts) == \
            _by_names(reference, starts, set(), backwards=False)
    assert reachability.upstream(walked, ["dup"]) == _by_names(reference, ["dup"], set(), True)
    assert reachability.downstream(walked, ["dup"]) == _by_names(reference, ["dup"], set(),
                                                                 False)
    assert sum(v is not None for v in walked._views) == 0      # no Node view made


def test_the_whole_graph_is_walked_through_a_chain_and_a_fan():
    gd = protos.GraphDef()
    gd.node.add(name="in", op="Placeholder")
    for i in range(5000):                       # a chain: narrow levels
        gd.node.add(name=f"c{i}", op="Relu", input=["in" if i == 0 else f"c{i - 1}"])
    for i in range(3000):                       # a fan: one wide level
        gd.node.add(name=f"f{i}", op="Relu", input=["c4999", "^in"])
    gd.node.add(name="out", op="AddN", input=[f"f{i}" for i in range(3000)])
    g = Graph(gd)
    assert reachability.upstream(g, ["out"]) == set(g.names())
    assert reachability.upstream(g, ["out"], stop=["c10"]) == \
        set(g.names()) - {f"c{i}" for i in range(10)}          # "in": a control input
    assert reachability.downstream(g, ["c4990"]) == \
        {f"c{i}" for i in range(4990, 5000)} | {f"f{i}" for i in range(3000)} | {"out"}
    assert reachability.between(g, ["c100"], ["f5"]) == \
        {f"c{i}" for i in range(100, 5000)} | {"f5", "in"}
    assert sum(v is not None for v in g._views) == 0


def test_the_strip_preview_reads_the_columns_and_makes_no_node_object():
    from inspector.core.analysis.marks import strip_preview

    gd = _graph_def(6000, seed=11, wide=False)
    for i in range(0, 6000, 600):
        gd.node[i].op = "Placeholder"
    gd.node[5].op, gd.node[6].op = "ApplyAdam", "PlaceholderWithDefault"
    graph, reference = Graph(gd), Graph(gd)
    names = graph.name_list
    ins, outs = [names[1200]], [names[-1], names[4000]]
    got = strip_preview(graph, ins, outs)
    kept = _by_names(reference, outs, set(ins), backwards=True) | set(ins)
    dropped = set(names) - kept
    assert got.kept == kept and got.dropped == dropped and dropped
    assert got.training_only == {names[5]: "optimizer"}
    assert got.dropped_bytes == sum(reference.node(n).proto.ByteSize() for n in dropped)
    assert got.needs_feeding == [n.name for n in reference if n.op == "Placeholder"
                                 and n.name in kept and n.name not in ins]
    assert sum(v is not None for v in graph._views) == 0


@pytest.mark.parametrize("n", [300, 6000])
def test_the_cone_is_what_the_node_needs_and_what_needs_it(n):
    gd = _graph_def(n, seed=5, wide=True)
    graph, reference = Graph(gd), Graph(gd)
    for name in random.Random(2).sample(graph.name_list, 8) + ["dup", "not_a_node"]:
        assert reachability.cone(graph, [name]) == \
            _by_names(reference, [name], set(), True) | _by_names(reference, [name], set(), False)
    assert sum(v is not None for v in graph._views) == 0
