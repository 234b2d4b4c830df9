"""Constant folding without TensorFlow, for ops whose numpy result is bit-equal to TF's kernel.

Only what can be shown exact is here: data movement (Identity, Reshape, Transpose, ExpandDims,
Squeeze, Pack, ConcatV2, Slice, StridedSlice without ellipsis/new-axis, Tile, Fill, ZerosLike,
OnesLike), shapes (Shape, Size, Rank), integer Range, Cast where every value converts exactly,
and Add/AddV2/Sub/Mul/Neg on one dtype. Float arithmetic is one IEEE operation per element
(numpy and Eigen round it the same way); TensorFlow runs with denormals flushed to zero, so a
float input that is subnormal or NaN, or a result near the subnormal range, is handed to TF.
Integer results that would overflow go to TF too. No transcendental function, no reduction.

`ExactEvaluator.value(tensor)` gives the value, or raises NotExact (evaluate it in TensorFlow)
or Oversized (a node declares an output over the byte limit: checked before allocating).
"""

from __future__ import annotations

import math

import numpy as np

from inspector.core.model.graph import node_name_from_input

# TF dtype codes -> numpy dtypes the folder handles (bfloat16 has no exact numpy home here)
DTYPES = {1: np.float32, 2: np.float64, 3: np.int32, 4: np.uint8, 5: np.int16, 6: np.int8,
          7: np.object_, 9: np.int64, 10: np.bool_, 17: np.uint16, 19: np.float16}
ARITH = {np.dtype(t) for t in (np.float32, np.float64, np.int32, np.int64)}
INDEX = {3: np.int32, 9: np.int64}
CAST = {np.dtype(t) for t in (np.float32, np.float64, np.int32, np.int64, np.int8, np.int16,
                              np.uint8, np.uint16, np.bool_)}


class NotExact(Exception):
    """This node is not shown exact in numpy: evaluate it in TensorFlow."""


class Oversized(Exception):
    """The node declares an output larger than the limit (found before allocating)."""

    def __init__(self, node: str, nbytes: int):
        super().__init__(f"'{node}' would make {nbytes:,} bytes")
        self.node, self.nbytes = node, nbytes


def _attr_type(node, key: str, default: int | None = None):
    if key in node.attr:
        return node.attr[key].type
    if default is None:
        raise NotExact(f"no {key} attribute")
    return default


def _dtype_of(node, key: str, default: int | None = None) -> np.dtype:
    code = _attr_type(node, key, default)
    if code not in DTYPES:
        raise NotExact(f"dtype {code}")
    return np.dtype(DTYPES[code])


def _ints(arr, what: str) -> list:
    if arr.dtype not in (np.dtype(np.int32), np.dtype(np.int64)) or arr.ndim > 1:
        raise NotExact(f"{what} is not an int32/int64 vector")
    return [int(v) for v in arr.reshape(-1)]


def _scalar_int(arr, what: str) -> int:
    if arr.size != 1 or arr.ndim > 1:
        raise NotExact(f"{what} is not a scalar")
    return _ints(arr.reshape(-1), what)[0]


def _axis(value: int, rank: int) -> int:
    if not -rank <= value < rank:
        raise NotExact("axis out of range")
    return value + rank if value < 0 else value


class ExactEvaluator:
    """Values of constant tensors computed in numpy, memoized per node."""

    def __init__(self, nodes: dict, max_bytes: int):
        self.nodes = nodes
        self.max_bytes = max_bytes
        self.done: dict = {}   # node name -> list of output arrays
        self.failed: dict = {}  # node name -> why numpy cannot (TF will)

    # -- driving -------------------------------------------------------------------------
    def value(self, tensor: str) -> np.ndarray:
        name, port = tensor.rsplit(":", 1)
        outs = self._node_outputs(name)
        if int(port) >= len(outs):
            raise NotExact("no such output")
        return outs[int(port)]

    def _node_outputs(self, root: str) -> list:
        stack = [root]
        while stack:  # iterative post-order: deep chains never hit the recursion limit
            name = stack[-1]
            if name in self.done:
                stack.pop()
                continue
            if name in self.failed:
                raise NotExact(self.failed[name])
            node = self.nodes[name]
            if node.op != "Const" and node.op not in OPS:
                self.failed[name] = f"{node.op} has no exact numpy version"
                raise NotExact(self.failed[name])
            pending = [src for src in (node_name_from_input(t) for t in node.input)
                       if src not in self.done]
            if pending:
                stack.extend(pending)
                continue
            stack.pop()
            try:
                self.done[name] = self._run(node)
            except NotExact as exc:
                self.failed[name] = str(exc)
                raise
        return self.done[root]

    def _run(self, node) -> list:
        if node.op == "Const":
            return [self._const(node)]
        args = []
        for text in node.input:
            if text.startswith("^"):
                continue  # evaluated (any error raised) for its effect on nothing but order
            src = node_name_from_input(text)
            port = int(text.split(":")[1]) if ":" in text else 0
            outs = self.done[src]
            if port >= len(outs):
                raise NotExact("no such output")
            args.append(outs[port])
        try:
            with np.errstate(all="ignore"):
                outs = OPS[node.op](self, node, args)
        except (NotExact, Oversized):
            raise
        except Exception as exc:  # numpy refused what TF may refuse in its own words
            raise NotExact(f"{type(exc).__name__}: {exc}") from None
        declared = _declared_type(node)
        for arr in outs:
            if declared is not None and arr.dtype != declared:
                raise NotExact(f"result is {arr.dtype}, the node declares {declared}")
            self.allow(node, arr.shape, arr.dtype)  # TF folds no output over the limit
        return outs

    def _const(self, node) -> np.ndarray:
        from inspector.core.model.tensors import to_numpy

        code = _attr_type(node, "dtype")
        if code not in DTYPES or node.attr["value"].tensor.dtype != code:
            raise NotExact(f"Const of dtype {code}")
        try:
            arr = to_numpy(node.attr["value"].tensor)
        except ValueError as exc:
            raise NotExact(str(exc)) from None
        if arr.dtype != np.dtype(DTYPES[code]):
            raise NotExact("decoded dtype differs")
        return arr

    def allow(self, node, shape, dtype) -> None:
        """Raise Oversized when an output of this shape would pass the byte limit (TF's
        rule for a node whose output shape it knows; here checked before allocating)."""
        nbytes = math.prod(int(d) for d in shape) * np.dtype(dtype).itemsize
        if nbytes > self.max_bytes:
            raise Oversized(node.name, nbytes)


def _declared_type(node):
    """The dtype the node declares for its outputs (None: IdentityN, checked per input)."""
    key = {"Shape": "out_type", "Size": "out_type", "Cast": "DstT", "Range": "Tidx",
           "IdentityN": None, "Rank": None}.get(node.op, "T")
    if node.op == "Rank":
        return np.dtype(np.int32)
    if key is None:
        return None
    return _dtype_of(node, key, 3 if key in ("out_type", "Tidx") else None)


# -- the ops -------------------------------------------------------------------------------
def _identity(ev, node, args):
    return [args[0]]


def _identity_n(ev, node, args):
    return list(args)


def _reshape(ev, node, args):
    x, shape = args
    dims = _ints(shape, "shape")
    if sum(d == -1 for d in dims) > 1 or any(d < -1 for d in dims):
        raise NotExact("bad shape")
    known = math.prod(d for d in dims if d != -1)
    if -1 in dims:
        if known == 0 or x.size % known:
            raise NotExact("shape does not divide")
        dims[dims.index(-1)] = x.size // known
    elif known != x.size:
        raise NotExact("sizes differ")
    return [x.reshape(dims)]


def _transpose(ev, node, args):
    x, perm = args
    p = _ints(perm, "perm")
    if sorted(p) != list(range(x.ndim)):
        raise NotExact("perm is not a permutation")
    return [np.ascontiguousarray(np.transpose(x, p))]


def _expand_dims(ev, node, args):
    x, dim = args
    d = _scalar_int(dim, "dim")
    if not -x.ndim - 1 <= d <= x.ndim:
        raise NotExact("dim out of range")
    return [np.expand_dims(x, d if d >= 0 else d + x.ndim + 1)]


def _squeeze(ev, node, args):
    x = args[0]
    dims = list(node.attr["squeeze_dims"].list.i) if "squeeze_dims" in node.attr else []
    if not dims:
        return [x.reshape([d for d in x.shape if d != 1])]
    axes = {_axis(d, x.ndim) for d in dims}
    if any(x.shape[a] != 1 for a in axes):
        raise NotExact("squeezed dimension is not 1")
    return [x.reshape([d for i, d in enumerate(x.shape) if i not in axes])]


def _pack(ev, node, args):
    if not args or any(a.shape != args[0].shape or a.dtype != args[0].dtype for a in args):
        raise NotExact("inputs differ")
    rank = args[0].ndim + 1
    axis = _axis(node.attr["axis"].i if "axis" in node.attr else 0, rank)
    ev.allow(node, (len(args),) + args[0].shape, args[0].dtype)
    return [np.stack(args, axis=axis)]


def _concat(values, axis_arr, ev, node):
    if not values or any(a.dtype != values[0].dtype or a.ndim != values[0].ndim
                         for a in values) or values[0].ndim == 0:
        raise NotExact("inputs differ")
    axis = _axis(_scalar_int(axis_arr, "axis"), values[0].ndim)
    rest = [tuple(s for i, s in enumerate(a.shape) if i != axis) for a in values]
    if len(set(rest)) != 1:
        raise NotExact("shapes differ")
    shape = list(values[0].shape)
    shape[axis] = sum(a.shape[axis] for a in values)
    ev.allow(node, shape, values[0].dtype)
    return [np.concatenate(values, axis=axis)]


def _concat_v2(ev, node, args):
    return _concat(args[:-1], args[-1], ev, node)


def _concat_v1(ev, node, args):
    return _concat(args[1:], args[0], ev, node)


def _shape(ev, node, args):
    out = _dtype_of(node, "out_type", 3)
    if out == np.int32 and any(d > 2 ** 31 - 1 for d in args[0].shape):
        raise NotExact("dimension over int32")
    return [np.array(args[0].shape, dtype=out)]


def _size(ev, node, args):
    out = _dtype_of(node, "out_type", 3)
    if out == np.int32 and args[0].size > 2 ** 31 - 1:
        raise NotExact("size over int32")
    return [np.array(args[0].size, dtype=out)]


def _rank(ev, node, args):
    return [np.array(args[0].ndim, dtype=np.int32)]


def _fill(ev, node, args):
    dims_arr, value = args
    dims = _ints(dims_arr, "dims")
    if value.ndim != 0 or any(d < 0 for d in dims):
        raise NotExact("bad Fill")
    ev.allow(node, dims, value.dtype)  # the declared size, before allocating
    return [np.full(dims, value, dtype=value.dtype)]


def _zeros_like(ev, node, args):
    if args[0].dtype == np.object_:
        raise NotExact("strings")
    return [np.zeros_like(args[0])]


def _ones_like(ev, node, args):
    if args[0].dtype in (np.dtype(np.object_), np.dtype(np.bool_)):
        raise NotExact("strings or bools")
    return [np.ones_like(args[0])]


def _range(ev, node, args):
    if any(a.dtype not in (np.dtype(np.int32), np.dtype(np.int64)) or a.ndim != 0
           for a in args) or len({a.dtype for a in args}) != 1:
        raise NotExact("only integer Range is exact here")
    start, limit, delta = (int(a) for a in args)
    if delta == 0 or (delta > 0 and start > limit) or (delta < 0 and start < limit):
        raise NotExact("TF refuses this range")
    size = (abs(limit - start) + abs(delta) - 1) // abs(delta)
    ev.allow(node, (size,), args[0].dtype)  # before allocating
    return [np.arange(start, start + size * delta, delta, dtype=args[0].dtype)[:size]]


def _slice(ev, node, args):
    x, begin, size = args
    b, s = _ints(begin, "begin"), _ints(size, "size")
    if len(b) != x.ndim or len(s) != x.ndim:
        raise NotExact("lengths differ")
    index = []
    for dim, start, count in zip(x.shape, b, s):
        count = dim - start if count == -1 else count
        if start < 0 or count < 0 or start + count > dim:
            raise NotExact("slice out of bounds")
        index.append(slice(start, start + count))
    return [np.ascontiguousarray(x[tuple(index)])]


def _strided_slice(ev, node, args):
    x, begin, end, strides = args
    b, e, s = _ints(begin, "begin"), _ints(end, "end"), _ints(strides, "strides")
    masks = {k: node.attr[k].i if k in node.attr else 0 for k in
             ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask")}
    if masks["ellipsis_mask"] or masks["new_axis_mask"] or not len(b) == len(e) == len(s) \
            or len(b) > x.ndim or begin.dtype != end.dtype or begin.dtype != strides.dtype:
        raise NotExact("ellipsis, new axes or uneven specs")
    index = []
    for i, (dim, start, stop, step) in enumerate(zip(x.shape, b, e, s)):
        bit = 1 << i
        if step == 0:
            raise NotExact("zero stride")
        if masks["shrink_axis_mask"] & bit:
            if step != 1 or masks["begin_mask"] & bit:
                raise NotExact("shrink with a mask or stride")
            at = start + dim if start < 0 else start
            if not 0 <= at < dim:
                raise NotExact("index out of bounds")
            index.append(at)
        else:
            index.append(slice(None if masks["begin_mask"] & bit else start,
                               None if masks["end_mask"] & bit else stop, step))
    return [np.ascontiguousarray(x[tuple(index)])]


def _tile(ev, node, args):
    x, multiples = args
    m = _ints(multiples, "multiples")
    if len(m) != x.ndim or any(v < 0 for v in m):
        raise NotExact("bad multiples")
    ev.allow(node, [d * v for d, v in zip(x.shape, m)], x.dtype)
    return [np.tile(x, m) if x.ndim else x.copy()]


def _cast(ev, node, args):
    x = args[0]
    dst = _dtype_of(node, "DstT")
    if node.attr["Truncate"].b if "Truncate" in node.attr else False:
        raise NotExact("Truncate")
    if x.dtype not in CAST or dst not in CAST:
        raise NotExact("cast between these types")
    if x.dtype == dst:
        return [x]
    if dst == np.bool_:
        if x.dtype.kind == "f":
            _plain_floats(x)
        return [x != 0]
    if x.dtype == np.bool_:
        return [x.astype(dst)]
    if dst.kind == "f":
        if x.dtype.kind == "f":  # float64 -> float32 rounds once; check the results
            _plain_floats(x)
            return [_plain_floats(x.astype(dst))]
        bits = 24 if dst == np.float32 else 53  # every int of at most `bits` bits is exact
        if x.size and int(np.max(np.abs(x.astype(np.float64)))) >= 2 ** bits:
            raise NotExact("integer not exactly representable")
        return [x.astype(dst)]
    if x.dtype.kind == "f":  # to int: truncation toward zero, only for values in range
        _plain_floats(x)
        info = np.iinfo(dst)
        if x.size and (np.any(~np.isfinite(x)) or np.min(np.trunc(x)) < info.min
                       or np.max(np.trunc(x)) > info.max):
            raise NotExact("float out of the integer range")
        return [np.trunc(x).astype(dst)]
    info = np.iinfo(dst)  # int -> int: only values that fit (no wrap-around)
    if x.size and (int(x.min()) < info.min or int(x.max()) > info.max):
        raise NotExact("integer out of range")
    return [x.astype(dst)]


def _plain_floats(arr):
    """Refuse NaN, subnormal inputs and results near the subnormal range (TF flushes
    denormals to zero; numpy does not)."""
    if arr.dtype.kind != "f" or not arr.size:
        return arr
    if np.isnan(arr).any():
        raise NotExact("NaN")
    tiny = np.finfo(arr.dtype).tiny
    mag = np.abs(arr)
    if np.any((mag != 0) & (mag < 2 * tiny)):
        raise NotExact("subnormal range")
    return arr


def _binary(fn):
    def run(ev, node, args):
        a, b = args
        t = _dtype_of(node, "T")
        if a.dtype != t or b.dtype != t or t not in ARITH:
            raise NotExact(f"{node.op} on {a.dtype}/{b.dtype}")
        try:
            shape = np.broadcast_shapes(a.shape, b.shape)
        except ValueError:
            raise NotExact("shapes do not broadcast") from None
        ev.allow(node, shape, t)  # before allocating: broadcasting can multiply sizes
        if t.kind == "f":
            _plain_floats(a), _plain_floats(b)
            return [_plain_floats(fn(a, b))]
        wide = fn(a.astype(np.float64), b.astype(np.float64))  # overflow check, then exact
        info = np.iinfo(t)
        if wide.size and (np.max(wide) >= info.max / 2 or np.min(wide) <= info.min / 2):
            raise NotExact("integer result near overflow")
        return [fn(a, b)]
    return run


def _neg(ev, node, args):
    x = args[0]
    t = _dtype_of(node, "T")
    if x.dtype != t or t not in ARITH:
        raise NotExact("Neg type")
    if t.kind == "i" and x.size and int(x.min()) == np.iinfo(t).min:
        raise NotExact("overflow")
    return [_plain_floats(np.negative(_plain_floats(x)))]


OPS = {
    "Identity": _identity, "StopGradient": _identity, "Snapshot": _identity,
    "PreventGradient": _identity, "IdentityN": _identity_n,
    "Reshape": _reshape, "Transpose": _transpose, "ExpandDims": _expand_dims,
    "Squeeze": _squeeze, "Pack": _pack, "ConcatV2": _concat_v2, "Concat": _concat_v1,
    "Shape": _shape, "Size": _size, "Rank": _rank, "Fill": _fill, "ZerosLike": _zeros_like,
    "OnesLike": _ones_like, "Range": _range, "Slice": _slice, "StridedSlice": _strided_slice,
    "Tile": _tile, "Cast": _cast, "Neg": _neg,
    "Add": _binary(np.add), "AddV2": _binary(np.add), "Sub": _binary(np.subtract),
    "Mul": _binary(np.multiply),
}
EXACT_OPS = frozenset(OPS) | {"Const"}
