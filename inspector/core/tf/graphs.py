"""Importing graphs into TensorFlow: static shapes (on skeleton graphs without big constant
values), output and input dtypes from the op registry, the profiler's FLOPs."""

from __future__ import annotations

from inspector.core.model import protos, safety
from inspector.core.tf.runtime import first_line, serialized, tf, to_tf


def _with_input_shapes(graph_def, input_shapes: dict):
    gd = protos.GraphDef()
    gd.CopyFrom(graph_def)
    for node in gd.node:
        dims = input_shapes.get(node.name)
        if dims is not None and node.op in ("Placeholder", "PlaceholderWithDefault"):
            shape = node.attr["shape"].shape
            shape.Clear()
            for d in dims:
                shape.dim.add(size=-1 if d is None else d)
    return gd


@serialized
def import_graph(graph_def, input_shapes: dict | None = None):
    """A tf.Graph holding the GraphDef (Placeholders reshaped as given), names unprefixed.
    Importing runs nothing, but a recursive function library crashes TF: refused first."""
    safety.check_no_recursion(graph_def)
    t = tf()
    graph = t.Graph()
    gd = _with_input_shapes(graph_def, input_shapes or {})
    try:
        with graph.as_default():
            t.compat.v1.import_graph_def(to_tf(gd), name="")
    except Exception as exc:
        from inspector.core.errors import InspectorError
        raise InspectorError(f"TensorFlow cannot import the graph: {first_line(exc)}") from None
    return graph


def skeleton(graph_def, keep_elements: int = 64):
    """A copy whose big constants keep dtype and shape but no values: enough for shape
    inference, and ~1000x smaller to hand to TF (whose import holds the GIL throughout)."""
    gd = protos.GraphDef()
    gd.versions.CopyFrom(graph_def.versions)
    gd.library.CopyFrom(graph_def.library)
    from inspector.core.model import tensors

    for node in graph_def.node:
        new = gd.node.add()
        if node.op == "Const" and "value" in node.attr and \
                tensors.element_count(node.attr["value"].tensor) > keep_elements and \
                node.attr["value"].tensor.dtype != 7:
            new.name, new.op, new.device = node.name, node.op, node.device
            new.input.extend(node.input)
            for key in node.attr:
                if key != "value":
                    new.attr[key].CopyFrom(node.attr[key])
            t = new.attr["value"].tensor
            t.dtype = node.attr["value"].tensor.dtype
            t.tensor_shape.CopyFrom(node.attr["value"].tensor.tensor_shape)
        else:
            new.CopyFrom(node)
    return gd


@serialized
def infer_shapes(graph_def, input_shapes: dict | None = None) -> dict:
    """node name -> list of static output shapes (tuples, None for unknown dims/rank). Nodes
    with the same output shapes share one list (treat them as read-only): a 300k-node graph's
    answer then pickles and unpickles to about 45 MB less."""
    graph = import_graph(skeleton(graph_def), input_shapes)
    out, alike = {}, {}
    for op in graph.get_operations():
        shapes = tuple(None if x.shape.rank is None else tuple(x.shape.as_list())
                       for x in op.outputs)
        found = alike.get(shapes)
        if found is None:
            found = alike[shapes] = list(shapes)
        out[op.name] = found
    return out


@serialized
def profiler_float_ops(graph_def, input_shapes: dict | None = None) -> int:
    """tf.compat.v1.profiler's float_operation total for the graph (the FLOPs oracle)."""
    t = tf()
    graph = import_graph(skeleton(graph_def), input_shapes)
    opts = t.compat.v1.profiler.ProfileOptionBuilder.float_operation()
    opts["output"] = "none"
    result = t.compat.v1.profiler.profile(graph, options=opts)
    return int(result.total_float_ops)


@serialized
def output_types(graph_def) -> dict:
    """node name -> list of output dtype enums, from TF's op registry via a graph import."""
    graph = import_graph(graph_def)
    return {op.name: [x.dtype.as_datatype_enum for x in op.outputs]
            for op in graph.get_operations()}


@serialized
def io_types(graph_def) -> dict:
    """node name -> (data input dtype enums, output dtype enums), as TF's op registry says."""
    graph = import_graph(graph_def)
    return {op.name: ([x.dtype.as_datatype_enum for x in op.inputs],
                      [x.dtype.as_datatype_enum for x in op.outputs])
            for op in graph.get_operations()}
