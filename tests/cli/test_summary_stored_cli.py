"""`summarize` of a big graph read by the reader process keeps its NodeDefs as bytes in the
file (node_store), as the window does: the report reads few of them (at 1M nodes the
GraphDef's protobuf messages cost the command 0.4 s and ~750 MB). The report is the one of
the whole GraphDef, text and JSON; `--format tf`, which walks every NodeDef, still makes it.
Run in this process (the reader forked) with the thresholds lowered to a 10k-node model."""

from __future__ import annotations

import pytest

from inspector.cli import main as cli
from inspector.core.loaders import reader_process, readers
from inspector.core.model.node_store import StoredGraphDef
from inspector.core.runtime import front_end
from tests.fixtures import scale_models


@pytest.mark.parametrize("compiled", ["1", "0"], ids=["numba", "no numba"])
def test_summarize_keeps_a_big_graphs_nodes_in_the_file(monkeypatch, capsys, compiled):
    from inspector.core.model import wire_columns

    if compiled == "1" and wire_columns.kernels() is None:
        pytest.skip("numba is not installed")
    path = scale_models.blocks_graph(10_000)
    monkeypatch.setenv("INSPECTOR_WIRE_KERNELS", compiled)
    monkeypatch.setattr(wire_columns, "_state", [None] if compiled == "0" else
                        wire_columns._state)
    monkeypatch.setattr(front_end, "FEW_NODES", False, raising=False)
    monkeypatch.setattr(reader_process, "STREAM_ABOVE", 1)
    monkeypatch.setattr(reader_process, "CHUNK_NODES", 4500)
    monkeypatch.setattr(reader_process, "_can_fork", lambda: True)
    kinds, real = [], readers._receive

    def receive(stream, path):
        graph = real(stream, path)
        kinds.append(type(graph.structure))
        return graph

    monkeypatch.setattr(readers, "_receive", receive)

    def report(*args, store_from: int) -> str:
        monkeypatch.setattr(reader_process, "STORE_FROM", store_from)
        assert cli.main(["summarize", *args, path]) == 0
        assert front_end.FEW_NODES is False      # a later load in this process reads whole
        return capsys.readouterr().out

    for args in ([], ["--json"]):
        stored = report(*args, store_from=1)
        assert kinds.pop() is StoredGraphDef
        whole = report(*args, store_from=1 << 62)
        assert kinds.pop() is not StoredGraphDef
        assert stored == whole and "Const" in stored
    report("--format=tf", store_from=1)
    assert kinds.pop() is not StoredGraphDef
