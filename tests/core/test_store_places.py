"""A streamed piece's nodes placed by whole-array steps (store_places.Pieces) sit where the
per-part loop placed them: the same file offsets, kept offsets, sizes and kept bytes, for
pieces of file ranges and kept nodes in any mix, above and below numpy's threshold; and the
store then reads every node's bytes back."""

from __future__ import annotations

import random
from bisect import bisect_right
from itertools import accumulate

import pytest

from inspector.core.model import graph_index
from inspector.core.model.node_store import NodeStore


def _framed(n: int) -> int:
    return n + 1 + max(1, (n.bit_length() + 6) // 7)


def _reference(pieces, starts, sizes, kept: bytearray):
    """The per-part loop NodeStore.add_places ran before (the oracle)."""
    lens = [p[1] - p[0] if p.__class__ is tuple else len(p) for p in pieces]
    begin = list(accumulate(lens, initial=0))[:-1]
    base = []
    for p in pieces:
        if p.__class__ is tuple:
            base.append(p[0])
        else:
            base.append(-1 - len(kept))
            kept += p
    at = []
    for start in starts:
        j = bisect_right(begin, start) - 1
        at.append(base[j] + (start - begin[j]) if base[j] >= 0 else base[j] - (start - begin[j]))
    return at, list(sizes)


def _piece(rng, nodes: int, file_at: int):
    """(pieces, NodeDef lengths, the bytes the pieces stand for): runs of nodes in the file
    and single kept nodes, mixed."""
    pieces, lengths, data = [], [], bytearray()
    pos = file_at
    while len(lengths) < nodes:
        if rng.random() < 0.4:       # a kept (stripped) node
            n = rng.choice([5, 90, 127, 128, 300, 20000])
            field = b"\x0a" + _varint(n) + bytes(rng.randrange(256) for _ in range(min(n, 8))) \
                + bytes(max(0, n - 8))
            pieces.append(bytes(field))
            lengths.append(n)
            data += field
        else:                        # a run of nodes in the file
            run = rng.randrange(1, 40)
            start = pos
            for _ in range(min(run, nodes - len(lengths))):
                n = rng.choice([3, 60, 127, 128, 1000, 16383, 16384])
                lengths.append(n)
                pos += _framed(n)
            pieces.append((start, pos))
            data += bytes(pos - start)
        pos += rng.randrange(0, 50)       # other fields between pieces
    return pieces, lengths, bytes(data)


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


@pytest.mark.parametrize("nodes", [10, graph_index.NUMPY_FROM - 1, graph_index.NUMPY_FROM,
                                   20000])
@pytest.mark.parametrize("seed", [1, 2])
def test_pieces_are_placed_as_the_per_part_loop_placed_them(tmp_path, nodes, seed):
    rng = random.Random(seed * 1000 + nodes)
    store, kept = NodeStore(str(tmp_path / "none")), bytearray(b"already kept")
    store.kept += kept
    want_at, want_size = [], []
    at = 0
    for _ in range(3):                # several pieces, one after the other
        pieces, lengths, _ = _piece(rng, nodes, at)
        at = max((p[1] for p in pieces if p.__class__ is tuple), default=at) + 7
        assert store.add(pieces, None, lengths, len(lengths)) is True
        framed = [_framed(n) for n in lengths]
        got = _reference(pieces, list(accumulate(framed[:-1], initial=0)), framed, kept)
        want_at += got[0]
        want_size += got[1]
    assert list(store.at) == want_at and list(store.size) == want_size
    assert bytes(store.kept) == bytes(kept)


def test_pieces_that_do_not_hold_the_lengths_are_refused(tmp_path):
    pieces, lengths, _ = _piece(random.Random(5), graph_index.NUMPY_FROM + 10, 0)
    store = NodeStore(str(tmp_path / "none"))
    assert store.add(pieces, None, lengths[:-1] + [lengths[-1] + 1], len(lengths)) is None
    assert len(store) == 0 and not store.kept


def test_garbled_ranges_raise_for_the_receive_to_read_the_file_itself(tmp_path):
    store = NodeStore(str(tmp_path / "none"))
    pieces = [(0, 10, 3)] * graph_index.NUMPY_FROM
    with pytest.raises(ValueError):
        store.add(pieces, None, [1] * graph_index.NUMPY_FROM, graph_index.NUMPY_FROM)
