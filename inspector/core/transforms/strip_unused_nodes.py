"""strip_unused_nodes: keep what the outputs need, turning the inputs into Placeholders."""

from __future__ import annotations

from inspector.core.model import protos
from inspector.core.model.dtypes import dtype_value
from inspector.core.model.graph import node_name_from_input
from inspector.core.model.reachability import upstream
from inspector.core.transforms.base import Param, TransformError, transform
from inspector.core.transforms.graph_utils import copy_graph, rebuild
from inspector.core.transforms.validation import named_node, validate


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


def _settings(ctx) -> tuple:
    """({input name: (dtype, dims)}, the (dtype, dims) of the other inputs)."""
    default = (_dtype(ctx.single("type", "float")), _shape(ctx.single("shape", "")))
    names, types, shapes = ctx.values("name"), ctx.values("type_for_name"), \
        ctx.values("shape_for_name")
    if len(types) not in (0, len(names)) or len(shapes) not in (0, len(names)):
        raise TransformError("name, type_for_name and shape_for_name must have the same length")
    return {n: (_dtype(types[i]) if types else default[0],
                _shape(shapes[i]) if shapes else default[1]) for i, n in enumerate(names)}, \
        default


def _placeholder(name: str, dtype: int, dims: list):
    ph = protos.NodeDef(name=name, op="Placeholder")
    ph.attr["dtype"].type = dtype
    ph.attr["shape"].shape.SetInParent()
    for d in dims:
        ph.attr["shape"].shape.dim.add(size=d)
    return ph


def strip_alone(graph_def, ctx):
    """The graph strip_unused_nodes gives (the same GraphDef, field for field, as
    run_pipeline's step), for a caller that wants that graph alone (the window's Profile): no
    note a node, no check of the nodes left out, none of the pipeline's report (its diff of
    the whole graph); the nodes kept are found by a walk on node indexes from the outputs.
    At 1M nodes the pipeline's step took ~40 s on the slow class, for a run of a few nodes.
    None where it cannot be sure of the same answer (a name held by two nodes, an input or
    output not in the graph, a setting refused, a kept node's input malformed or naming no
    kept node): the pipeline then says why in its own words."""
    try:
        per_name, default = _settings(ctx)
    except TransformError:
        return None
    nodes = graph_def.node
    names = [n.name for n in nodes]
    index = dict(zip(names, range(len(names))))
    stops = {node_name_from_input(i) for i in ctx.inputs}
    starts = {node_name_from_input(o) for o in ctx.outputs}
    if not starts or len(index) != len(names) or not (stops | starts) <= index.keys():
        return None
    seen = {index[s] for s in starts}
    todo = [i for i in seen if names[i] not in stops]
    find = index.get
    while todo:        # what upstream(outputs, stop=inputs) reaches, their inputs checked
        for text in nodes[todo.pop()].input:     # as validate checks them
            j = find(text if text and ":" not in text and "^" not in text else
                     named_node(text))
            if j is None:                        # malformed, or naming no node
                return None
            if j not in seen:
                seen.add(j)
                if names[j] not in stops:
                    todo.append(j)
    seen.update(index[s] for s in stops)
    kept, unchecked = [], False
    for i in sorted(seen):
        node = nodes[i]
        if node.name in stops:
            if node.op != "Placeholder":
                node = _placeholder(node.name, *per_name.get(node.name, default))
            else:           # kept as it is, its inputs not walked: validate looks at them
                unchecked = unchecked or len(node.input) > 0
        kept.append(node)
    result = copy_graph(graph_def, kept)
    if graph_def.HasField("debug_info"):     # as run_step keeps it
        result.debug_info.CopyFrom(graph_def.debug_info)
    try:
        if unchecked:
            validate(result)
    except TransformError:
        return None
    return result


@transform("strip_unused_nodes", "clean up",
           "Removes everything the outputs do not need and turns the inputs into Placeholders.",
           [Param("type", "dtype", "float"), Param("shape", "shape", ""),
            Param("name", "node", repeated=True), Param("type_for_name", "dtype", repeated=True),
            Param("shape_for_name", "shape", repeated=True)], structure_only=True,
           alone=strip_alone)
def strip_unused_nodes(graph_def, ctx):
    if not ctx.outputs:
        raise TransformError("strip_unused_nodes needs outputs (--outputs, or mark them): "
                             "without them it would delete every node")
    per_name, default = _settings(ctx)
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
            kept.append(_placeholder(node.name, *per_name.get(node.name, default)))
            ctx.note(node.name, f"replaced by a Placeholder (was {node.op})")
        else:
            kept.append(node)
    if ctx.in_place:
        rebuild(graph_def, kept)
        return graph_def
    return copy_graph(graph_def, kept)
