"""rename_attribute: move an attr to a new key."""

from inspector.core.transforms.base import Param, transform
from inspector.core.transforms.graph_utils import copy_graph


@transform("rename_attribute", "clean up", "Renames an attribute on all (or one op type's) nodes.",
           [Param("old_attribute_name", "string", required=True),
            Param("new_attribute_name", "string", required=True), Param("op_name", "op", "*")])
def rename_attribute(graph_def, ctx):
    old = ctx.single("old_attribute_name", required=True)
    new = ctx.single("new_attribute_name", required=True)
    op = ctx.single("op_name", "*")
    out = copy_graph(graph_def)
    for node in out.node:
        if (op == "*" or node.op == op) and old in node.attr:
            node.attr[new].CopyFrom(node.attr[old])
            del node.attr[old]
            ctx.note(node.name, f"attr {old} -> {new}")
    return out
