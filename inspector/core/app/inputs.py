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


def strip_parameters(state) -> dict:
    """Parameters for a new strip_unused_nodes step: the type and known shape of each marked
    input that is not a Placeholder already (those are kept as they are), so the Placeholder
    that replaces it keeps what the graph knew instead of TF's default (float, scalar)."""
    view = state.original_view
    if view is None:
        return {}
    shapes, types = input_shapes_and_types(state)
    named = []
    for text in state.workbench.inputs:
        name = text.split(":")[0]
        node = view.graph.get(name)
        if node is None or node.op == "Placeholder" or name not in shapes:
            continue
        named.append((name, types.get(name, "float"), ",".join(str(d) for d in shapes[name])))
    if not named:
        return {}
    if len(named) == 1:
        return {"type": [named[0][1]], "shape": [named[0][2]]}
    return {"name": [n for n, _, _ in named], "type_for_name": [t for _, t, _ in named],
            "shape_for_name": [s for _, _, s in named]}
