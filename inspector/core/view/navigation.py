"""Keyboard walking: from a node to its producer, consumer or siblings."""

from __future__ import annotations


def neighbour(graph, name: str, direction: str, view=None) -> str | None:
    """The node reached from `name` with an arrow key (None if there is none)."""
    node = graph.get(name)
    if node is None:
        return None
    folded = view.is_folded if view is not None else (lambda n: False)
    if direction == "up":
        for ref in node.data_inputs + node.control_inputs:
            if ref.node in graph and not folded(ref.node):
                return ref.node
        return None
    if direction == "down":
        edges = graph.data_consumers(name) or graph.consumers(name)
        return edges[0].dst if edges else None
    producer = next((r.node for r in node.data_inputs if r.node in graph and
                     not folded(r.node)), None)
    if producer is None:
        return None
    siblings = list(dict.fromkeys(e.dst for e in graph.data_consumers(producer)))
    if len(siblings) < 2 or name not in siblings:
        return None
    step = -1 if direction == "left" else 1
    return siblings[(siblings.index(name) + step) % len(siblings)]
