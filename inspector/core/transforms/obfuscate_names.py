"""obfuscate_names: rename nodes to short base-62 ids, keeping the inputs and outputs."""

from __future__ import annotations

from inspector.core.model.graph import node_name_from_input
from inspector.core.transforms.base import transform
from inspector.core.transforms.graph_utils import copy_graph

CHARS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def short_id(index: int) -> str:
    out = ""
    while True:
        out = CHARS[index % len(CHARS)] + out
        index //= len(CHARS)
        if index <= 0:
            return out


@transform("obfuscate_names", "clean up",
           "Renames every node to a short id (smaller file, hides the architecture); the "
           "inputs and outputs keep their names.")
def obfuscate_names(graph_def, ctx):
    keep = set(ctx.inputs) | set(ctx.outputs)  # TF compares the raw strings with node names
    new_names, index = {}, 0
    for node in graph_def.node:
        if node.name in keep:
            new_names[node.name] = node.name
            continue
        while True:
            candidate = short_id(index)
            index += 1
            if candidate not in keep:
                break
        new_names[node.name] = candidate
    ctx.became.update({old: new for old, new in new_names.items() if old != new})
    out = copy_graph(graph_def)
    for node in out.node:
        node.name = new_names[node.name]
        for i, text in enumerate(node.input):
            prefix = "^" if text.startswith("^") else ""
            body = text[1:] if prefix else text
            name = node_name_from_input(text)
            suffix = body[len(name):]
            node.input[i] = prefix + new_names.get(name, "") + suffix
    return out
