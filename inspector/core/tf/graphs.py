"""Importing graphs into TensorFlow: static shapes (on skeleton graphs without big constant
values), output and input dtypes from the op registry, the profiler's FLOPs."""

from __future__ import annotations

import gc

from inspector.core.errors import InspectorError
from inspector.core.model import protos, safety, tensors
from inspector.core.tf.runtime import first_line, serialized, tf, to_tf


def _with_input_shapes(graph_def, input_shapes: dict):
    if not input_shapes:
        return graph_def
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
        raise InspectorError(f"TensorFlow cannot import the graph: {first_line(exc)}") from None
    return graph


def skeleton(graph_def, keep_elements: int = 64):
    """A copy whose big constants keep dtype and shape but no values: enough for shape
    inference, and ~1000x smaller to hand to TF (whose import holds the GIL throughout)."""
    gd = protos.GraphDef()
    gd.versions.CopyFrom(graph_def.versions)
    gd.library.CopyFrom(graph_def.library)

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


def _c_import(graph_def, input_shapes: dict | None):
    """The GraphDef imported by TF's C++ importer alone, and its operations (TF_Operation
    handles, in graph order), or None where this TensorFlow lacks the internals used. The
    importer's shape refiner is what gives Python's tensors their static shapes; Python's
    import_graph_def then makes a Python Operation per node (colocation, device and
    control-flow bookkeeping), about 70 % of its time, which shape inference does not need."""
    t = tf()
    try:
        from tensorflow.python.client import pywrap_tf_session as c_api
        graph = t.Graph()
        new_operations = graph._c_graph.new_operations
    except (ImportError, AttributeError):
        return None
    safety.check_no_recursion(graph_def)
    data = _with_input_shapes(graph_def, input_shapes or {}).SerializeToString()
    options = c_api.TF_NewImportGraphDefOptions()
    buffer = c_api.TF_NewBufferFromString(data)
    try:
        c_api.TF_ImportGraphDefOptionsSetPrefix(options, "")
        with graph._c_graph.get() as c_graph:
            results = c_api.TF_GraphImportGraphDefWithResults(c_graph, buffer, options)
        c_api.TF_DeleteImportGraphDefResults(results)
    except Exception as exc:
        raise InspectorError(f"TensorFlow cannot import the graph: {first_line(exc)}") from None
    finally:
        c_api.TF_DeleteBuffer(buffer)
        c_api.TF_DeleteImportGraphDefOptions(options)
    return graph, new_operations()


def _shapes_by_c_import(graph_def, input_shapes: dict | None):
    """{name: (shape or None, ...)} from the C++ import, or None to take the Python path."""
    imported = _c_import(graph_def, input_shapes)
    if imported is None:
        return None
    graph, c_ops = imported
    try:
        from tensorflow.python.framework.ops import Operation, SymbolicTensor
    except ImportError:
        _dismantle(graph)
        return None

    out = {}
    try:
        for i, c_op in enumerate(c_ops):   # a bare Operation over the C++ one answers shapes
            op = Operation(c_op, SymbolicTensor)
            op.graph = graph
            op._init_outputs()
            out[op.name] = tuple(None if unknown else tuple(dims)
                                 for dims, unknown in (x._shape for x in op.outputs))
            if i % 4096 == 4095:
                op = None
                gc.collect(0)   # each op and its outputs form a cycle: free them as we go
    finally:
        op = c_ops = None
        gc.collect(0)           # the last ones, which hold the graph
        _dismantle(graph)
    return out


def _shapes_by_python_import(graph_def, input_shapes: dict | None) -> dict:
    graph = import_graph(graph_def, input_shapes)
    try:
        return {op.name: tuple(None if x.shape.rank is None else tuple(x.shape.as_list())
                               for x in op.outputs)
                for op in graph.get_operations()}
    finally:
        _dismantle(graph)


def _dismantle(graph) -> None:
    """Free a temporary tf.Graph now: it holds reference cycles, and the worker runs calls
    without garbage collection, so the C++ graph (500 MB at 100k nodes) would otherwise stay
    until the call ends."""
    try:
        from tensorflow.python.framework.ops import dismantle_graph
        dismantle_graph(graph)
    except (ImportError, AttributeError):
        pass


_LAST_SHAPES: list = []     # [(graph_def, shapes key, node count, answer)], the last few


def forget_shapes() -> None:
    """Drop the kept answers and the GraphDefs they hold (run.forget_sessions calls this
    when the worker lets a model go)."""
    _LAST_SHAPES.clear()


@serialized
def infer_shapes(graph_def, input_shapes: dict | None = None) -> dict:
    """node name -> list of static output shapes (tuples, None for unknown dims/rank). Nodes
    with the same output shapes share one list (treat them as read-only): a 300k-node graph's
    answer then pickles and unpickles to about 45 MB less. The last answers are kept per
    GraphDef object (the window's edge labels, its model card and the FLOPs of the same
    graph each ask; at 300k nodes an import takes tens of seconds)."""
    key = tuple(sorted((k, tuple(v)) for k, v in (input_shapes or {}).items()))
    for held, held_key, count, answer in _LAST_SHAPES:
        if held is graph_def and held_key == key and count == len(graph_def.node):
            return dict(answer)
    sk = skeleton(graph_def)
    found = _shapes_by_c_import(sk, input_shapes)
    if found is None:
        found = _shapes_by_python_import(sk, input_shapes)
    out, alike = {}, {}
    for name, shapes in found.items():
        same = alike.get(shapes)
        if same is None:
            same = alike[shapes] = list(shapes)
        out[name] = same
    _LAST_SHAPES.insert(0, (graph_def, key, len(graph_def.node), out))
    del _LAST_SHAPES[2:]
    return dict(out)


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
