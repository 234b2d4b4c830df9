"""Why the size changed, said in words beside the totals: constants that nothing computes with
any more and only control inputs keep in the graph (fold_constants folds the weights a NoOp's
control inputs read, and the originals stay beside the folded copies)."""

from __future__ import annotations

from inspector.core.analysis.sizes import node_sizes
from inspector.core.compare.operands import PASS_THROUGH
from inspector.core.compare.records import Note
from inspector.core.model.graph import Graph

READS = PASS_THROUGH | {"Dequantize"}      # what reads a constant without computing with it


def control_kept(graph: Graph) -> list:
    """Constants nothing computes with, kept in the graph by control inputs alone: each of
    their reads, followed through Identity-like reads and Dequantize, ends in a ^control
    (graph order)."""
    if hasattr(graph, "_port"):              # the columns: no Node view a node
        if not graph._port or min(graph._port) >= 0:      # port -1: a control input
            return []
        names = graph.name_list
        return [names[i] for i in graph.nodes_of_op("Const") if _only_control(graph, names[i])]
    if not any(ref.control for node in graph for ref in node.inputs):
        return []
    return [n.name for n in graph if n.op == "Const" and _only_control(graph, n.name)]


def _only_control(graph: Graph, name: str) -> bool:
    stack, seen = [name], {name}
    while stack:
        edges = graph.consumers(stack.pop())
        if not edges:
            return False                 # an end of the graph (or an unused constant)
        for e in edges:
            if e.control:
                continue
            if _op(graph, e.dst) not in READS:
                return False             # computed with
            if e.dst not in seen:
                seen.add(e.dst)
                stack.append(e.dst)
    return True


def _op(graph: Graph, name: str) -> str:
    """The op of the node `name` (from the columns: no Node view)."""
    if hasattr(graph, "_ops"):
        return graph.op_names[graph._ops[graph.index(name)]]
    return graph.node(name).op


def size_notes(ga: Graph, gb: Graph, matching, a_bytes) -> list:
    """Constants kept only by control inputs in B that were not so in A, and those of A that
    are gone in B: how many, their bytes against A's size (`a_bytes`), and what drops them."""
    out = []
    in_a = control_kept(ga)
    kept_a = set(in_a)
    new = [n for n in control_kept(gb) if matching.a_of.get(n) not in kept_a]
    gone = [n for n in in_a if n not in matching.b_of and n not in matching.merged]
    for side, graph, names in (("B", gb, new), ("A", ga, gone)):
        if not names:
            continue
        sizes = node_sizes(graph)
        total = sum(sizes[n] for n in names)
        share = total / a_bytes if isinstance(a_bytes, int) and a_bytes else 0.0
        many = "s" if len(names) > 1 else ""
        text = (f"{len(names)} constant{many} kept only by control inputs: {share:+.1%} "
                f"size ({total:,} bytes); remove_control_dependencies then "
                "strip_unused_nodes drops them") if side == "B" else \
            (f"{len(names)} constant{many} that only control inputs kept in A are gone: "
             f"{-share:+.1%} size ({total:,} bytes)")
        out.append(Note("control-kept constants", text, side, names, total,
                        share if side == "B" else -share))
    return out
