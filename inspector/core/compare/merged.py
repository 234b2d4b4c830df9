"""The merged view of a comparison: B's graph with what A had and B lost drawn as ghosts
(removed nodes and nodes merged into another), wired to their matched neighbours; a ghost's
former consumers get a control edge from it so the layout puts it where it was."""

from __future__ import annotations

from inspector.core.compare.diff import Diff
from inspector.core.model import protos
from inspector.core.model.graph import Graph

GHOST_SUFFIX = " (gone)"
STEP = 1000          # nodes copied and indexed at a time (merged_graph, merged_in_steps): a
#                      C call copying 2000 of a 300k-node graph's nodes held the GIL 10-16 ms


def merged_graph(d: Diff, ga: Graph, gb: Graph) -> tuple:
    """(GraphDef of B plus ghosts, {ghost name: A's node}). Values are not copied: B's
    structure as opened (a lazily opened model keeps its weights in the file)."""
    gd, made = protos.GraphDef(), {}
    for part in _parts(d, ga, gb, made):
        gd.node.extend(part.node)
    gd.library.CopyFrom(gb.structure.library)
    return gd, made["ghost_of"]


def merged_in_steps(d: Diff, ga: Graph, gb: Graph, step: int = STEP) -> tuple:
    """(the Graph of merged_graph's GraphDef, {ghost name: A's node}), its nodes copied,
    serialized and indexed `step` at a time, with no whole GraphDef of B made first:
    Graph(gd) copies and parses all of them in a few C calls that hold the GIL for ~0.5 s
    on a 100k-node graph, and a whole copy freed at once holds it too (the merged view is
    built in a task while the window waits)."""
    graph = Graph(protos.GraphDef(), complete=False)
    into, made = graph.structure.node, {}
    for part in _parts(d, ga, gb, made, step):
        into.extend(part.node)
        graph.add_new_nodes(data=part.SerializeToString())
    graph.structure.library.CopyFrom(gb.structure.library)
    graph.finish()
    return graph, made["ghost_of"]


def _parts(d: Diff, ga: Graph, gb: Graph, made: dict, step: int = STEP):
    """The merged graph's nodes as GraphDefs of `step` nodes (B's, then the ghosts); the
    ghost names are left in made["ghost_of"] before the first."""
    m = d.matching
    gone = list(dict.fromkeys(e.a for e in d.entries if e.status in ("removed", "merged")))
    # a ghost keeps A's name where B has none such, else gets GHOST_SUFFIX (and "'"s) to a
    # name neither B's nor another ghost's (A may have both `x` and `x (gone)`)
    taken = {a for a in gone if a not in gb}
    ghost_of = {}
    for a in gone:
        name = a
        if a in gb:
            name = a + GHOST_SUFFIX
            while name in gb or name in taken:
                name += "'"
            taken.add(name)
        ghost_of[a] = name
    made["ghost_of"] = ghost_of

    def where(a_name: str) -> str | None:
        """A's node as drawn in the merged graph: its match, or its ghost."""
        return m.b_of.get(a_name) or ghost_of.get(a_name)

    late: dict = {}                         # B node -> ghosts it follows (control edges)
    for a in gone:
        for reader in ga.consumer_names(a):
            target = m.b_of.get(reader)
            if target is not None:
                late.setdefault(target, []).append("^" + ghost_of[a])
    nodes = gb.structure.node
    for start in range(0, len(nodes), step):     # short C calls: a task holding the GIL for
        part = protos.GraphDef()                 # one long copy would stall the window
        part.node.extend(nodes[start:start + step])
        if late:
            for node in part.node:
                if node.name in late:
                    node.input.extend(late[node.name])
        yield part
    for start in range(0, len(gone), step):
        part = protos.GraphDef()
        for a in gone[start:start + step]:
            _ghost(part.node.add(name=ghost_of[a]), ga.node(a), where)
        yield part


def _ghost(ghost, node, where) -> None:
    """A's `node` as its ghost: op, attributes (a constant's dtype and shape, never its
    values), inputs from where its producers are drawn."""
    src = node.proto
    ghost.op = src.op
    for key in src.attr:
        if key != "value":
            ghost.attr[key].CopyFrom(src.attr[key])
    if "value" in src.attr:                # dtype and shape for the badge, never the values
        t = ghost.attr["value"].tensor
        t.dtype = src.attr["value"].tensor.dtype
        t.tensor_shape.CopyFrom(src.attr["value"].tensor.tensor_shape)
    for ref in node.inputs:
        there = where(ref.node)
        if there is not None:
            text = there if ref.port == 0 else f"{there}:{ref.port}"
            ghost.input.append("^" + there if ref.control else text)
