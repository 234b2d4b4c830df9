"""TF's check after every transform: inputs must name existing nodes and be well formed."""

from __future__ import annotations

from inspector.core.model.graph import INPUT_SYNTAX, node_name_from_input
from inspector.core.transforms.base import TransformError


def validate(graph_def, what: str = "Invalid graph after the transform") -> None:
    """TF's check after every transform (inputs must name existing nodes), plus well-formed
    input strings; errors name the node and the input."""
    names = {n.name for n in graph_def.node}
    for node in graph_def.node:
        for text in node.input:
            if not INPUT_SYNTAX.match(text):
                raise TransformError(f"{what}: node '{node.name}' has a malformed input "
                                     f"'{text}'", node=node.name)
            if node_name_from_input(text) not in names:
                raise TransformError(f"{what}: inputs referring to nonexistent nodes "
                                     f"('{text}' of node '{node.name}')", node=node.name)
