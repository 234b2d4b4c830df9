"""A big graph's scope statistics count op mixes when first asked for, the children of one
parent at a time (scope_stats._Families): the hierarchy counted every scope's mix before the
first picture (~55 ms of the 300k-node graph's, which draws 300 of its 60k scopes). Same
statistics, asked in any order (the loop's answers are the oracle)."""

from __future__ import annotations

import random

import pytest

from inspector.core.loaders import load
from inspector.core.view import hierarchy as hierarchy_module, view_columns
from inspector.core.view.grouping import Groups
from inspector.core.view.hierarchy import build_hierarchy
from inspector.core.view.view_graph import ViewModel
from tests.fixtures.scale_models import blocks_graph, flat_graph


def test_the_first_picture_counts_the_mixes_of_the_scopes_it_draws_only():
    graph = load(blocks_graph(20_000)).graph
    view = ViewModel(graph)
    stats = view.hierarchy.stats
    families = stats._families
    assert families.counted == 0        # none before a picture asks
    scene = view.scene()
    drawn = [item for item in scene.items.values() if item.kind == "scope"]
    assert len(drawn) >= 10
    assert families.counted <= 2        # the root's children (and the root)
    assert sum(s is not None for s in families.summary) <= len(drawn) + 1
    assert len(stats) > 10 * len(drawn)


@pytest.mark.parametrize("case", ["blocks", "flat"])
def test_mixes_asked_in_any_order_are_the_loops(monkeypatch, case):
    graph = load(blocks_graph(6000, 1) if case == "blocks" else flat_graph(6000, 1)).graph
    for fold in (True, False):
        h = build_hierarchy(graph, fold)
        folded = set(h.folded)
        readers = view_columns.fold(graph, h.consts)[1]
        root = Groups(graph, graph.scope_tree(), folded).root
        with monkeypatch.context() as m:
            m.setattr(view_columns, "NUMPY_FROM", 10 ** 9)
            looped = hierarchy_module.scope_statistics(graph, root, folded, readers)
        paths = list(looped)
        random.Random(7).shuffle(paths)       # deep scopes first, siblings apart
        asked = h.stats
        assert asked._families.counted == 0
        assert {p: asked[p] for p in paths} == looped
        assert list(asked.items()) == list(looped.items())
        assert any(s.alike > 1 for s in looped.values())
