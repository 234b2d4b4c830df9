"""The reader process cuts the last pieces of its walk smaller (reader_plan.cuts, from the
file's estimated node count), and splits the next piece's bodies for the window as soon as
it has one piece still to add (reader_sink.BEHIND): the window has less left to add once the
reader is done. The graph the window gets from those pieces is the one read here."""

from __future__ import annotations

import marshal
import mmap
import os

from inspector.core.loaders import reader_plan, reader_process, reader_sink
from inspector.core.loaders.lazy_graphdef import open_lazily
from inspector.core.loaders.readers import _receive
from inspector.core.model import protos
from inspector.core.model.graph import Graph
from inspector.core.runtime import front_end
from tests.fixtures.scale_models import blocks_graph


def _cuts(nodes: int, chunk: int, until: int) -> list:
    step, at, out = reader_plan.cuts(nodes, chunk), chunk, []
    while at < until:
        out.append(at)
        at = step(at)
    return out


def test_the_last_two_pieces_worth_of_the_estimate_are_cut_in_quarters():
    assert _cuts(6000, 1024, 7000) == [1024, 2048, 3072] + list(range(3328, 7000, 256))
    assert _cuts(0, 1024, 5000) == [1024, 2048, 3072, 4096]       # no estimate
    # an estimate far too low: back to full pieces a full piece past it
    assert _cuts(2000, 1024, 6000) == list(range(1024, 3073, 256)) + [4096, 5120]


def test_a_streamed_graph_cut_smaller_at_its_end_equals_the_one_read_here(monkeypatch):
    path = blocks_graph(6000, 1)
    assert 5000 < reader_plan.estimated_nodes(path, os.path.getsize(path)) < 7000
    monkeypatch.setattr(front_end, "WINDOW", True)
    monkeypatch.setattr(reader_process, "CHUNK_NODES", 1024)
    monkeypatch.setattr(reader_process, "_can_fork", lambda: True)
    stream = reader_process.start(path, os.stat(path), window=True)
    stream._drain.join(60)
    frames = list(stream._frames.queue)
    counts = [len(marshal.loads(p)[1]) for kind, p in frames if kind == b"P"]
    assert counts[:3] == [1024] * 3 and len(counts) > 10
    assert all(k <= 256 for k in counts[3:])
    graph = _receive(stream, path)
    graph_def, store = open_lazily(path, os.stat(path))
    here = Graph(graph_def, weights=store)
    assert sum(counts) == len(graph) == len(here) > 5000
    assert graph.name_list == here.name_list
    assert [n.inputs for n in graph.nodes] == [n.inputs for n in here.nodes]
    assert [n.op for n in graph.nodes] == [n.op for n in here.nodes]
    assert graph.scope_ids()[0] == here.scope_ids()[0]
    assert list(graph.scope_ids()[1]) == list(here.scope_ids()[1])
    assert graph.weights.slots == here.weights.slots
    for i in range(len(here) - 300, len(here)):      # nodes of the last pieces, from the file
        assert graph.nodes[i].proto == here.nodes[i].proto


def test_a_window_with_one_piece_to_add_gets_the_next_ones_bodies_split(tmp_path):
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
        assert read is None and consts is None and len(lengths) == 50
        assert batch[0] == [n.name for n in gd.node] and list(batch[3]) == [0] + [1] * 49
        reader_sink.took(idle, 3)            # every frame added: it reads the next itself
        assert sink._columns([(0, len(data))], 50) == (None, None, None, None)
    finally:
        os.close(sink.fd)
