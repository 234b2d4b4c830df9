"""TensorFlow's execution order (SortByExecutionOrder), reproduced exactly: Kahn's algorithm
with a LIFO ready stack and TF's special case for Merge. Kept hand-written (not networkx)
because summarize_graph --print_structure and sort_by_execution_order must match TF's order."""

from __future__ import annotations

from inspector.core.errors import InspectorError


def execution_order(graph_def) -> list:
    """The nodes in TF's SortByExecutionOrder order (no copy of the graph)."""
    nodes = list(graph_def.node)
    index = {n.name: i for i, n in enumerate(nodes)}
    pending = [0] * len(nodes)
    consumers: list = [[] for _ in nodes]
    ready = []
    for i, node in enumerate(nodes):
        if node.op in ("Merge", "RefMerge"):
            data = sum(1 for t in node.input if not t.startswith("^"))
            pending[i] = len(node.input) - data + (1 if data else 0)
            pending[i] = max(pending[i], 0)
        else:
            pending[i] = len(node.input)
        if not node.input:
            ready.append(i)
        for text in node.input:     # node_name_from_input, written out (a hot loop)
            src = (text[1:] if text[:1] == "^" else text).split(":", 1)[0]
            if src not in index:
                raise InspectorError(f"Node {node.name} has input {text} which is not in the graph",
                                     node=node.name)
            consumers[index[src]].append(i)
    order = []
    while ready:
        i = ready.pop()
        order.append(i)
        for c in consumers[i]:
            pending[c] -= 1
            if pending[c] == 0:
                ready.append(c)
    if len(order) < len(nodes):
        from inspector.core.model.reachability import find_cycle

        cycle = find_cycle(graph_def)
        path = " -> ".join((cycle + cycle[:1])[:8]) + (" ..." if len(cycle) > 7 else "")
        raise InspectorError(f"{len(nodes) - len(order)} nodes are in a cycle or wait on one "
                             f"(cycle: {path})", node=cycle[0] if cycle else None)
    return [nodes[i] for i in order]
