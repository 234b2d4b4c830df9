"""Work the start-up reader and the columns no longer do twice (the 300k-node first picture
is two processes at their CPU limit, so every piece's milliseconds count): the lazy walk
tries a run of small nodes once where one ends, a reader's columns join the walk's own bytes
instead of reading each file range again, and the columns make no list of the device
markers when no node names a device. Each still gives what the longer way gives."""

from __future__ import annotations

import mmap
import os
from array import array

import pytest

from inspector.core.loaders import lazy_graphdef, reader_frames, reader_process, reader_sink
from inspector.core.loaders.lazy_graphdef import open_lazily
from inspector.core.model import columns, protos
from tests.fixtures.scale_models import blocks_graph


def test_the_walk_tries_each_run_of_small_nodes_once():
    """blocks: a weight node of 9 KB (stripped, taken a node at a time) then nine small
    nodes, block after block; the tight loop was called again at every weight node, where
    it stops at once (twice a block)."""
    path = blocks_graph(6000, 1)
    calls, found = [], []

    def small(buf, i, edge, most, sizes):
        got = lazy_graphdef._small_nodes(buf, i, edge, most, sizes)
        calls.append(got[1])
        return got

    sizes_here: list = []
    graph_def, store = open_lazily(path, os.stat(path), every=1000, sizes=sizes_here,
                                   small=small)
    weights = sum(node.op == "Const" and node.name.endswith("weights")
                  for node in graph_def.node)
    assert weights > 500
    assert calls.count(0) < weights // 10          # (a run cut by the window's edge)
    assert len(calls) < 1.2 * weights
    sizes_each: list = []       # the node-at-a-time walk gives the same
    each, store_each = open_lazily(path, os.stat(path), every=1000, sizes=sizes_each,
                                   small=lambda buf, i, *rest: (i, 0))
    assert each == graph_def and sizes_each == sizes_here
    assert sorted(store.slots.items()) == sorted(store_each.slots.items())
    store.close()
    store_each.close()


def test_the_walk_takes_weight_nodes_of_a_known_layout_inside_its_run_loop(monkeypatch):
    """blocks: the default walk (_runs) goes on past each weight node it strips by its
    layout, so it is entered about once a window, not twice a block as the run loop and the
    node-at-a-time step were (the 300k walk: ~35 ms less of the reader's CPU at normal
    speed); it gives what that walk gives, and what the node-at-a-time walk gives."""
    path = blocks_graph(6000, 1)
    calls = []
    real = lazy_graphdef._runs
    monkeypatch.setattr(lazy_graphdef, "_runs", lambda *a: calls.append(1) or real(*a))

    def read(**kwargs):
        sizes: list = []
        graph_def, store = open_lazily(path, os.stat(path), every=1000, sizes=sizes, **kwargs)
        slots = sorted(store.slots.items())
        store.close()
        return graph_def, sizes, slots

    fused = read()
    weights = sum(node.op == "Const" and node.name.endswith("weights")
                  for node in fused[0].node)
    assert weights > 500 and len(fused[2]) == weights and 0 < len(calls) < weights // 10
    assert fused == read(small=lazy_graphdef._small_nodes)
    monkeypatch.setattr(lazy_graphdef, "_runs", lambda buf, i, *rest: (i, 0, i))
    assert fused == read()


class _CountingOs:
    """reader_sink's `os`, counting its preads."""

    def __init__(self):
        self.preads = 0

    def pread(self, *args):
        self.preads += 1
        return os.pread(*args)

    def __getattr__(self, name):
        return getattr(os, name)


@pytest.mark.parametrize("window", [True, False], ids=["window", "command"])
def test_a_readers_columns_join_the_walks_bytes_and_read_no_range_again(monkeypatch,
                                                                      tmp_path, window):
    """A reader while its window or command is busy (every piece split, or with its
    columns): the file ranges of a piece were read once by the walk and once more, range by
    range, for its columns (~1.6k preads a piece of the 300k-node blocks model)."""
    path = blocks_graph(6000, 1)
    counting = _CountingOs()
    monkeypatch.setattr(reader_sink, "os", counting)
    monkeypatch.setattr(reader_process, "CHUNK_NODES", 1000)
    idle = mmap.mmap(-1, reader_sink.IDLE_BYTES)       # busy
    frames = []
    monkeypatch.setattr(reader_sink.SendingSink, "__init__", _keeping(frames))
    out = os.open(os.devnull, os.O_WRONLY)
    reader_process.serve(path, out, idle, window)
    assert counting.preads == 0
    got = [f for f in frames if f[0] == b"P"]
    assert len(got) >= 6 and all((split_read if window else columns_read)(f) for f in got)


def test_the_busy_windows_pieces_go_split_with_their_own_inputs_resolved(monkeypatch):
    """While the window is busy starting Qt, its reader sends each piece's bodies split,
    not its Graph columns (they cost the reader twice a split's time and the window, the
    longer way, saves less), and looks up there each input naming a node of the piece
    itself: only the other inputs' texts are sent (blocks: those of a block's first node,
    its first piece's last block's output, and the control inputs). The window's graph is
    the one its own reading makes (test_reader_process)."""
    import marshal

    path = blocks_graph(6000, 1)
    monkeypatch.setattr(reader_process, "CHUNK_NODES", 1000)
    idle = mmap.mmap(-1, reader_sink.IDLE_BYTES)       # the window busy
    frames = []
    monkeypatch.setattr(reader_sink.SendingSink, "__init__", _keeping(frames))
    out = os.open(os.devnull, os.O_WRONLY)
    reader_process.serve(path, out, idle, True)
    got = [reader_frames.loaded(p) for k, p in frames if k == b"P"]
    assert len(got) >= 6
    whole = protos.GraphDef.FromString(open(path, "rb").read())
    first = 0
    for pieces, sizes, read, lengths, places, batch, consts in got:
        assert read is None and consts is None
        names, ops, rest, counts, devices, local = batch
        nodes = whole.node[first:first + len(sizes)]
        inputs = [t for n in nodes for t in n.input]
        assert names == [n.name for n in nodes] and sum(counts) == len(inputs)
        own = array("i")
        own.frombytes(local)
        assert len(own) == len(inputs) and len(rest) < len(inputs) // 4
        assert rest == [t for t, at in zip(inputs, own) if at < 0]
        assert all(names[at] == t for t, at in zip(inputs, own) if at >= 0)
        first += len(sizes)


def test_a_pieces_sizes_lengths_and_input_counts_go_as_array_bytes(monkeypatch):
    """A piece's node sizes (every frame), and a split piece's NodeDef lengths and input
    counts, go as array bytes, not lists: a 16k-node piece's lists were ~50k int objects
    for marshal to make in the window (then read back by numpy and array). The window reads
    them back as arrays of the same numbers (fails on the old code: lists)."""
    import marshal

    path = blocks_graph(6000, 1)
    monkeypatch.setattr(reader_process, "CHUNK_NODES", 1000)
    idle = mmap.mmap(-1, reader_sink.IDLE_BYTES)       # the window busy: split pieces
    frames = []
    monkeypatch.setattr(reader_sink.SendingSink, "__init__", _keeping(frames))
    reader_process.serve(path, os.open(os.devnull, os.O_WRONLY), idle, True)
    whole = protos.GraphDef.FromString(open(path, "rb").read())
    first = 0
    for kind, payload in frames:
        if kind != b"P":
            continue
        raw = marshal.loads(payload)
        assert raw[1].__class__ is raw[3].__class__ is raw[5][3].__class__ is bytes
        pieces, sizes, read, lengths, places, batch, consts = reader_frames.loaded(payload)
        nodes = whole.node[first:first + len(sizes)]
        assert list(sizes) == [n.ByteSize() for n in nodes]
        assert list(batch[3]) == [len(n.input) for n in nodes]
        assert [n for n, s in zip(lengths, sizes) if s < lazy_graphdef.LAZY_FIELD] == \
            [s for s in sizes if s < lazy_graphdef.LAZY_FIELD]     # (weights: stripped)
        assert all(n < s for n, s in zip(lengths, sizes) if s >= lazy_graphdef.LAZY_FIELD)
        first += len(sizes)
    assert first == len(whole.node)


def _keeping(frames):
    real = reader_sink.SendingSink.__init__

    def init(self, send, *args, **kwargs):
        def keep(kind, payload):
            frames.append((kind, payload))
            send(kind, payload)
        real(self, keep, *args, **kwargs)
    return init


def split_read(frame) -> bool:
    import marshal

    pieces, sizes, read, lengths, places, batch, consts = reader_frames.loaded(frame[1])
    return read is None and batch is not None and len(batch[0]) == len(sizes) == \
        len(lengths)


def columns_read(frame) -> bool:
    import marshal

    pieces, sizes, read, lengths, *_ = reader_frames.loaded(frame[1])
    return read is not None and len(read[0]) == len(sizes) == len(lengths)


def _graph_def(devices: dict, count: int = 300) -> bytes:
    gd = protos.GraphDef()
    for i in range(count):
        gd.node.add(name=f"n{i}", op="Add", input=[f"n{i - 1}"] if i else [],
                    device=devices.get(i, ""))
    return gd.SerializeToString()


def test_devices_come_out_right_in_any_chunk_and_no_marker_list_is_made_without(
        monkeypatch):
    monkeypatch.setattr(columns, "CHUNK", 64)
    seen = []
    real = columns._split_marks

    def split(names, ops, inputs, devices, expected):
        seen.append(devices)
        return real(names, ops, inputs, devices, expected)

    monkeypatch.setattr(columns, "_split_marks", split)
    for devices in ({}, {0: "/cpu:0"}, {200: "/gpu:0", 299: "/cpu:0"}, {70: "/gpu:1"},
                    {i: "/cpu:0" for i in range(0, 300, 7)}):
        data = _graph_def(devices)
        batch = columns.read_wire(data, 300)
        want = columns.read_messages(protos.GraphDef.FromString(data).node)
        assert batch.devices == want.devices == devices
        assert (batch.names, batch.ops, batch.inputs, list(batch.counts)) == \
            (want.names, want.ops, want.inputs, list(want.counts))
    assert seen[0] == 300      # no device anywhere: their count, not 300 markers
    assert all(s.__class__ is list and len(s) > 300 for s in seen[1:])


def test_a_window_with_one_piece_to_add_gets_the_next_ones_bodies_split(tmp_path):
    """reader_sink.BEHIND 1: once the window has waited for the reader, a piece goes with
    its bodies split (the window only resolves its inputs) while the window still has one
    piece to add; plain (the window reads it all) only when it has none. At 2 the window had
    two whole pieces to read after the walk was over (fails at BEHIND 2)."""
    gd = protos.GraphDef()
    for i in range(50):
        gd.node.add(name=f"s/n{i}", op="Add", input=[f"s/n{i - 1}"] if i else [])
    data = gd.SerializeToString()
    path = tmp_path / "g.pb"
    path.write_bytes(data)
    idle = mmap.mmap(-1, reader_sink.IDLE_BYTES)
    idle[0] = 1                              # the window has waited for a frame once
    sink = reader_sink.SendingSink(lambda *a: None, idle, None, False, True)
    sink.fd = os.open(path, os.O_RDONLY)
    try:
        sink.frames = 3
        reader_sink.took(idle, 2)            # one frame sent, not yet added
        read, lengths, batch, consts = sink._columns([(0, len(data))], 50)
        assert read is None and consts is None and len(lengths) == 8 * 50   # (int64 bytes)
        assert batch[0] == [n.name for n in gd.node] and \
            list(memoryview(batch[3]).cast("q")) == [0] + [1] * 49
        reader_sink.took(idle, 3)            # every frame added: it reads the next itself
        assert sink._columns([(0, len(data))], 50) == (None, None, None, None)
    finally:
        os.close(sink.fd)
