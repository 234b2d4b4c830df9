"""FLOP counts per node from static shapes: TF's flops registry, plus the ops it misses."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from inspector.core.analysis.shape_stop import why_nothing_counted
from inspector.core.model.humanize import count


def _n(shape) -> int:
    return math.prod(shape)


def _known(shape) -> bool:
    return shape is not None and all(d is not None for d in shape)


def _ksize(attrs) -> int:
    return math.prod(attrs.get("ksize", [1]))


def _nhwc(attrs) -> bool:
    return attrs.get("data_format", "NHWC") in ("NHWC", b"NHWC")


def _matmul_k(attrs, a, key="transpose_a", index=(0, 1)):
    return a[index[0]] if attrs.get(key) else a[index[1]]


# op -> f(inputs shapes, output shapes, attrs); these follow TF's registry (reference section 6)
TF_REGISTRY = {
    "Conv2D": lambda i, o, a: _n(o[0]) * i[1][0] * i[1][1] * i[1][2] * 2,
    "Conv3D": lambda i, o, a: _n(o[0]) * i[1][0] * i[1][1] * i[1][2] * i[1][3] * 2,
    "DepthwiseConv2dNative": lambda i, o, a: _n(o[0]) * i[1][0] * i[1][1] * 2,
    "Dilation2D": lambda i, o, a: _n(o[0]) * i[1][0] * i[1][1] * 2,
    "BiasAdd": lambda i, o, a: _n(i[0]),
    "MatMul": lambda i, o, a: _matmul_k(a, i[0]) * _n(o[0]) * 2,
    "BatchMatMul": lambda i, o, a: (i[0][-2] if a.get("transpose_a") else i[0][-1]) * _n(o[0]) * 2,
    "BatchMatMulV2": lambda i, o, a: (i[0][-2] if a.get("transpose_a") else i[0][-1]) * _n(o[0]) * 2,
    "BatchMatMulV3": lambda i, o, a: (i[0][-2] if a.get("transpose_a") else i[0][-1]) * _n(o[0]) * 2,
    "AddN": lambda i, o, a: _n(i[0]) * (len(i) - 1) if i else 0,
    "Rsqrt": lambda i, o, a: 2 * _n(i[0]),
    "Softmax": lambda i, o, a: 5 * _n(i[0]),
    "L2Loss": lambda i, o, a: 3 * _n(i[0]) - 1,
    "RsqrtGrad": lambda i, o, a: 4 * _n(o[0]),
    "SquaredDifference": lambda i, o, a: 2 * _n(o[0]),
    "Mean": lambda i, o, a: _n(i[0]),
    "AvgPool": lambda i, o, a: _ksize(a) * _n(o[0]),
    "MaxPool": lambda i, o, a: _ksize(a) * _n(o[0]),
    "AvgPoolGrad": lambda i, o, a: _ksize(a) * _n(i[1]) * 2,
    "MaxPoolGrad": lambda i, o, a: _ksize(a) * _n(i[1]) + _n(i[1]),
    "Conv2DBackpropInput": lambda i, o, a: int(2 * _n(o[0]) * _n(i[1])
                                               / (o[0][-1] * _strides(a))),
    "Conv2DBackpropFilter": lambda i, o, a: int(2 * _n(i[0]) * _n(o[0])
                                                / (i[0][-1] * _strides(a))),
}
for _op in ("Reciprocal", "Square", "Log", "Neg", "AssignSub", "AssignAdd"):
    TF_REGISTRY[_op] = lambda i, o, a: _n(i[0])
for _op in ("Add", "AddV2", "Sub", "Mul", "RealDiv", "Maximum", "Minimum", "Pow", "GreaterEqual",
            "Greater", "LessEqual", "Less", "Equal", "NotEqual"):
    TF_REGISTRY[_op] = lambda i, o, a: _n(o[0])
for _op in ("Sum", "ArgMax", "ArgMin", "BiasAddGrad"):
    TF_REGISTRY[_op] = lambda i, o, a: _n(i[0]) - _n(o[0])
NHWC_ONLY = {"AvgPool", "MaxPool", "AvgPoolGrad", "MaxPoolGrad", "Conv2DBackpropInput",
             "Conv2DBackpropFilter"}


def _strides(attrs) -> int:
    s = attrs.get("strides", [1, 1, 1, 1])
    return s[1] * s[2]

# ops TF does not count; our estimates, per output element unless noted
EXTRA = {
    "FusedBatchNorm": lambda i, o, a: 2 * _n(o[0]),
    "FusedBatchNormV2": lambda i, o, a: 2 * _n(o[0]),
    "FusedBatchNormV3": lambda i, o, a: 2 * _n(o[0]),
    "BatchNormWithGlobalNormalization": lambda i, o, a: 2 * _n(o[0]),
    "QuantizedConv2D": lambda i, o, a: _n(o[0]) * i[1][0] * i[1][1] * i[1][2] * 2,
    "QuantizedMatMul": lambda i, o, a: _matmul_k(a, i[0]) * _n(o[0]) * 2,
    "QuantizedBiasAdd": lambda i, o, a: _n(o[0]),
    "QuantizedAvgPool": lambda i, o, a: _ksize(a) * _n(o[0]),
    "QuantizedMaxPool": lambda i, o, a: _ksize(a) * _n(o[0]),
    "Relu6": lambda i, o, a: 2 * _n(o[0]),
    "QuantizedRelu6": lambda i, o, a: 2 * _n(o[0]),
    "FusedPadConv2D": lambda i, o, a: _n(o[0]) * i[2][0] * i[2][1] * i[2][2] * 2,
    "FusedResizeAndPadConv2D": lambda i, o, a: _n(o[0]) * i[3][0] * i[3][1] * i[3][2] * 2,
}
for _op in ("Relu", "Elu", "Selu", "LeakyRelu", "Sigmoid", "Tanh", "Softplus", "Exp", "Sqrt",
            "Abs", "QuantizedRelu", "QuantizedAdd", "QuantizedMul", "Dequantize", "QuantizeV2",
            "Requantize", "FloorDiv", "FloorMod", "DivNoNan", "Div", "ClipByValue", "Gelu"):
    EXTRA[_op] = lambda i, o, a: _n(o[0])
for _op in ("Max", "Min", "Prod", "Any", "All"):
    EXTRA[_op] = lambda i, o, a: _n(i[0]) - _n(o[0])


def _fused_steps(o, a) -> int:
    """What the ops named in a fused kernel's `fused_ops` add, each counted as alone (BiasAdd
    and Add as TF's registry, activations and batch norm as EXTRA)."""
    per = {"BiasAdd": 1, "Add": 1, "AddV2": 1, "Relu6": 2, "FusedBatchNorm": 2,
           "FusedBatchNormV3": 2}
    return sum(per.get(step, 1) for step in a.get("fused_ops", ())) * _n(o[0])


def _fused(base: str):
    """A grappler or TF.js fused kernel (_FusedConv2D = Conv2D + BiasAdd + Relu, ...): its base
    op as TF's registry counts it plus each fused step. TF's registry counts none of it (its
    profiler gives 0 for these ops), so all of it is the extra part: (0, count)."""
    rule = TF_REGISTRY[base]
    return lambda i, o, a: (0, rule(i, o, a) + _fused_steps(o, a))


# op -> f(input shapes, output shapes, attrs) -> (TF registry's part, extra part), as TFLITE's
FUSED = {"_FusedConv2D": _fused("Conv2D"), "_FusedMatMul": _fused("MatMul"),
         "_FusedDepthwiseConv2dNative": _fused("DepthwiseConv2dNative"),
         "FusedDepthwiseConv2dNative": _fused("DepthwiseConv2dNative"),
         "_FusedBatchMatMul": _fused("BatchMatMulV2"),
         "_FusedBatchMatMulV2": _fused("BatchMatMulV2")}


@dataclass
class FlopReport:
    per_node: dict = field(default_factory=dict)     # name -> flops (all counted ops)
    tf_total: int = 0                                # what TF's registry counts (for a
    #                                                  .tflite: of the ops fused into each)
    total: int = 0                                   # plus the ops TF leaves out
    unknown_shape: list = field(default_factory=list)  # counted ops whose shapes are unknown
    #                                                    (by name)
    ops: dict = field(default_factory=dict)          # op type -> flops
    assumed: list = field(default_factory=list)      # e.g. "batch 1 for input 'pixels'"
    unknown: str = ""                                # why FLOPs cannot be counted at all
    source: str = ""                                 # where the shapes came from
    too_big: list = field(default_factory=list)      # of unknown_shape: ops whose count is
    #                                                  past MOST (shapes known, too big to hold)

    def top(self, n: int = 10) -> list:
        """(node, flops) of the n biggest, ties by name (a frozen Keras model's node order
        differs from run to run)."""
        return sorted(self.per_node.items(), key=lambda kv: (-kv[1], kv[0]))[:n]

    def by_op(self) -> list:
        """(op type, flops), biggest first, ties by name."""
        return sorted(self.ops.items(), key=lambda kv: (-kv[1], kv[0]))

    def totals(self) -> "FlopReport":
        """This report without its count per node (a name and a number for every counted
        node: ~100 MB at a million nodes), as a preview row carries it to the window."""
        return replace(self, per_node={})

    def fused(self) -> dict:
        """FLOPs by op type of the fused kernels counted (FUSED), which TF's registry leaves
        out: why `total` can be far above `tf_total` on a grappler or TF.js graph."""
        return {op: v for op, v in self.ops.items() if op in FUSED}

    @property
    def known(self) -> bool:
        return not self.unknown

    def describe(self, human) -> str:
        """The total as people should read it: unknown with its reason, or with what was
        assumed and what could not be counted."""
        if self.unknown:
            return f"unknown ({self.unknown})"
        notes = list(self.assumed)
        if self.unknown_shape:
            notes.append(f"{count(len(self.unknown_shape), 'op')} without known shapes not counted")
        return human(self.total) + (f" ({'; '.join(notes)})" if notes else "")


MOST = 2 ** 63 - 1     # a node's count past TensorFlow's int64 counter is not a real shape's


def count_flops(graph, shapes: dict) -> FlopReport:
    """FLOPs for every node of `graph` given `shapes`: node name -> list of output shapes."""
    from inspector.core.analysis.flops_tflite import TFLITE

    rep = FlopReport()
    for node in graph:
        lite = TFLITE.get(node.op) or FUSED.get(node.op)
        fn = TF_REGISTRY.get(node.op) or EXTRA.get(node.op) or lite
        if fn is None:
            continue
        ins = []
        for ref in node.data_inputs:
            outs = shapes.get(ref.node)
            ins.append(outs[ref.port] if outs and ref.port < len(outs) else None)
        outs = shapes.get(node.name) or [None]
        first = [s for s in ins[:1] + outs[:1]]
        attrs = _attrs(node)
        if node.op in NHWC_ONLY and not _nhwc(attrs):
            continue
        needed = ins[:2] + outs[:1] if node.op not in ("AddN",) else ins + outs[:1]
        if not first or not all(_known(s) for s in needed if s is not None) or \
                any(s is None for s in needed):
            rep.unknown_shape.append(node.name)
            continue
        try:
            tf_part, value = (int(x) for x in fn(ins, outs, attrs)) if lite else \
                (0, int(fn(ins, outs, attrs)))
        except (IndexError, TypeError, ValueError):
            rep.unknown_shape.append(node.name)
            continue
        if node.op in TF_REGISTRY:
            tf_part, value = value, 0
        value += tf_part
        if value > MOST:       # 64 sizes of 2^31-1 (a hostile .tflite): ~10^600, past a float
            rep.unknown_shape.append(node.name)     # (latency_ms raised OverflowError)
            rep.too_big.append(node.name)
            continue
        rep.per_node[node.name] = value
        rep.total += value
        rep.ops[node.op] = rep.ops.get(node.op, 0) + value
        rep.tf_total += tf_part
    return finished(rep, graph, shapes)


NO_SHAPES = "no shapes are known for the ops that do the arithmetic"


def finished(rep: FlopReport, graph=None, shapes=None) -> FlopReport:
    """A count's report as it leaves count_flops (or shape_columns' count): unknown when no
    op could be counted, and why (`graph` and its `shapes` given: where the shape walk back
    from the first op not counted stops, shape_stop); the ops not counted by name (the same
    list whatever the graph's node order: a frozen Keras model's differs from run to run)."""
    if rep.unknown_shape and not rep.per_node:
        rep.unknown = nothing_counted(rep, graph, shapes)
    rep.unknown_shape.sort()
    return rep


def nothing_counted(rep: FlopReport, graph=None, shapes=None) -> str:
    """Why no op was counted: their shapes are unknown (and where the walk stops), or (a
    hostile model's 64 sizes of 2^31-1) their counts are too big to hold, which is not the
    same thing."""
    if rep.too_big:
        big = sorted(rep.too_big)
        more = f" (and {len(big) - 1:,} other ops)" if len(big) > 1 else ""
        return (f"the count is too big to hold: node '{big[0]}'{more} needs more than "
                f"{MOST:,} FLOPs, past what TensorFlow's counter holds")
    said = NO_SHAPES
    if graph is not None and shapes is not None:
        why = why_nothing_counted(graph, shapes, rep.unknown_shape)
        if why:
            return f"{said}: {why}"
    return said


def unknown_flops(reason: str) -> FlopReport:
    return FlopReport(unknown=reason)


ATTRS = ("ksize", "transpose_a", "data_format", "adj_x", "strides", "filter_width",
         "filter_height", "stride_h", "stride_w", "fused_activation_function", "fused_ops")


def _attrs(node) -> dict:
    out = {}
    present = node.proto.attr            # one NodeDef lookup, not one per key
    for key in ATTRS:
        if key in present:
            out[key] = attr_text(node.attr(key))
    return out


def attr_text(value):
    """An attribute as _attrs gives it: bytes as text, in a list too (fused_ops)."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if isinstance(value, list):
        return [attr_text(v) for v in value]
    return value


DEVICE_PRESETS = {"phone-2016": 20e9, "phone": 10e9, "raspberry-pi-3": 5e9}


def latency_ms(flops: int, flops_per_second: float) -> float:
    return 1000.0 * flops / flops_per_second


