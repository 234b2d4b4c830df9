"""Where a streamed piece's nodes sit (node_store.NodeStore.add): their NodeDef lengths laid
back to back, and the piece's parts (file ranges and kept bytes) by whole-array steps."""

from __future__ import annotations

from itertools import accumulate, compress, repeat
from operator import not_

from inspector.core.model import graph_index


def back_to_back(lengths: list, total: int) -> tuple | None:
    """(starts, sizes) of node fields (tag 0x0a, a varint length, the NodeDef) of these
    NodeDef `lengths` laid back to back, when they fill `total` bytes; else None."""
    if len(lengths) < graph_index.NUMPY_FROM:
        framed = [n + 1 + max(1, (n.bit_length() + 6) // 7) for n in lengths]
        if sum(framed) != total:
            return None
        return (list(accumulate(framed[:-1], initial=0)) if framed else []), framed
    np = graph_index.numpy()
    body = np.array(lengths, np.int64)
    framed = body + 1 + (1 + (body >= 1 << 7) + (body >= 1 << 14) + (body >= 1 << 21)
                         + (body >= 1 << 28) + (body >= 1 << 35))
    if int(framed.sum()) != total:
        return None
    starts = np.zeros(len(lengths), np.int64)
    np.cumsum(framed[:-1], out=starts[1:])
    return starts, framed


class Pieces:
    """A streamed piece's parts (file ranges (start, end) and kept bytes) by whole-array
    steps, no Python step a part (a 300k-node model's pieces hold 57k parts: three Python
    loops over them were ~60 ms of the window's receive): `total` bytes, `kept` the kept
    parts joined, places() where each part starts in the join and lives."""

    __slots__ = ("lens", "ranged", "starts", "total", "kept", "kept_lens")

    def __init__(self, np, pieces: list):
        ranged = list(map(isinstance, pieces, repeat(tuple)))
        ranges = list(compress(pieces, ranged))
        kept = list(compress(pieces, map(not_, ranged)))
        self.ranged = np.array(ranged, bool)
        self.kept_lens = np.fromiter(map(len, kept), np.int64, len(kept))
        self.kept = b"".join(kept)
        pairs = np.array(ranges, np.int64).reshape(-1, 2)
        self.starts = pairs[:, 0]
        self.lens = np.empty(len(pieces), np.int64)
        self.lens[self.ranged] = pairs[:, 1] - pairs[:, 0]
        self.lens[~self.ranged] = self.kept_lens
        self.total = int(self.lens.sum())

    def places(self, np, kept_before: int) -> tuple:
        """(each part's start in the pieces' join; its file offset, or -1 - its offset in a
        store's kept bytes holding kept_before bytes before this piece's)."""
        begin = np.zeros(len(self.lens), np.int64)
        np.cumsum(self.lens[:-1], out=begin[1:])
        base = np.empty(len(self.lens), np.int64)
        base[self.ranged] = self.starts
        at = np.zeros(len(self.kept_lens), np.int64)
        np.cumsum(self.kept_lens[:-1], out=at[1:])
        base[~self.ranged] = -1 - (kept_before + at)
        return begin, base
