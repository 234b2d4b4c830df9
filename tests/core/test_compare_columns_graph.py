"""The comparison's columns (compare.columns) read what the graph already holds rather than
copies of it: its name index is the graph's own (300k names made into a dict again cost
~25 ms of CPU, and the dict's growth held the GIL ~6 ms a graph while the comparison window
waited), and its NodeDefs come from the graph's structure as it is when they are read (no
list of them kept; a big graph's stand-in made real later is closed)."""

from __future__ import annotations

import pytest

from inspector.core.app.opening import open_model
from inspector.core.compare import columns as columns_module
from inspector.core.compare.columns import columns, first_index
from inspector.core.compare.diff import diff_graphs
from inspector.core.loaders import load, reader_process
from inspector.core.model import protos
from inspector.core.model.graph import Graph
from inspector.core.model.node_store import StoredGraphDef
from tests.core.test_compare_scale import renamed_shuffled
from tests.fixtures import scale_models


def _repeating() -> Graph:
    gd = protos.GraphDef()
    for name, op, inputs in (("a", "Const", []), ("b", "Relu", ["a"]), ("a", "Relu", ["b"]),
                             ("c", "Add", ["a", "b:1", "^a"]), ("b", "Identity", ["c"])):
        gd.node.add(name=name, op=op).input.extend(inputs)
    return Graph(gd)


@pytest.mark.parametrize("make", [lambda: load(scale_models.blocks_graph(3000, 0)).graph,
                                  _repeating], ids=["blocks", "repeated names"])
def test_the_columns_name_index_is_the_graphs_own(monkeypatch, make):
    graph = make()
    made = []
    monkeypatch.setattr(columns_module, "first_index",
                        lambda names: made.append(len(names)) or first_index(names))
    cols = columns(graph)
    assert cols.at == first_index(cols.names) and not made
    assert cols.unique == (len(set(cols.names)) == len(cols.names))


def test_a_stored_graph_made_real_after_its_columns_still_gives_its_nodedefs(monkeypatch):
    from inspector.core.runtime import front_end

    monkeypatch.setattr(front_end, "WINDOW", True)
    monkeypatch.setattr(reader_process, "STREAM_ABOVE", 1)
    monkeypatch.setattr(reader_process, "STORE_FROM", 1)
    path = scale_models.blocks_graph(10_000)       # (10 MB: opened lazily, its nodes stored)
    graph = open_model(path).graph                  # (as the window opens it)
    assert type(graph.structure) is StoredGraphDef
    cols = columns(graph)
    whole = protos.GraphDef.FromString(open(path, "rb").read())
    real = graph.graph_def             # (the stand-in made real: its file closed)
    assert type(graph.structure) is not StoredGraphDef and real is graph.structure
    for i in (0, 7, 2000, len(graph) - 1):
        assert cols.protos()[i].name == whole.node[i].name == graph.name_list[i]
    other = renamed_shuffled(graph)[0]
    d = diff_graphs(graph, other)
    assert len(d.matching.b_of) == len(graph)
