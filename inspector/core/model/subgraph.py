"""Reachability: the part of a graph between given inputs and outputs."""

from __future__ import annotations

from inspector.core.errors import InspectorError
from inspector.core.model.graph import Graph, node_name_from_input


def _names(graph: Graph, names) -> list:
    out = []
    for text in names:
        name = node_name_from_input(text)
        if name not in graph:
            raise InspectorError(f"node '{name}' is not in the graph", node=name)
        out.append(name)
    return out


def upstream(graph: Graph, outputs, stop=()) -> set:
    """Nodes reachable backwards from outputs (data and control), not walking past `stop`."""
    stop = set(stop)
    seen = set(outputs)
    stack = list(outputs)
    while stack:
        name = stack.pop()
        if name in stop:
            continue
        node = graph.get(name)
        for ref in node.inputs if node else ():
            if ref.node not in seen and ref.node in graph:
                seen.add(ref.node)
                stack.append(ref.node)
    return seen


def downstream(graph: Graph, inputs) -> set:
    seen = set(inputs)
    stack = list(inputs)
    while stack:
        for edge in graph.consumers(stack.pop()):
            if edge.dst not in seen:
                seen.add(edge.dst)
                stack.append(edge.dst)
    return seen


def between(graph: Graph, inputs=(), outputs=()) -> set:
    """What strip_unused_nodes keeps: upstream of outputs stopping at inputs (inputs kept)."""
    ins, outs = _names(graph, inputs), _names(graph, outputs)
    if outs:
        return upstream(graph, outs, stop=ins) | set(ins)
    return downstream(graph, ins)
