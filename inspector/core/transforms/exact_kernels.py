"""The numpy kernels of exact constant folding (exact_ops.py says what "exact" means here):
each takes (evaluator, node, input arrays) and returns the output arrays, or raises NotExact
(TensorFlow evaluates it) or Oversized (checked before allocating)."""


from __future__ import annotations

import math

import numpy as np

# TF dtype codes -> numpy dtypes the folder handles (bfloat16 has no exact numpy home here)
DTYPES = {1: np.float32, 2: np.float64, 3: np.int32, 4: np.uint8, 5: np.int16, 6: np.int8,
          7: np.object_, 9: np.int64, 10: np.bool_, 17: np.uint16, 19: np.float16}
ARITH = {np.dtype(t) for t in (np.float32, np.float64, np.int32, np.int64)}
CAST = {np.dtype(t) for t in (np.float32, np.float64, np.int32, np.int64, np.int8, np.int16,
                              np.uint8, np.uint16, np.bool_)}


class NotExact(Exception):
    """This node is not shown exact in numpy: evaluate it in TensorFlow."""


class Oversized(Exception):
    """The node declares an output larger than the limit (found before allocating)."""

    def __init__(self, node: str, nbytes: int):
        super().__init__(f"'{node}' would make {nbytes:,} bytes")
        self.node, self.nbytes = node, nbytes


def attr_type(node, key: str, default: int | None = None):
    if key in node.attr:
        return node.attr[key].type
    if default is None:
        raise NotExact(f"no {key} attribute")
    return default


def _dtype_of(node, key: str, default: int | None = None) -> np.dtype:
    code = attr_type(node, key, default)
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


def as_array(value) -> np.ndarray:
    """An element numpy handed back (bytes, a numpy scalar) as a 0-d array of its dtype;
    bytes never go through np.array (a fixed-width bytes dtype drops trailing NULs)."""
    if isinstance(value, np.ndarray):
        return value
    if isinstance(value, bytes):
        out = np.empty((), dtype=object)
        out[()] = value
        return out
    return np.asarray(value)


def _own(arr) -> np.ndarray:
    """A C-ordered copy that keeps its rank (np.ascontiguousarray makes 0-d arrays 1-d)."""
    return np.array(as_array(arr), order="C")


def _axis(value: int, rank: int) -> int:
    if not -rank <= value < rank:
        raise NotExact("axis out of range")
    return value + rank if value < 0 else value


def declared_type(node):
    """The dtype the node declares for its outputs (None: IdentityN, checked per input)."""
    key = {"Shape": "out_type", "Size": "out_type", "Cast": "DstT", "Range": "Tidx",
           "IdentityN": None, "Rank": None, "GatherV2": "Tparams", "All": None,
           "Any": None}.get(node.op, "T")
    if node.op == "Rank":
        return np.dtype(np.int32)
    if key is None:
        return None
    return _dtype_of(node, key, 3 if key in ("out_type", "Tidx") else None)


# -- the ops -------------------------------------------------------------------------------
def _identity(ev, node, args):
    return [args[0]]


def _snapshot(ev, node, args):
    if args[0].dtype == np.object_:
        raise NotExact("TF has no Snapshot kernel for strings")
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
    return [_own(np.transpose(x, p))]


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
    return [_own(x[tuple(index)])]


def _strided_slice(ev, node, args):
    """TF's StridedSlice was made to match numpy indexing: each spec entry is Ellipsis
    (ellipsis bit), np.newaxis (new-axis bit), an index (shrink bit) or a slice whose masked
    ends are left open; numpy's clamping of slice ends is TF's canonicalization."""
    x, begin, end, strides = args
    b, e, s = _ints(begin, "begin"), _ints(end, "end"), _ints(strides, "strides")
    masks = {k: node.attr[k].i if k in node.attr else 0 for k in
             ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask")}
    ellipsis, new_axis, shrink = (masks[k] for k in ("ellipsis_mask", "new_axis_mask",
                                                     "shrink_axis_mask"))
    if not len(b) == len(e) == len(s) or begin.dtype != end.dtype or \
            begin.dtype != strides.dtype or ellipsis & (ellipsis - 1) or \
            ellipsis & new_axis or ellipsis & shrink or new_axis & shrink:
        raise NotExact("uneven specs, several ellipses or overlapping masks")
    index, consumed = [], 0
    for i, (start, stop, step) in enumerate(zip(b, e, s)):
        bit = 1 << i
        if ellipsis & bit:
            index.append(Ellipsis)
        elif new_axis & bit:
            index.append(np.newaxis)
        elif step == 0:
            raise NotExact("zero stride")
        elif shrink & bit:
            if step != 1 or masks["begin_mask"] & bit:
                raise NotExact("shrink with a begin mask or a stride")
            index.append(start)
            consumed += 1
        else:
            index.append(slice(None if masks["begin_mask"] & bit else start,
                               None if masks["end_mask"] & bit else stop, step))
            consumed += 1
    if consumed > x.ndim:
        raise NotExact("more indices than dimensions")
    position = 0  # where each shrink index lands, to check it as TF does
    dims = list(x.shape)
    after = x.ndim - consumed  # dimensions the ellipsis stands for
    for item in index:
        if item is Ellipsis:
            position += after
        elif item is np.newaxis:
            continue
        else:
            if isinstance(item, int) and not -dims[position] <= item < dims[position]:
                raise NotExact("index out of bounds")
            position += 1
    return [_own(x[tuple(index)])]


def _unpack(ev, node, args):
    x = args[0]
    if x.ndim == 0:
        raise NotExact("scalar")
    axis = _axis(node.attr["axis"].i if "axis" in node.attr else 0, x.ndim)
    if "num" in node.attr and node.attr["num"].i != x.shape[axis]:
        raise NotExact("num differs")
    return [_own(np.take(x, i, axis=axis)) for i in range(x.shape[axis])]


def _gather(ev, node, args):
    params, indices, axis_arr = args
    if node.attr["batch_dims"].i if "batch_dims" in node.attr else 0:
        raise NotExact("batch_dims")
    if indices.dtype not in (np.dtype(np.int32), np.dtype(np.int64)) or params.ndim == 0:
        raise NotExact("indices")
    axis = _axis(_scalar_int(axis_arr, "axis"), params.ndim)
    if indices.size and (int(indices.min()) < 0 or int(indices.max()) >= params.shape[axis]):
        raise NotExact("index out of range")  # TF's CPU kernel refuses it
    ev.allow(node, params.shape[:axis] + indices.shape + params.shape[axis + 1:], params.dtype)
    return [np.take(params, indices, axis=axis)]


def _broadcast_to(ev, node, args):
    x, shape_arr = args
    dims = _ints(shape_arr, "shape")
    try:
        if tuple(np.broadcast_shapes(x.shape, tuple(dims))) != tuple(dims):
            raise NotExact("shape does not contain the input's")
    except ValueError:
        raise NotExact("shapes do not broadcast") from None
    ev.allow(node, dims, x.dtype)  # the declared size, before allocating
    return [_own(np.broadcast_to(x, dims))]


def _bool_reduce(fn):
    def run(ev, node, args):
        x, axes_arr = args
        if x.dtype != np.bool_:
            raise NotExact("not bool")
        if x.ndim == 0:
            if axes_arr.size:
                raise NotExact("axes on a scalar")
            return [x.copy()]
        listed = [_axis(a, x.ndim) for a in _ints(axes_arr.reshape(-1), "axes")]
        if len(set(listed)) != len(listed):
            raise NotExact("duplicate axes")  # TF refuses them
        axes = sorted(listed)
        keep = node.attr["keep_dims"].b if "keep_dims" in node.attr else False
        return [np.asarray(fn(x, axis=tuple(axes), keepdims=keep))]
    return run


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


def _binary(fn, ints_only: bool = False):
    def run(ev, node, args):
        a, b = args
        t = _dtype_of(node, "T")
        if a.dtype != t or b.dtype != t or t not in ARITH or (ints_only and t.kind == "f"):
            raise NotExact(f"{node.op} on {a.dtype}/{b.dtype}")
        if fn in (np.floor_divide, np.remainder) and b.size and not b.all():
            raise NotExact("division by zero")
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
    "Identity": _identity, "StopGradient": _identity, "Snapshot": _snapshot,
    "PreventGradient": _identity, "IdentityN": _identity_n,
    "Reshape": _reshape, "Transpose": _transpose, "ExpandDims": _expand_dims,
    "Squeeze": _squeeze, "Pack": _pack, "ConcatV2": _concat_v2, "Concat": _concat_v1,
    "Shape": _shape, "Size": _size, "Rank": _rank, "Fill": _fill, "ZerosLike": _zeros_like,
    "OnesLike": _ones_like, "Range": _range, "Slice": _slice, "StridedSlice": _strided_slice,
    "Tile": _tile, "Cast": _cast, "Neg": _neg, "Unpack": _unpack, "GatherV2": _gather,
    "BroadcastTo": _broadcast_to,    "All": _bool_reduce(np.all), "Any": _bool_reduce(np.any),
    "Maximum": _binary(np.maximum, ints_only=True), "Minimum": _binary(np.minimum, ints_only=True),
    "FloorDiv": _binary(np.floor_divide, ints_only=True),
    "FloorMod": _binary(np.remainder, ints_only=True),
    "Add": _binary(np.add), "AddV2": _binary(np.add), "Sub": _binary(np.subtract),
    "Mul": _binary(np.multiply),
}
