"""strip_unused_nodes: keep what the outputs need, turning the inputs into Placeholders."""

from __future__ import annotations

from inspector.core.model import protos
from inspector.core.model.dtypes import dtype_value
from inspector.core.model.graph import node_name_from_input
from inspector.core.model.reachability import upstream
from inspector.core.transforms.base import Param, TransformError, transform
from inspector.core.transforms.graph_utils import copy_graph, rebuild


def _dtype(text: str) -> int:
    try:
        return dtype_value(text)
    except KeyError:
        raise TransformError(f"unknown type '{text}' (expected e.g. float, int32, uint8)") from None


def _shape(text: str | None) -> list:
    if not text:
        return []
    try:
        dims = [int(x) for x in text.split(",")]
    except ValueError:
        raise TransformError(f"bad shape '{text}' (expected comma-separated sizes)") from None
    if any(d < 0 for d in dims):
        raise TransformError(f"bad shape '{text}' (sizes must not be negative)")
    return dims


@transform("strip_unused_nodes", "clean up",
           "Removes everything the outputs do not need and turns the inputs into Placeholders.",
           [Param("type", "dtype", "float"), Param("shape", "shape", ""),
            Param("name", "node", repeated=True), Param("type_for_name", "dtype", repeated=True),
            Param("shape_for_name", "shape", repeated=True)], structure_only=True)
def strip_unused_nodes(graph_def, ctx):
    if not ctx.outputs:
        raise TransformError("strip_unused_nodes needs outputs (--outputs, or mark them): "
                             "without them it would delete every node")
    default_type = _dtype(ctx.single("type", "float"))
    default_shape = _shape(ctx.single("shape", ""))
    names, types, shapes = ctx.values("name"), ctx.values("type_for_name"), \
        ctx.values("shape_for_name")
    if len(types) not in (0, len(names)) or len(shapes) not in (0, len(names)):
        raise TransformError("name, type_for_name and shape_for_name must have the same length")
    per_name = {n: (_dtype(types[i]) if types else default_type,
                    _shape(shapes[i]) if shapes else default_shape) for i, n in enumerate(names)}
    by_name = {n.name: n for n in graph_def.node}
    inputs = {node_name_from_input(i) for i in ctx.inputs}
    for name in inputs:
        if name not in by_name:
            raise TransformError(f"Input node {name} not found in graph")
    outputs = [node_name_from_input(o) for o in ctx.outputs]
    for name in outputs:
        if name not in by_name:
            raise TransformError(f"Output node {name} not found in graph")
    required = upstream(graph_def, outputs, inputs) | inputs
    kept = []
    for node in graph_def.node:
        if node.name not in required:
            ctx.note(node.name, "not needed by the outputs")
            continue
        if node.name in inputs and node.op != "Placeholder":
            dtype, dims = per_name.get(node.name, (default_type, default_shape))
            ph = protos.NodeDef(name=node.name, op="Placeholder")
            ph.attr["dtype"].type = dtype
            ph.attr["shape"].shape.SetInParent()
            for d in dims:
                ph.attr["shape"].shape.dim.add(size=d)
            kept.append(ph)
            ctx.note(node.name, f"replaced by a Placeholder (was {node.op})")
        else:
            kept.append(node)
    if ctx.in_place:
        rebuild(graph_def, kept)
        return graph_def
    return copy_graph(graph_def, kept)
