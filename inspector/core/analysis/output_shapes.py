"""The likely outputs' shapes where the graph records none. The summary read declared shapes
only (a Placeholder's `shape`, `_output_shapes`): a graph frozen from a .meta, a Keras file or a
SavedModel, and most .pb files, record none for an output, so the summary showed "float" and
no shape. Here they are propagated from the inputs without TensorFlow (static_shapes), open
sizes kept open: two walks, the open sizes taken as one value and as another, and a dimension
that differs between them is "?"."""

from __future__ import annotations

from dataclasses import replace

from inspector.core.model import tensors
from inspector.core.runtime.lazy_import import later

# numpy with it, imported only when a walk is made (not by every summary, nor on the first
# picture's path: core.app.opening imports this module)
static_shapes = later("inspector.core.analysis.static_shapes", globals(), "static_shapes")
shape_columns = later("inspector.core.analysis.shape_columns", globals(), "shape_columns")
shape_stop = later("inspector.core.analysis.shape_stop", globals(), "shape_stop")

LIMIT = 20_000      # nodes: above, no walk of a Node view a node (~9 us a node each, twice:
#                     0.4 s at 20k on the slow class); the window's summary then takes TF's
#                     edge shapes (with_inferred)
MOST = 100_000      # nodes: the command line's summary walks the likely outputs' cone on the
#                     graph's columns up to this many; above, it says the shape was not
#                     determined. `summarize`, slow class, load 3: 100k 2.6-2.8 s with the
#                     walk against 1.7-1.8 s without; 300k 7.0-7.8 s against 4.1-4.3 s (more
#                     than the 6 s budget of the 1M graph's), so 300k and up take no walk.
#                     (The 100k walk: 0.98 s, 0.61 s since its convolutions are keyed by
#                     their attributes' bytes, not parsed: shape_columns._attr_bytes)
_TAKEN = ((1, 64), (2, 96))    # (batch, any other open size) of each walk


def wanted(graph, summary) -> bool:
    """Some likely output shows no shape, and the graph is small enough to walk."""
    return len(graph) <= LIMIT and any(shapeless(c) for c in summary.outputs)


def with_output_shapes(graph, summary, most: int = LIMIT):
    """A copy of the summary, its likely outputs given their shapes (fill_output_shapes): the
    window's, once its first picture is up (the walk imports numpy), and its card's."""
    copy = replace(summary, outputs=[replace(c) for c in summary.outputs])
    fill_output_shapes(graph, copy, most)
    return copy


def fill_output_shapes(graph, summary, most: int = LIMIT) -> None:
    """Give the summary's likely outputs that show no shape the one propagated from the
    inputs (in place), and those it cannot give one a `shape_note` saying why: the graph is
    bigger than `most` nodes (from LIMIT up, the walk covers only the outputs' cone, on the
    graph's columns), or an op on the way gives a shape the graph alone does not tell."""
    todo = [c for c in summary.outputs if shapeless(c)]
    if not todo:
        return
    if len(graph) > max(most, LIMIT):
        _say(todo, f"shape not determined: the graph's {len(graph):,} nodes are more than "
                   f"the {max(most, LIMIT):,} its shape walk takes")
        return
    big = len(graph) > LIMIT
    if big and not shape_columns.columnar(graph):
        _say(todo, f"shape not determined: a graph of {len(graph):,} nodes with duplicate "
                   "names is not walked")
        return
    walks, inputs_of = [], _view_inputs(graph)
    for given in _open_inputs(graph, big):
        try:
            if big:
                shapes, inputs_of = _cone_walk(graph, given, todo)
            else:
                shapes = static_shapes.Propagation(graph, given, trust_recorded=True).run()
        except (RecursionError, MemoryError, ValueError, TypeError, KeyError) as exc:
            _say(todo, f"shape not determined: the shape walk failed ({type(exc).__name__})")
            return
        walks.append(shapes)
    for cand in todo:
        name, _, port = cand.name.partition(":")
        k = int(port) if port.isdigit() else 0
        one, two = (_port(w.get(name), k) for w in (walks * 2)[:2])
        if one is not None and two is not None and len(one) == len(two):
            cand.shape = tensors.format_shape(tuple(a if a == b and a is not None else None
                                                    for a, b in zip(one, two)))
            if None not in one and None not in two:
                continue        # every size known ("?": one the inputs leave open)
        cand.shape_note = _why(graph, walks[0], inputs_of, name, k)


def _say(todo: list, note: str) -> None:
    for cand in todo:
        cand.shape_note = note


def with_inferred(summary, shapes):
    """A copy of the summary, its likely outputs that show no shape given the one TensorFlow
    inferred for the graph (`shapes`: node name -> its outputs' shapes, as
    tf.graphs.infer_shapes answers): the window's, for a graph above LIMIT, where no walk is
    made. None when it gives no output a shape."""
    outputs, given = [replace(c) for c in summary.outputs], False
    for cand in outputs:
        if not shapeless(cand):
            continue
        name, _, port = cand.name.partition(":")
        dims = _port(shapes.get(name), int(port) if port.isdigit() else 0)
        if dims is not None:
            cand.shape, cand.shape_note = tensors.format_shape(tuple(dims)), ""
            given = True
    return replace(summary, outputs=outputs) if given else None


def shapeless(cand) -> bool:
    return not cand.shape or cand.shape == "<unknown>"


def _open_inputs(graph, big: bool) -> list:
    """The inputs' shapes of each walk: [{Placeholder: its shape}, ...], its open sizes taken
    as (batch, other) of _TAKEN (the first dimension as the batch); one walk when no input
    has an open size (both would be the same)."""
    if big:
        nodes = [graph.nodes[i] for i in graph.nodes_of_op("Placeholder")]
    else:
        nodes = [n for n in graph if n.op == "Placeholder"]
    open_dims = {}
    for node in nodes:
        if not node.has_attr("shape"):
            continue
        dims = tensors.shape_dims(node.proto.attr["shape"].shape)
        if dims is not None and None in dims:
            open_dims[node.name] = dims
    return [{name: tuple((batch if i == 0 else other) if d is None else d
                         for i, d in enumerate(dims)) for name, dims in open_dims.items()}
            for batch, other in (_TAKEN if open_dims else _TAKEN[:1])]


def _cone_walk(graph, given: dict, todo: list) -> tuple:
    """({name: output shapes} of the candidates and the nodes they read from, directly or
    not, walked on the graph's columns (shape_columns); inputs_of for _why)."""
    index, names = graph._index, graph.name_list
    roots = [index[n] for n in (c.name.partition(":")[0] for c in todo) if n in index]
    walk = shape_columns.ColumnPropagation(graph, given, trust_recorded=True)
    order = shape_columns.cone_order(walk.ins, roots)
    out = walk.run_columns(order)
    start, src, port = walk.ins.start, walk.ins.src, walk.ins.port

    def inputs_of(name: str) -> list:
        i = index[name]
        return [(names[src[p]], port[p]) for p in range(start[i], start[i + 1])
                if src[p] >= 0]

    return shape_stop.ByIndex(graph, out), inputs_of


def _view_inputs(graph):
    return shape_stop.node_inputs(graph)


def _why(graph, shapes: dict, inputs_of, name: str, port: int) -> str:
    """Why output `port` of node `name` has no shape (or some unknown sizes) after the walk:
    the first node on the way back from it whose inputs' shapes are all known but its own
    output's is not (shape_stop.stop_path)."""
    name = shape_stop.stop_path(shapes, inputs_of, name, port)[-1][0]
    return (f"shape not determined without TensorFlow: node '{name}' "
            f"({shape_stop.op_of(graph, name)}) gives an output whose shape the graph alone "
            "does not tell")


def _port(outs, k: int):
    return outs[k] if outs and k < len(outs) else None
