"""The exact numpy kernels that move data or read shapes (exact_ops.py says what "exact"
means here): each takes (evaluator, node, input arrays) and returns the output arrays, or
raises NotExact (TensorFlow evaluates it) or Oversized (checked before allocating)."""

from __future__ import annotations

import math

import numpy as np

from inspector.core.transforms.exact_base import (
    NotExact,
    axis_of,
    dtype_of,
    ints,
    own,
    scalar_int,
)


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
    dims = ints(shape, "shape")
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
    p = ints(perm, "perm")
    if sorted(p) != list(range(x.ndim)):
        raise NotExact("perm is not a permutation")
    return [own(np.transpose(x, p))]


def _expand_dims(ev, node, args):
    x, dim = args
    d = scalar_int(dim, "dim")
    if not -x.ndim - 1 <= d <= x.ndim:
        raise NotExact("dim out of range")
    return [np.expand_dims(x, d if d >= 0 else d + x.ndim + 1)]


def _squeeze(ev, node, args):
    x = args[0]
    dims = list(node.attr["squeeze_dims"].list.i) if "squeeze_dims" in node.attr else []
    if not dims:
        return [x.reshape([d for d in x.shape if d != 1])]
    axes = {axis_of(d, x.ndim) for d in dims}
    if any(x.shape[a] != 1 for a in axes):
        raise NotExact("squeezed dimension is not 1")
    return [x.reshape([d for i, d in enumerate(x.shape) if i not in axes])]


def _pack(ev, node, args):
    if not args or any(a.shape != args[0].shape or a.dtype != args[0].dtype for a in args):
        raise NotExact("inputs differ")
    rank = args[0].ndim + 1
    axis = axis_of(node.attr["axis"].i if "axis" in node.attr else 0, rank)
    ev.allow(node, (len(args),) + args[0].shape, args[0].dtype)
    return [np.stack(args, axis=axis)]


def _concat(values, axis_arr, ev, node):
    if not values or any(a.dtype != values[0].dtype or a.ndim != values[0].ndim
                         for a in values) or values[0].ndim == 0:
        raise NotExact("inputs differ")
    axis = axis_of(scalar_int(axis_arr, "axis"), values[0].ndim)
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
    out = dtype_of(node, "out_type", 3)
    if out == np.int32 and any(d > 2 ** 31 - 1 for d in args[0].shape):
        raise NotExact("dimension over int32")
    return [np.array(args[0].shape, dtype=out)]


def _size(ev, node, args):
    out = dtype_of(node, "out_type", 3)
    if out == np.int32 and args[0].size > 2 ** 31 - 1:
        raise NotExact("size over int32")
    return [np.array(args[0].size, dtype=out)]


def _rank(ev, node, args):
    return [np.array(args[0].ndim, dtype=np.int32)]


def _fill(ev, node, args):
    dims_arr, value = args
    dims = ints(dims_arr, "dims")
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


def _slice(ev, node, args):
    x, begin, size = args
    b, s = ints(begin, "begin"), ints(size, "size")
    if len(b) != x.ndim or len(s) != x.ndim:
        raise NotExact("lengths differ")
    index = []
    for dim, start, count in zip(x.shape, b, s):
        count = dim - start if count == -1 else count
        if start < 0 or count < 0 or start + count > dim:
            raise NotExact("slice out of bounds")
        index.append(slice(start, start + count))
    return [own(x[tuple(index)])]


def _strided_slice(ev, node, args):
    """TF's StridedSlice was made to match numpy indexing: each spec entry is Ellipsis
    (ellipsis bit), np.newaxis (new-axis bit), an index (shrink bit) or a slice whose masked
    ends are left open; numpy's clamping of slice ends is TF's canonicalization."""
    x, begin, end, strides = args
    b, e, s = ints(begin, "begin"), ints(end, "end"), ints(strides, "strides")
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
    return [own(x[tuple(index)])]


def _unpack(ev, node, args):
    x = args[0]
    if x.ndim == 0:
        raise NotExact("scalar")
    axis = axis_of(node.attr["axis"].i if "axis" in node.attr else 0, x.ndim)
    if "num" in node.attr and node.attr["num"].i != x.shape[axis]:
        raise NotExact("num differs")
    return [own(np.take(x, i, axis=axis)) for i in range(x.shape[axis])]


def _gather(ev, node, args):
    params, indices, axis_arr = args
    if node.attr["batch_dims"].i if "batch_dims" in node.attr else 0:
        raise NotExact("batch_dims")
    if indices.dtype not in (np.dtype(np.int32), np.dtype(np.int64)) or params.ndim == 0:
        raise NotExact("indices")
    axis = axis_of(scalar_int(axis_arr, "axis"), params.ndim)
    if indices.size and (int(indices.min()) < 0 or int(indices.max()) >= params.shape[axis]):
        raise NotExact("index out of range")  # TF's CPU kernel refuses it
    ev.allow(node, params.shape[:axis] + indices.shape + params.shape[axis + 1:], params.dtype)
    return [np.take(params, indices, axis=axis)]


def _broadcast_to(ev, node, args):
    x, shape_arr = args
    dims = ints(shape_arr, "shape")
    try:
        if tuple(np.broadcast_shapes(x.shape, tuple(dims))) != tuple(dims):
            raise NotExact("shape does not contain the input's")
    except ValueError:
        raise NotExact("shapes do not broadcast") from None
    ev.allow(node, dims, x.dtype)  # the declared size, before allocating
    return [own(np.broadcast_to(x, dims))]


def _tile(ev, node, args):
    x, multiples = args
    m = ints(multiples, "multiples")
    if len(m) != x.ndim or any(v < 0 for v in m):
        raise NotExact("bad multiples")
    ev.allow(node, [d * v for d, v in zip(x.shape, m)], x.dtype)
    return [np.tile(x, m) if x.ndim else x.copy()]


DATA_OPS = {
    "Identity": _identity, "StopGradient": _identity, "Snapshot": _snapshot,
    "PreventGradient": _identity, "IdentityN": _identity_n, "Reshape": _reshape,
    "Transpose": _transpose, "ExpandDims": _expand_dims, "Squeeze": _squeeze, "Pack": _pack,
    "ConcatV2": _concat_v2, "Concat": _concat_v1, "Shape": _shape, "Size": _size, "Rank": _rank,
    "Fill": _fill, "ZerosLike": _zeros_like, "OnesLike": _ones_like, "Slice": _slice,
    "StridedSlice": _strided_slice, "Tile": _tile, "Unpack": _unpack, "GatherV2": _gather,
    "BroadcastTo": _broadcast_to,
}
