"""TensorProto and TensorShapeProto decoding into plain Python / numpy values."""

from __future__ import annotations

import math

import numpy as np

from inspector.core.model import dtypes


def shape_dims(shape_proto) -> tuple | None:
    """Dims of a TensorShapeProto with None for unknown dims; None for unknown rank."""
    if shape_proto.unknown_rank:
        return None
    return tuple(None if d.size < 0 else int(d.size) for d in shape_proto.dim)


def format_shape(dims: tuple | None) -> str:
    """PartialTensorShape::DebugString style: [?,224,224,3], <unknown>, []."""
    if dims is None:
        return "<unknown>"
    return "[" + ",".join("?" if d is None else str(d) for d in dims) + "]"


def element_count(tensor_proto) -> int:
    """Number of elements from the tensor's shape (no decoding of values)."""
    dims = shape_dims(tensor_proto.tensor_shape)
    if dims is None:
        return 0
    return math.prod(d or 0 for d in dims)


def is_decodable(tensor_proto) -> bool:
    """Roughly what TF's Tensor::FromProto accepts: valid dtype, valid shape, consistent content."""
    if dtypes.numpy_dtype(tensor_proto.dtype) is None and tensor_proto.dtype not in (20, 21):
        return False
    shape = tensor_proto.tensor_shape
    if shape.unknown_rank or any(d.size < 0 for d in shape.dim):
        return False
    if tensor_proto.tensor_content:
        size = dtypes.item_size(tensor_proto.dtype)
        return size > 0 and len(tensor_proto.tensor_content) == element_count(tensor_proto) * size
    return True


def stored_bytes(tensor_proto) -> int:
    """Bytes the tensor's values take in the serialized file (approximate for typed fields)."""
    if tensor_proto.tensor_content:
        return len(tensor_proto.tensor_content)
    if tensor_proto.dtype == 7:
        return sum(len(s) for s in tensor_proto.string_val)
    field = dtypes.value_field(tensor_proto.dtype)
    if field is None:
        return 0
    count = len(getattr(tensor_proto, field))
    return count * max(dtypes.item_size(tensor_proto.dtype), 1)


def to_numpy(tensor_proto) -> np.ndarray:
    """Decode a TensorProto into a numpy array (copying only this tensor's bytes)."""
    dims = shape_dims(tensor_proto.tensor_shape) or ()
    if any(d is None for d in dims):
        raise ValueError("tensor has an unknown dimension")
    shape = tuple(dims)
    count = math.prod(shape)
    dt = dtypes.numpy_dtype(tensor_proto.dtype)
    if dt is None:
        raise ValueError(f"cannot decode dtype {dtypes.dtype_name(tensor_proto.dtype)}")
    if tensor_proto.tensor_content and dt != np.object_:
        flat = np.frombuffer(tensor_proto.tensor_content, dtype=dt.newbyteorder("<"))
        if flat.size != count:
            raise ValueError(f"tensor_content holds {flat.size} values, shape needs {count}")
        return flat.reshape(shape)
    field = dtypes.value_field(tensor_proto.dtype)
    values = list(getattr(tensor_proto, field))
    base = dtypes.base_dtype(tensor_proto.dtype)
    if field in ("scomplex_val", "dcomplex_val"):
        values = [complex(values[i], values[i + 1]) for i in range(0, len(values) - 1, 2)]
    if base == 7:
        out = np.empty(count, dtype=object)
        fill = values[-1] if values else b""
        for i in range(count):
            out[i] = values[i] if i < len(values) else fill
        return out.reshape(shape)
    if base in (14, 19):  # half / bfloat16 stored as 16-bit patterns in half_val
        raw = np.asarray(values, dtype=np.uint16)
        arr = raw.view(np.float16) if base == 19 else raw
    else:
        arr = np.asarray(values, dtype=dt)
    if arr.size == count:
        return arr.reshape(shape)
    if arr.size > count:
        raise ValueError(f"tensor holds {arr.size} values, shape needs {count}")
    # TF semantics: missing trailing values repeat the last one (zeros when none are given)
    out = np.empty(count, dtype=arr.dtype)
    out[: arr.size] = arr
    out[arr.size:] = arr[-1] if arr.size else 0
    return out.reshape(shape)
