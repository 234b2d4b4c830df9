"""gzip size of a graph's GraphDef (metrics.gzip_size of serialize_graph_def) without
serializing it whole: above SAMPLE_ABOVE gzip_size compresses only every 8th 256 KB chunk,
so only the nodes over those chunks are serialized (their lazy weights read from the file
into a copy: the graph stays lazy); every other node is sized from its structure and its
values' lengths (analysis.sizes). The chunks are compressed on a thread of their own (zlib
lets go of the GIL), so the caller goes on meanwhile: `start(graph).result()`."""

from __future__ import annotations

import threading
import zlib

from inspector.core.analysis.metrics import CHUNK, SAMPLE_ABOVE, gzip_size
from inspector.core.analysis.sizes import lazy_growth_of
from inspector.core.model import protos
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
                compressed += len(zlib.compress(chunk, 6))
            self._value = int(total * compressed / sampled) + 18
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
    structure = graph.structure
    sizes = node_sizes(graph)
    other = protos.other_fields_size(structure)
    total = sum(map(protos.node_field_size, sizes)) + other
    if total <= SAMPLE_ABOVE:
        return Done(gzip_size(protos.serialize_graph_def(graph.graph_def)))
    return Pending(_chunks(graph, sizes, total), total)


def node_sizes(graph) -> list:
    """Each node's serialized NodeDef size, values included (no value read)."""
    nodes = graph.structure.node
    out = [node.ByteSize() for node in nodes]
    for index, growth in lazy_growth_of(graph).items():
        out[index] += growth
    return out


def _chunks(graph, sizes: list, total: int) -> list:
    """The bytes of serialize_graph_def at [k * STEP, k * STEP + CHUNK) for every k."""
    nodes, framed = graph.structure.node, protos.node_field_size
    chunks, parts, at = [], [], 0
    lo, hi = 0, min(CHUNK, total)          # the chunk being gathered
    for i, size in enumerate(sizes):
        end = at + framed(size)
        if end > lo:
            data = protos.node_head(size) + _node_bytes(graph, nodes, i)
            while end > lo:
                parts.append(data[max(lo - at, 0):hi - at])
                if end < hi:
                    break
                chunks.append(b"".join(parts))
                parts = []
                lo += STEP
                hi = min(lo + CHUNK, total)
                if lo >= total:
                    return chunks
        at = end
    tail = protos.other_fields(graph.structure)
    while lo < total:
        parts.append(tail[max(lo - at, 0):hi - at])
        chunks.append(b"".join(parts))
        parts = []
        lo += STEP
        hi = min(lo + CHUNK, total)
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
