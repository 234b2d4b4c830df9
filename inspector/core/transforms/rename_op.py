"""rename_op: change the op type of every node of one type."""

from inspector.core.transforms.base import Param, transform
from inspector.core.transforms.graph_utils import copy_graph


@transform("rename_op", "clean up", "Changes every node of one op type to another op type.",
           [Param("old_op_name", "op", required=True), Param("new_op_name", "string",
                                                            required=True)])
def rename_op(graph_def, ctx):
    old = ctx.single("old_op_name", required=True)
    new = ctx.single("new_op_name", required=True)
    out = copy_graph(graph_def)
    for node in out.node:
        if node.op == old:
            node.op = new
            ctx.note(node.name, f"op {old} -> {new}")
    return out
