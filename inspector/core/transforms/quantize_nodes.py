"""quantize_nodes: rewrite float ops as eight-bit quantized ops, as TF's transform does.

Steps: optional quint8 Placeholders (input_min/max); FakeQuant ops hoisted up to 3 linear ops;
FakeQuants turned into QuantizeV2+Requantize+Dequantize; each quantizable float op wrapped in
Reshape/Min/Max/QuantizeV2 on its inputs and Requantize/Dequantize on its output; adjacent
Requantizes merged; duplicates merged; Dequantize->QuantizeV2 round trips removed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from inspector.core.model import protos
from inspector.core.model.graph import node_name_from_input
from inspector.core.runtime.executor import tensorflow
from inspector.core.transforms.base import Param, TransformError, transform
from inspector.core.transforms.graph_utils import (
    Pattern,
    copy_graph,
    rename_node_inputs,
    replace_matching,
    tensor_const,
)
from inspector.core.transforms.merge_duplicate_nodes import merge_duplicate_nodes
from inspector.core.transforms.validation import validate

QUINT8, QINT32, FLOAT, INT32 = 12, 13, 1, 3


@dataclass
class OpInfo:
    copy: list = field(default_factory=list)
    dtypes: list = field(default_factory=list)
    wide_output: bool = False  # 32-bit result that must be requantized to 8 bits
    unquantized: set = field(default_factory=set)
    separate_min_max: bool = False
    target: str = ""


OPS = {
    "Add": OpInfo([], [("T1", QUINT8), ("T2", QUINT8), ("Toutput", QINT32)], True),
    "AvgPool": OpInfo(["ksize", "strides", "padding"], [("T", QUINT8)]),
    "BiasAdd": OpInfo([], [("T1", QUINT8), ("T2", QUINT8), ("out_type", QINT32)], True),
    "Concat": OpInfo(["N"], [("T", QUINT8)], False, {0}, True),
    "Conv2D": OpInfo(["strides", "padding"],
                     [("Tinput", QUINT8), ("Tfilter", QUINT8), ("out_type", QINT32)], True),
    "Conv2DBackpropInput": OpInfo(["strides", "padding"], [("Tinput", QUINT8),
                                  ("Tfilter", QUINT8), ("out_type", QINT32)], True, {0},
                                  target="QuantizedConv2DTranspose"),
    "MatMul": OpInfo(["transpose_a", "transpose_b"],
                     [("T1", QUINT8), ("T2", QUINT8), ("Toutput", QINT32)], True),
    "MaxPool": OpInfo(["ksize", "strides", "padding"], [("T", QUINT8)]),
    "Mul": OpInfo([], [("T1", QUINT8), ("T2", QUINT8), ("Toutput", QINT32)], True),
    "Relu": OpInfo([], [("Tinput", QUINT8)]),
    "ResizeBilinear": OpInfo(["align_corners"], [("T", QUINT8)], False, {1}),
    "Relu6": OpInfo([], [("Tinput", QUINT8)]),
    "Reshape": OpInfo([], [("T", QUINT8)], False, {1}),
}


def _scalar(name: str, value: float):
    return tensor_const(name, np.array(value, np.float32))


def _node(name: str, op: str, inputs=(), **type_attrs):
    node = protos.NodeDef(name=name, op=op, input=list(inputs))
    for key, value in type_attrs.items():
        node.attr[key].type = value
    return node


def _min_first(node):
    node.attr["mode"].s = b"MIN_FIRST"
    return node


def _range_params(ctx, lo_key: str, hi_key: str):
    has_lo, has_hi = lo_key in ctx.params, hi_key in ctx.params
    if not (has_lo or has_hi):
        return None
    if not (has_lo and has_hi):
        raise TransformError(f"You must pass both {lo_key} and {hi_key} into quantize_nodes")
    return ctx.float(lo_key, 0.0), ctx.float(hi_key, 0.0)


def quantize_placeholders(graph_def, input_range):
    if input_range is None:
        return graph_def
    out = copy_graph(graph_def, [])
    first, second = {}, {}
    for node in graph_def.node:
        if node.op != "Placeholder":
            out.node.add().CopyFrom(node)
            continue
        prefix = node.name + "_eightbit"
        ph = out.node.add()
        ph.CopyFrom(node)
        ph.attr["dtype"].type = QUINT8
        out.node.add().CopyFrom(_scalar(prefix + "/min", input_range[0]))
        out.node.add().CopyFrom(_scalar(prefix + "/max", input_range[1]))
        renamed = node.name + "__RENAMED_PLACEHOLDER__"
        out.node.add().CopyFrom(_min_first(_node(
            prefix + "/dequantize", "Dequantize", [renamed, prefix + "/min", prefix + "/max"],
            T=QUINT8)))
        first[node.name] = prefix + "/dequantize"
        second[renamed] = node.name
    return rename_node_inputs(rename_node_inputs(out, first), second)


def hoist_fake_quants(graph_def):
    current = graph_def
    for depth in (3, 2, 1):
        chain = Pattern("*")
        for _ in range(depth):
            chain = Pattern("*", [chain])
        pattern = Pattern("FakeQuantWithMinMaxVars", [chain, Pattern("Const"), Pattern("Const")])

        def replace(match, outside, depth=depth):
            fq = match.node
            linear, cur = [], match
            for _ in range(depth + 1):
                cur = cur.inputs[0]
                node = protos.NodeDef()
                node.CopyFrom(cur.node)
                linear.append(node)
            hoisted = protos.NodeDef()
            hoisted.CopyFrom(fq)
            hoisted.name = fq.name + "_hoisted"
            hoisted.input[0] = linear[-2].input[0]
            linear[-2].input[0] = hoisted.name
            linear[0].name = fq.name
            return [hoisted, match.inputs[1].node, match.inputs[2].node] + linear

        current = replace_matching(current, pattern, replace)
    return current


def fake_quants_to_requantize(graph_def):
    pattern = Pattern("FakeQuantWithMinMaxVars", [Pattern("*"), Pattern("Const"),
                                                  Pattern("Const")])

    def replace(match, outside):
        fq, src = match.node, match.inputs[0].node
        lo, hi = match.inputs[1].node.name, match.inputs[2].node.name
        prefix = fq.name + "_eightbit"
        quant = _min_first(_node(prefix + "/quantize", "QuantizeV2", [fq.input[0], lo, hi],
                                 T=QINT32))
        req = _node(prefix + "/requantize", "Requantize",
                    [f"{quant.name}:{i}" for i in range(3)] + [lo, hi], Tinput=QINT32,
                    out_type=QUINT8)
        deq = _min_first(_node(fq.name, "Dequantize", [f"{req.name}:{i}" for i in range(3)],
                               T=QUINT8))
        return [src, match.inputs[1].node, match.inputs[2].node, quant, req, deq]

    return replace_matching(graph_def, pattern, replace)


def unique_input_name(text: str) -> str:
    control = text.startswith("^")
    body = text[1:] if control else text
    name = node_name_from_input(text)
    suffix = body[len(name):]
    return ("__hat__" if control else "") + name + (f"__port__{suffix[1:]}" if suffix else "")


def quantize_ops(graph_def, ignore: set, fallback, ctx):
    ops = {k: v for k, v in OPS.items() if k not in ignore}
    if not ops:
        return graph_def
    types = tensorflow().io_types(graph_def)

    def replace(match, outside):
        node = match.node
        info = ops[node.op]
        in_types, out_types = types.get(node.name, ([], []))
        if any(i not in info.unquantized and (i >= len(in_types) or in_types[i] != FLOAT)
               for i in range(len(node.input))) or any(t != FLOAT for t in out_types):
            return None
        prefix = node.name + "_eightbit"
        new, quantized = [], []
        for i, text in enumerate(node.input):
            if i in info.unquantized:
                continue
            base = f"{prefix}/{unique_input_name(text)}"
            dims = tensor_const(base + "/reshape_dims", np.array([-1], np.int32), INT32)
            # as TF: '^' + the node's name ('^x:0' is no control input TF can import)
            dims.input.append("^" + node_name_from_input(text))
            red = tensor_const(base + "/reduction_dims", np.array([0], np.int32), INT32)
            red.input.append("^" + node_name_from_input(text))
            reshape = _node(base + "/reshape", "Reshape", [text, dims.name], T=FLOAT)
            lo = _node(base + "/min", "Min", [reshape.name, red.name], T=FLOAT)
            hi = _node(base + "/max", "Max", [reshape.name, red.name], T=FLOAT)
            for reduce in (lo, hi):
                reduce.attr["keep_dims"].b = False
            quant = _min_first(_node(base + "/quantize", "QuantizeV2", [text, lo.name, hi.name],
                                     T=QUINT8))
            new += [dims, red, reshape, lo, hi, quant]
            quantized.append(quant.name)
        main = protos.NodeDef(name=node.name + "/eightbit", op=info.target or "Quantized" + node.op)
        for key in info.copy:
            if key in node.attr:
                main.attr[key].CopyFrom(node.attr[key])
        for key, value in info.dtypes:
            main.attr[key].type = value
        q = iter(quantized)
        for i, text in enumerate(node.input):
            main.input.append(text if i in info.unquantized else next(q) + ":0")
        if info.separate_min_max:
            main.input.extend([f"{n}:1" for n in quantized] + [f"{n}:2" for n in quantized])
        else:
            for n in quantized:
                main.input.extend([f"{n}:1", f"{n}:2"])
        new.append(main)
        eight_bit = main.name
        if info.wide_output:
            if fallback is not None:
                lo_in, hi_in = main.name + "/fallback_min", main.name + "/fallback_max"
                new += [_scalar(lo_in, fallback[0]), _scalar(hi_in, fallback[1])]
            else:
                rng = _node(main.name + "/requant_range", "RequantizationRange",
                            [f"{main.name}:{i}" for i in range(3)], Tinput=QINT32)
                new.append(rng)
                lo_in, hi_in = rng.name + ":0", rng.name + ":1"
            req = _node(main.name + "/requantize", "Requantize",
                        [f"{main.name}:{i}" for i in range(3)] + [lo_in, hi_in],
                        Tinput=QINT32, out_type=QUINT8)
            new.append(req)
            eight_bit = req.name
        new.append(_min_first(_node(node.name, "Dequantize",
                                    [f"{eight_bit}:{i}" for i in range(3)], T=QUINT8)))
        ctx.note(node.name, f"{node.op} computed in eight bits ({main.op})")
        return new

    return replace_matching(graph_def, Pattern("|".join(ops)), replace)


def merge_adjacent_requantizes(graph_def):
    inner = Pattern("Requantize", [Pattern("*"), Pattern("*"), Pattern("*"),
                                   Pattern("RequantizationRange"), Pattern("RequantizationRange")])
    pattern = Pattern("Requantize", [
        Pattern("QuantizeV2", [Pattern("Dequantize", [inner, Pattern("Requantize"),
                                                      Pattern("Requantize")]),
                               Pattern("Const"), Pattern("Const")]),
        Pattern("QuantizeV2"), Pattern("QuantizeV2"), Pattern("Const"), Pattern("Const")])

    def replace(match, outside):
        original = match.inputs[0].inputs[0].inputs[0].inputs[0].node
        lo, hi = match.inputs[3].node, match.inputs[4].node
        req = protos.NodeDef()
        req.CopyFrom(match.node)
        req.input[:] = [f"{original.name}:{i}" for i in range(3)] + [lo.name, hi.name]
        return [original, lo, hi, req]

    return replace_matching(graph_def, pattern, replace)


def remove_redundant_quantizations(graph_def, outputs: list):
    graph_outputs = {node_name_from_input(o) for o in outputs}
    renames: dict = {}
    pattern = Pattern("QuantizeV2", [Pattern("Dequantize"), Pattern("Min"), Pattern("Max")])

    def replace(match, outside):
        quant, deq = match.node, match.inputs[0].node
        for i in range(3):
            renames[f"{quant.name}:{i}"] = deq.input[i]
        if deq.name in outside or deq.name in graph_outputs:
            return None
        return []

    replaced = replace_matching(graph_def, pattern, replace, allow_inconsistencies=True)
    return rename_node_inputs(replaced, renames)


@transform("quantize_nodes", "quantize",
           "Rewrites float ops (Conv2D, MatMul, Relu, ...) as eight-bit quantized ops.",
           [Param("input_min", "float"), Param("input_max", "float"),
            Param("fallback_min", "float"), Param("fallback_max", "float"),
            Param("ignore_op", "op", repeated=True)])
def quantize_nodes(graph_def, ctx):
    fallback = _range_params(ctx, "fallback_min", "fallback_max")
    steps = [lambda g: quantize_placeholders(g, _range_params(ctx, "input_min", "input_max")),
             hoist_fake_quants, fake_quants_to_requantize,
             lambda g: quantize_ops(g, set(ctx.values("ignore_op")), fallback, ctx),
             merge_adjacent_requantizes, lambda g: merge_duplicate_nodes(g, ctx),
             lambda g: remove_redundant_quantizations(g, ctx.outputs)]
    current = graph_def
    for step in steps:  # TF's seven steps, each checked, a cancelled request stops between
        ctx.check()
        current = step(current)
        validate(current)
    return current
