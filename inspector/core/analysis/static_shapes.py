"""Static tensor shapes without TensorFlow: the graph's own `_output_shapes` (a .tflite's
tensors, a GraphDef written with shapes) or a pure-Python propagation from the inputs over the
common ops, with the small integer values shape arithmetic needs (Shape -> StridedSlice ->
Pack -> Reshape). An op it does not know gets an unknown shape, never a guess: the FLOPs
counter then says which ops it could not count (and the caller may ask TF's inference)."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np

from inspector.core.analysis.data_order import data_order
from inspector.core.analysis.metrics import default_input_shapes

UNARY = frozenset("""Identity Snapshot StopGradient CheckNumerics PreventGradient Relu Relu6 Elu
Selu LeakyRelu Sigmoid Tanh Softplus Softsign Exp Log Log1p Expm1 Sqrt Rsqrt Square Neg Abs
Reciprocal Floor Ceil Round Rint Sign Sin Cos Tan Erf Gelu Softmax LogSoftmax Cast Bitcast
ClipByValue FakeQuantWithMinMaxVars FakeQuantWithMinMaxArgs Dequantize QuantizeV2 L2Loss
IsNan IsFinite LogicalNot OnesLike ZerosLike PlaceholderWithDefault EnsureShape""".split())
BINARY = frozenset("""Add AddV2 Sub Mul RealDiv Div DivNoNan FloorDiv FloorMod Maximum Minimum
Pow SquaredDifference Greater GreaterEqual Less LessEqual Equal NotEqual LogicalAnd LogicalOr
BiasAdd Atan2 Xdivy Xlogy""".split())
REDUCE = frozenset("Mean Sum Max Min Prod Any All ArgMax ArgMin".split())
SMALL = 64           # integer constants up to this many elements are read as values


def _attr(node, key, default=None):
    value = node.attr(key, default)
    return value.decode() if isinstance(value, bytes) else value


def _dims(shape):
    """A decoded TensorShape attr as a tuple (None for unknown dims), or None."""
    dims = getattr(shape, "dims", shape)
    if dims is None:
        return None
    return tuple(None if d is None or d < 0 else int(d) for d in dims)


def _broadcast(a, b):
    if a is None or b is None:
        return None
    n = max(len(a), len(b))
    a, b = (1,) * (n - len(a)) + a, (1,) * (n - len(b)) + b
    out = []
    for x, y in zip(a, b):
        out.append(y if x == 1 else x if y == 1 else x if x == y else
                   (x if y is None and x != 1 else y if x is None else None))
    return tuple(out)


def _window(size, k, stride, dilation, padding, pads=(0, 0)):
    if size is None:
        return None
    eff = (k - 1) * dilation + 1
    if padding == "SAME":
        return -(-size // stride)
    if padding == "EXPLICIT":
        return (size + pads[0] + pads[1] - eff) // stride + 1
    return -(-(size - eff + 1) // stride)


def _spatial(x, kernel, strides, dilations, padding, nchw, out_channels, explicit=()):
    """Output shape of a 2-D window op over x (NHWC or NCHW)."""
    if x is None or len(x) != 4:
        return None
    h, w = (2, 3) if nchw else (1, 2)
    pads = [tuple(explicit[2 * k:2 * k + 2]) for k in range(4)] if explicit else [(0, 0)] * 4
    out = list(x)
    for axis, k in ((h, kernel[0]), (w, kernel[1])):
        out[axis] = _window(x[axis], k, strides[axis], dilations[axis], padding, pads[axis])
    out[1 if nchw else 3] = out_channels
    return tuple(out)


class Propagation:
    def __init__(self, graph, placeholder_shapes: dict, trust_recorded: bool):
        self.graph = graph
        self.given = placeholder_shapes
        self.trust = trust_recorded
        self.shapes: dict = {}          # name -> [shape per output]
        self.values: dict = {}          # "name:port" -> small int numpy array

    def run(self) -> dict:
        for node in data_order(self.graph):
            outs = self._node(node)
            self.shapes[node.name] = outs if outs is not None else [None]
        return self.shapes

    # -- helpers -----------------------------------------------------------------------
    def _in(self, node, k=0):
        refs = node.data_inputs
        if k >= len(refs):
            return None
        outs = self.shapes.get(refs[k].node)
        return outs[refs[k].port] if outs and refs[k].port < len(outs) else None

    def _value(self, node, k):
        refs = node.data_inputs
        return self.values.get(f"{refs[k].node}:{refs[k].port}") if k < len(refs) else None

    def _set_value(self, node, value) -> None:
        if value is not None and value.size <= SMALL:
            self.values[f"{node.name}:0"] = np.asarray(value, np.int64)

    def _recorded(self, node):
        """The recorded shapes when all are known; a .tflite's at its stored size (its
        `tflite_shape`, where `_output_shapes` shows the signature's open sizes)."""
        key = "tflite_shape" if node.has_attr("tflite_shape") else "_output_shapes"
        if not self.trust or not node.has_attr(key):
            return None
        try:
            outs = [_dims(s) for s in node.attr(key)]
        except (TypeError, ValueError):     # not a list of shapes (a damaged file): none
            return None
        return outs if outs and all(s is not None and None not in s for s in outs) else None

    # -- the ops -----------------------------------------------------------------------
    def _node(self, node):
        """Propagated from the inputs; where that leaves a dimension unknown (an op it does not
        know: a .tflite's), the graph's recorded shapes when they are all known (recorded
        shapes can be stale after an edit that changed an input: propagation comes first)."""
        try:
            outs = self._rules(node)
        except (TypeError, ValueError, IndexError, KeyError, ZeroDivisionError):
            outs = None
        if outs is None or any(s is None or None in s for s in outs):
            return self._recorded(node) or outs
        return outs

    def _rules(self, node):
        op = node.op
        if op in ("Placeholder",) and node.name in self.given:
            return [tuple(self.given[node.name])]
        if op == "Const":
            return self._const(node)
        if op in ("Placeholder", "PlaceholderV2"):
            return [_dims(node.declared_dims)]
        x = self._in(node)
        if op in UNARY or op in ("AddN",):
            value = self._value(node, 0)
            if op in ("Identity", "Cast", "Snapshot", "StopGradient") and value is not None:
                self._set_value(node, value)
            return [x]
        if op in BINARY:
            return [_broadcast(x, self._in(node, 1))]
        if op.startswith("FusedBatchNorm") or op == "BatchNormWithGlobalNormalization":
            c = None if x is None else x[1 if _attr(node, "data_format") == "NCHW" else -1]
            return [x] + [(c,)] * 5
        handler = getattr(self, "_" + op, None)
        return handler(node, x) if handler else None

    def _const(self, node):
        attr = node.proto.attr            # one NodeDef and map wrapper, not three
        tensor = attr["value"].tensor
        shape = tuple([d.size for d in tensor.tensor_shape.dim])
        dtype = attr["dtype"].type if "dtype" in attr else tensor.dtype
        if dtype in (3, 9) and math.prod(shape) <= SMALL:
            try:
                self._set_value(node, self.graph.tensor_value(node.name).reshape(shape))
            except Exception:  # noqa: BLE001 - a value we cannot read is only not known
                pass
        return [shape]

    def _conv(self, node, x, channels):
        nchw = _attr(node, "data_format", "NHWC") == "NCHW"
        w = self._in(node, 1)
        if w is None:
            return None
        strides = list(node.attr("strides", [1, 1, 1, 1]))
        dil = list(node.attr("dilations", [1, 1, 1, 1]))
        return [_spatial(x, w[:2], strides, dil, _attr(node, "padding"), nchw, channels(w),
                         list(node.attr("explicit_paddings", []) or []))]

    def _Conv2D(self, node, x):
        return self._conv(node, x, lambda w: w[3])

    def _DepthwiseConv2dNative(self, node, x):
        return self._conv(node, x, lambda w: w[2] * w[3])

    def _pool(self, node, x):
        nchw = _attr(node, "data_format", "NHWC") == "NCHW"
        k = list(node.attr("ksize"))
        kernel = (k[2], k[3]) if nchw else (k[1], k[2])
        c = None if x is None else x[1 if nchw else 3]
        return [_spatial(x, kernel, list(node.attr("strides")), [1] * 4,
                         _attr(node, "padding"), nchw, c)]

    _MaxPool = _AvgPool = _pool

    def _MatMul(self, node, a):
        b = self._in(node, 1)
        if a is None or b is None:
            return None
        m = a[1] if node.attr("transpose_a") else a[0]
        n = b[0] if node.attr("transpose_b") else b[1]
        return [(m, n)]

    def _BatchMatMulV2(self, node, a):
        b = self._in(node, 1)
        if a is None or b is None:
            return None
        m = a[-1] if node.attr("adj_x") else a[-2]
        n = b[-2] if node.attr("adj_y") else b[-1]
        batch = _broadcast(a[:-2], b[:-2])
        return None if batch is None else [batch + (m, n)]

    _BatchMatMul = _BatchMatMulV3 = _BatchMatMulV2

    def _Pad(self, node, x):
        pads = self._value(node, 1)
        if x is None or pads is None:
            return None
        return [tuple(None if d is None else d + int(p[0]) + int(p[1])
                      for d, p in zip(x, pads))]

    _PadV2 = _MirrorPad = _Pad

    def _reduce(self, node, x):
        axes = self._value(node, 1)
        if x is None or axes is None:
            return None
        axes = {int(a) % len(x) for a in np.ravel(axes)}
        keep = node.attr("keep_dims", False) and node.op not in ("ArgMax", "ArgMin")
        return [tuple(1 if k in axes else d for k, d in enumerate(x)) if keep else
                tuple(d for k, d in enumerate(x) if k not in axes)]

    _Mean = _Sum = _Max = _Min = _Prod = _Any = _All = _ArgMax = _ArgMin = _reduce

    def _Reshape(self, node, x):
        target = self._value(node, 1)
        if target is None:
            return None
        dims = [int(d) for d in np.ravel(target)]
        if dims.count(-1) > 1 or any(d < -1 for d in dims):   # TF refuses it: no sizes to
            return [tuple(None if d < 0 else d for d in dims)]  # tell (-7: FLOPs said -168)
        if -1 in dims:
            if x is None or None in x:
                return [tuple(None if d == -1 else d for d in dims)]
            rest = math.prod(d for d in dims if d != -1)
            dims[dims.index(-1)] = math.prod(x) // rest if rest else 0
        return [tuple(dims)]

    def _Squeeze(self, node, x):
        if x is None:
            return None
        axes = {a % len(x) for a in (node.attr("squeeze_dims") or [])}
        if not axes and None in x:
            return None
        return [tuple(d for k, d in enumerate(x) if not (d == 1 and (not axes or k in axes)))]

    def _ExpandDims(self, node, x):
        dim = self._value(node, 1)
        if x is None or dim is None:
            return None
        k = int(np.ravel(dim)[0])
        k = k % (len(x) + 1)
        return [x[:k] + (1,) + x[k:]]

    def _ConcatV2(self, node, x):
        n = len(node.data_inputs) - 1
        axis = self._value(node, n)
        parts = [self._in(node, k) for k in range(n)]
        values = [self._value(node, k) for k in range(n)]
        if all(v is not None for v in values) and values:
            self._set_value(node, np.concatenate([np.ravel(v) for v in values]))
        if axis is None or any(p is None for p in parts):
            return None
        a = int(np.ravel(axis)[0]) % len(parts[0])
        sizes = [p[a] for p in parts]
        out = list(parts[0])
        out[a] = None if None in sizes else sum(sizes)
        return [tuple(out)]

    def _Transpose(self, node, x):
        perm = self._value(node, 1)
        return None if x is None or perm is None else [tuple(x[int(p)] for p in perm)]

    def _resize(self, node, x):
        size = self._value(node, 1)
        if x is None or size is None:
            return None
        return [(x[0], int(size[0]), int(size[1]), x[3])]

    _ResizeBilinear = _ResizeNearestNeighbor = _ResizeBicubic = _resize

    def _decode(self, node, x):
        channels = node.attr("channels", 0)
        return [(None, None, channels or None)]

    _DecodeJpeg = _DecodePng = _DecodeBmp = _decode

    def _variable(self, node, x):
        return [_dims(node.declared_dims)]

    _VariableV2 = _Variable = _variable

    def _Assign(self, node, x):
        return [x]

    _AssignAdd = _AssignSub = _Assign

    def _from_value(self, node, x):
        dims = self._value(node, 0)
        return None if dims is None else [tuple(int(d) for d in np.ravel(dims))]

    _RandomUniform = _RandomStandardNormal = _TruncatedNormal = _Fill = _from_value

    def _Tile(self, node, x):
        times = self._value(node, 1)
        if x is None or times is None:
            return None
        return [tuple(None if d is None else d * int(t) for d, t in zip(x, np.ravel(times)))]

    def _Shape(self, node, x):
        if x is not None and None not in x:
            self._set_value(node, np.asarray(x, np.int64))
        return [None if x is None else (len(x),)]

    def _StridedSlice(self, node, x):
        begin, end, strides = (self._value(node, k) for k in (1, 2, 3))
        if begin is None or end is None or strides is None or \
                node.attr("ellipsis_mask", 0) or node.attr("new_axis_mask", 0):
            return None
        bm, em = node.attr("begin_mask", 0), node.attr("end_mask", 0)
        shrink = node.attr("shrink_axis_mask", 0)
        value = self._value(node, 0)
        if value is not None and value.ndim == 1 and len(begin) == 1:   # shape arithmetic
            picked = value[int(begin[0])] if shrink & 1 else \
                value[None if bm & 1 else int(begin[0]):None if em & 1 else int(end[0]):
                      int(strides[0])]
            self._set_value(node, np.asarray(picked))
        if x is None:
            return None
        out = []
        for axis, dim in enumerate(x):
            if axis >= len(begin):
                out.append(dim)
            elif shrink >> axis & 1:
                continue
            elif dim is None:
                out.append(None)
            else:
                cut = slice(None if bm >> axis & 1 else int(begin[axis]),
                            None if em >> axis & 1 else int(end[axis]), int(strides[axis]))
                out.append(len(range(*cut.indices(dim))))
        return [tuple(out)]

    def _IdentityN(self, node, x):
        return [self._in(node, k) for k in range(len(node.data_inputs))]

    def _Pack(self, node, x):
        parts = [self._in(node, k) for k in range(len(node.data_inputs))]
        values = [self._value(node, k) for k in range(len(parts))]
        if all(v is not None and v.ndim == 0 for v in values) and values:
            self._set_value(node, np.asarray([int(v) for v in values]))
        if any(p is None for p in parts) or not parts:
            return None
        axis = node.attr("axis", 0) % (len(parts[0]) + 1)
        return [parts[0][:axis] + (len(parts),) + parts[0][axis:]]


def placeholder_shapes(graph, input_shapes: dict | None = None) -> tuple[dict, list]:
    """(the inputs' shapes to start from, what was assumed: default_input_shapes of the
    graph's structure (the Placeholders' shapes, no weight read: graph_def reads them all),
    of its Placeholders' NodeDefs only where the graph knows them by op (not a look at
    every NodeDef: 100k nodes, ~50 ms))."""
    structure = getattr(graph, "structure", None) or graph.graph_def
    if hasattr(graph, "nodes_of_op"):
        nodes = structure.node
        structure = SimpleNamespace(node=[nodes[i] for i in graph.nodes_of_op("Placeholder")])
    return default_input_shapes(structure, input_shapes)


def static_shapes(graph, input_shapes: dict | None = None) -> tuple[dict, list]:
    """(node name -> [shape per output], what was assumed): the graph's recorded shapes, or
    shapes propagated from the inputs (open batch sizes taken as the given batch, else 1,
    and said so, as for TF's inference)."""
    given, assumed = placeholder_shapes(graph, input_shapes)
    shapes = Propagation(graph, given, trust_recorded=not input_shapes).run()
    return shapes, assumed
