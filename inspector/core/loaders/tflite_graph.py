"""A TFLite model's main subgraph as a read-only Graph the app can draw, search and inspect:
operators become nodes, model inputs placeholders, constant tensors Const nodes whose bytes
stay in the file (read on demand through a WeightStore), and quantization parameters
attributes. Weight bytes are never copied while opening."""

from __future__ import annotations

import os
from array import array

from inspector.core.loaders import files
from inspector.core.loaders.loaded import LoadedModel, Signature
from inspector.core.loaders.tflite import TF_DTYPES, read_model
from inspector.core.model import protos
from inspector.core.model.graph import Graph
from inspector.core.model.dtypes import dtype_name
from inspector.core.model.humanize import count
from inspector.core.model.tensors import format_shape
from inspector.core.model.weights import LAZY_MARK, TENSOR_CONTENT, Slot, WeightStore

LAZY_FROM = 1024     # constant tensors this big stay in the file until someone looks


def _unique(base: str, taken: set) -> str:
    name = base or "tensor"
    k = 1
    while name in taken:
        name = f"{base}_{k}"
        k += 1
    taken.add(name)
    return name


def _base(tensor_name: str) -> str:
    """A node name for a tensor: its first fused name without a TF output suffix (a Keras
    converter names its input 'serving_default_x:0'), no ':' left (it would read as an edge's
    output index: the input or output node came out unconnected). 'x:2' is 'x_2', not the
    next free 'x_k': basic-pitch's outputs 'StatefulPartitionedCall:2' and ':1' read '_1' and
    '_2' in operator order, each the other's tensor."""
    name = tensor_name.split(";")[0]
    head, colon, tail = name.rpartition(":")
    if colon and head and tail.isdigit():
        name = head if tail == "0" else f"{head}_{tail}"
    return name.replace(":", "_")


def _set_tensor_attrs(node, t, dtype_attr: str) -> None:
    dtype = TF_DTYPES.get(t.dtype)
    if dtype is not None:
        node.attr[dtype_attr].type = dtype
    node.attr["tflite_tensor"].s = t.name.encode()
    node.attr["tflite_type"].s = t.dtype.encode()
    if t.scales:
        node.attr["quant_scale"].list.f.extend(t.scales)
        node.attr["quant_zero_point"].list.i.extend(t.zero_points)
        if len(t.scales) > 1:
            node.attr["quant_axis"].i = t.axis


def _shapes(node, tensors: list) -> None:
    """The tensors' shapes as LiteRT's shape_signature gives them (`_output_shapes`: -1, "?",
    where a size is set at run time), which the properties, the edges and the summary show
    alike; where that opens a size, the stored shapes (LiteRT's `shape`, the model at its
    stored size) in `tflite_shape`, which the FLOP count reads (static_shapes)."""
    stored = [list(t.shape) for t in tensors]
    shown = [_open_dims(t) for t in tensors]
    for key, all_dims in (("_output_shapes", shown),) + (
            (("tflite_shape", stored),) if shown != stored else ()):
        for dims in all_dims:
            shape = node.attr[key].list.shape.add()
            for d in dims:
                shape.dim.add().size = d


def _open_dims(t) -> list:
    """A tensor's dimensions as its signature leaves them: -1 where the size is set at run
    time (a dynamic batch); an input's, so a count at the stored size says what it assumed."""
    sig = t.shape_signature
    if len(sig) == len(t.shape) and any(d < 0 for d in sig):
        return [-1 if s < 0 else d for s, d in zip(sig, t.shape)]
    return list(t.shape)


def _set_options(node, options: dict) -> None:
    """The operator's builtin options as attributes (strides, filter sizes, fused activation:
    what its arithmetic and the properties panel need); `padding` as `tflite_padding`, not to
    be compared with a GraphDef op's own `padding`."""
    for key, value in options.items():
        key = "tflite_padding" if key == "padding" else key
        if isinstance(value, str):
            node.attr[key].s = value.encode()
        elif isinstance(value, bool):
            node.attr[key].b = value
        else:
            node.attr[key].i = value


def build_graph(model, path: str, data) -> tuple:
    """(Graph, input node names, output node names) of the main subgraph."""
    main = model.subgraphs[0]
    gd = protos.GraphDef()
    taken: set = set()
    producer: dict = {}          # tensor index -> node name
    slots = []
    sizes = []                    # each node's bytes of the file, in node order
    consumed = {i for op in main.operators for i in op.inputs if i >= 0}
    sized = set(main.inputs)      # tensors whose bytes a node has (an input that an operator
    #                               also writes is the Placeholder's, not counted again)
    for i in main.inputs:
        t = main.tensors[i]
        node = gd.node.add(name=_unique(_base(t.name), taken), op="Placeholder")
        _set_tensor_attrs(node, t, "dtype")
        for d in _open_dims(t):
            node.attr["shape"].shape.dim.add().size = d
        _shapes(node, [t])    # as every tensor here: the edges' labels need no TF
        producer[i] = node.name
        sizes.append(t.file_bytes)
    made = {o for op in main.operators for o in op.outputs}
    for t in main.tensors:
        if t.index in producer or t.index in made or t.index not in consumed:
            continue
        node = gd.node.add(name=_unique(_base(t.name), taken),
                           op="Const" if t.data[1] or not t.variable else "VarHandleOp")
        _set_tensor_attrs(node, t, "dtype")
        tensor = node.attr["value"].tensor
        if t.dtype in TF_DTYPES:
            tensor.dtype = TF_DTYPES[t.dtype]
        for d in t.shape:
            tensor.tensor_shape.dim.add().size = d
        offset, length = t.data
        if length >= LAZY_FROM and t.dtype != "STRING":
            tensor.version_number = LAZY_MARK
            slots.append(Slot(len(gd.node) - 1, "value", TENSOR_CONTENT, offset, length, 0))
        elif length and t.dtype != "STRING":
            tensor.tensor_content = bytes(data[offset:offset + length])
        producer[t.index] = node.name
        sizes.append(t.file_bytes)
    for op in main.operators:
        first = main.tensors[op.outputs[0]] if op.outputs else None
        base = _base(first.name) if first is not None and first.name else \
            f"{op.op.lower()}_{op.index}"
        node = gd.node.add(name=_unique(base, taken), op=op.op)
        for i in op.inputs:
            if i >= 0 and i in producer:
                node.input.append(producer[i])
        node.attr["tflite_index"].i = op.index
        _set_options(node, op.options)
        if first is not None:
            _set_tensor_attrs(node, first, "T")
        for k, o in enumerate(op.outputs):
            producer[o] = node.name if k == 0 else f"{node.name}:{k}"
        _shapes(node, [main.tensors[o] for o in op.outputs])
        sizes.append(op.file_bytes + sum(main.tensors[o].file_bytes for o in op.outputs
                                         if o not in sized))
        sized.update(op.outputs)
    store = None
    if slots:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        st = os.fstat(fd)
        store = WeightStore(path, fd, (st.st_size, st.st_mtime_ns), slots, 0)
    graph = Graph(gd, os.path.basename(path), weights=store)
    if model.sized and all(s < 1 << 32 for s in sizes):   # the file's bytes, not the
        graph.stored_sizes, graph.sizes_in_file = array("I", sizes), True   # NodeDefs'
    graph.tflite_producers = producer   # tensor index -> node (":k" past an op's first output)
    outs = [producer[o].split(":")[0] for o in main.outputs if o in producer]
    ins = [producer[i] for i in main.inputs]
    return graph, ins, outs


def _signature(model, producers: dict):
    """The main subgraph's own SignatureDef, as the interpreter's get_signature_runner names
    its inputs and outputs ('contour', 'note', 'onset' for basic-pitch), with the shapes its
    tensors' shape_signature declares (-1: sized at run time); None without one."""
    main = model.subgraphs[0]
    for (key, ins, outs), owner in zip(model.signatures, model.signature_subgraphs):
        if owner != 0 or not all(i in producers for i in (*ins.values(), *outs.values())):
            continue

        def ports(by_name: dict) -> tuple[dict, dict]:
            names, specs = {}, {}
            for name, index in by_name.items():
                node = producers[index]
                names[name] = node if ":" in node else f"{node}:0"
                t = main.tensors[index]
                dims = _open_dims(t)
                dtype = TF_DTYPES.get(t.dtype)
                specs[name] = (dtype_name(dtype) if dtype else "",
                               format_shape([None if d < 0 else d for d in dims]))
            return names, specs

        (inputs, in_specs), (outputs, out_specs) = ports(ins), ports(outs)
        return Signature(key, inputs, outputs, in_specs, out_specs)
    return None


def load_tflite(path: str, size: int):
    """The model as a LoadedModel whose graph shows the main subgraph."""

    data = files.read_file(path, what="the TensorFlow Lite file")
    model = read_model(data, path)
    graph, ins, outs = build_graph(model, path, data)
    notes = [f"TensorFlow Lite model (schema version {model.version}): a read-only view of "
             f"its main subgraph, {count(len(model.subgraphs[0].operators), 'operator')}"]
    if len(model.subgraphs) > 1:
        notes.append(f"{len(model.subgraphs) - 1} more subgraph(s) (loop and branch bodies) "
                     "are not drawn")
    if model.calls:         # shown, but nothing will run it (tflite.check_calls)
        notes.append(f"LiteRT cannot run this model: {model.calls}")
    signature = _signature(model, graph.tflite_producers) or \
        Signature("tflite", {n: f"{n}:0" for n in ins}, {n: f"{n}:0" for n in outs})
    loaded = LoadedModel(path, "tflite", graph, size, frozen=True, signature=signature,
                         notes=notes)
    loaded.tflite = model
    return loaded
