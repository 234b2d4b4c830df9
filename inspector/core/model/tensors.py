"""TensorProto and TensorShapeProto decoding into plain Python / numpy values (numpy is
imported by the functions that decode values: facts about a tensor need none)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, NamedTuple

from inspector.core.model import dtypes
from inspector.core.model.weights import LAZY_MARK

if TYPE_CHECKING:
    import numpy as np


def shape_dims(shape_proto) -> tuple | None:
    """Dims of a TensorShapeProto with None for unknown dims; None for unknown rank."""
    if shape_proto.unknown_rank:
        return None
    dims = [d.size for d in shape_proto.dim]
    if dims and min(dims) < 0:
        return tuple(None if d < 0 else d for d in dims)
    return tuple(dims)


def format_shape(dims: tuple | None) -> str:
    """PartialTensorShape::DebugString style: [?,224,224,3], <unknown>, []."""
    if dims is None:
        return "<unknown>"
    return "[" + ",".join("?" if d is None else str(d) for d in dims) + "]"


def element_count(tensor_proto) -> int:
    """Number of elements from the tensor's shape (no decoding of values)."""
    shape = tensor_proto.tensor_shape
    if shape.unknown_rank:
        return 0
    count = 1
    for d in shape.dim:
        size = d.size
        if size <= 0:       # unknown (-1) or empty
            return 0
        count *= size
    return count


def is_decodable(tensor_proto) -> bool:
    """Roughly what TF's Tensor::FromProto accepts: valid dtype, valid shape, consistent content."""
    dtype = tensor_proto.dtype
    size = dtypes.item_size(dtype)      # 0 for strings, resources, variants and unknown types
    if size == 0 and dtypes.value_field(dtype) is None and dtype not in (20, 21):
        return False
    shape = tensor_proto.tensor_shape
    if shape.unknown_rank:
        return False
    count = 1
    for d in shape.dim:
        if d.size < 0:
            return False
        count *= d.size
    if tensor_proto.tensor_content:
        return size > 0 and len(tensor_proto.tensor_content) == count * size
    return True


def _require_values(tensor_proto) -> None:
    if tensor_proto.version_number == LAZY_MARK:
        raise ValueError("the tensor's values are still in the model file (read them through "
                         "the graph: Graph.tensor)")


def stored_bytes(tensor_proto) -> int:
    """Bytes the tensor's values take in the serialized file (approximate for typed fields;
    dtype x shape for values left in the file)."""
    if tensor_proto.version_number == LAZY_MARK:
        return element_count(tensor_proto) * dtypes.item_size(tensor_proto.dtype)
    if tensor_proto.tensor_content:
        return len(tensor_proto.tensor_content)
    if tensor_proto.dtype == 7:
        return sum(len(s) for s in tensor_proto.string_val)
    field = dtypes.value_field(tensor_proto.dtype)
    if field is None:
        return 0
    count = len(getattr(tensor_proto, field))
    return count * max(dtypes.item_size(tensor_proto.dtype), 1)


class Facts(NamedTuple):
    """What a TensorProto says about itself without decoding its values."""

    dtype: int
    dims: tuple | None        # None: unknown rank; a negative entry: unknown dimension
    elements: int             # as element_count
    decodable: bool           # as is_decodable
    stored: int               # as stored_bytes
    lazy: bool                # its values are still in the model file


_FACTS: dict = {}       # (dtype, shape bytes, lazy, content bytes) -> Facts


def facts(tensor_proto) -> Facts:
    """element_count, is_decodable and stored_bytes of one tensor, reading its shape once (the
    summary and the canvas ask this of every constant of a 300k-node graph). Facts of tensors
    alike in dtype, shape and content length are shared; only values held in typed fields
    (whose stored size depends on how many are written) are measured each time."""
    dtype = tensor_proto.dtype
    lazy = tensor_proto.version_number == LAZY_MARK
    content = 0 if lazy else len(tensor_proto.tensor_content)
    shape = tensor_proto.tensor_shape.SerializeToString()
    key = (dtype, shape, lazy, content)
    hit = _FACTS.get(key)
    if hit is None:
        hit = _facts(dtype, tensor_proto.tensor_shape, lazy, content)
        if len(_FACTS) > 10_000:
            _FACTS.clear()
        _FACTS[key] = hit
    if lazy or content:
        return hit
    # values in a typed field (stored_bytes, without reading again what is known here)
    if dtype == 7:
        stored = sum(len(s) for s in tensor_proto.string_val)
    else:
        field = dtypes.value_field(dtype)
        stored = len(getattr(tensor_proto, field)) * max(dtypes.item_size(dtype), 1) \
            if field is not None else 0
    return _new(Facts, (hit[0], hit[1], hit[2], hit[3], stored, hit[5]))


_new = tuple.__new__     # a Facts without the named tuple's Python-level __new__


def _facts(dtype: int, shape, lazy: bool, content: int) -> Facts:
    known = not shape.unknown_rank
    dims = tuple(d.size for d in shape.dim) if known else None
    count = math.prod(dims) if dims else 1
    negative = bool(dims) and min(dims) < 0
    elements = count if known and not negative and count > 0 else 0
    size = dtypes.item_size(dtype)
    if size == 0 and dtypes.value_field(dtype) is None and dtype not in (20, 21):
        decodable = False
    elif not known or negative:
        decodable = False
    elif content:
        decodable = size > 0 and content == count * size
    else:
        decodable = True
    stored = elements * size if lazy else content
    return Facts(dtype, dims, elements, decodable, stored, lazy)


# Decoding never allocates more than this for a tensor whose stored values are fewer than its
# shape says (TF repeats the last value): a 4-byte Const may declare 10^12 elements.
MAX_EXPANDED_BYTES = 512 * 2 ** 20
MAX_STRINGS = 2_000_000


def declared_dims(tensor_proto) -> tuple:
    dims = shape_dims(tensor_proto.tensor_shape) or ()
    if any(d is None for d in dims):
        raise ValueError("tensor has an unknown dimension")
    return tuple(dims)


def _typed_values(tensor_proto, field: str, limit: int | None = None):
    values = getattr(tensor_proto, field)
    return list(values if limit is None else values[:limit])


def _checked(tensor_proto) -> tuple:
    """(shape, element count, numpy dtype, tensor_content or None) once the declared shape,
    the dtype and the packed content's length agree; raises ValueError where they do not."""
    _require_values(tensor_proto)
    shape = declared_dims(tensor_proto)
    count = math.prod(shape)
    dt = dtypes.numpy_dtype(tensor_proto.dtype)
    if dt is None:
        raise ValueError(f"cannot decode dtype {dtypes.dtype_name(tensor_proto.dtype)}")
    if not tensor_proto.tensor_content or dt.kind == "O":    # strings are never packed
        return shape, count, dt, None
    content = tensor_proto.tensor_content
    if len(content) != count * dt.itemsize:
        raise ValueError(f"tensor_content holds {len(content)} bytes, shape "
                         f"{format_shape(shape)} needs {count * dt.itemsize}")
    return shape, count, dt, content


def to_numpy(tensor_proto, max_expanded_bytes: int = MAX_EXPANDED_BYTES) -> np.ndarray:
    """Decode a TensorProto into a numpy array (copying only this tensor's bytes). Declared
    sizes are checked against the bytes present before anything is allocated."""
    import numpy as np

    shape, count, dt, content = _checked(tensor_proto)
    if content is not None:
        return np.frombuffer(content, dtype=dt.newbyteorder("<")).reshape(shape)
    field = dtypes.value_field(tensor_proto.dtype)
    stored = len(getattr(tensor_proto, field))
    per_item = 64 if dt == np.object_ else dt.itemsize
    if count > stored and (count * per_item > max_expanded_bytes or
                           (dt == np.object_ and count > MAX_STRINGS)):
        raise ValueError(f"tensor declares {count:,} elements but stores {stored:,} values; "
                         "not expanded (too large)")
    if stored > count and not (field in ("scomplex_val", "dcomplex_val") and
                               stored == 2 * count):
        raise ValueError(f"tensor holds {stored} values, shape needs {count}")
    return _fill(_decoded(tensor_proto, field, dt, None), count, dt, shape)


def _decoded(tensor_proto, field: str, dt, limit: int | None) -> np.ndarray:
    import numpy as np

    values = _typed_values(tensor_proto, field, None if limit is None else
                           (2 * limit if field in ("scomplex_val", "dcomplex_val") else limit))
    base = dtypes.base_dtype(tensor_proto.dtype)
    if field in ("scomplex_val", "dcomplex_val"):
        values = [complex(values[i], values[i + 1]) for i in range(0, len(values) - 1, 2)]
    if base == 7:
        out = np.empty(len(values), dtype=object)
        out[:] = values
        return out
    if base in (14, 19):  # half / bfloat16 stored as 16-bit patterns in half_val
        raw = np.asarray(values, dtype=np.int64).astype(np.uint16)
        return raw.view(np.float16) if base == 19 else raw
    if dt.kind in "iu" and field == "int_val":  # int_val holds int32s; narrower types wrap as
        return np.asarray(values, dtype=np.int64).astype(dt)  # a C++ cast would
    return np.asarray(values, dtype=dt)


def _fill(arr: np.ndarray, count: int, dt, shape: tuple) -> np.ndarray:
    """TF semantics: missing trailing values repeat the last one (zeros when none are given;
    empty strings for strings)."""
    import numpy as np

    if arr.size == count:
        return arr.reshape(shape)
    out = np.empty(count, dtype=arr.dtype if arr.size else dt)
    out[: arr.size] = arr
    if arr.size:
        out[arr.size:] = arr[-1]
    else:
        out[:] = b"" if dt == np.object_ else 0
    return out.reshape(shape)


def head(tensor_proto, n: int) -> np.ndarray:
    """The first n values in row-major order (flat), decoding only those: what previews and
    TF's DebugString need, whatever size the tensor declares."""
    import numpy as np

    shape, count, dt, content = _checked(tensor_proto)
    n = min(n, count)
    if content is not None:
        return np.frombuffer(content[: n * dt.itemsize], dtype=dt.newbyteorder("<"))
    field = dtypes.value_field(tensor_proto.dtype)
    arr = _decoded(tensor_proto, field, dt, n)
    return _fill(arr[:n], n, dt, (n,))
