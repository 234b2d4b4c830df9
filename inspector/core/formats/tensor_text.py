"""Tensor::DebugString as TensorFlow prints it (used by summarize_graph --print_structure)."""

from __future__ import annotations

import math

import numpy as np

from inspector.core.model import tensors
from inspector.core.model.dtypes import dtype_name


def one_element(v, kind: str) -> str:
    """PrintOneElement: floats with the fewest digits that read back the same (6 or 9 for
    float, 15 or 17 for double), integers plainly, bools as 1/0."""
    if kind == "c":  # complex: (real,imag), each printed as a float of its precision
        part = np.float32 if getattr(v, "dtype", None) == np.complex64 else float
        return f"({one_element(part(v.real), 'f')},{one_element(part(v.imag), 'f')})"
    if kind == "f":
        value = float(v)
        if isinstance(v, np.float32) or getattr(v, "dtype", None) == np.float32:
            for digits in (6, 9):
                text = f"{value:.{digits}g}"
                if np.float32(float(text)) == np.float32(value):
                    return text
        for digits in (15, 17):
            text = f"{value:.{digits}g}"
            if float(text) == value:
                return text
        return repr(value)
    if kind == "b":
        return "1" if v else "0"
    if kind == "O":
        raw = v if isinstance(v, bytes) else str(v).encode()
        return raw.decode("utf-8", "backslashreplace")
    return str(int(v))


def summarize_values(values: np.ndarray, limit: int = 3) -> str:
    """Tensor::SummarizeValue (the non-v2 form Print and DebugString use)."""
    return summarize_head(values.reshape(-1)[:limit], values.shape, values.size, limit)


def summarize_head(flat: np.ndarray, shape: tuple, total: int, limit: int = 3) -> str:
    """SummarizeValue from the first `limit` flat values only (the tensor may be huge)."""
    limit = min(limit, total, flat.size)
    kind = flat.dtype.kind
    out: list = []
    index = [0]

    def dim(d: int) -> None:
        if index[0] >= limit:
            return
        if d == len(shape) - 1:
            for i in range(shape[d]):
                if index[0] >= limit:
                    if d != 0:
                        out.append("...")
                    return
                if i > 0:
                    out.append(" ")
                out.append(one_element(flat[index[0]], kind))
                index[0] += 1
            return
        for _ in range(shape[d]):
            if index[0] >= limit:
                break  # TF keeps looping here but prints nothing more (huge dims would hang)
            out.append("[")
            dim(d + 1)
            out.append("]")

    if not shape:
        out.append(" ".join(one_element(flat[i], kind) for i in range(limit)))
    else:
        dim(0)
    if total > limit:
        out.append("...")
    return "".join(out)


def debug_string(tensor_proto, limit: int = 3) -> str:
    dims = tensors.declared_dims(tensor_proto)
    flat = tensors.head(tensor_proto, limit)
    return (f"Tensor<type: {dtype_name(tensor_proto.dtype)} shape: {tensors.format_shape(dims)} "
            f"values: {summarize_head(flat, dims, math.prod(dims), limit)}>")
