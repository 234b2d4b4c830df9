"""The strip preview keeps what it keeps and drops as one mask over node indexes (NodeSet), not
two sets of names (~40 MB each at a million nodes): the same answers as the sets, duplicate
names by graph.index's first-of-name rule; and the dropped nodes' indexes are listed a piece at
a time with no name looked up (the old `sorted(map(index.__getitem__, dropped))` was one C
call over every dropped name, the GIL held meanwhile)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from inspector.core.analysis.marks import strip_preview
from inspector.core.model import node_set, op_categories, reachability
from inspector.core.model.graph import Graph
from inspector.core.model.node_set import NodeSet
from inspector.core.model.scope_tree import ScopeTree
from tests.core.test_reachability_columns import _graph_def
from tests.core.test_view_columns import HOSTILE
from tests.core.test_view_columns import _graph_def as _view_graph_def


def _with_sets(graph: Graph, ins: list, outs: list) -> tuple:
    """The preview as it was computed with name sets (the reference)."""
    index, names = graph._index, graph.name_list
    kept = reachability.upstream(graph, outs, stop=ins) | set(ins)
    dropped = {n for n in graph.names() if n not in kept}
    at = sorted(map(index.__getitem__, dropped))
    sizes = [graph.structure.node[i].ByteSize() for i in at]
    needs = [n for n in map(names.__getitem__, graph.nodes_of_op("Placeholder"))
             if n in kept and n not in ins]
    roles = {n: r for n in dropped
             if (r := op_categories.training_role(n, graph.op_names[graph._ops[index[n]]]))}
    return kept, dropped, sum(sizes), needs, roles


@pytest.mark.parametrize("n", [300, 6000])
def test_the_masks_answer_as_the_name_sets_with_duplicate_names(n):
    gd = _graph_def(n, seed=n + 1, wide=False)
    for i in range(0, n, 50):
        gd.node[i].op = "Placeholder"
    gd.node[7].op, gd.node[9].name = "ApplyAdam", "gradients/x"
    graph = Graph(gd)
    assert graph.duplicate_names
    rnd = random.Random(3)
    names = graph.name_list
    for _ in range(6):
        outs = rnd.sample(names, 2) + ["dup"]
        ins = rnd.sample(names, 3)
        got = strip_preview(graph, ins, outs)
        kept, dropped, size, needs, roles = _with_sets(graph, ins, outs)
        assert isinstance(got.kept, NodeSet) and isinstance(got.dropped, NodeSet)
        assert got.kept == kept and kept == got.kept and len(got.kept) == len(kept)
        assert got.dropped == dropped and len(got.dropped) == len(dropped)
        assert set(got.dropped) == dropped and len(list(got.dropped)) == len(dropped)
        assert list(got.kept) == sorted(kept, key=graph.index)          # graph order
        assert (got.dropped_bytes, got.needs_feeding, got.training_only) == (size, needs, roles)
        assert all((name in got.kept) == (name in kept) for name in names + ["nothing"])
        some = rnd.sample(names, 40)
        assert got.kept.isdisjoint(some) == kept.isdisjoint(some)
        assert got.dropped.isdisjoint(some + ["nothing"]) == dropped.isdisjoint(some)
        assert got.kept | {"x"} == kept | {"x"}
    everything = strip_preview(graph, [], ["not_a_node"])
    assert everything.kept == set(names) and everything.dropped == set()


def test_a_scope_held_by_a_kept_node_is_found_without_a_set_of_names():
    from inspector.core.view.view_graph import ViewModel

    gd = _graph_def(6000, seed=5, wide=True)
    graph = Graph(gd)
    view = ViewModel(graph)
    names = graph.name_list
    got = strip_preview(graph, [names[10]], [names[-1], names[3000]])
    assert view.scopes_holding(got.kept) == view.scopes_holding(set(got.kept))


@pytest.mark.parametrize("case", list(HOSTILE))
@pytest.mark.parametrize("fold", [True, False])
def test_the_scopes_holding_kept_nodes_on_the_columns_are_those_of_the_walk(case, fold):
    """A big graph's kept scopes come from its grouped tree's columns (held_scopes) and make
    no scope's node list; the same paths as the hierarchy's walk over every scope's nodes."""
    from inspector.core.view.view_graph import ViewModel

    graph = Graph(_view_graph_def(6000, 4, HOSTILE[case]))
    view = ViewModel(graph, fold_constants=fold)
    assert view.hierarchy.memo.get("columns") is not None
    names, rnd = graph.name_list, random.Random(len(case))
    for outs in ([names[-1]], rnd.sample(names, 3), [names[0]]):
        got = strip_preview(graph, [names[5]], outs)
        tree = ScopeTree.of(graph.scope_tree())
        made = sum(s._nodes is not None for s in tree._made.values())
        held = view.scopes_holding(got.kept)
        assert sum(s._nodes is not None for s in tree._made.values()) == made
        assert held == view.hierarchy.scopes_holding(set(got.kept)), outs


class _Recorded(np.ndarray):
    """An index array that records the length of each slice taken of it."""
    taken: list = []

    def __getitem__(self, key):
        got = super().__getitem__(key)
        if isinstance(key, slice):
            _Recorded.taken.append(len(got))
        return got


def test_the_dropped_indexes_are_listed_a_piece_at_a_time_with_no_name_looked_up(monkeypatch):
    gd = _graph_def(6000, seed=9, wide=False)
    graph = Graph(gd)
    names = graph.name_list
    ins, outs = [names[100]], [names[2000]]
    want = _with_sets(graph, ins, outs)
    looked: list = []

    class Index(dict):
        def __getitem__(self, key):
            looked.append(key)
            return super().__getitem__(key)

    graph._index = Index(graph._index)
    taken = _Recorded.taken = []
    real = np.flatnonzero
    monkeypatch.setattr(np, "flatnonzero", lambda a: real(a).view(_Recorded))
    monkeypatch.setattr(node_set, "PIECE", 7)
    got = strip_preview(graph, ins, outs)
    # the marks and the duplicated names' nodes (62 here), not a look-up a dropped name
    assert len(looked) < 200
    assert taken and max(taken) <= 7 and sum(taken) >= len(want[1]) > 4000
    assert (got.dropped, got.dropped_bytes, got.training_only) == (want[1], want[2], want[4])
