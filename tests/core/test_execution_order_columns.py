"""TF's execution order on a Graph's columns gives the order read from the NodeDefs (the
reference the TF comparisons check), Merge rule, control and repeated inputs included; the
graphs it cannot order on the columns give the NodeDefs' answer or error."""

from __future__ import annotations

import random

import pytest

from inspector.core.errors import InspectorError
from inspector.core.model import protos
from inspector.core.model.execution_order import execution_indexes, execution_order
from inspector.core.model.graph import Graph


def _dag(n: int, seed: int):
    rnd = random.Random(seed)
    gd = protos.GraphDef()
    for i in range(n):
        op = rnd.choice(["Const", "Add", "Relu", "Merge", "RefMerge", "NoOp"]) if i else "Const"
        node = gd.node.add(name=f"s{i % 5}/n{i}", op=op)
        for _ in range(rnd.randrange(5) if i else 0):
            j = rnd.randrange(i)
            kind = rnd.randrange(4)
            node.input.append(f"s{j % 5}/n{j}" if kind < 2 else f"s{j % 5}/n{j}:{rnd.randrange(3)}"
                              if kind == 2 else f"^s{j % 5}/n{j}")
    order = list(range(n))
    rnd.shuffle(order)                     # graph order is not a topological order
    shuffled = protos.GraphDef()
    shuffled.node.extend(gd.node[k] for k in order)
    return shuffled


@pytest.mark.parametrize("n, seed", [(40, 0), (300, 1), (5000, 2)])
def test_the_order_on_the_columns_is_the_order_of_the_nodedefs(n, seed):
    gd = _dag(n, seed)
    graph = Graph(gd)
    assert graph.nodes_of_op("Merge") and execution_indexes(graph) is not None
    assert [p.name for p in execution_order(graph)] == [p.name for p in execution_order(gd)]
    assert sum(v is not None for v in graph._views) == 0


@pytest.mark.parametrize("extra", [
    [("n_dup", "Add", ["s0/n0"]), ("n_dup", "Relu", ["n_dup"])],      # TF keeps the last
    [("loose", "Add", ["missing:1"])],
    [("a", "Add", ["b"]), ("b", "Add", ["a"])],                        # a cycle
])
def test_graphs_the_columns_cannot_order_answer_as_the_nodedefs_do(extra):
    gd = _dag(300, 3)
    for name, op, inputs in extra:
        gd.node.add(name=name, op=op).input.extend(inputs)
    graph = Graph(gd)
    assert execution_indexes(graph) is None
    try:
        want = [p.name for p in execution_order(gd)]
    except InspectorError as exc:
        with pytest.raises(InspectorError) as got:
            execution_order(graph)
        assert got.value.message == exc.message
    else:
        assert [p.name for p in execution_order(graph)] == want
