"""What exact constant folding shares (exact_ops.py says what "exact" means here): the dtypes
it handles, its two refusals, and small helpers for reading a kernel's inputs."""

from __future__ import annotations

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


def dtype_of(node, key: str, default: int | None = None) -> np.dtype:
    code = attr_type(node, key, default)
    if code not in DTYPES:
        raise NotExact(f"dtype {code}")
    return np.dtype(DTYPES[code])


def ints(arr, what: str) -> list:
    if arr.dtype not in (np.dtype(np.int32), np.dtype(np.int64)) or arr.ndim > 1:
        raise NotExact(f"{what} is not an int32/int64 vector")
    return [int(v) for v in arr.reshape(-1)]


def scalar_int(arr, what: str) -> int:
    if arr.size != 1 or arr.ndim > 1:
        raise NotExact(f"{what} is not a scalar")
    return ints(arr.reshape(-1), what)[0]


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


def own(arr) -> np.ndarray:
    """A C-ordered copy that keeps its rank (np.ascontiguousarray makes 0-d arrays 1-d)."""
    return np.array(as_array(arr), order="C")


def axis_of(value: int, rank: int) -> int:
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
    return dtype_of(node, key, 3 if key in ("out_type", "Tidx") else None)
