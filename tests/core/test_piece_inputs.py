"""A piece's inputs naming one of its own nodes, looked up by the reader process in the
piece's names (piece_inputs.split), give the window's graph the producers, ports, loose and
malformed inputs its own look-ups in every name so far give: names repeated in a piece and
across pieces, odd names (':' '^', empty) and inputs equal to them, ports, control inputs,
forward references, missing producers."""

from __future__ import annotations

import pytest

from inspector.core.model import columns, graph_index, piece_inputs, protos
from inspector.core.model.graph import Graph

PIECES = [
    [("a", "Const", []), ("b", "Add", ["a", "a:1", "^a", "b"]), ("x:odd", "Add", ["a"]),
     ("a", "Relu", ["b", "x:odd"]), ("", "Relu", ["a", ""]), ("f", "Add", ["later", "g"])],
    [("g", "Add", ["a", "b", "x:odd", "x:odd:0", "", "later", "^g", "g:2", "g", "f"]),
     ("later", "Add", ["g", "h:99999999999", "a:b:c"]), ("h", "Add", ["x:odd", "^"]),
     ("b", "Add", ["b", "nowhere"])],
    [("c", "Add", ["c", "a", "b", "g", "later:1"])],
]


def _graph(split: bool, pieces=PIECES) -> Graph:
    graph = Graph(protos.GraphDef(), complete=False)
    for piece in pieces:
        gd = protos.GraphDef()
        for name, op, inputs in piece:
            gd.node.add(name=name, op=op).input.extend(inputs)
        graph.structure.MergeFrom(gd)
        batch = columns.read_messages(gd.node)
        if split:
            batch.local, batch.inputs = piece_inputs.split(batch.names, batch.inputs)
            assert piece_inputs.fits(batch.local, batch.inputs, len(piece),
                                     sum(batch.counts))
        graph.add_new_nodes(batch=batch)
    graph.finish(None)
    return graph


def _columns(graph):
    return (graph._names, graph.op_names, list(graph._ops), list(graph._in_off),
            list(graph._src), list(graph._port), graph._loose, graph._big_ports,
            graph.malformed_inputs, graph.duplicate_names, graph.dangling_inputs,
            graph.problems())


# small pieces go without numpy (a dense model opens without importing it), big ones with it
WAYS = pytest.mark.parametrize("numpy_from", [piece_inputs.NUMPY_FROM, 0])


@WAYS
def test_the_readers_look_ups_in_a_piece_give_the_windows_columns(monkeypatch, numpy_from):
    monkeypatch.setattr(piece_inputs, "NUMPY_FROM", numpy_from)
    looked_up = []
    real = piece_inputs.resolve
    monkeypatch.setattr(piece_inputs, "resolve",
                        lambda graph, local, rest, *a: looked_up.append(len(rest)) or
                        real(graph, local, rest, *a))
    assert _columns(_graph(True)) == _columns(_graph(False))
    assert len(looked_up) == 3 and sum(looked_up) < sum(len(i) for p in PIECES
                                                      for *_, i in p)
    here = _graph(False)
    assert here.duplicate_names and here.dangling_inputs and here.malformed_inputs and \
        here._big_ports


@WAYS
def test_a_split_that_cannot_be_the_pieces_is_refused(monkeypatch, numpy_from):
    """(a garbled frame: the window reads the piece itself then)"""
    monkeypatch.setattr(piece_inputs, "NUMPY_FROM", numpy_from)
    local, rest = piece_inputs.split(["a", "b"], ["a", "b", "c"])
    assert piece_inputs.fits(local, rest, 2, 3)
    assert not piece_inputs.fits(local, rest, 2, 4)           # another input count
    assert not piece_inputs.fits(local, rest + ["d"], 2, 3)   # another number left
    assert not piece_inputs.fits(local, rest, 1, 3)           # a node past the piece
    assert not piece_inputs.fits(b"\xfe\xff\xff\xff" + local[4:], rest, 2, 3)   # -2


@pytest.mark.parametrize("split", [False, True])
def test_plain_forward_references_and_dangling_inputs_are_kept_without_a_parse(
        split, monkeypatch):
    """A graph not in topological order (a shuffled copy: 42k of a 100k graph's inputs)
    misses every input naming a node read later: when every miss is a plain name they go
    to the loose inputs in one call, none parsed (the reader of a shuffled 100k graph: 0.40
    -> 0.36 s of CPU), and finish() resolves them as before."""
    parsed = []
    real = graph_index.parse_input
    monkeypatch.setattr(graph_index, "parse_input", lambda text: parsed.append(text) or
                        real(text))
    graph = _graph(split, ([("a", "Add", ["later", "b"]), ("b", "Add", ["nowhere", "a"])],
                           [("later", "Add", ["a", "b", "gone", "a"])]))
    assert parsed == []
    assert graph.in_src.tolist() == [2, 1, -1, 0, 0, 1, -1, 0]
    assert graph.in_port.tolist() == [0] * 8
    assert graph.dangling_inputs == [("b", "nowhere"), ("later", "gone")]
    assert graph.malformed_inputs == []
