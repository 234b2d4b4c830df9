"""Shapes and dtypes for the marked inputs: given explicitly, declared by the graph, inferred
by TensorFlow, or known from an image-decoding chain (batch 1 where a dimension is unknown)."""

from __future__ import annotations

from inspector.core.analysis.summary import dtype_of


def input_shapes_and_types(state) -> tuple[dict, dict]:
    bench = state.workbench
    shapes, types = dict(bench.input_shapes), {}
    view = state.original_view
    if view is None:
        return shapes, types
    summary = state.summary
    chain_shapes = {c.feed: c.feed_shape for c in summary.preprocessing} if summary else {}
    for text in bench.inputs:
        name = text.split(":")[0]
        node = view.graph.get(name)
        if node is None:
            continue
        types[name] = dtype_of(node) or "float"
        if name in shapes:
            continue
        declared = node.attr("shape")
        inferred = (view.shapes or {}).get(name)
        dims = None
        if declared is not None and declared.dims is not None:
            dims = declared.dims
        elif inferred and inferred[0] is not None:
            dims = inferred[0]
        elif chain_shapes.get(name, "").startswith("["):
            dims = tuple(None if d == "?" else int(d)
                         for d in chain_shapes[name][1:-1].split(",") if d)
        if dims is not None:
            shapes[name] = tuple(1 if d is None else d for d in dims)
    return shapes, types
