"""TensorFlow's execution order (SortByExecutionOrder), reproduced exactly: Kahn's algorithm
with a LIFO ready stack and TF's special case for Merge. Kept hand-written (not networkx)
because summarize_graph --print_structure and sort_by_execution_order must match TF's order."""

from __future__ import annotations

from inspector.core.errors import InspectorError
from inspector.core.model.reachability import find_cycle


def execution_order(graph_def) -> list:
    """The nodes in TF's SortByExecutionOrder order (no copy of the graph)."""
    nodes = list(graph_def.node)
    index = {n.name: i for i, n in enumerate(nodes)}
    pending = [0] * len(nodes)
    consumers: list = [[] for _ in nodes]
    ready = []
    for i, node in enumerate(nodes):
        inputs = list(node.input)   # read once: each read of a repeated field is a C call
        if node.op in ("Merge", "RefMerge"):
            data = sum(1 for t in inputs if not t.startswith("^"))
            pending[i] = len(inputs) - data + (1 if data else 0)
            pending[i] = max(pending[i], 0)
        else:
            pending[i] = len(inputs)
        if not inputs:
            ready.append(i)
        for text in inputs:         # node_name_from_input, written out (a hot loop)
            j = index.get((text[1:] if text[:1] == "^" else text).split(":", 1)[0])
            if j is None:
                raise InspectorError(f"Node {node.name} has input {text} which is not in the graph",
                                     node=node.name)
            consumers[j].append(i)
    order = []
    while ready:
        i = ready.pop()
        order.append(i)
        for c in consumers[i]:
            pending[c] -= 1
            if pending[c] == 0:
                ready.append(c)
    if len(order) < len(nodes):
        cycle = find_cycle(graph_def)
        path = " -> ".join((cycle + cycle[:1])[:8]) + (" ..." if len(cycle) > 7 else "")
        raise InspectorError(f"{len(nodes) - len(order)} nodes are in a cycle or wait on one "
                             f"(cycle: {path})", node=cycle[0] if cycle else None)
    return [nodes[i] for i in order]
