"""merge_duplicate_nodes: nodes computing the same thing from the same inputs become one."""

from __future__ import annotations

from inspector.core.runtime.executor import tensorflow
from inspector.core.transforms.base import transform
from inspector.core.transforms.graph_utils import copy_graph, rename_node_inputs


def _key(node, keep_name: bool) -> tuple:
    attrs = tuple(sorted((k, v.SerializeToString(deterministic=True))
                         for k, v in node.attr.items()))
    return node.op, node.name if keep_name else "", tuple(node.input), node.device, attrs


@transform("merge_duplicate_nodes", "clean up",
           "Merges identical nodes (same op, inputs and attributes) into one.")
def merge_duplicate_nodes(graph_def, ctx):
    named = set(ctx.inputs) | set(ctx.outputs)

    def one_pass(current):
        stateful = tensorflow().stateful_ops({n.op for n in current.node})
        first: dict = {}
        renames: dict = {}
        kept = []
        for node in current.node:
            key = _key(node, node.name in named)
            if key in first and node.op not in stateful:
                renames[node.name + ":*"] = first[key]
                ctx.note(first[key], f"merged its duplicate '{node.name}'")
                ctx.merge(node.name, first[key])
                continue
            first.setdefault(key, node.name)
            kept.append(node)
        if not renames:
            return current, False
        return rename_node_inputs(copy_graph(current, kept), renames), True

    return ctx.until_settled(one_pass, graph_def)
