"""TensorFlow's execution order (SortByExecutionOrder), reproduced exactly: Kahn's algorithm
with a LIFO ready stack and TF's special case for Merge. Kept hand-written (not networkx)
because summarize_graph --print_structure and sort_by_execution_order must match TF's order.

A Graph is ordered on its columns (input CSR, consumer CSR, node indexes: no per-node
object); a GraphDef (transforms hold them), or a Graph with duplicate names or inputs naming
no node, by reading each NodeDef's inputs."""

from __future__ import annotations

from itertools import chain, repeat
from operator import sub

from inspector.core.errors import InspectorError
from inspector.core.model.graph import Graph
from inspector.core.model.kahn import csr, lifo_kahn
from inspector.core.model.node_store import StoredNodes
from inspector.core.model.reachability import find_cycle

MERGES = ("Merge", "RefMerge")


def execution_order(graph) -> list:
    """The NodeDefs of a GraphDef or Graph in TF's SortByExecutionOrder order (no copy)."""
    if isinstance(graph, Graph):
        order = execution_indexes(graph)
        if order is not None:
            protos = graph.structure.node
            if isinstance(protos, StoredNodes):
                protos = protos[:]     # a big graph's stand-in: parsed in order, not at random
            return list(map(protos.__getitem__, order))
        graph = graph.structure
    return _by_protos(graph)


def execution_indexes(graph: Graph) -> list | None:
    """Node indexes in TF's order, from the Graph's columns; None where the NodeDefs must
    say (duplicate names: TF's index keeps the last; an input naming no node) or where the
    order raises (a cycle), for _by_protos to answer or word the error."""
    if graph.duplicate_names or graph._loose:
        return None
    n, off, port = len(graph), graph._in_off, graph._port
    counts = list(map(sub, off[1:], off))
    pending = counts[:]
    for op in MERGES:
        for i in graph.nodes_of_op(op):
            inputs = counts[i]
            data = sum(1 for p in port[off[i]:off[i + 1]] if p >= 0)
            pending[i] = max(inputs - data + (1 if data else 0), 0)
    starts, places = graph.consumer_index()
    reader = list(chain.from_iterable(map(repeat, range(n), counts)))   # position -> node
    readers = list(map(reader.__getitem__, places))     # of node i: starts[i]..starts[i+1]
    del reader
    order = lifo_kahn(pending, starts, readers)
    return order if len(order) == n else None


def _by_protos(graph_def) -> list:
    nodes = list(graph_def.node)
    index = {n.name: i for i, n in enumerate(nodes)}
    pending = [0] * len(nodes)
    consumers: list = [[] for _ in nodes]
    for i, node in enumerate(nodes):
        inputs = list(node.input)   # read once: each read of a repeated field is a C call
        if node.op in MERGES:
            data = sum(1 for t in inputs if not t.startswith("^"))
            pending[i] = len(inputs) - data + (1 if data else 0)
            pending[i] = max(pending[i], 0)
        else:
            pending[i] = len(inputs)
        for text in inputs:         # node_name_from_input, written out (a hot loop)
            j = index.get((text[1:] if text[:1] == "^" else text).split(":", 1)[0])
            if j is None:
                raise InspectorError(f"Node {node.name} has input {text} which is not in the graph",
                                     node=node.name)
            consumers[j].append(i)
    order = lifo_kahn(pending, *csr(consumers))
    if len(order) < len(nodes):
        cycle = find_cycle(graph_def)
        path = " -> ".join((cycle + cycle[:1])[:8]) + (" ..." if len(cycle) > 7 else "")
        raise InspectorError(f"{len(nodes) - len(order)} nodes are in a cycle or wait on one "
                             f"(cycle: {path})", node=cycle[0] if cycle else None)
    return [nodes[i] for i in order]
