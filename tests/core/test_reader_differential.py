"""Differential test of the reader process's columns (graph_index.appended / take): a
hostile graph streamed by a forked reader while the window is busy (every piece's columns
taken from the reader) answers every public Graph method as the same file opened in this
process, and a reader that dies or sends a garbled frame leaves the file read here."""

from __future__ import annotations

import os
import pytest

from inspector.core.loaders import reader_process
from inspector.core.loaders.readers import _receive
from inspector.core.model import graph_index, protos
from inspector.core.model.graph import Graph
from inspector.core.runtime import front_end
from tests.fixtures.walker_graphs import hostile_graph_def


def _answers(graph) -> dict:
    names = sorted(set(graph.name_list))[::7] + ["missing", "", "a:b", "dup"]
    ops = sorted(graph.op_names)
    views = [(n.name, n.op, n.inputs, n.device, n.index) for n in graph.nodes]
    return {
        "names": graph.name_list, "op_codes": graph.op_codes.tolist(),
        "op_names": graph.op_names, "in_offsets": list(graph.in_offsets),
        "in_src": list(graph.in_src), "in_port": list(graph.in_port),
        "in_control": list(graph.in_control), "views": views,
        "index": [graph.index(n) if n in graph else None for n in names],
        "get": [None if graph.get(n) is None else graph.get(n).index for n in names],
        "consumers": [graph.consumers(n) for n in names if n in graph],
        "consumer_names": [graph.consumer_names(n) for n in names if n in graph],
        "data_consumers": [graph.data_consumers(n) for n in names if n in graph],
        "has_consumers": [graph.has_consumers(n) for n in names],
        "consumer_index": [list(x) for x in graph.consumer_index()],
        "edges": list(graph.edges()), "problems": graph.problems(),
        "op_counts": graph.op_counts(), "of_op": [graph.nodes_of_op(o) for o in ops],
        "in_parts": [[list(p) for p in graph.nodes_of_op_in_parts(o)] for o in ops],
        "const_facts": graph.const_facts(),
        "scope_ids": (graph.scope_ids()[0], list(graph.scope_ids()[1])),
        "duplicates": graph.duplicate_names, "dangling": graph.dangling_inputs,
        "malformed": graph.malformed_inputs, "devices": graph.devices,
        "functions": graph.functions, "tensor": [graph.tensor(n) for n in names
                                                 if n in graph and graph.node(n).op == "Const"],
    }


@pytest.fixture(params=[False, True], ids=["graphdef", "node store"])
def store(request, monkeypatch):
    """The window keeps a big file's nodes as bytes (node_store); a command parses them."""
    monkeypatch.setattr(front_end, "WINDOW", request.param)
    monkeypatch.setattr(reader_process, "STORE_FROM", 0)
    return request.param


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    gd = hostile_graph_def(6000, seed=11)
    gd.node[5].device = "/device:GPU:0"
    for k, node in enumerate(gd.node):
        if not node.name:         # a nameless node: the reader sends no columns from there
            node.name = f"nameless{k}" if k < 5000 else ""
    gd.node.add(name="big", op="Add").input.extend(["s0/b0/n1:99999999999", "^missing"])
    path = str(tmp_path_factory.mktemp("reader") / "hostile.pb")
    with open(path, "wb") as fh:
        fh.write(gd.SerializeToString())
    return path, _answers(Graph(protos.GraphDef.FromString(gd.SerializeToString())))


@pytest.mark.parametrize("chunk", [64, 700, 2048])
def test_the_columns_a_busy_window_takes_answer_as_a_graph_read_here(hostile, monkeypatch,
                                                                     chunk, store):
    path, here = hostile
    taken = []
    real = graph_index.take
    monkeypatch.setattr(graph_index, "take",
                        lambda g, c, *rest: taken.append(1) or real(g, c, *rest))
    monkeypatch.setattr(reader_process, "CHUNK_NODES", chunk)
    monkeypatch.setattr(reader_process, "_can_fork", lambda: True)
    stream = reader_process.start(path, os.stat(path))
    stream._drain.join(30)          # the window was busy: every frame holds columns
    graph = _receive(stream, path)
    assert taken and graph is not None
    got = _answers(graph)
    assert {k for k in here if got[k] != here[k]} == set()


def _garbled(stream, payload: bytes):
    """The stream with its first P frame's payload replaced."""
    frames, first = [], True
    while True:
        frame = stream._frames.get()
        if first and frame[0] == b"P":
            frame, first = (b"P", payload), False
        frames.append(frame)
        if not frame[0]:
            break
    for frame in frames:
        stream._frames.put(frame)


@pytest.mark.parametrize("payload", [b"", b"\x00garbage", b"[\x00\x00\x00\x00",
                                     __import__("marshal").dumps(([(0, 10**12)], [], None, None)),
                                     __import__("marshal").dumps(([], [], ([],) * 13, None)),
                                     __import__("marshal").dumps((1, 2))],
                         ids=["empty", "not marshal", "truncated", "range past the end",
                              "columns of no node", "wrong shape"])
def test_a_garbled_frame_leaves_the_file_read_here(hostile, monkeypatch, payload, store):
    path, _ = hostile
    monkeypatch.setattr(reader_process, "CHUNK_NODES", 700)
    monkeypatch.setattr(reader_process, "_can_fork", lambda: True)
    stream = reader_process.start(path, os.stat(path))
    stream._drain.join(30)
    _garbled(stream, payload)
    assert _receive(stream, path) is None


def test_columns_for_other_nodes_than_the_piece_leaves_the_file_read_here(hostile,
                                                                        monkeypatch, store):
    """A piece whose columns hold another count of nodes than its bytes (a file replaced
    under the same size and time between the reader's read and ours) is not taken."""
    path, _ = hostile
    monkeypatch.setattr(reader_process, "CHUNK_NODES", 700)
    monkeypatch.setattr(reader_process, "_can_fork", lambda: True)
    stream = reader_process.start(path, os.stat(path))
    stream._drain.join(30)
    import marshal

    frames = []
    while True:
        frame = stream._frames.get()
        if frame[0] == b"P":
            pieces, sizes, read, lengths, places, split, *consts = marshal.loads(frame[1])
            if read is not None:
                read = (read[0][:-1],) + read[1:]       # one name short
            frame = (b"P", marshal.dumps((pieces, sizes, read, lengths, places, split,
                                          *consts)))
        frames.append(frame)
        if not frame[0]:
            break
    for frame in frames:
        stream._frames.put(frame)
    assert _receive(stream, path) is None


def test_nodes_read_while_the_stream_fills_the_store_leave_no_short_block(hostile,
                                                                          monkeypatch):
    """A node read through the store while its block is not yet whole (the stream adds the
    rest later) is parsed again once the block has more: no IndexError, same nodes."""
    path, here = hostile
    monkeypatch.setattr(front_end, "WINDOW", True)
    monkeypatch.setattr(reader_process, "STORE_FROM", 0)
    monkeypatch.setattr(reader_process, "CHUNK_NODES", 100)
    monkeypatch.setattr(reader_process, "_can_fork", lambda: True)
    real = graph_index.take

    def take(graph, columns, *rest):
        real(graph, columns, *rest)
        last = len(graph.structure.node) - 1
        for _ in range(2):              # the second read keeps the block (as a walk does)
            assert graph.structure.node[last].name == graph.name_list[last]

    monkeypatch.setattr(graph_index, "take", take)
    stream = reader_process.start(path, os.stat(path))
    stream._drain.join(30)
    graph = _receive(stream, path)
    assert graph is not None
    assert [n.name for n in graph.structure.node] == here["names"]
    assert [graph.structure.node[i].name for i in range(len(graph))] == here["names"]
