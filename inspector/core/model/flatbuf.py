"""A small FlatBuffers reader that trusts nothing: every offset, vtable and vector length is
checked against the buffer before it is followed, so a truncated or made-up file gives one
ModelLoadError instead of an IndexError, a struct.error, a hang or a huge allocation."""

from __future__ import annotations

import struct

from inspector.core.errors import ModelLoadError

_U8, _U16, _I32, _U32 = struct.Struct("<B"), struct.Struct("<H"), struct.Struct("<i"), \
    struct.Struct("<I")
SIZES = {"b": 1, "B": 1, "h": 2, "H": 2, "i": 4, "I": 4, "q": 8, "Q": 8, "f": 4, "d": 8,
         "?": 1}


class Buffer:
    def __init__(self, data, path: str, what: str = "FlatBuffer"):
        self.data, self.path, self.what = memoryview(data), path, what
        self.size = len(self.data)

    def fail(self, why: str):
        raise ModelLoadError(f"damaged {self.what}: {why}", path=self.path)

    def _get(self, fmt: struct.Struct, pos: int):
        if pos < 0:
            self.fail(f"a negative offset points to byte {pos:,}, before the file's start")
        if pos + fmt.size > self.size:
            self.fail(f"a field at byte {pos:,} lies past the end of the file "
                      f"({self.size:,} bytes): the file is truncated or not this format")
        return fmt.unpack_from(self.data, pos)[0]

    def follow(self, pos: int) -> int:
        """Position an unsigned offset stored at `pos` points to."""
        target = pos + self._get(_U32, pos)
        if target >= self.size:
            self.fail(f"an offset at byte {pos:,} points past the end of the file")
        return target

    def root(self) -> "Table":
        return Table(self, self.follow(0))


class Table:
    __slots__ = ("buf", "pos", "vtable", "vt_size")

    def __init__(self, buf: Buffer, pos: int):
        self.buf, self.pos = buf, pos
        self.vtable = pos - buf._get(_I32, pos)
        if self.vtable < 0:
            buf.fail(f"the table at byte {pos:,} has a negative offset: its vtable would start "
                     f"at byte {self.vtable:,}, before the file's start")
        self.vt_size = buf._get(_U16, self.vtable)
        if self.vt_size < 4 or self.vt_size % 2 or self.vtable + self.vt_size > buf.size:
            buf.fail(f"the table at byte {pos:,} has a broken vtable")

    def _at(self, field: int) -> int:
        slot = 4 + 2 * field
        if slot >= self.vt_size:
            return 0
        off = self.buf._get(_U16, self.vtable + slot)
        return self.pos + off if off else 0

    def scalar(self, field: int, fmt: str, default=0):
        at = self._at(field)
        return self.buf._get(struct.Struct("<" + fmt), at) if at else default

    def table(self, field: int) -> "Table | None":
        at = self._at(field)
        return Table(self.buf, self.buf.follow(at)) if at else None

    def string(self, field: int) -> str:
        start, n = self._vector(field, 1)
        return bytes(self.buf.data[start:start + n]).decode("utf-8", errors="replace") \
            if n else ""

    def _vector(self, field: int, item: int) -> tuple[int, int]:
        at = self._at(field)
        if not at:
            return 0, 0
        vec = self.buf.follow(at)
        n = self.buf._get(_U32, vec)
        if vec + 4 + n * item > self.buf.size:
            self.buf.fail(f"a list at byte {vec:,} declares {n:,} items, more than the file "
                          "holds")
        return vec + 4, n

    def length(self, field: int, item: int = 4) -> int:
        return self._vector(field, item)[1]

    def scalars(self, field: int, fmt: str) -> list:
        start, n = self._vector(field, SIZES[fmt])
        return list(struct.unpack_from(f"<{n}{fmt}", self.buf.data, start)) if n else []

    def bytes_span(self, field: int) -> tuple[int, int]:
        """(offset, length) of a [ubyte] vector, without copying it."""
        return self._vector(field, 1)

    def tables(self, field: int) -> list:
        start, n = self._vector(field, 4)
        return [Table(self.buf, self.buf.follow(start + 4 * k)) for k in range(n)]
