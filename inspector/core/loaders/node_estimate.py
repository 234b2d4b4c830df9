"""How many nodes a GraphDef file holds, estimated from its first bytes without parsing it,
and whether the reader process's compiled passes (wire_columns' numba kernels) pay for a
file that big (reader_process.serve asks, and sizes the compiled reader's tables for it)."""

from __future__ import annotations

import os

COMPILED_FROM = 600_000       # nodes (estimated) from which the compiled passes pay: numba's
# import and cache load cost the reader ~0.5 s, alone, while the plain way splits the work
# with the window (quiet, normal speed: 300k first picture 1.83 s compiled vs 1.23 s plain;
# 1M 3.91 vs 4.30 s). INSPECTOR_WIRE_KERNELS=1 forces them, 0 turns them off.
PEEK = 1 << 16                # bytes read at a time by estimated_nodes


def estimated_nodes(path: str, size: int, sample: int = 1 << 20) -> int:
    """The file's node count estimated from its first `sample` bytes (top-level node fields
    counted, scaled by the file size; the field the sample ends in counts whole); 0 when
    they are not a GraphDef's. Read PEEK bytes at a time where the fields start: the values
    of a big tensor the walk steps over are not read (a dense model's weights)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    try:
        end = min(sample, os.fstat(fd).st_size)
        pos = nodes = 0
        at, buf = 0, b""
        while pos < end:
            if pos + 20 > at + len(buf) and at + len(buf) < end:   # a tag and length fit
                at, buf = pos, os.pread(fd, min(PEEK, end - pos), pos)
            tag, i = _varint(buf, pos - at)
            if tag & 7 != 2:        # a GraphDef's fields in front of its nodes are messages
                return 0
            length, i = _varint(buf, i)
            nodes += tag >> 3 == 1
            pos = at + i + length if length >= 0 else end   # a field running past the
    finally:                        # sample counts whole (a big tensor: few nodes)
        os.close(fd)
    return nodes * size // pos if pos > 0 else 0


def _varint(buf: bytes, pos: int) -> tuple[int, int]:
    value = shift = 0
    while pos < len(buf) and shift < 64:
        byte = buf[pos]
        value |= (byte & 0x7F) << shift
        pos, shift = pos + 1, shift + 7
        if byte < 0x80:
            return value, pos
    return -1, len(buf) + 1


def compiled_pays(path: str, size: int) -> bool:
    return compiled_nodes(path, size) > 0


def compiled_nodes(path: str, size: int) -> int:
    """The estimated node count when the compiled passes pay for this file (at least 1),
    else 0."""
    switch = os.environ.get("INSPECTOR_WIRE_KERNELS")
    if switch == "0":
        return 0
    try:
        nodes = estimated_nodes(path, size)
    except OSError:
        nodes = 0
    if switch == "1":
        return max(nodes, 1)
    return nodes if nodes >= COMPILED_FROM else 0
