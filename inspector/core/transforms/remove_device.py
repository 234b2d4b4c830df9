"""remove_device: clear the device field of every node."""

from inspector.core.transforms.base import transform
from inspector.core.transforms.graph_utils import copy_graph


@transform("remove_device", "clean up", "Clears every node's device placement.")
def remove_device(graph_def, ctx):
    out = copy_graph(graph_def)
    for node in out.node:
        if node.device:
            ctx.note(node.name, f"device '{node.device}' cleared")
        node.device = ""
    return out
