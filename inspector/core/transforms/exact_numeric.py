"""The exact numpy kernels that compute (exact_ops.py says what "exact" means here): one IEEE
operation per element on floats without subnormals or NaN, integers away from overflow, casts
whose every value converts exactly, integer ranges and logical reductions."""

from __future__ import annotations

import numpy as np

from inspector.core.transforms.exact_base import (
    ARITH,
    CAST,
    NotExact,
    axis_of,
    dtype_of,
    ints,
)


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


def _bool_reduce(fn):
    def run(ev, node, args):
        x, axes_arr = args
        if x.dtype != np.bool_:
            raise NotExact("not bool")
        if x.ndim == 0:
            if axes_arr.size:
                raise NotExact("axes on a scalar")
            return [x.copy()]
        listed = [axis_of(a, x.ndim) for a in ints(axes_arr.reshape(-1), "axes")]
        if len(set(listed)) != len(listed):
            raise NotExact("duplicate axes")  # TF refuses them
        axes = sorted(listed)
        keep = node.attr["keep_dims"].b if "keep_dims" in node.attr else False
        return [np.asarray(fn(x, axis=tuple(axes), keepdims=keep))]
    return run


def _cast(ev, node, args):
    x = args[0]
    dst = dtype_of(node, "DstT")
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
        t = dtype_of(node, "T")
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
    t = dtype_of(node, "T")
    if x.dtype != t or t not in ARITH:
        raise NotExact("Neg type")
    if t.kind == "i" and x.size and int(x.min()) == np.iinfo(t).min:
        raise NotExact("overflow")
    return [_plain_floats(np.negative(_plain_floats(x)))]


NUMERIC_OPS = {
    "Range": _range, "Cast": _cast, "Neg": _neg,
    "All": _bool_reduce(np.all), "Any": _bool_reduce(np.any),
    "Maximum": _binary(np.maximum, ints_only=True), "Minimum": _binary(np.minimum, ints_only=True),
    "FloorDiv": _binary(np.floor_divide, ints_only=True),
    "FloorMod": _binary(np.remainder, ints_only=True),
    "Add": _binary(np.add), "AddV2": _binary(np.add), "Sub": _binary(np.subtract),
    "Mul": _binary(np.multiply),
}
