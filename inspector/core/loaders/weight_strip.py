"""A weight node's NodeDef without its large tensor values: the lazy walk's (lazy_graphdef)
field-by-field strip of a node too big to parse whole, and the strip of one it parsed, each
recording where the values sit in the file (model.weights.Slot)."""

from __future__ import annotations

import math

from inspector.core.model import dtypes, protos, tensors
from inspector.core.model.weights import (
    DOUBLE_VAL,
    FLOAT_VAL,
    LAZY_MARK,
    TENSOR_CONTENT,
    Slot,
    varint,
)

LAZY_FIELD = 8 * 2 ** 10      # tensor values at least this big stay in the file
_ATTR, _ATTR_VALUE, _TENSOR = 5, 2, 8
_VALUE_FIELDS = {TENSOR_CONTENT: None, FLOAT_VAL: 1, DOUBLE_VAL: 2}  # field -> dtype it needs


def encode_field(number: int, payload: bytes) -> bytes:
    """A length-delimited field's bytes."""
    return varint(number << 3 | 2) + varint(len(payload)) + payload


def strip_tensor(r, start: int, end: int, node: int, attr: str,
                 found: list) -> bytes | None:
    """The TensorProto at [start, end) without its large value field, marked lazy; None when
    it has nothing to leave out or does not check out (then it is read whole)."""
    kept, skipped = [], None
    for number, wire, at, begin, stop in r.fields(start, end):
        if number in _VALUE_FIELDS and wire == 2 and stop - begin >= LAZY_FIELD:
            if skipped is not None:
                return None
            skipped = (number, begin, stop - begin)
        else:
            kept.append(bytes(r.get(at, stop - at)))
    if skipped is None:
        return None
    stripped = b"".join(kept)
    try:
        probe = protos.tensor_pb2.TensorProto.FromString(stripped)
    except Exception:  # noqa: BLE001  (upb's DecodeError: the node's parse names it)
        return None
    number, offset, length = skipped
    needs = _VALUE_FIELDS[number]
    size = dtypes.item_size(probe.dtype)
    shape = probe.tensor_shape
    if shape.unknown_rank or any(d.size < 0 for d in shape.dim) or size <= 0 or \
            (needs is not None and probe.dtype != needs) or \
            length != tensors.element_count(probe) * size:
        return None   # inconsistent: keep the bytes, so the usual checks report it
    found.append(Slot(node, attr, number, offset, length, probe.version_number))
    return stripped + varint(3 << 3) + varint(LAZY_MARK)


def strip_node(r, start: int, end: int, node: int, found: list) -> bytes | None:
    """A NodeDef without the values of its large tensors, or None to read it whole."""
    parts, changed = [], False
    for number, wire, at, begin, stop in r.fields(start, end):
        if number == _ATTR and wire == 2 and stop - begin >= LAZY_FIELD:
            entry = strip_attr(r, begin, stop, node, found)
            if entry is not None:
                parts.append(encode_field(_ATTR, entry))
                changed = True
                continue
        parts.append(bytes(r.get(at, stop - at)))
    return b"".join(parts) if changed else None


def strip_attr(r, start: int, end: int, node: int, found: list) -> bytes | None:
    """A NodeDef's attr entry without its tensor's large value, or None when unchanged."""
    key, value, changed = b"", [], False
    for number, wire, at, begin, stop in r.fields(start, end):
        if number == 1 and wire == 2:
            key = bytes(r.get(begin, stop - begin))
            value.append(bytes(r.get(at, stop - at)))
        elif number == _ATTR_VALUE and wire == 2 and stop - begin >= LAZY_FIELD:
            inner = []
            for n2, w2, at2, b2, s2 in r.fields(begin, stop):
                tensor = None
                if n2 == _TENSOR and w2 == 2 and s2 - b2 >= LAZY_FIELD:
                    tensor = strip_tensor(r, b2, s2, node, key.decode("utf-8", "replace"),
                                           found)
                if tensor is not None:
                    inner.append(encode_field(_TENSOR, tensor))
                    changed = True
                else:
                    inner.append(bytes(r.get(at2, s2 - at2)))
            value.append(encode_field(_ATTR_VALUE, b"".join(inner)))
        else:
            value.append(bytes(r.get(at, stop - at)))
    return b"".join(value) if changed else None


def place(buf: bytes, content: bytes, start: int, end: int) -> int:
    """Where content sits in buf[start:end] (an index into buf, or -1). Any place holding the
    same bytes will do; a short prefix search then one comparison in place is much cheaper
    than searching for the whole value."""
    head, at = content[:32], start - 1
    for _ in range(8):
        at = buf.find(head, at + 1, end)
        if at < 0 or buf.startswith(content, at, end):
            return at
    return buf.find(content, start, end)


def strip_parsed(node, buf: bytes, i: int, end: int, begin: int, index: int,
                  found: list) -> bool:
    """Leave out the large tensor_content values of a NodeDef parsed from buf[i:end] (which
    starts at file offset begin); False when it holds a large value of another kind (then the
    field walk decides)."""
    slots = []
    for key, value in node.attr.items():
        if value.WhichOneof("value") != "tensor":
            continue
        tensor = value.tensor
        content = tensor.tensor_content     # each read of a bytes field copies it: once
        length = len(content)
        if (len(tensor.float_val) * 4 >= LAZY_FIELD or len(tensor.double_val) * 8 >= LAZY_FIELD
                or length >= LAZY_FIELD and tensor.float_val):
            return False
        if length < LAZY_FIELD:
            continue
        size = dtypes.item_size(tensor.dtype)
        shape = tensor.tensor_shape
        dims = [d.size for d in shape.dim]
        if shape.unknown_rank or size <= 0 or (dims and min(dims) < 0) or \
                length != math.prod(dims) * size:
            continue     # inconsistent: keep the bytes, so the usual checks report it
        at = place(buf, content, i, end)
        if at < 0:
            return False
        slots.append((tensor, Slot(index, key, TENSOR_CONTENT, begin + at - i, length,
                                   tensor.version_number)))
    for tensor, slot in slots:
        tensor.ClearField("tensor_content")
        tensor.version_number = LAZY_MARK
        found.append(slot)
    return True
