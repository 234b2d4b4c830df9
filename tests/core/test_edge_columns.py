"""A big graph's hierarchy keeps its edges as array columns (view_columns.Edges): a few bytes an
edge, no Python object an edge (lists of ints were ~110 MB at 1M nodes, in each view of the
model: the folded one and the one "Show constants as nodes" builds beside it); the edges read
as the walk's tuples (tests/core/test_view_columns.py compares them on the HOSTILE cases)."""

from __future__ import annotations

import tracemalloc

import pytest

from inspector.core.model.graph import Graph
from inspector.core.view import view_columns
from tests.core.test_view_columns import HOSTILE, _graph_def, _walked


@pytest.mark.parametrize("fold", [True, False])
def test_a_big_graph_s_edges_take_a_few_bytes_an_edge(fold):
    graph = Graph(_graph_def(20000, 3))
    consts = view_columns.const_sources(graph)
    folded_at = view_columns.fold(graph, consts)[2] if fold else []
    graph.in_src, graph.in_offsets          # the graph's own columns, made before the count
    tracemalloc.start()
    found = view_columns.edges(graph, folded_at)
    kept = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    edges = found[0]
    assert len(edges) > 10000
    # the Edges' four columns and the three numpy columns handed to edge_groups
    assert kept / len(edges) < 40, kept / len(edges)
    first = edges[0]
    assert type(first[3]) is bool and type(first[1]) is int


def test_a_huge_port_reads_back_as_written():
    graph = Graph(_graph_def(6000, 4, HOSTILE["a huge port"]))
    edges = view_columns.edges(graph, [])[0]
    assert ("n0", 99999999999, "big", False) in list(edges)
    walked = _walked(graph, False).edges
    assert list(edges) == list(walked)


def test_a_big_graph_s_constants_are_listed_in_an_array():
    """ConstSources.nodes_at of a big graph: 4 bytes a constant (a list of ints was ~19 MB at
    1M nodes, in each view), read by the fold as an array (no list turned into one, the GIL
    held meanwhile)."""
    graph = Graph(_graph_def(20000, 5))
    graph.op_codes, graph.in_offsets, graph.in_src
    tracemalloc.start()
    consts = view_columns.const_sources(graph)
    kept = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    count = len(consts.nodes_at)
    assert count > 3000
    assert (kept - consts._target.nbytes) / count < 12, (kept - consts._target.nbytes) / count
    walked = _walked(graph, True)
    assert list(consts) == list(walked.consts)
    assert view_columns.fold(graph, consts)[0] == set(walked.folded)
