"""Reachability: what the outputs need (not walking past the inputs), what an input feeds, the
part between inputs and outputs, a cycle to name in an error, and dependency generations.

Works on a Graph or directly on a GraphDef (transforms hold GraphDefs). Cycles, generations and
downstream walks over a GraphDef use networkx (imported lazily: opening a model never pays for it). Walks
over a Graph use the Graph's own columns instead (input CSR, consumer CSR, node indexes; a
numpy step per level of the walk on big graphs): building a networkx DiGraph of a 300k-node
graph takes 1.4 s, longer than the walk itself, and the summary, the strip preview, the
feed-point trace and the cone each need one walk. TF's own execution order is not
here: it must match TensorFlow's exactly (execution_order.py)."""

from __future__ import annotations

from array import array
from bisect import bisect_right
from itertools import compress

from inspector.core.errors import InspectorError
from inspector.core.model.graph import Graph, node_name_from_input
from inspector.core.model.lazy_numpy import distinct


def digraph(graph):
    """A networkx DiGraph of the graph's data and control edges (producer -> consumer),
    built once per Graph (or once per call for a GraphDef). Inputs naming missing nodes are
    left out."""
    import networkx as nx

    cached = getattr(graph, "_nx", None)
    if cached is not None:
        return cached
    g = nx.DiGraph()
    if isinstance(graph, Graph):
        g.add_nodes_from(n.name for n in graph)
        g.add_edges_from((ref.node, n.name) for n in graph for ref in n.inputs
                         if ref.node in graph)
        graph._nx = g
    else:  # a GraphDef
        g.add_nodes_from(n.name for n in graph.node)
        g.add_edges_from((src, n.name) for n in graph.node for text in n.input
                         if (src := node_name_from_input(text)) in g)
    return g


NUMPY_FROM = 4096      # graphs of at least this many nodes are walked a level at a time
WIDE = 128             # levels at least this wide take one numpy step
SLICE = 4096           # names put in the answer per C call


def _walk(graph: Graph, starts, stop, backwards: bool) -> set:
    """Breadth-first over the Graph's input and consumer columns (data and control edges),
    on node indexes: the names of the nodes reached."""
    seen = reached(graph, starts, stop, backwards)
    return _named(graph.name_list, list(compress(range(len(seen)), seen)))


def reached(graph: Graph, starts, stop=(), backwards: bool = True) -> bytearray:
    """The walk of _walk as a mask over node indexes (1: reached; no name, no set a node):
    a name's later duplicates are never marked, its first node stands for it."""
    index = graph._index
    first = [index[s] for s in dict.fromkeys(starts) if s in index]
    halt = {index[s] for s in stop if s in index}
    n = len(graph)
    if not first:
        return bytearray(n)
    if n >= NUMPY_FROM:
        return _levels(graph, first, halt, backwards)
    seen = bytearray(n)
    for i in first:
        seen[i] = 1
    todo = [i for i in first if i not in halt]
    canon = _canonical(graph)
    if backwards:
        src, off = graph._src, graph._in_off
        while todo:
            i = todo.pop()
            for j in src[off[i]:off[i + 1]]:
                if j >= 0 and not seen[j]:
                    seen[j] = 1
                    if j not in halt:
                        todo.append(j)
    else:
        starts_at, places = graph.consumer_index()
        off = graph._in_off
        while todo:
            i = todo.pop()
            for p in places[starts_at[i]:starts_at[i + 1]]:
                j = canon(bisect_right(off, p) - 1)
                if not seen[j]:
                    seen[j] = 1
                    if j not in halt:
                        todo.append(j)
    return seen


def _named(names: list, indexes: list) -> set:
    out: set = set()
    for a in range(0, len(indexes), SLICE):      # slices: the GIL is let go between
        out.update(map(names.__getitem__, indexes[a:a + SLICE]))
    return out


def cone(graph, names) -> set:
    """upstream(names) | downstream(names): what the nodes depend on and what depends on
    them. A big Graph's two walks are merged as indexes, named once."""
    if not isinstance(graph, Graph) or len(graph) < NUMPY_FROM:
        return upstream(graph, names) | downstream(graph, names)
    import numpy as np

    index = graph._index
    first = [index[s] for s in dict.fromkeys(map(node_name_from_input, names)) if s in index]
    if not first:
        return set()
    both = np.frombuffer(_levels(graph, first, set(), True), np.bool_) | \
        np.frombuffer(_levels(graph, first, set(), False), np.bool_)
    return _named(graph.name_list, np.flatnonzero(both).tolist())


def _canonical(graph: Graph):
    """node index -> the index of the first node of its name (a name's later duplicates are
    walked on from the first, as a walk by names does)."""
    if not graph.duplicate_names:
        return int
    index, names = graph._index, graph.name_list
    return lambda i: index[names[i]]


def _levels(graph: Graph, first: list, halt: set, backwards: bool) -> bytearray:
    """The nodes reached from `first` (a mask over indexes): a numpy step for each wide
    level of the walk, a Python loop over the array columns while few nodes are waiting (a
    chain)."""
    import numpy as np

    n = len(graph)
    seen, stop = bytearray(n), bytearray(n)     # numpy views below share their bytes
    seen_np, stop_np = np.frombuffer(seen, np.bool_), np.frombuffer(stop, np.bool_)
    for i in halt:
        stop[i] = 1
    if backwards:
        py_values, py_off = graph._src, graph._in_off
        values, off = graph.in_src, graph.in_offsets
    else:
        py_off, places = graph.consumer_index()
        reader = np.repeat(np.arange(n, dtype=np.int64), np.diff(graph.in_offsets))
        values = reader[np.frombuffer(places, np.int64)] if len(places) else reader[:0]
        if graph.duplicate_names:
            canon = np.fromiter(map(graph._index.__getitem__, graph.name_list), np.int64, n)
            values = canon[values]
        off = np.frombuffer(py_off, np.int64)
        py_values = array("q", values.tobytes())
    for i in first:
        seen[i] = 1
    todo = [i for i in first if not stop[i]]
    while todo:
        # depth first while the nodes to visit are few (a chain: a numpy call a node would
        # cost more); one numpy step over all of them once they are many
        pop, push = todo.pop, todo.append
        while todo and len(todo) < WIDE:
            i = pop()
            for j in py_values[py_off[i]:py_off[i + 1]]:
                if j >= 0 and not seen[j]:
                    seen[j] = 1
                    if not stop[j]:
                        push(j)
        if not todo:
            break
        frontier = np.array(todo, np.int64)
        lo = off[frontier]
        lengths = off[frontier + 1] - lo
        total = int(lengths.sum())
        ends = np.cumsum(lengths)
        pos = np.arange(total, dtype=np.int64) + np.repeat(lo - (ends - lengths), lengths)
        found = values[pos]
        found = distinct(np, found[found >= 0])
        found = found[~seen_np[found]]
        seen_np[found] = True
        todo = found[~stop_np[found]].tolist()
    del seen_np, stop_np
    return seen


def _walk_up_graph_def(graph_def, starts, stop) -> set:
    """Breadth-first up a GraphDef's inputs (data and control), without networkx (whose
    import and DiGraph cost 0.15 s on Inception v3, more than the walk)."""
    inputs_of: dict = {}
    for node in graph_def.node:
        inputs_of.setdefault(node.name, []).extend(node.input)
    seen = {s for s in starts if s in inputs_of}
    todo = [s for s in seen if s not in stop]
    while todo:
        nxt = []
        for name in todo:
            for text in inputs_of[name]:
                src = node_name_from_input(text)
                if src not in seen and src in inputs_of:
                    seen.add(src)
                    if src not in stop:
                        nxt.append(src)
        todo = nxt
    return seen


def _reach(graph, starts, stop, backwards: bool) -> set:
    if isinstance(graph, Graph):         # our own indexes: no networkx import (~0.1 s)
        return _walk(graph, starts, set(stop), backwards)
    if backwards:
        return _walk_up_graph_def(graph, starts, set(stop))
    import networkx as nx

    g = digraph(graph)
    starts = [s for s in dict.fromkeys(starts) if s in g]
    if not starts:
        return set()
    walk = g.reverse(copy=False) if backwards else g
    stop = set(stop) & set(g)
    if stop:  # do not walk on from a stop node
        walk = nx.restricted_view(walk, [], [(s, n) for s in stop for n in walk.successors(s)])
    return {n for layer in nx.bfs_layers(walk, starts) for n in layer}


def upstream(graph, outputs, stop=()) -> set:
    """Nodes the outputs depend on (themselves included), through data and control edges,
    not walking past the `stop` nodes (which are included when reached)."""
    return _reach(graph, [node_name_from_input(o) for o in outputs],
                  [node_name_from_input(s) for s in stop], backwards=True)


def downstream(graph, inputs) -> set:
    """Nodes that depend on the inputs (themselves included)."""
    return _reach(graph, [node_name_from_input(i) for i in inputs], (), backwards=False)


def _names(graph, names) -> list:
    out = []
    known = graph if isinstance(graph, Graph) else digraph(graph)
    for text in names:
        name = node_name_from_input(text)
        if name not in known:
            raise InspectorError(f"node '{name}' is not in the graph", node=name)
        out.append(name)
    return out


def between(graph, inputs=(), outputs=()) -> set:
    """What strip_unused_nodes keeps: upstream of the outputs stopping at the inputs (inputs
    kept even when the outputs do not need them); downstream of the inputs without outputs."""
    ins, outs = _names(graph, inputs), _names(graph, outputs)
    if outs:
        return upstream(graph, outs, stop=ins) | set(ins)
    return downstream(graph, ins)


def find_cycle(graph) -> list:
    """The nodes of one cycle, in order, or [] for an acyclic graph."""
    import networkx as nx

    try:
        return [edge[0] for edge in nx.find_cycle(digraph(graph))]
    except nx.NetworkXNoCycle:
        return []


def generations(graph) -> list:
    """Nodes in dependency generations: each only depends on earlier ones (cycles are
    collapsed into the generation of their first member)."""
    import networkx as nx

    g = digraph(graph)
    if nx.is_directed_acyclic_graph(g):
        return [sorted(gen) for gen in nx.topological_generations(g)]
    condensed = nx.condensation(g)
    members = condensed.graph["mapping"]
    by_component: dict = {}
    for node, component in members.items():
        by_component.setdefault(component, []).append(node)
    return [sorted(n for c in gen for n in by_component[c])
            for gen in nx.topological_generations(condensed)]
