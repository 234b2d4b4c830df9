"""A big graph's shape table from the worker (TensorFlow's inferred shapes, a name each node)
reaches the window with no whole-table dict built after the pipe's own: the answer is not
walked for graphs when it brought none (the walk made a second 1M-entry dict, whose growth
held the GIL ~55 ms), and cone.start_shapes keys it by the graph's own names in dicts of
PIECE nodes (a third 1M-entry dict held it ~65 ms)."""

from __future__ import annotations

import os
import threading
from types import SimpleNamespace

from inspector.core.app import cone
from inspector.core.loaders import load
from inspector.worker import protocol
from tests.core.test_marks_use_cases import AtOnce
from tests.fixtures.scale_models import flat_graph


def _through_the_pipe(value):
    read, write = os.pipe()
    got: list = []
    reader = threading.Thread(target=lambda: got.append(protocol.receive(read)))
    made = protocol.GraphBytes.made
    reader.start()
    protocol.send(write, protocol.sliced(protocol.pack(value)))
    reader.join(30)
    os.close(read), os.close(write)
    return got[0], made


def test_an_answer_without_graphs_is_not_walked(monkeypatch):
    shapes = {f"n{i}": [[1, i % 7]] for i in range(3 * protocol.SLICE)}
    back, made = _through_the_pipe(("result", 1, shapes))
    walked: list = []
    real = protocol._walk
    monkeypatch.setattr(protocol, "_walk", lambda *a: (walked.append(1), real(*a))[1])
    assert protocol.received_graphs(back[2], made) is back[2] and back[2] == shapes
    assert walked == []
    from inspector.core.model import protos

    graph_def = protos.GraphDef()
    graph_def.node.add(name="a", op="NoOp")
    back, made = _through_the_pipe(("result", 1, {"g": graph_def, "x": 1}))
    got = protocol.received_graphs(back[2], made)      # a graph came: put in
    assert walked and isinstance(got["g"], protos.GraphDef) and got["g"] == graph_def


def test_a_big_shape_table_is_kept_in_pieces_by_the_graphs_own_names(monkeypatch):
    monkeypatch.setattr(cone, "PIECE", 64)
    graph = load(flat_graph(1000)).graph
    names = graph.name_list
    answer = {(n + ".")[:-1]: [[1, k]] for k, n in enumerate(names)}   # the pipe's copies
    answer["not/a/node"] = [[2]]
    view = SimpleNamespace(graph=graph)
    engine = SimpleNamespace(infer_shapes=lambda: answer)
    got: list = []
    state = SimpleNamespace(engine=engine, model=None,
                            set_shapes=lambda v, shapes: got.append(shapes))
    cone.start_shapes(state, AtOnce(), view, None)
    shapes = got[0]
    assert dict(shapes) == answer and len(shapes) == len(answer)
    assert shapes.get("not/a/node") == [[2]] and "nope" not in shapes
    assert shapes.get("nope", 5) == 5 and shapes[names[7]] == [[1, 7]]
    pieces = shapes._pieces
    assert len(pieces) > 1 and max(map(len, pieces)) <= 64
    assert all(id(k) not in {id(n) for n in names} for k in answer)
    own = {id(n) for n in names}
    assert all(id(k) in own for piece in pieces for k in piece)   # no copy of a name kept
