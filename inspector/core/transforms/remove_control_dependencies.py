"""remove_control_dependencies: drop every ^control input."""

from inspector.core.transforms.base import transform
from inspector.core.transforms.graph_utils import copy_graph


@transform("remove_control_dependencies", "clean up",
           "Drops all control dependencies (the dashed edges).")
def remove_control_dependencies(graph_def, ctx):
    out = copy_graph(graph_def)
    for node in out.node:
        kept = [i for i in node.input if not i.startswith("^")]
        if len(kept) != len(node.input):
            ctx.note(node.name, "control inputs removed")
            node.input[:] = kept
    return out
