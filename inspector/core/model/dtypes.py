"""TensorFlow dtype enum values, their TF names and numpy equivalents (numpy is imported
only when a numpy dtype is asked for: names and sizes need none)."""

from __future__ import annotations

# enum value -> TF's DataTypeString name (tensorflow/core/framework/types.cc)
_NAMES = {
    0: "INVALID", 1: "float", 2: "double", 3: "int32", 4: "uint8", 5: "int16", 6: "int8",
    7: "string", 8: "complex64", 9: "int64", 10: "bool", 11: "qint8", 12: "quint8",
    13: "qint32", 14: "bfloat16", 15: "qint16", 16: "quint16", 17: "uint16",
    18: "complex128", 19: "half", 20: "resource", 21: "variant", 22: "uint32", 23: "uint64",
    24: "float8_e5m2", 25: "float8_e4m3fn", 26: "float8_e4m3fnuz", 27: "float8_e4m3b11fnuz",
    28: "float8_e5m2fnuz", 29: "int4", 30: "uint4",
}
_BY_NAME = {name: value for value, name in _NAMES.items()}
REF_OFFSET = 100

# enum value -> (numpy dtype name, TensorProto repeated field holding typed values, bytes per
# element in tensor_content: 0 for strings)
_STORAGE = {
    1: ("float32", "float_val", 4), 2: ("float64", "double_val", 8), 3: ("int32", "int_val", 4),
    4: ("uint8", "int_val", 1), 5: ("int16", "int_val", 2), 6: ("int8", "int_val", 1),
    7: ("object", "string_val", 0), 8: ("complex64", "scomplex_val", 8),
    9: ("int64", "int64_val", 8), 10: ("bool", "bool_val", 1), 11: ("int8", "int_val", 1),
    12: ("uint8", "int_val", 1), 13: ("int32", "int_val", 4), 14: ("uint16", "half_val", 2),
    15: ("int16", "int_val", 2), 16: ("uint16", "int_val", 2), 17: ("uint16", "int_val", 2),
    18: ("complex128", "dcomplex_val", 16), 19: ("float16", "half_val", 2),
    22: ("uint32", "uint32_val", 4), 23: ("uint64", "uint64_val", 8),
}


def dtype_name(value: int) -> str:
    """TF's DataTypeString: 'float', 'int32', 'float_ref', ..."""
    if value > REF_OFFSET and value - REF_OFFSET in _NAMES:
        return _NAMES[value - REF_OFFSET] + "_ref"
    return _NAMES.get(value, f"unknown dtype enum ({value})")


def dtype_value(name: str) -> int:
    """Inverse of dtype_name; raises KeyError for an unknown name."""
    if name.endswith("_ref"):
        return _BY_NAME[name[:-4]] + REF_OFFSET
    aliases = {"float32": "float", "float64": "double", "float16": "half"}
    return _BY_NAME[aliases.get(name, name)]


def base_dtype(value: int) -> int:
    return value - REF_OFFSET if value > REF_OFFSET else value


def numpy_dtype(value: int):
    """numpy dtype used to hold values of this TF dtype, or None if there is none."""
    entry = _STORAGE.get(base_dtype(value))
    if entry is None:
        return None
    import numpy as np

    return np.dtype(entry[0])


def value_field(value: int) -> str | None:
    entry = _STORAGE.get(base_dtype(value))
    return None if entry is None else entry[1]


def item_size(value: int) -> int:
    """Bytes per element in tensor_content (0 for strings and unknown types)."""
    entry = _STORAGE.get(base_dtype(value))
    return 0 if entry is None else entry[2]
