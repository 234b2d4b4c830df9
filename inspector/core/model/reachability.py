"""Reachability: what the outputs need (not walking past the inputs), what an input feeds, the
part between inputs and outputs, a cycle to name in an error, and dependency generations.

Works on a Graph or directly on a GraphDef (transforms hold GraphDefs). Cycles, generations and
downstream walks over a GraphDef use networkx (imported lazily: opening a model never pays for it). Walks
over a Graph use the Graph's own producer and consumer indexes instead: building a networkx
DiGraph of a 300k-node graph takes 1.4 s, longer than the walk itself, and the summary, the
strip preview and the feed-point trace each need one walk. TF's own execution order is not
here: it must match TensorFlow's exactly (execution_order.py)."""

from __future__ import annotations

from inspector.core.errors import InspectorError
from inspector.core.model.graph import Graph, node_name_from_input


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


def _walk(graph: Graph, starts, stop, backwards: bool) -> set:
    """Breadth-first over the Graph's own indexes (data and control edges)."""
    seen = {s for s in starts if s in graph}
    todo = [s for s in seen if s not in stop]
    node_of = graph.node
    if backwards:
        while todo:
            nxt = []
            for name in todo:
                for ref in node_of(name).inputs:
                    src = ref.node
                    if src not in seen and src in graph:
                        seen.add(src)
                        if src not in stop:
                            nxt.append(src)
            todo = nxt
    else:
        readers_of = graph.consumer_names
        while todo:
            nxt = []
            for name in todo:
                for dst in readers_of(name):
                    if dst not in seen:
                        seen.add(dst)
                        if dst not in stop:
                            nxt.append(dst)
            todo = nxt
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
