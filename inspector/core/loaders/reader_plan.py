"""How a reader process (reader_process) reads a file, decided before its walk: the file's
node count estimated from its first bytes, whether the compiled passes pay for it, and
where the walk cuts its pieces.

Pieces are CHUNK_NODES nodes (reader_process), but for the last TAIL pieces' worth of the
estimated count: those are a quarter of that. Once the walk is over, the window still adds
the pieces it has not taken (it keeps about BEHIND of them, reader_sink): with 16k-node
pieces that was ~140-300 ms of the 300k first picture on the slow class after the reader
had finished; smaller last pieces leave it less. (Small pieces throughout cost more than
they gave: each piece has its own fixed costs on both sides.)"""

from __future__ import annotations

import os

COMPILED_FROM = 600_000       # nodes (estimated) from which the compiled passes pay: numba's
# import and cache load cost the reader ~0.5 s, alone, while the plain way splits the work
# with the window (quiet, normal speed: 300k first picture 1.83 s compiled vs 1.23 s plain;
# 1M 3.91 vs 4.30 s; slow class at load ~5, 300k, alternating rounds: 3.49 / 3.42 / 3.12 s
# compiled vs 2.64 / 4.18 / 2.59 s plain). INSPECTOR_WIRE_KERNELS=1 forces them, 0 turns
# them off.
PEEK = 1 << 16                # bytes read at a time by estimated_nodes
TAIL = 2                      # full pieces' worth of the estimated nodes cut smaller at the end
TAIL_SPLIT = 4                # into pieces this many times smaller


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


def estimate(path: str, size: int) -> int:
    """estimated_nodes, 0 when the file cannot be read."""
    try:
        return estimated_nodes(path, size)
    except OSError:
        return 0


def compiled_pays(path: str, size: int) -> bool:
    return compiled_nodes(estimate(path, size)) > 0


def compiled_nodes(nodes: int) -> int:
    """The estimated node count `nodes` when the compiled passes pay for the file (at least
    1), else 0."""
    switch = os.environ.get("INSPECTOR_WIRE_KERNELS")
    if switch == "0":
        return 0
    if switch == "1":
        return max(nodes, 1)
    return nodes if nodes >= COMPILED_FROM else 0


def cuts(nodes: int, chunk: int):
    """The walk's next cut after the one at node `cut`, as next_cut(cut): pieces of `chunk`
    nodes, but chunk // TAIL_SPLIT from where a full one would end inside the last TAIL
    full pieces' worth of the estimated `nodes` (0: unknown) until a full piece past it
    (an estimate far too low goes back to full pieces). TAIL 0: every piece full."""
    if nodes <= 0 or TAIL <= 0:
        return chunk.__add__
    small = max(1, chunk // TAIL_SPLIT)
    tail_from, tail_to = nodes - TAIL * chunk, nodes + chunk

    def next_cut(cut: int) -> int:
        return cut + (small if tail_from < cut + chunk and cut < tail_to else chunk)

    return next_cut
