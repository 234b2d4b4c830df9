"""TF's check after every transform: inputs must name existing nodes and be well formed."""

from __future__ import annotations

import re

from inspector.core.model.graph import INPUT_SYNTAX, node_name_from_input
from inspector.core.transforms.base import TransformError

# INPUT_SYNTAX with the node's name as group 1 (what node_name_from_input gives, when the
# match ends the text: `$` also matches before a final newline)
_NAMED = re.compile(INPUT_SYNTAX.pattern.replace("[^:^]+", "([^:^]+)", 1))


def validate(graph_def, what: str = "Invalid graph after the transform") -> None:
    """TF's check after every transform (inputs must name existing nodes), plus well-formed
    input strings; errors name the node and the input."""
    names = {n.name for n in graph_def.node}
    for node in graph_def.node:
        for text in node.input:
            if text and ":" not in text and "^" not in text:
                if text not in names:       # a plain name: well formed, and the node's name
                    raise _nonexistent(what, text, node.name)
                continue
            name = named_node(text)
            if name is None:
                raise TransformError(f"{what}: node '{node.name}' has a malformed input "
                                     f"'{text}'", node=node.name)
            if name not in names:
                raise _nonexistent(what, text, node.name)


def named_node(text: str) -> str | None:
    """The name of the node an input names, as validate reads it; None for a malformed
    input."""
    if text and ":" not in text and "^" not in text:
        return text
    m = _NAMED.match(text)
    if m is None:
        return None
    return m.group(1) if m.end() == len(text) else node_name_from_input(text)


def _nonexistent(what: str, text: str, node: str) -> TransformError:
    return TransformError(f"{what}: inputs referring to nonexistent nodes ('{text}' of node "
                          f"'{node}')", node=node)
