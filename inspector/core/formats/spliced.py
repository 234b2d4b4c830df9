"""A node whose large tensor values were left in the model file (loaders/lazy_graphdef: the
tensor holds dtype and shape, marked lazy), written as the bytes of the whole node without
reading its values into memory: the node is serialized without them, and each value field
is spliced back in, in field order, its bytes copied from the model file to the output by
the kernel (os.copy_file_range). The result is the node's deterministic serialization, byte
for byte; nodes whose messages hold anything this cannot place (unknown fields) are refused
(`None`), and the caller reads the whole graph instead."""

from __future__ import annotations

import os

from inspector.core.loaders.sniff import varint_at
from inspector.core.model.protos import varint
from inspector.core.model.weights import LAZY_MARK

_ATTR, _ENTRY_VALUE, _TENSOR = 5, 2, 8


class FilePart:
    """`length` bytes of the model file at `offset`."""

    __slots__ = ("offset", "length")

    def __init__(self, offset: int, length: int):
        self.offset, self.length = offset, length


def size_of(pieces: list) -> int:
    return sum(p.length if isinstance(p, FilePart) else len(p) for p in pieces)


def node_pieces(node, lazy: dict) -> list:
    """The node's serialized bytes as pieces (bytes, and FileParts for the values left in the
    file), `lazy` from lazy_attrs (loaders/whole_graphdef). The node's lazy tensors get their own version back."""
    for key, slot in lazy.items():
        node.attr[key].tensor.version_number = slot.version
    data = node.SerializeToString(deterministic=True)
    for key in lazy:
        node.attr[key].tensor.version_number = LAZY_MARK
    pieces = []
    for number, wire, at, start, end in _fields(data):
        if number == _ATTR and wire == 2:
            entry = _entry(memoryview(data)[start:end], lazy)
            if entry is not None:
                pieces.append(_head(_ATTR, size_of(entry)))
                pieces.extend(entry)
                continue
        pieces.append(data[at:end])
    return pieces


def _entry(data, lazy: dict) -> list | None:
    """A map entry (key, AttrValue) with its tensor's value spliced in; None when its key is
    not a lazy one."""
    fields = list(_fields(data))
    key = next((bytes(data[s:e]).decode("utf-8", "replace") for n, w, a, s, e in fields
                if n == 1 and w == 2), None)
    slot = lazy.get(key)
    if slot is None:
        return None
    return _rewritten(data, fields, _ENTRY_VALUE,
                      lambda value: _rewritten(value, list(_fields(value)), _TENSOR,
                                               lambda tensor: _tensor(tensor, slot)))


def _rewritten(data, fields: list, number: int, inner) -> list:
    """A message's fields as pieces, the (length-delimited) field `number` replaced by
    inner(its payload) under a new length."""
    out = []
    for n, wire, at, start, end in fields:
        if n == number and wire == 2:
            pieces = inner(data[start:end])
            out.append(_head(number, size_of(pieces)))
            out.extend(pieces)
        else:
            out.append(bytes(data[at:end]))
    return out


def _tensor(data, slot) -> list:
    """The TensorProto's fields with the value field put back before the first field of a
    higher number (fields are serialized in number order)."""
    out, placed = [], False
    for number, _, at, _, end in _fields(data):
        if not placed and number > slot.field:
            out += [_head(slot.field, slot.length), FilePart(slot.offset, slot.length)]
            placed = True
        out.append(bytes(data[at:end]))
    if not placed:
        out += [_head(slot.field, slot.length), FilePart(slot.offset, slot.length)]
    return out


def _head(number: int, length: int) -> bytes:
    return varint(number << 3 | 2) + varint(length)


def _fields(data):
    """(number, wire, key start, payload start, end) of each field of a message's bytes."""
    pos, size = 0, len(data)
    while pos < size:
        key, i = varint_at(data, pos)
        number, wire = key >> 3, key & 7
        if wire == 2:
            length, i = varint_at(data, i)
            end = i + length
        elif wire == 0:
            _, end = varint_at(data, i)
        elif wire in (1, 5):
            end = i + (8 if wire == 1 else 4)
        else:
            raise ValueError(f"wire type {wire} in a serialized node")
        yield number, wire, pos, i, end
        pos = end


def write_pieces(fd: int, source_fd: int, pieces: list) -> None:
    """Write the pieces to fd (at its offset), FileParts copied from source_fd in the
    kernel."""
    for piece in pieces:
        if isinstance(piece, FilePart):
            _copy(source_fd, fd, piece.offset, piece.length)
        else:
            _write_all(fd, piece)


def _copy(src: int, dst: int, offset: int, length: int) -> None:
    copy_range = getattr(os, "copy_file_range", None)
    while length > 0:
        n = 0
        if copy_range is not None:
            try:
                n = copy_range(src, dst, length, offset)
            except OSError:
                copy_range = None
        if not n:       # no copy_file_range here (or across these file systems): read, write
            data = os.pread(src, min(length, 8 * 2 ** 20), offset)
            if not data:
                raise OSError("the model file is shorter than when it was opened")
            _write_all(dst, data)
            n = len(data)
        offset += n
        length -= n


def _write_all(fd: int, data) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]
