"""grouping.dataflow_order looks a big scope's names up a piece at a time: on the flat
1M-node graph its one look-up of every name (and the set of them) held the GIL ~340 ms on
the open thread before the first picture, the GUI thread waiting for it."""

from __future__ import annotations

from inspector.core.loaders import load
from inspector.core.view import grouping
from tests.fixtures.scale_models import flat_graph


class _Slices(list):
    """A list that records the length of each slice taken of it."""

    def __init__(self, items, taken):
        super().__init__(items)
        self.taken = taken

    def __getitem__(self, key):
        got = super().__getitem__(key)
        if isinstance(key, slice):
            self.taken.append(len(got))
        return got

    def __iter__(self):                 # a whole pass over the names: one C call
        self.taken.append(len(self))
        return super().__iter__()


def test_a_flat_roots_dataflow_order_looks_names_up_a_piece_at_a_time(monkeypatch):
    graph = load(flat_graph(1000)).graph
    names = list(graph.name_list)
    whole = grouping.dataflow_order(graph, names)
    taken: list = []
    monkeypatch.setattr(grouping, "PIECE", 7, raising=False)
    pieced = grouping.dataflow_order(graph, _Slices(names, taken))
    assert pieced == whole and sorted(whole) == sorted(names)
    assert taken and max(taken) <= 7 and sum(taken) == len(names)
