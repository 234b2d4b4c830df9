"""What the Properties panel says about a selected scope (a collapsed box or an open frame):
its nodes and op types (the hierarchy's statistics), its parameters (scope_params), the
constants inside and their bytes (Graph.const_facts), and the tensors crossing its border,
each with its dtype and shape: the ones the canvas draws as edges apart from constants
drawn as badges on their readers (no edge crosses the border for them). Counted in a task
(core/app/properties.start_scope_facts): the border of a 300k-node graph's top scope is a
pass over every edge."""

from __future__ import annotations

from dataclasses import dataclass

from inspector.core.analysis.summary import port_dtype_shape
from inspector.core.errors import InspectorError
from inspector.core.model.tensors import format_shape
from inspector.core.runtime import pieces
from inspector.core.runtime.job import NO_JOB, Job
from inspector.core.runtime.lazy_import import later
from inspector.core.view.hierarchy import scope_params

np = later("numpy", globals(), "np")     # not imported before the app's first picture

LISTED = 200     # tensors listed on each side (the counts say how many cross)


@dataclass(frozen=True)
class Crossing:
    """One tensor crossing a scope's border."""

    tensor: str      # "node", "node:1" or "^node" (a control edge)
    producer: str    # the node making it (double-click goes there)
    readers: int     # the nodes on the other side reading it
    desc: str        # its dtype and shape ("control" for a control edge)


@dataclass(frozen=True)
class ScopeFacts:
    shown: str                 # the item the panel showed when they were asked for ("a/b/")
    path: str                  # the scope's path ("a/b")
    nodes: int                 # nodes under it, constants included
    ops: tuple                 # ((op, nodes), ...), most first
    params: int                # parameters under it (each weight counted once)
    consts: int                # constants under it with a value
    const_bytes: int           # their stored bytes
    inputs: tuple              # Crossing of the tensors made outside and read inside
    outputs: tuple             # Crossing of the tensors made inside and read outside
    n_inputs: int              # how many cross in (inputs lists LISTED at most)
    n_outputs: int
    # constants drawn as badges on their readers (Hierarchy.folded), read across the border:
    const_inputs: tuple = ()   # made outside, read inside (badges inside)
    const_outputs: tuple = ()  # made inside, read outside (badges outside)
    n_const_inputs: int = 0
    n_const_outputs: int = 0


def scope_facts(view, shown: str, shapes: dict | None = None, job: Job = NO_JOB) -> ScopeFacts:
    """The facts of the scope drawn as item `shown` ("path/") in `view` (any thread: the
    hierarchy is frozen). shapes: node -> output shapes where inferred."""
    hierarchy, path = view.hierarchy, shown[:-1] if shown.endswith("/") else shown
    graph, stats = hierarchy.graph, hierarchy.stats[path]
    names = hierarchy.nodes_under(path)
    job.check()
    at = pieces.fromiter(np, graph._index.__getitem__, names, np.int64)
    inside = np.zeros(len(graph) + 1, bool)      # the last place: a producer not in the graph
    inside[at] = True
    job.check()
    facts = graph.const_facts()
    consts = [facts[n] for n in names if n in facts]
    job.check()
    params = scope_params(hierarchy).get(path, 0)
    off, src, port = graph.in_offsets, graph.in_src.astype(np.int64), graph.in_port
    dst = np.repeat(np.arange(len(graph)), np.diff(off))
    known = src >= 0
    src_at = np.where(known, src, len(graph))
    src_in, dst_in = inside[src_at], inside[dst]
    badge = _folded_mask(graph, hierarchy.folded)[src_at]    # no edge drawn from it
    job.check()
    into, out_of = known & ~src_in & dst_in, known & src_in & ~dst_in
    crossing = [_crossings(graph, shapes or {}, src, port, where)
                for where in (into & ~badge, out_of & ~badge, into & badge, out_of & badge)]
    ops = tuple(sorted(stats.signature, key=lambda pair: (-pair[1], pair[0])))
    (ins, n_ins), (outs, n_outs), (c_ins, n_c_ins), (c_outs, n_c_outs) = crossing
    return ScopeFacts(shown, path, stats.count, ops, params, len(consts),
                      sum(f.stored for f in consts), ins, outs, n_ins, n_outs,
                      c_ins, c_outs, n_c_ins, n_c_outs)


def _folded_mask(graph, folded):
    """Whether each node is a constant drawn as a badge, by node index (and False in a
    last place, for producers not in the graph)."""
    mask = np.zeros(len(graph) + 1, bool)
    if hasattr(folded, "indexes"):             # a big graph's FoldedSet
        at = folded.indexes()
    else:
        at = pieces.fromiter(np, graph._index.__getitem__, list(folded), np.int64)
    mask[np.asarray(at, np.int64)] = True
    return mask


def _crossings(graph, shapes: dict, src, port, where) -> tuple:
    """(Crossing of the first LISTED tensors of the edges in `where`, most read first; how
    many tensors there are)."""
    key = src[where] * (int(port.max(initial=0)) + 2) + (port[where] + 1)
    tensors, first, readers = np.unique(key, return_index=True, return_counts=True)
    order = np.lexsort((tensors, -readers))[:LISTED]
    made, ports = src[where][first[order]].tolist(), port[where][first[order]].tolist()
    listed = tuple(_crossing(graph, shapes, graph.name_list[s], p, int(n))
                   for s, p, n in zip(made, ports, readers[order].tolist()))
    return listed, len(tensors)


def _crossing(graph, shapes: dict, name: str, port: int, readers: int) -> Crossing:
    if port < 0:
        return Crossing(f"^{name}", name, readers, "control")
    tensor = name if port == 0 else f"{name}:{port}"
    try:
        dtype, shape = port_dtype_shape(graph.node(name), port)
        known = shapes.get(name)
        if known and port < len(known):      # inferred (as the node's own Properties)
            shape = format_shape(known[port])
        desc = f"{dtype} {shape}".strip()
    except InspectorError as exc:      # a big model's NodeDef read now (node_store)
        desc = f"not readable: {exc.one_line()}"
    return Crossing(tensor, name, readers, desc)
