"""add_default_attributes: write out attrs that have defaults but are missing from NodeDefs."""

from __future__ import annotations

from inspector.core.runtime.executor import tensorflow
from inspector.core.transforms.base import transform
from inspector.core.transforms.graph_utils import copy_graph


@transform("add_default_attributes", "clean up",
           "Adds every attribute that has a default value but is missing (for older runtimes).")
def add_default_attributes(graph_def, ctx):
    out = copy_graph(graph_def)
    defaults = tensorflow().default_attrs({n.op for n in out.node})
    for node in out.node:
        for name, value in defaults.get(node.op, {}).items():
            if name not in node.attr:
                node.attr[name].ParseFromString(value)
                ctx.note(node.name, f"default attr {name} added")
    return out
