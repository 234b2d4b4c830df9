"""The reader process's side of its frames (reader_process.serve): the walk's pieces with
their columns, sent in frames. With the compiled passes, a frame's columns are read and it
is sent by a second thread (`Sender`), in the walk's order, while the walk goes on: the
kernels release the GIL, so on two cores the walk and the next frame's read overlap the
kernels' work on this one."""

from __future__ import annotations

import marshal
import os
import queue
import threading

from inspector.core.loaders.lazy_graphdef import encode_node
from inspector.core.model import columns, graph_index, protos, wire_columns
from inspector.core.model.graph import Graph

AHEAD = 2             # frames the walk may be ahead of the sending thread


class Sender:
    """Frames made and sent by one thread, in the order they were given (`put`: a call
    answering (kind, payload)). After a failure it makes no more frames; `close` waits for
    the rest and raises the failure."""

    def __init__(self, send):
        self.send, self.error = send, None
        self._jobs: queue.Queue = queue.Queue(AHEAD)
        self._thread = threading.Thread(target=self._run, name="reader-frames", daemon=True)
        self._thread.start()

    def put(self, make) -> None:
        if self.error is not None:
            raise self.error
        self._jobs.put(make)

    def _run(self) -> None:
        while True:
            make = self._jobs.get()
            if make is None:
                return
            if self.error is None:
                try:
                    self.send(*make())
                except BaseException as exc:  # noqa: BLE001  (raised by close, put)
                    self.error = exc

    def close(self) -> None:
        """Every frame given sent (the failure of one raised here)."""
        if self._thread.is_alive():
            self._jobs.put(None)
            self._thread.join()
        if self.error is not None:
            raise self.error


class SendingSink:
    """The walk's pieces, sent in frames: file ranges as (start, end), stripped nodes as
    their bytes (the window reads the ranges from its own descriptor of the file), with the
    sizes of the nodes read since the last frame and their Graph columns (names, op codes,
    inputs resolved to node indexes: graph_index.appended's form): the window parses those
    nodes no second time. With numba (`wire`, a wire_columns.WireReader) every frame's
    columns are read by compiled passes (in a Sender's thread), with its node fields' places
    and scope ids: the window then reads none of the frame's bytes. Without, while the
    window is busy (starting Qt) they are read by columns.read_wire; once the window waits
    for frames (`idle`), the reader is the slower side and sends plain pieces, the window
    reading their columns itself. `close()` once the walk is over."""

    def __init__(self, send, idle=None, wire=None, consts=False):
        self.send, self.pieces = send, []
        self.consts, self.op_names = consts, []    # consts: read the constants' facts too
        self.sizes, self.sent = [], 0
        self.fd, self.idle, self.wire, self.r = None, idle, wire, None
        self.chunks: list = []       # the pieces' bytes (wire)
        self.graph = None if idle is None or wire is not None else \
            Graph(protos.GraphDef(), complete=False)
        self.sender = Sender(send) if wire is not None else None

    def fields(self, start: int, end: int) -> None:
        self.pieces.append((start, end))
        if self.wire is not None:    # (a run is in the walk's window: copied, not read)
            self.chunks.append(bytes(self.r.get(start, end - start)))

    def node(self, node) -> None:
        self.node_bytes(node.SerializeToString(), 0)

    def node_bytes(self, data, pos: int) -> None:
        self.pieces.append(encode_node(data))
        self.chunks.append(self.pieces[-1])

    def cut(self, index: int = 0) -> None:
        if self.pieces:
            pieces, chunks, sizes = self.pieces, self.chunks, self.sizes[self.sent:]
            first = self.sent
            self.pieces, self.sent, self.chunks = [], len(self.sizes), []
            if self.sender is None:
                self.send(*self._frame(pieces, chunks, sizes, first))
            else:
                self.sender.put(lambda: self._frame(pieces, chunks, sizes, first))

    def close(self) -> None:
        """Every frame cut so far sent (raises what failed in the sending thread)."""
        if self.sender is not None:
            self.sender.close()

    def _frame(self, pieces: list, chunks: list, sizes: list, first: int) -> tuple:
        read, lengths, places = self._wire(chunks, len(sizes), first) \
            if self.wire is not None else self._columns(pieces, len(sizes)) + (None,)
        return b"P", marshal.dumps((pieces, sizes, read, lengths, places))

    def _wire(self, chunks: list, count: int, first: int) -> tuple:
        """(columns, None, (node fields' starts in the frame's bytes, their sizes, NodeDef
        lengths, scopes, whether the frame holds node fields only, its constants' facts
        (wire_columns.packed) or None)) by wire_columns, or (None, None, None) from the
        first frame it cannot read on."""
        if not count:                # (no node: the window merges the other fields)
            return None, None, None
        data = chunks[0] if len(chunks) == 1 else b"".join(chunks)
        got = self.wire.read(data, count)
        if got is None:
            self.wire = None
            return None, None, None
        only = int(got.node_size.sum()) == len(data)
        consts = None
        if self.consts and first + count >= graph_index.NUMPY_FROM:
            end = got.node_at + got.node_size
            consts = wire_columns.packed(wire_columns.const_part(
                data, end - got.lengths, end, got.columns, first, self.op_names))
        self.op_names += got.columns[1]
        return got.columns, None, (got.node_at.tobytes(), got.node_size.tobytes(),
                                   got.lengths.tobytes(), got.scopes, only, consts)

    def _columns(self, pieces: list, count: int) -> tuple:
        """(the columns of this frame's nodes, their NodeDefs' lengths), or (None, None):
        the window reads them itself, this frame's and every later one's, once one cannot
        be read from its wire bytes."""
        if self.idle is not None and self.idle[0]:
            self.graph = None       # the window waits for us: it reads the rest itself
        graph = self.graph
        if graph is None or self.fd is None or not count:
            return None, None
        data = b"".join(os.pread(self.fd, p[1] - p[0], p[0]) if p.__class__ is tuple else p
                        for p in pieces)
        lengths: list = []
        batch = columns.read_wire(data, count, False, lengths)
        if batch is None:
            self.graph = None
            return None, None
        first, base = len(graph._names), len(graph._src)
        ops, bad = len(graph.op_names), len(graph.malformed_inputs)
        graph_index.append(graph, batch, first)
        return graph_index.appended(graph, first, base, ops, bad), lengths
