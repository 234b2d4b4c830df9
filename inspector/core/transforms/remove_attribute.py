"""remove_attribute: delete an attr from all (or one op type's) nodes."""

from inspector.core.transforms.base import Param, transform
from inspector.core.transforms.graph_utils import copy_graph


@transform("remove_attribute", "clean up", "Deletes an attribute from nodes.",
           [Param("attribute_name", "string", required=True), Param("op_name", "op", "*")])
def remove_attribute(graph_def, ctx):
    name = ctx.single("attribute_name", required=True)
    op = ctx.single("op_name", "*")
    out = copy_graph(graph_def)
    for node in out.node:
        if (op == "*" or node.op == op) and name in node.attr:
            del node.attr[name]
            ctx.note(node.name, f"attr {name} removed")
    return out
