"""Making a TF.js converter's fused ops something TensorFlow imports and runs.

The converter writes `_FusedConv2D` / `_FusedMatMul` without `TArgs` (TensorFlow needs it),
`FusedDepthwiseConv2dNative` under a name TensorFlow does not have (its `_Fused...` op has no
runnable CPU kernel outside oneDNN), and may fuse `Prelu`, which no TensorFlow kernel fuses.
Ops TensorFlow can run get `TArgs` back; the others are split into the plain ops they stand
for (convolution, BiasAdd, activation), the last of which keeps the node's name."""

from __future__ import annotations

_FUSED = {"_FusedConv2D", "_FusedMatMul", "_FusedBatchMatMul", "FusedDepthwiseConv2dNative",
          "_FusedDepthwiseConv2dNative"}
_BASE = {"_FusedConv2D": "Conv2D", "_FusedMatMul": "MatMul", "_FusedBatchMatMul": "BatchMatMulV2",
         "FusedDepthwiseConv2dNative": "DepthwiseConv2dNative",
         "_FusedDepthwiseConv2dNative": "DepthwiseConv2dNative"}
_BASE_ATTRS = {"Conv2D": ("T", "strides", "padding", "explicit_paddings", "data_format",
                          "dilations", "use_cudnn_on_gpu"),
               "DepthwiseConv2dNative": ("T", "strides", "padding", "explicit_paddings",
                                         "data_format", "dilations"),
               "MatMul": ("T", "transpose_a", "transpose_b"),
               "BatchMatMulV2": ("T", "adj_x", "adj_y")}
_ACTIVATIONS = {"Relu", "Relu6", "Elu", "LeakyRelu", "Sigmoid", "Tanh"}
# what TF 2.21's CPU kernels fuse (Sigmoid and Tanh only into MatMul, so they are split)
_KERNEL_FUSES = {"BiasAdd", "Relu", "Relu6", "Elu", "LeakyRelu"}


def fix_fused(graph_def) -> tuple[int, int]:
    """(nodes given TArgs, nodes split into plain ops)."""
    targs = split = 0
    taken = {n.name for n in graph_def.node}
    new_nodes = []
    for node in graph_def.node:
        if node.op not in _FUSED:
            continue
        fused = [s.decode("utf-8", "replace") for s in node.attr["fused_ops"].list.s]
        if "Depthwise" in node.op or any(op not in _KERNEL_FUSES for op in fused):
            made = _split(node, fused, taken)
            if made is not None:
                new_nodes.extend(made)
                split += 1
                continue
        if "TArgs" not in node.attr and "T" in node.attr:
            count = node.attr["num_args"].i if "num_args" in node.attr else \
                max(0, len([i for i in node.input if not i.startswith("^")]) - 2)
            node.attr["TArgs"].list.type.extend([node.attr["T"].type] * count)
            targs += 1
    graph_def.node.extend(new_nodes)
    return targs, split


# fused kernels TF's converter keeps as Select TF ops: split into their plain ops it makes
# builtins of them again (CONV_2D, FULLY_CONNECTED, DEPTHWISE_CONV_2D with a fused activation)
FUSED_KERNELS = frozenset({"_FusedConv2D", "_FusedMatMul", "_FusedDepthwiseConv2dNative"})


def split_fused_kernels(graph_def) -> int:
    """Split every fused kernel of FUSED_KERNELS whose steps have plain ops into them, in
    place (the last keeps the node's name); returns how many. The TF.js SSD hand detector's
    72 _FusedConv2D converted to TFLite as Select TF ops, a model no builtin-only app runs."""
    taken = {n.name for n in graph_def.node}
    new_nodes, split = [], 0
    for node in graph_def.node:
        if node.op not in FUSED_KERNELS:
            continue
        fused = [s.decode("utf-8", "replace") for s in node.attr["fused_ops"].list.s]
        made = _split(node, fused, taken)
        if made is not None:
            new_nodes.extend(made)
            split += 1
    graph_def.node.extend(new_nodes)
    return split


def _unique(name: str, taken: set) -> str:
    out, k = name, 1
    while out in taken:
        out, k = f"{name}_{k}", k + 1
    taken.add(out)
    return out


def _split(node, fused: list, taken: set):
    """Turn node into its last plain op; returns the other new nodes (None: cannot)."""
    data = [i for i in node.input if not i.startswith("^")]
    controls = [i for i in node.input if i.startswith("^")]
    args = data[2:]
    if len(data) < 2 or (fused and fused[0] not in ("BiasAdd",) and fused[0] not in _ACTIVATIONS
                         and fused[0] != "Prelu") or "FusedBatchNorm" in fused:
        return None
    base_op = _BASE[node.op]
    t = node.attr["T"].type
    steps = []      # (op, extra inputs, attrs)
    rest = list(args)
    for op in fused:
        if op == "BiasAdd":
            if not rest:
                return None
            steps.append(("BiasAdd", [rest.pop(0)], {"T": t}))
        elif op == "Prelu":
            if not rest:
                return None
            steps.append(("Prelu", [rest.pop(0)], {"T": t}))
        elif op in _ACTIVATIONS:
            steps.append((op, [], {"T": t}))
        else:
            return None
    made = []
    base = _copy_as(node, base_op, _unique(node.name + "/" + base_op, taken),
                    data[:2] + controls, _BASE_ATTRS[base_op])
    made.append(base)
    current = base.name
    final_attrs = {}      # copies: the node's own attrs are cleared when it becomes the last op
    for key, as_key in (("data_format", "data_format"), ("leakyrelu_alpha", "alpha")):
        if key in node.attr:
            final_attrs[as_key] = type(node.attr[key])()
            final_attrs[as_key].CopyFrom(node.attr[key])
    for k, (op, extra, _) in enumerate(steps):
        last = k == len(steps) - 1
        if op == "Prelu":       # prelu(y) = relu(y) - alpha * relu(-y)
            pieces = _prelu(node, current, extra[0], t, taken, last)
            made.extend(pieces[:-1])
            current = pieces[-1].name if not last else node.name
            if last:
                _become(node, pieces[-1])
            else:
                made.append(pieces[-1])
            continue
        target = node if last else type(node)(name=_unique(f"{node.name}/{op}", taken))
        inputs = [current] + extra
        attrs = {"T": t}
        if op == "BiasAdd" and "data_format" in final_attrs and base_op != "MatMul":
            attrs["data_format"] = final_attrs["data_format"]
        if op == "LeakyRelu" and "alpha" in final_attrs:
            attrs["alpha"] = final_attrs["alpha"]
        _set(target, op, inputs, attrs, node.device)
        if not last:
            made.append(target)
        current = target.name
    if not steps:
        _become(node, base)
        made.remove(base)
    return made


def _copy_as(node, op: str, name: str, inputs: list, keep: tuple):
    out = type(node)(name=name, op=op, device=node.device)
    out.input.extend(inputs)
    for key in keep:
        if key in node.attr:
            out.attr[key].CopyFrom(node.attr[key])
    return out


def _set(target, op: str, inputs: list, attrs: dict, device: str) -> None:
    target.ClearField("attr")
    target.ClearField("input")
    target.op = op
    target.device = device
    target.input.extend(inputs)
    for key, value in attrs.items():
        if isinstance(value, int):
            target.attr[key].type = value
        else:
            target.attr[key].CopyFrom(value)


def _become(node, other) -> None:
    name = node.name
    node.CopyFrom(other)
    node.name = name


def _prelu(node, x: str, alpha: str, t: int, taken: set, last: bool) -> list:
    def make(op, inputs, suffix):
        n = type(node)(name=_unique(f"{node.name}/prelu/{suffix}", taken))
        _set(n, op, inputs, {"T": t}, node.device)
        return n

    pos = make("Relu", [x], "positive")
    neg = make("Neg", [x], "negated")
    neg_relu = make("Relu", [neg.name], "negative")
    scaled = make("Mul", [alpha, neg_relu.name], "scaled")
    out = make("Sub", [pos.name, scaled.name], "out")
    return [pos, neg, neg_relu, scaled, out]


def for_converter(graph_def):
    """The graph TF's converter is given: its fused kernels (_FusedConv2D, ...) split into
    plain ops, which the converter makes builtins again (kept fused, they were Select TF
    ops: the TF.js SSD hand detector's 72 _FusedConv2D); the graph itself when it has none.
    The builtin table's rows for them say so."""
    if not any(n.op in FUSED_KERNELS for n in graph_def.node):
        return graph_def
    copy = type(graph_def)()
    copy.CopyFrom(graph_def)
    split_fused_kernels(copy)
    return copy
