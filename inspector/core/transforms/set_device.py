"""set_device: put every node (or every node without one) on a device."""

from inspector.core.transforms.base import Param, transform
from inspector.core.transforms.graph_utils import copy_graph


@transform("set_device", "clean up", "Places every node on the given device.",
           [Param("device", "string", ""), Param("if_default", "bool", "false")])
def set_device(graph_def, ctx):
    device = ctx.single("device", "")
    only_empty = ctx.bool("if_default", False)
    out = copy_graph(graph_def)
    for node in out.node:
        if not only_empty or not node.device:
            node.device = device
    return out
