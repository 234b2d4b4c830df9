"""The bytes of a .tflite file each tensor and each operator of a subgraph takes, so that the
sizes shown for a .tflite (summarize's "Size by op type", `sizes`, the Sizes panel) are its
file's, as TFLite's own tools read it (a constant's values are its buffer's bytes: what
flatbuffer_utils and tflite-info say), not those of the GraphDef the window draws from it.

A tensor takes its table (its inline bytes, from its vtable's object size), its vtable the
first time one is met, its name, shape, shape signature, its quantization table with its
min, max, scale and zero-point lists, and its buffer with the values (a buffer shared by two
tensors counts once, for the first). An operator takes its table, its input, output and
intermediate lists, its options tables (inline) and its custom options. Each counts its
4-byte place in its subgraph's list. What no tensor or operator takes (the model's own
fields, operator codes, signatures, metadata, alignment padding) is the file's remainder."""

from __future__ import annotations

import struct

from inspector.core.errors import ModelLoadError

SLOT = 4            # the offset of each table in its parent's list
_U16 = struct.Struct("<H")


def _table(t, seen: set) -> int:
    """Inline bytes of a table (its vtable's object size), plus its vtable once."""
    if t is None:
        return 0
    inline = t.buf._get(_U16, t.vtable + 2)
    if t.vtable in seen:
        return inline
    seen.add(t.vtable)
    return inline + t.vt_size


def _vector(t, field: int, item: int) -> int:
    n = t.length(field, item)
    return 4 + n * item if t._at(field) else 0


def _string(t, field: int) -> int:
    return 4 + t.length(field, 1) + 1 if t._at(field) else 0


def tensor_bytes(t, buffers: list, counted: set, seen: set) -> int:
    """Bytes of tensor table `t`; `buffers`: the model's buffer tables; `counted`: buffer
    indexes already counted (their tensor came first)."""
    size = SLOT + _table(t, seen) + _vector(t, 0, 4) + _string(t, 3) + _vector(t, 7, 4)
    q = t.table(4)
    if q is not None:
        size += _table(q, seen) + _vector(q, 0, 4) + _vector(q, 1, 4) + _vector(q, 2, 4) \
            + _vector(q, 3, 8)
    b = t.scalar(2, "I")
    if b and b < len(buffers) and b not in counted:
        counted.add(b)
        buf = buffers[b]
        size += SLOT + _table(buf, seen)
        start, n = buf.bytes_span(0)
        size += 4 + n if buf._at(0) else 0
        if not n:       # past 2 GB: offset, size, as the reader takes them (it checked
            offset, outside = buf.scalar(1, "Q"), buf.scalar(2, "Q")   # they fit the file)
            size += outside if offset > 1 else 0
    return size


def operator_bytes(o, seen: set) -> int:
    return SLOT + _table(o, seen) + _vector(o, 1, 4) + _vector(o, 2, 4) + _vector(o, 8, 4) \
        + _table(o.table(4), seen) + _table(o.table(12), seen) + _vector(o, 5, 1) \
        + _vector(o, 7, 1)


def measure(model, subgraphs: list) -> bool:
    """Set file_bytes on every tensor and operator of `subgraphs` (read from the model's
    root table `model`, in its order); False (none set) when a part read only for its size
    is damaged: the model still opens, its sizes are then its GraphDef view's."""
    seen, counted = set(), set()
    try:
        buffers = model.tables(4)
        for g, sub in zip(model.tables(2), subgraphs):
            for tensor, t in zip(sub.tensors, g.tables(0)):
                tensor.file_bytes = tensor_bytes(t, buffers, counted, seen)
            for op, o in zip(sub.operators, g.tables(3)):
                op.file_bytes = operator_bytes(o, seen)
    except ModelLoadError:
        for sub in subgraphs:
            for part in (*sub.tensors, *sub.operators):
                part.file_bytes = 0
        return False
    return True
