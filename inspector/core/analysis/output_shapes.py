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

LIMIT = 20_000      # nodes: above, no walk (~9 µs a node each, twice: 0.4 s at 20k on the
#                     slow class; a summary of a big graph keeps what the graph records)
_TAKEN = ((1, 64), (2, 96))    # (batch, any other open size) of each walk


def wanted(graph, summary) -> bool:
    """Some likely output shows no shape, and the graph is small enough to walk."""
    return len(graph) <= LIMIT and any(_shapeless(c) for c in summary.outputs)


def with_output_shapes(graph, summary):
    """A copy of the summary, its likely outputs given their shapes (fill_output_shapes): the
    window's, once its first picture is up (the walk imports numpy)."""
    copy = replace(summary, outputs=[replace(c) for c in summary.outputs])
    fill_output_shapes(graph, copy)
    return copy


def fill_output_shapes(graph, summary) -> None:
    """Give the summary's likely outputs that show no shape the one propagated from the
    inputs (in place). Nothing when every output has a shape, the graph is bigger than
    LIMIT nodes, or a shape cannot be told (an op the propagation does not know)."""
    if not wanted(graph, summary):
        return
    todo = [c for c in summary.outputs if _shapeless(c)]
    walks = []
    for batch, other in _TAKEN:
        given = _open_inputs(graph, batch, other)
        try:
            walks.append(static_shapes.Propagation(graph, given, trust_recorded=True).run())
        except (RecursionError, MemoryError, ValueError, TypeError, KeyError):
            return
    for cand in todo:
        name, _, port = cand.name.partition(":")
        k = int(port) if port.isdigit() else 0
        one, two = (_port(w.get(name), k) for w in walks)
        if one is None or two is None or len(one) != len(two):
            continue
        cand.shape = tensors.format_shape(tuple(a if a == b and a is not None else None
                                                for a, b in zip(one, two)))


def with_inferred(summary, shapes):
    """A copy of the summary, its likely outputs that show no shape given the one TensorFlow
    inferred for the graph (`shapes`: node name -> its outputs' shapes, as
    tf.graphs.infer_shapes answers): the window's, for a graph above LIMIT, where no walk is
    made. None when it gives no output a shape."""
    outputs, given = [replace(c) for c in summary.outputs], False
    for cand in outputs:
        if not _shapeless(cand):
            continue
        name, _, port = cand.name.partition(":")
        dims = _port(shapes.get(name), int(port) if port.isdigit() else 0)
        if dims is not None:
            cand.shape, given = tensors.format_shape(tuple(dims)), True
    return replace(summary, outputs=outputs) if given else None


def _shapeless(cand) -> bool:
    return not cand.shape or cand.shape == "<unknown>"


def _open_inputs(graph, batch: int, other: int) -> dict:
    """{Placeholder: its shape}, its open sizes taken as `batch` (the first) and `other`."""
    out = {}
    for node in graph:
        if node.op != "Placeholder" or not node.has_attr("shape"):
            continue
        dims = tensors.shape_dims(node.proto.attr["shape"].shape)
        if dims is not None and None in dims:
            out[node.name] = tuple((batch if i == 0 else other) if d is None else d
                                   for i, d in enumerate(dims))
    return out


def _port(outs, k: int):
    return outs[k] if outs and k < len(outs) else None
