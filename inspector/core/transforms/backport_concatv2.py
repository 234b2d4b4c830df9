"""backport_concatv2: ConcatV2 -> Concat for old runtimes (axis moved to the front)."""

from inspector.core.transforms.base import transform
from inspector.core.transforms.graph_utils import copy_graph


@transform("backport_concatv2", "clean up",
           "Rewrites ConcatV2 as the older Concat op, for runtimes that lack ConcatV2.")
def backport_concatv2(graph_def, ctx):
    out = copy_graph(graph_def)
    for node in out.node:
        if node.op != "ConcatV2":
            continue
        data = [i for i in node.input if not i.startswith("^")]
        control = [i for i in node.input if i.startswith("^")]
        node.op = "Concat"
        node.input[:] = [data[-1]] + data[:-1] + control
        if "Tidx" in node.attr:
            del node.attr["Tidx"]
        ctx.note(node.name, "ConcatV2 -> Concat")
    return out
