"""The reader process's side of its frames (reader_process.serve): the walk's pieces with
their columns, sent in frames. With the compiled passes, a second thread runs the main
kernel over each frame (WireReader.scan_split; they release the GIL) while this one walks
on, splits the next frame's node fields (WireReader.split) and finishes the frames scanned
before (WireReader.finish, their Python part), in order: on two cores the kernels' work
overlaps the rest."""

from __future__ import annotations

import marshal
import os
import struct
from array import array
from collections import deque

from inspector.core.loaders.lazy_graphdef import encode_node
from inspector.core.model import columns, graph_index, piece_inputs, protos, wire_columns
from inspector.core.model.graph import Graph
from inspector.core.runtime.lazy_import import later

# the compiled passes' scanning thread, made in a reader of a big file: not imported by the
# window before its first picture
futures = later("concurrent.futures", globals(), "futures")

AHEAD = 2             # frames scanned or waiting to be, besides the one being cut
FULL_FRAMES = None    # a command's pieces at most sent with all their columns (None: every
# piece until it waits for one): they cost the reader twice a split's time (inputs resolved
# here: blocks 300k 31 vs 13 ms a piece at normal speed) and the command a sixth of it. The
# window's pieces go split instead, busy or not (300k first picture, slow class, 7 rounds
# alternating, load 5-6: median 3.64 s split from the first piece vs 3.98 s with columns
# while the window starts Qt, 4.23 s before the split's inputs were resolved here; load
# 3.5: 2.97 vs 3.38 s, CPU of both processes 1.21 vs 1.31 s)
BEHIND = 1            # frames sent and not yet added by the window from which the window is
# the slower side: the next frame's bodies are split here then (at 2 the window had two
# whole pieces to read once the walk was over: 300k first picture, slow class, alternating
# rounds: median 3.67 vs 3.79 s (7 each, load 4), 3.16 vs 3.28 s (5 each, load 2))


class SendingSink:
    """The walk's pieces, sent in frames: file ranges as (start, end), stripped nodes as
    their bytes (the window reads the ranges from its own descriptor of the file), with the
    sizes of the nodes read since the last frame and their Graph columns (names, op codes,
    inputs resolved to node indexes: graph_index.appended's form): the window parses those
    nodes no second time. With numba (`wire`, a wire_columns.WireReader) every frame's
    columns are read by compiled passes (scanned in a second thread), with its node
    fields' places and scope ids: the window then reads none of the frame's bytes. Without,
    while a command is busy they are read by columns.read_wire; once it waits for frames
    (`idle`), the reader is the slower side and sends plain pieces, the command reading
    their columns itself. The window's pieces (`window`) go with their bodies split and the
    inputs naming a node of the piece itself resolved (piece_inputs) while the window is
    busy (starting Qt) or BEHIND frames behind: the window then only looks up the other
    inputs (a piece's Graph columns cost the reader more than they save the window, which
    has the longer way: Qt's start, then every piece). `close()` once the walk is over."""

    def __init__(self, send, idle=None, wire=None, consts=False, window=False, full=False):
        self.send, self.pieces = send, []
        self.full = full         # every piece with its columns, waited for or not
        self.consts, self.op_names = consts, []    # consts: read the constants' facts too
        self.sizes, self.sent = [], 0
        self.fd, self.idle, self.wire, self.r = None, idle, wire, None
        self.chunks: list = []       # the pieces' bytes (wire)
        self.graph = None if idle is None or wire is not None or window else \
            Graph(protos.GraphDef(), complete=False)
        self.scans: deque = deque()     # (scan's future or None, pieces, sizes, first, data)
        self.pool = None if wire is None else futures.ThreadPoolExecutor(1, "reader-scan")
        self.failed = False
        self.frames = 0          # P frames sent (the window says in `idle` how many it took)
        self.plain = False       # a frame the wire read refused: the window reads the rest
        self.window = window     # the window's graph (it takes split bodies: no constants)

    def fields(self, start: int, end: int) -> None:
        self.pieces.append((start, end))
        if self.wire is not None:    # (a run is in the walk's window: copied, not read)
            self.chunks.append(bytes(self.r.get(start, end - start)))
        elif self.idle is not None:  # the walk's bytes, for this piece's columns: a view
            # of the walk's window, not read again (~1.6k preads a piece: ~3 ms of ~30)
            r = self.r
            self.chunks.append(r.buf[start - r.base:end - r.base] if r.base <= start and
                               end <= r.base + len(r.buf) else bytes(r.get(start, end - start)))

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
            if self.wire is None:
                self._sent_scanned(0)          # (frames scanned before go first)
                read, lengths, batch, consts = self._columns(pieces, len(sizes), chunks)
                self.send(b"P", marshal.dumps((pieces, array("I", sizes).tobytes(), read,
                                               lengths, None, batch, consts)))
                self.frames += 1
                return
            data = chunks[0] if len(chunks) == 1 else b"".join(chunks)
            # (the split of the node fields here, beside the second pass of the last one)
            scan = self.pool.submit(self.wire.scan_split, self.wire.split(data, len(sizes))) \
                if sizes else None
            self.scans.append((scan, pieces, sizes, first, data))
            self._sent_scanned(AHEAD)

    def close(self) -> None:
        """Every frame cut so far sent (raises what failed in the scanning thread)."""
        try:
            self._sent_scanned(0)
        finally:
            if self.pool is not None:
                self.pool.shutdown()

    def _sent_scanned(self, keep: int) -> None:
        """The frames scanned sent, in order: all but the last `keep` (waiting for their
        scans), and those already scanned. None after a failure (its X frame is next)."""
        while self.scans and not self.failed and (
                len(self.scans) > keep or self.scans[0][0] is None or
                self.scans[0][0].done()):
            scan, pieces, sizes, first, data = self.scans.popleft()
            read = lengths = places = None
            if scan is not None and self.wire is not None:
                try:
                    got = self.wire.finish(scan.result())
                except BaseException:
                    self.failed = True
                    raise
                if got is None:        # refused: this frame and every later one plain
                    self.wire = None
                else:
                    read, lengths, places = self._placed(got, data, len(sizes), first)
            self.send(b"P", marshal.dumps((pieces, array("I", sizes).tobytes(), read,
                                           lengths, places, None, None)))
            self.frames += 1

    def _placed(self, got, data, count: int, first: int) -> tuple:
        """(columns, None, (node fields' starts in the frame's bytes, their sizes, NodeDef
        lengths, scopes, whether the frame holds node fields only, its constants' facts
        (wire_columns.packed) or None)) of a frame the kernels read."""
        only = int(got.node_size.sum()) == len(data)
        consts = None
        if self.consts and first + count >= graph_index.NUMPY_FROM:
            end = got.node_at + got.node_size
            consts = wire_columns.packed(wire_columns.const_part(
                data, end - got.lengths, end, got.columns, first, self.op_names))
        self.op_names += got.columns[1]
        return got.columns, None, (got.node_at.tobytes(), got.node_size.tobytes(),
                                   got.lengths.tobytes(), got.scopes, only, consts)

    def _columns(self, pieces: list, count: int, chunks: list | None = None) -> tuple:
        """(the columns of this frame's nodes, their NodeDefs' lengths, None, a command's
        graph's constants' facts read here (wire_columns.packed) or None) while a command
        is busy (until it has waited for us). For the window, while it is busy (Qt's start)
        or has BEHIND frames or more still to add: (None, lengths, their columns.read_wire
        Batch's names, ops, input texts, counts and devices, with piece_inputs.split's
        answer: the texts only of the inputs it left; the window then only resolves
        those). Else (None, None, None): it reads them itself.
        All None from the first frame that cannot be read from its wire bytes on. (Each
        with a fourth item, None but for the columns.) chunks: the pieces' bytes, when the
        walk kept them (else read from the file)."""
        if not self.full and (self.idle is not None and self.idle[0] or
                              FULL_FRAMES is not None and self.frames >= FULL_FRAMES):
            self.graph = None       # the window waits for us: the columns' order is its own
        graph = self.graph
        if self.idle is None or self.fd is None or not count or self.plain or \
                (graph is None and (not self.window or self.idle[0] and
                                    taken(self.idle) + BEHIND > self.frames)):
            return None, None, None, None
        data = b"".join(chunks) if chunks is not None and len(chunks) == len(pieces) else \
            b"".join(os.pread(self.fd, p[1] - p[0], p[0]) if p.__class__ is tuple else p
                     for p in pieces)
        lengths: list = []
        batch = columns.read_wire(data, count, False, lengths)
        if batch is None:
            self.graph, self.plain = None, True
            return None, None, None, None
        if graph is None:       # (the inputs naming a node of this piece found here)
            local, rest = piece_inputs.split(batch.names, batch.inputs)
            return None, array("q", lengths).tobytes(), (
                batch.names, batch.ops, rest, array("q", batch.counts).tobytes(),
                batch.devices, local), None
        first, base = len(graph._names), len(graph._src)
        ops, bad = len(graph.op_names), len(graph.malformed_inputs)
        odd = graph_index.append(graph, batch, first)
        read = graph_index.appended(graph, first, base, ops, bad, odd)
        consts = None     # (the window's graph reads none while opening; a command's does)
        if self.consts and first + count >= graph_index.NUMPY_FROM:
            consts = _const_facts(data, lengths, read, first, graph.op_names[:ops])
        return read, lengths, None, consts


def _const_facts(data: bytes, lengths: list, read: tuple, first: int, op_names: list):
    """wire_columns.packed facts of the Const nodes of a frame of node fields only (their
    NodeDefs' lengths: `lengths`), read from its bytes as the window's side reads them when
    it reads the frame itself; None where there are none, or other fields among the nodes
    (the command reads those constants from their messages then)."""
    np = graph_index.numpy()
    size = np.asarray(lengths, np.int64)
    head = 2 + (size >= 1 << 7) + (size >= 1 << 14) + (size >= 1 << 21) + (size >= 1 << 28)
    ends = np.cumsum(head + size)
    starts = ends - size
    if not len(size) or ends[-1] != len(data) or \
            not (np.frombuffer(data, np.uint8)[starts - head] == 0x0A).all():
        return None
    return wire_columns.packed(wire_columns.const_part(data, starts, ends, read, first,
                                                      op_names))


IDLE_BYTES = 16       # the byte shared with the window: 1 once it waited; frames it took at 8


def took(idle, frames: int) -> None:
    """The window has added `frames` frames (the reader's measure of its backlog)."""
    struct.pack_into("<Q", idle, 8, frames)


def taken(idle) -> int:
    """Frames the window took (all of them, as far as we know, from a shorter byte)."""
    return struct.unpack_from("<Q", idle, 8)[0] if len(idle) >= IDLE_BYTES else 1 << 62
