"""remove_nodes: splice out nodes of given op types, wiring consumers to their first input."""

from __future__ import annotations

from inspector.core.model.graph import node_name_from_input
from inspector.core.transforms.base import Param, TransformError, transform
from inspector.core.transforms.graph_utils import (
    Pattern,
    rename_node_inputs,
    replace_matching,
)


@transform("remove_nodes", "clean up",
           "Removes nodes of the given op types (e.g. Identity, CheckNumerics) and reconnects "
           "their consumers.",
           [Param("op", "op", required=True, repeated=True),
            Param("max_inputs", "int", "1", minimum=0)], structure_only=True)
def remove_nodes(graph_def, ctx):
    ops = ctx.values("op")
    if not ops:
        raise TransformError("remove_nodes expects at least one 'op' argument, e.g. "
                             "remove_nodes(op=Identity)")
    max_inputs = ctx.int("max_inputs", 1)
    required = {node_name_from_input(n) for n in ctx.inputs + ctx.outputs}
    current = graph_def
    ordered = [False, None]  # the last pass changed nothing: its graph is known to be ordered
    for op in ops:
        for count in range(1, max_inputs + 1):
            pattern = Pattern(op, [Pattern("*") for _ in range(count)])

            def one_pass(graph, pattern=pattern):
                renames: dict = {}

                def replace(match, outside):
                    node = match.node
                    if node.name in required:
                        return None
                    first = match.inputs[0].node
                    target = first.name
                    for text in node.input:
                        if text.startswith(first.name) and (
                                len(text) == len(first.name) or text[len(first.name)] == ":"):
                            target = text
                            break
                    renames[node.name] = target
                    renames["^" + node.name] = "^" + first.name
                    ctx.note(node.name, f"removed ({node.op}); consumers now read {target}")
                    return [first]

                replaced = replace_matching(graph, pattern, replace, allow_inconsistencies=True,
                                            check=ctx.check, in_place=ctx.in_place,
                                            known_order=ordered[0] and graph is ordered[1])
                ordered[:] = [not renames, replaced]
                if ctx.in_place:
                    return rename_node_inputs(replaced, renames, replace_changed=True), \
                        bool(renames)
                return rename_node_inputs(replaced, renames, in_place=replaced is not graph), \
                    bool(renames)

            current = ctx.until_settled(one_pass, current)
    return current
