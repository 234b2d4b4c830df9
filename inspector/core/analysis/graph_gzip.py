"""gzip size of a graph's GraphDef (metrics.gzip_size of serialize_graph_def) without
serializing it whole: above SAMPLE_ABOVE gzip_size compresses only every 8th 256 KB chunk,
so only the nodes over those chunks are serialized (their lazy weights read from the file
into a copy: the graph stays lazy); every other node is sized from its structure and its
values' lengths (analysis.sizes). The chunks are compressed on a thread of their own (zlib
lets go of the GIL), so the caller goes on meanwhile: `start(graph).result()`."""

from __future__ import annotations

import os
import threading

from inspector.core.analysis.metrics import CHUNK, GZIP_FRAME, SAMPLE_ABOVE, deflated, gzip_size
from inspector.core.analysis.sizes import lazy_growth_of
from inspector.core.model import graph_index, protos
from inspector.core.model.weights import is_lazy

STEP = 8 * CHUNK          # gzip_size's sampling: CHUNK bytes every STEP bytes


class Pending:
    """A gzip size being computed on a thread; `result()` waits for it (and raises what
    the computation raised)."""

    def __init__(self, chunks: list, total: int):
        self._value, self._error = None, None
        self._thread = threading.Thread(target=self._run, args=(chunks, total),
                                        name="graph-gzip", daemon=True)
        self._thread.start()

    def _run(self, chunks: list, total: int) -> None:
        try:
            sampled = compressed = 0
            for chunk in chunks:
                sampled += len(chunk)
                compressed += deflated(chunk)
            self._value = int(total * compressed / sampled) + GZIP_FRAME
        except BaseException as exc:  # noqa: BLE001 - handed to result()
            self._error = exc

    def result(self) -> int:
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._value


class Done:
    def __init__(self, value: int):
        self._value = value

    def result(self) -> int:
        return self._value


def start(graph):
    """The gzip size of graph's GraphDef as metrics.gzip_size(serialize_graph_def(graph_def))
    gives it, the same number: Pending (compressing on a thread) or Done."""
    np = graph_index.numpy()
    size = np.array(node_sizes(graph), np.int64)
    # protos.node_field_size of each: tag, the length's varint, the NodeDef
    ends = np.cumsum(1 + np.searchsorted(VARINT_ABOVE, size, side="right") + 1 + size)
    nodes_end = int(ends[-1]) if len(ends) else 0
    total = nodes_end + protos.other_fields_size(graph.structure)
    if total <= SAMPLE_ABOVE:
        return Done(gzip_size(protos.serialize_graph_def(graph.graph_def)))
    return Pending(_chunks(graph, size, ends, total), total)


def of_files(paths: list):
    """The gzip size of the files' bytes one after the other, as gzip_size would give it
    for their concatenation (sampled the same way above SAMPLE_ABOVE: CHUNK bytes every
    STEP bytes of the whole, read from the files), started: Pending or Done. What a diff
    says for a model of several files (a TF.js folder, a SavedModel, a .meta and its
    checkpoint) or a file that is not its GraphDef (Keras), beside their "file bytes"."""
    sizes = [os.path.getsize(p) for p in paths]
    total = sum(sizes)
    if total <= SAMPLE_ABOVE:
        data = b"".join(_read(p, 0, n) for p, n in zip(paths, sizes))
        return Done(gzip_size(data))
    chunks, base = [], 0                  # the whole's offsets k*STEP .. k*STEP+CHUNK
    for path, n in zip(paths, sizes):
        start = -base % STEP
        while start < n:
            chunks.append(_read(path, start, CHUNK))   # (a chunk across two files: its
            start += STEP                              # first file's part only)
        base += n
    return Pending(chunks, total)


def _read(path: str, offset: int, n: int) -> bytes:
    with open(path, "rb") as fh:
        fh.seek(offset)
        return fh.read(n)


VARINT_ABOVE = [1 << (7 * k) for k in range(1, 10)]     # a varint's length steps up past


def node_sizes(graph) -> list:
    """Each node's serialized NodeDef size, values included (no value read)."""
    nodes = graph.structure.node
    out = [node.ByteSize() for node in nodes]
    for index, growth in lazy_growth_of(graph).items():
        out[index] += growth
    return out


def _chunks(graph, size, ends, total: int) -> list:
    """The bytes of serialize_graph_def at [k * STEP, k * STEP + CHUNK) for every k: the
    nodes over each chunk (found by bisection of their ends) serialized, then sliced."""
    np = graph_index.numpy()
    nodes = graph.structure.node
    starts = np.concatenate(([0], ends[:-1]))        # each node's first byte
    nodes_end = int(ends[-1]) if len(ends) else 0
    tail = protos.other_fields(graph.structure)
    chunks, kept = [], (-1, b"")          # kept: the last node serialized (it may go on)
    for lo in range(0, total, STEP):
        hi = min(lo + CHUNK, total)
        parts = []
        first = int(np.searchsorted(ends, lo, side="right"))
        last = int(np.searchsorted(starts, hi, side="left"))
        for i in range(first, last):
            if kept[0] != i:
                sz = int(size[i])
                kept = (i, protos.node_head(sz) + _node_bytes(graph, nodes, i))
            at = int(starts[i])
            parts.append(kept[1][max(lo - at, 0):hi - at])
        if hi > nodes_end:
            parts.append(tail[max(lo - nodes_end, 0):hi - nodes_end])
        chunks.append(b"".join(parts))
    return chunks


def _node_bytes(graph, nodes, i: int) -> bytes:
    """Node i's NodeDef as serialize_graph_def writes it, its lazy values read into a copy."""
    node = nodes[i]
    weights = graph.weights
    if weights is None or weights.filled:
        return node.SerializeToString(deterministic=True)
    slots = [weights.slot(i, key) for key in node.attr]
    slots = [s for s in slots if s is not None and is_lazy(node.attr[s.attr].tensor)]
    if not slots:
        return node.SerializeToString(deterministic=True)
    copy = type(node)()
    copy.CopyFrom(node)
    for slot in slots:
        weights.fill(copy.attr[slot.attr].tensor, slot)
    return copy.SerializeToString(deterministic=True)
