"""grouping.dataflow_order looks a big scope's names up a piece at a time: on the flat
1M-node graph its one look-up of every name (and the set of them) held the GIL ~340 ms on
the open thread before the first picture, the GUI thread waiting for it."""

from __future__ import annotations

from inspector.core.loaders import load
from inspector.core.runtime import pieces
from inspector.core.view import grouping
from tests.fixtures.pieces import Slices
from tests.fixtures.scale_models import flat_graph


def test_a_flat_roots_dataflow_order_looks_names_up_a_piece_at_a_time(monkeypatch):
    graph = load(flat_graph(1000)).graph
    names = list(graph.name_list)
    whole = grouping.dataflow_order(graph, names)
    taken: list = []
    monkeypatch.setattr(pieces, "PIECE", 7)
    pieced = grouping.dataflow_order(graph, Slices(names, taken))
    assert pieced == whole and sorted(whole) == sorted(names)
    assert taken and max(taken) <= 7 and sum(taken) == len(names)


def test_a_flat_roots_nodes_are_listed_for_the_edge_groups_a_piece_at_a_time(monkeypatch):
    """view_columns.edge_groups lists the root scope's nodes (every node of a flat graph)
    PIECE at a time: one tolist of 1M held the GIL ~60 ms before the first picture."""
    from inspector.core.view import view_columns
    from inspector.core.view.hierarchy import build_hierarchy, edge_groups

    path = flat_graph(5000)
    monkeypatch.setattr(view_columns, "NUMPY_FROM", 1000)    # 2.5k edges: the columns' way
    graph = load(path).graph
    whole = edge_groups(build_hierarchy(graph))
    seen: list = []
    real = pieces.bounds
    monkeypatch.setattr(pieces, "PIECE", 7)
    monkeypatch.setattr(pieces, "bounds", lambda n, piece=0: (seen.append(n), real(n, piece))[1])
    graph = load(path).graph
    h = build_hierarchy(graph)
    assert len(h.edges) >= view_columns.NUMPY_FROM       # the columns' edge groups
    assert edge_groups(h) == whole
    at_root = sum(1 for name in graph.name_list if "/" not in name)
    assert at_root > len(graph) // 2 and at_root in seen
