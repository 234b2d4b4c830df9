"""The merged view of a comparison: B's graph with what A had and B lost drawn as ghosts
(removed nodes and nodes merged into another), wired to their matched neighbours; a ghost's
former consumers get a control edge from it so the layout puts it where it was."""

from __future__ import annotations

from inspector.core.compare.diff import Diff
from inspector.core.model import protos
from inspector.core.model.graph import Graph

GHOST_SUFFIX = " (gone)"
STEP = 1000          # nodes copied and indexed at a time (merged_graph, graph_in_steps): a
#                      C call copying 2000 of a 300k-node graph's nodes held the GIL 10-16 ms


def merged_graph(d: Diff, ga: Graph, gb: Graph) -> tuple:
    """(GraphDef of B plus ghosts, {ghost name: A's node}). Values are not copied: B's
    structure as opened (a lazily opened model keeps its weights in the file)."""
    m = d.matching
    gone = [e.a for e in d.entries if e.status in ("removed", "merged")]
    gd = protos.GraphDef()
    nodes = gb.structure.node
    for start in range(0, len(nodes), STEP):     # short C calls: a task holding the GIL for
        gd.node.extend(nodes[start:start + STEP])   # one long copy would stall the window
    gd.library.CopyFrom(gb.structure.library)
    ghost_of = {}
    for a in gone:
        name = a if a not in gb else a + GHOST_SUFFIX
        while name in gb:
            name += "'"
        ghost_of[a] = name

    def where(a_name: str) -> str | None:
        """A's node as drawn in the merged graph: its match, or its ghost."""
        return m.b_of.get(a_name) or ghost_of.get(a_name)

    late: dict = {}                         # B node -> ghosts it follows (control edges)
    for a in gone:
        src = ga.node(a).proto
        ghost = gd.node.add(name=ghost_of[a], op=src.op)
        for key in src.attr:
            if key != "value":
                ghost.attr[key].CopyFrom(src.attr[key])
        if "value" in src.attr:            # dtype and shape for the badge, never the values
            t = ghost.attr["value"].tensor
            t.dtype = src.attr["value"].tensor.dtype
            t.tensor_shape.CopyFrom(src.attr["value"].tensor.tensor_shape)
        for ref in ga.node(a).inputs:
            there = where(ref.node)
            if there is not None:
                text = there if ref.port == 0 else f"{there}:{ref.port}"
                ghost.input.append("^" + there if ref.control else text)
        for reader in ga.consumer_names(a):
            target = m.b_of.get(reader)
            if target is not None:
                late.setdefault(target, []).append("^" + ghost_of[a])
    for node in gd.node:                    # after every add: no reference held across one
        if node.name in late:
            node.input.extend(late[node.name])
    return gd, ghost_of


def graph_in_steps(gd, step: int = STEP) -> Graph:
    """A Graph of `gd`, its nodes copied, serialized and indexed `step` at a time: Graph(gd)
    copies and parses all of them in a few C calls that hold the GIL for ~0.5 s on a 100k-node
    graph, stalling the window while a task builds it (the merged view)."""
    graph = Graph(protos.GraphDef(), complete=False)
    nodes, into = gd.node, graph.structure.node
    for start in range(0, len(nodes), step):
        part = protos.GraphDef()
        part.node.extend(nodes[start:start + step])
        into.extend(part.node)
        graph.add_new_nodes(data=part.SerializeToString())
    graph.structure.library.CopyFrom(gd.library)
    graph.finish()
    return graph
